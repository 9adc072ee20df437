"""Runs autograd programs on several backends and compares what they observe.

The package is grouped by job, each layer importing only the ones before it: ``corpus`` (the
case format, reading files a user controls, loading, the generator), ``run`` (backends, the
interpreter, isolated processes, the finite-difference gradient check, repro programs),
``judge`` (comparison, verdicts, known divergences) and ``report``; ``cli`` (with its option
types, ``arguments``), ``pytest_plugin``, ``sweep`` and ``fuzz`` are the jobs on top.
"""
