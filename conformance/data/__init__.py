"""The data a run reads, found the same way in a checkout and in an installed wheel.

``pyproject.toml`` maps the checkout's folders to subpackages of this one: ``cases/`` (the
hand-written corpus, its schema and the manifest of the generated corpus),
``known_divergences/`` and ``baselines/``. They are located with ``importlib.resources``, never
by a path relative to the repository, so an installed ``autograd-oracle`` runs from any folder.
A checkout that was never installed (a bare clone on a machine where nothing can be installed)
has no such subpackages: there the folders are read where the checkout keeps them.
A user's own ``--cases``, ``--known`` and ``--out`` stay paths relative to where they run.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

# The functions end in ``_dir``: the subpackages they locate become attributes of this module
# once imported, and would hide functions of the same names.


_CHECKOUT = Path(__file__).resolve().parent.parent.parent


def _folder(folder: str) -> Path:
    """The data folder ``folder`` (``cases``): the installed subpackage, else the checkout's."""
    try:
        return Path(str(resources.files(f"conformance.data.{folder}")))
    except ModuleNotFoundError:
        return _CHECKOUT / folder


def hand_written_cases_dir() -> Path:
    """The hand-written case files, ``schema.json`` and ``manifest.json``."""
    return _folder("cases")


def known_divergences_dir() -> Path:
    """The project's known-divergence files, one per backend."""
    return _folder("known_divergences")


def baselines_dir() -> Path:
    """The recorded runs ``diff`` compares against, by name."""
    return _folder("baselines")
