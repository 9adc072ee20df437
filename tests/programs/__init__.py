"""Differential programs: autograd programs written once against a framework-shaped module.

``tests/programs/torch/`` holds the programs written against torch and ``tests/programs/paddle/``
those written against paddle, one theme per module (``seeds.py``, ``retain_graph.py``,
``in_place.py``, ...). Each program takes the module it runs on and returns its observations;
``tests/test_differential.py`` runs every program under the real framework and under the
reference engine's facade for it and requires the same observations.

Add a program to the theme it pins, decorated with the theme module's ``program``; the registry
(``tests/programs/registry.py``) finds it, and refuses a second program of the same name.
"""
