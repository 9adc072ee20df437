"""Real autograd programs from the field, kept as programs: each file under ``torch/`` and
``paddle/`` is a standalone script that imports the framework and prints what it computed.

``tests/test_field_programs.py`` runs each one under the real framework and, unchanged, under
the reference engine (``python -m reference_engine.standin``), each in a process of its own, and
requires the same printout. Each file's docstring cites where the program comes from and says
what was changed to make it small and deterministic (random draws become fixed values).
"""
