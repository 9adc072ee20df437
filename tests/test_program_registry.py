"""The differential programs' registry: names are unique, and every theme module holds programs."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from tests import programs as programs_package
from tests.programs.registry import Registry, programs


def _first(torch):
    return [1]


def test_a_second_program_of_the_same_name_is_refused():
    registry = Registry("torch")
    registry(_first)
    clash = type(_first)(_first.__code__, {}, "_first")
    with pytest.raises(ValueError, match="'_first' is registered twice"):
        registry(clash)
    assert registry["_first"] is _first


@pytest.mark.parametrize("framework", ["torch", "paddle"])
def test_every_theme_module_registers_programs_of_its_framework(framework):
    registered = programs(framework)
    package = importlib.import_module(f"{programs_package.__name__}.{framework}")
    themes = {m.name for m in pkgutil.iter_modules(package.__path__)} - {"common"}
    by_module = {fn.__module__.rsplit(".", 1)[1] for fn in registered.values()}
    assert themes == by_module
    assert all(fn.__module__.startswith(package.__name__) for fn in registered.values())
