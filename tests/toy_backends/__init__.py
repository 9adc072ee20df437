"""Deliberately broken torch-shaped modules: the corpus must catch each of them.

Each is ``reference_engine.torch`` with one thing broken. They run in their own backend process
(``torch:tests.toy_backends.NAME``), so the patch never reaches the reference they are compared
with.
"""
