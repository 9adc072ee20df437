"""``cases/schema.json``, generated from the step kinds and the vocabulary.

The schema documents the case format for editors and other tools; the loader stays the
authority (it also checks what a schema cannot: names bound before use and never twice,
rectangular values, operand counts per op). Regenerate the file after changing a step kind or
an op with ``python -m conformance.corpus.case_schema cases/schema.json``; a test keeps the
two equal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from conformance.corpus import field_types as T
from conformance.corpus.step_kinds import STEP_KINDS, StepKind
from conformance.corpus.text import ID_GRAMMAR, ID_MAX_LENGTH, ID_PATTERN
from conformance.corpus.vocabulary import BUCKETS, DIALECTS, DTYPES, EXPECT_KEYS, FORMAT_VERSION

_NAME = {"$ref": "#/$defs/name"}
_NAMES = {"type": "array", "items": _NAME}
_INTEGERS = {"type": "array", "items": {"type": "integer"}}
_SEED = {"oneOf": [
    {"type": "null"}, _NAME,
    {"type": "object", "properties": {"value": {"$ref": "#/$defs/value"}, "dtype": {"enum": list(DTYPES)}},
     "required": ["value"], "additionalProperties": False},
    {"type": "object", "properties": {"scalar": {"type": "number"}}, "required": ["scalar"],
     "additionalProperties": False}]}

# each field type of ``conformance.corpus.field_types`` as a schema
FRAGMENTS: dict[str, dict[str, Any]] = {
    T.NAME: _NAME,
    T.NAMES: _NAMES,
    T.NAMES_OR_NULLS: {"type": "array", "items": {"oneOf": [_NAME, {"type": "null"}]}},
    T.NAME_OR_NAMES: {"oneOf": [_NAME, _NAMES]},
    T.NUMBER: {"type": "number"},
    T.NUMBER_OR_NAME: {"oneOf": [{"type": "number"}, _NAME]},
    T.BOOL: {"type": "boolean"},
    T.BOOL_OR_NULL: {"type": ["boolean", "null"]},
    T.INT: {"type": "integer"},
    T.INTS: _INTEGERS,
    T.DIMS: {"oneOf": [{"type": "null"}, {"type": "integer"}, _INTEGERS]},
    T.TEXT: {"type": "string"},
    T.VALUE: {"$ref": "#/$defs/value"},
    T.SEEDS: {"type": ["array", "null"], "items": _SEED},
    T.INDEX: {"type": "array"},
    T.STEPS: {"type": "array", "items": {"$ref": "#/$defs/step"}, "minItems": 1},
    T.ARGS: {"type": "array", "items": {"oneOf": [_NAME, {"type": "number"}, _NAMES]}},
    T.KWARGS: {"type": "object"},
    T.DTYPE: {"enum": list(DTYPES)},
}


def step_schema(kind: StepKind) -> dict[str, Any]:
    """One step kind as a schema: its fields' types, the values a field allows, the entry's
    stricter fragments."""
    properties = {}
    for name, field_type in kind.fields.items():
        if name in kind.schema:
            properties[name] = dict(kind.schema[name])
        elif name in kind.choices:
            properties[name] = {"enum": list(kind.choices[name])}
        else:
            properties[name] = FRAGMENTS[field_type]
    schema: dict[str, Any] = {"title": kind.key, "type": "object", "properties": properties,
                              "required": list(kind.required), "additionalProperties": False}
    if kind.about:
        schema["description"] = kind.about
    return schema


def case_schema() -> dict[str, Any]:
    """The schema of a case file."""
    case = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "minLength": 1, "maxLength": ID_MAX_LENGTH, "pattern": ID_PATTERN,
                   "description": f"Case ids are {ID_GRAMMAR}. The pattern names the control, "
                                  "space, bidi and invisible characters; the validator also "
                                  "refuses every other character Python does not print "
                                  "(str.isprintable)."},
            "about": {"type": "string", "minLength": 1},
            "dialects": {"type": "array", "items": {"enum": list(DIALECTS)}, "minItems": 1},
            "tags": {"type": "array", "items": {"enum": list(BUCKETS)}},
            "steps": FRAGMENTS[T.STEPS],
            "expect": {"type": "array", "items": {
                "type": "object",
                "properties": {"step": {"type": "integer", "minimum": 0},
                               "dialect": {"enum": list(DIALECTS)},
                               "value": {"$ref": "#/$defs/value"}, "error": {"type": "string"},
                               "none": {"type": "boolean"}},
                "required": ["step"], "additionalProperties": False}},
        },
        "required": ["id", "about", "steps"],
        "additionalProperties": False,
    }
    assert set(case["properties"]["expect"]["items"]["properties"]) == set(EXPECT_KEYS)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://autograd-oracle.invalid/cases/schema.json",
        "title": "autograd-oracle case file",
        "description": "A file of autograd programs stored as data. Generated from "
                       "conformance/corpus/step_kinds.py and conformance/corpus/vocabulary.py "
                       "(the validator in conformance/corpus/loader.py also checks what a schema "
                       "cannot: names bound before use and never twice, rectangular values, "
                       "operand counts per op).",
        "type": "object",
        "properties": {"format": {"const": FORMAT_VERSION}, "about": {"type": "string"},
                       "cases": {"type": "array", "items": {"$ref": "#/$defs/case"}}},
        "required": ["format", "cases"],
        "additionalProperties": False,
        "$defs": {
            "name": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
            "value": {"oneOf": [{"type": "number"}, {"type": "boolean"},
                                {"type": "array", "items": {"$ref": "#/$defs/value"}}]},
            "case": case,
            "step": {"oneOf": [step_schema(kind) for kind in STEP_KINDS]},
        },
    }


def schema_text() -> str:
    """The schema as the file holds it."""
    return json.dumps(case_schema(), indent=1, ensure_ascii=True) + "\n"


if __name__ == "__main__":  # python -m conformance.corpus.case_schema cases/schema.json
    Path(sys.argv[1]).write_text(schema_text())
