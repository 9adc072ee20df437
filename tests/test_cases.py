"""The case format: hand-written cases load, malformed input gets one clear message, the
generator is deterministic and covers every feature bucket."""

from __future__ import annotations

import copy
import json
import threading

import pytest

from conformance.corpus import generator
from conformance.corpus import vocabulary as V
from conformance.corpus.assembly import corpus_entries, load_corpus
from conformance.corpus.case import walk
from conformance.corpus.case_schema import schema_text
from conformance.corpus.coverage import bucket_counts
from conformance.corpus.generator import (
    VERSIONS,
    case_id,
    corpus_bytes,
    corpus_sha256,
    generate,
    generate_case,
    generate_indices,
    generated_cases,
    generated_corpus,
)
from conformance.corpus.loader import CaseError, hand_written_dir, load_directory, load_file, parse_document
from conformance.corpus.step_kinds import STEPS_BY_KEY
from conformance.run.step_actions import ACTIONS

CASES_DIR = hand_written_dir()


@pytest.fixture(scope="module")
def hand_written():
    return load_directory(CASES_DIR)


@pytest.fixture(scope="module")
def generated():
    return generate(0, 10000)


def test_every_hand_written_case_loads_with_a_one_line_about(hand_written):
    assert len(hand_written) >= 150
    assert all(c.about.strip() and "\n" not in c.about for c in hand_written)


def test_hand_written_files_follow_the_json_schema():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    schema = json.loads((CASES_DIR / "schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(CASES_DIR.glob("*.json")):
        if path.name in ("schema.json", "manifest.json"):
            continue
        errors = list(validator.iter_errors(json.loads(path.read_text())))
        assert not errors, f"{path.name}: {errors[0].message}"


def test_the_schema_file_is_generated_from_the_step_kinds():
    assert (CASES_DIR / "schema.json").read_text() == schema_text(), \
        "regenerate it: python -m conformance.corpus.case_schema cases/schema.json"


def test_every_step_kind_has_one_action():
    assert set(ACTIONS) == set(STEPS_BY_KEY)
    assert all(ACTIONS[key].key == key for key in ACTIONS)


def test_schema_names_the_vocabulary():
    schema = json.loads((CASES_DIR / "schema.json").read_text())
    steps = {s["title"]: s for s in schema["$defs"]["step"]["oneOf"]}
    assert set(steps) == set(STEPS_BY_KEY)
    assert set(steps["let"]["properties"]["op"]["enum"]) == set(V.OPS)
    assert set(steps["inplace"]["properties"]["op"]["enum"]) == set(V.IN_PLACE_OPS)


# --- malformed input: one clear message naming file, case, step and field ---------------------

GOOD = {"id": "c1", "about": "a case", "steps": [
    {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
    {"let": "y", "op": "mul", "args": ["x", 2.0]},
    {"let": "s", "op": "sum", "args": ["y"]},
    {"backward": "s"}]}


def _document(*cases):
    return {"format": 1, "cases": list(cases)}


def _broken(mutate):
    case = copy.deepcopy(GOOD)
    mutate(case)
    return case


@pytest.mark.parametrize("mutate, field, step, words", [
    (lambda c: c["steps"][1].update(op="mulx"), "op", "1", "unknown op 'mulx'"),
    (lambda c: c["steps"][2].update(args=["nope"]), "args", "2", "undefined name 'nope'"),
    (lambda c: c["steps"][1].update(let="x"), "let", "1", "re-defined name 'x'"),
    (lambda c: c["steps"][0].update(value=[[1.0, 2.0], [3.0]]), "value", "0", "ragged value"),
    (lambda c: c["steps"][0].update(dtype="float128"), "dtype", "0", "bad dtype 'float128'"),
    (lambda c: c["steps"][0].update(requires_grad="yes"), "requires_grad", "0", "expected boolean"),
    (lambda c: c["steps"][3].update(retain=True), "retain", "3", "unknown key"),
    (lambda c: c.update(colour="red"), "colour", None, "unknown key"),
    (lambda c: c["steps"].append({"launch": "x"}), None, "4", "unknown step kind"),
    (lambda c: c["steps"][1].update(kwargs={"dim": 0}), "kwargs", "1", "unknown keyword 'dim'"),
])
def test_malformed_case_gets_one_clear_message(mutate, field, step, words):
    with pytest.raises(CaseError) as info:
        parse_document(_document(_broken(mutate)), "cases/broken.json")
    message = str(info.value)
    assert message.startswith("cases/broken.json, case 'c1'")
    assert words in message
    if step is not None:
        assert f"step {step}" in message
    if field is not None:
        assert f"field '{field}'" in message


def test_nested_step_is_named_by_its_path():
    case = _broken(lambda c: c["steps"].insert(1, {"no_grad": [{"let": "z", "op": "exp",
                                                                 "args": ["missing"]}]}))
    with pytest.raises(CaseError, match=r"step 1\.0, field 'args': undefined name 'missing'"):
        parse_document(_document(case), "f.json")


def test_duplicate_case_ids_across_files(tmp_path):
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(_document(GOOD)))
    with pytest.raises(CaseError, match=r"b\.json, case 'c1', field 'id': duplicate case id "
                                        r"\(also in .*a\.json\)"):
        load_directory(tmp_path)


def test_invalid_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": 1,\n "cases": [}')
    with pytest.raises(CaseError, match=r"bad\.json: not valid JSON: .* at line 2"):
        load_file(path)


def test_case_data_is_never_executed():
    hostile = _broken(lambda c: c["steps"][1].update(op="__import__('os').system('false')"))
    with pytest.raises(CaseError, match="unknown op"):
        parse_document(_document(hostile), "f.json")


# --- the generator ------------------------------------------------------------------------

def test_generated_corpus_matches_the_committed_manifest(generated):
    manifest = json.loads((CASES_DIR / "manifest.json").read_text())
    assert manifest["count"] == len(generated)
    assert corpus_sha256(generated) == manifest["sha256"]


def test_version_1_is_retired():
    assert 1 not in VERSIONS


def test_version_2_stays_its_corpus_byte_for_byte():
    """The default corpus before version 3, as its manifest pinned it."""
    second = generate(0, 10000, version=2)
    assert corpus_sha256(second) == "f8f4cddb923350138126db6467bf3c03f6e2c89c17b9eb8f4f1e1f9db17d01cf"


def test_version_3_is_version_2_where_it_added_nothing():
    second, third = generate(0, 400, version=2), generate(0, 400, version=3)
    added = ("function", "node_hook", "post_accumulate_hook", "inference_mode",
             "saved_tensors_hooks", "optimizer", "functional", "module")
    def extends(step: dict) -> bool:
        return any(k in step for k in added) or "constructor" in step or \
            step.get("op") in ("mm", "prod", "split", "unbind") or step.get("observe") == "equal" or \
            (step.get("inplace") and step["op"] == "exp")
    extended = [c for c in third if any(extends(s) for _, s, _ in walk(c["steps"]))]
    # 1 in 8, 1 in 12 thrice, plain float64 programs, matrix and element products, pieces,
    # equal observations
    assert 150 <= len(extended) <= 320
    for old, new in zip(second, third):
        if new not in extended:
            assert new == {**old, "id": old["id"].replace("gen2/", "gen3/", 1)}


def test_version_3_stays_its_corpus_byte_for_byte():
    """The default corpus before version 4, as its manifest pinned it."""
    third = generate(0, 10000, version=3)
    assert corpus_sha256(third) == "f652fb67db2723e798f187c67bec5bae89ec5d8c2d8a284a5e0a321b90b29066"


def test_version_4_is_version_3_with_a_pairs_section_in_every_other_case():
    third, fourth = generate(0, 300, version=3), generate(0, 300, version=4)
    extended = 0
    for index, (old, new) in enumerate(zip(third, fourth)):
        assert new["id"] == old["id"].replace("gen3/", "gen4/", 1)
        if new["steps"] == old["steps"]:
            assert new == {**old, "id": new["id"]}
            continue
        extended += 1
        assert index % 2 == 1 and new["steps"][:len(old["steps"])] == old["steps"]
        assert set(new.get("dialects", ("torch", "paddle"))) <= set(old.get("dialects", ("torch", "paddle")))
    assert extended >= 145  # a section in every odd case, but where the dialects left none


def test_generation_is_deterministic_and_sliceable():
    assert corpus_bytes(generate(7, 50)) == corpus_bytes(generate(7, 50))
    assert generate(7, 50)[31] == generate_case(7, 31) == generate(7, 10, start=31)[0]
    assert corpus_bytes(generate(7, 50)) != corpus_bytes(generate(8, 50))


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_a_case_id_is_known_without_making_the_case(version):
    for seed in (0, 11):
        assert [case_id(seed, i, version) for i in range(120)] == \
            [c["id"] for c in generate(seed, 120, version=version)]


def test_corpus_entries_list_generated_cases_by_id_and_make_each_where_it_is_asked_for():
    seed = 9173  # a corpus no other test of this process makes
    entries = corpus_entries("all", seed, 40, None)
    made = generated_cases(seed).made
    assert not made  # listing made nothing
    cases = load_corpus("all", seed, 40, None)
    assert [e.id for e in entries] == [c.id for c in cases]
    assert entries[-3].case.raw == cases[-3].raw and entries[-3].case.source == cases[-3].source
    assert entries[0].case is entries[0].case  # hand-written: the loaded case itself


def test_the_whole_corpus_after_some_cases_were_made_is_the_generated_one():
    corpus = generated_cases(9174, 3)
    early = [corpus.case(i) for i in (3, 17)]
    assert generated_corpus(9174, 25, 3) == tuple(generate(9174, 25, version=3))
    assert generated_corpus(9174, 25, 3)[17] is early[1]  # made once


def test_every_generated_case_is_well_formed(generated):
    cases = parse_document({"format": 1, "cases": generated}, "<generated>")
    assert len({c.id for c in cases}) == len(generated)


def test_every_bucket_is_covered_in_both_dialects(hand_written):
    """Hand-written cases and the default generator, which reaches every bucket."""
    matrix = generate(0, 10000)
    cases = hand_written + parse_document({"format": 1, "cases": matrix}, "<generated>")
    counts = bucket_counts(cases)
    thin = {(b, d): n for b, per in counts.items() for d, n in per.items()
            if n < 100 and b not in V.UNAVAILABLE_BUCKETS[d]}
    assert not thin, f"buckets under 100 cases: {thin}"


def test_cli_generate_writes_the_manifest(tmp_path):
    from conformance.cli import main

    assert main(["generate", "--seed", "0", "--count", "20", "--manifest",
                 str(tmp_path / "m.json")]) == 0
    manifest = json.loads((tmp_path / "m.json").read_text())
    assert manifest["sha256"] == corpus_sha256(generate(0, 20))


def test_coverage_command_prints_every_bucket(capsys):
    from conformance.cli import main

    assert main(["coverage", "--corpus", "hand"]) == 0
    out = capsys.readouterr().out
    assert all(bucket in out for bucket in V.BUCKETS)


def _with_function(**changes):
    """GOOD with a custom square defined as step 1 and applied to x as step 2."""
    function = {"function": "Square", "inputs": ["a"],
                "forward": [{"let": "o", "op": "mul", "args": ["a", "a"]}], "output": "o",
                "save": ["a"], "output_grad": "g",
                "derivative": [{"let": "ga", "op": "mul", "args": ["g", "a"]}],
                "input_grads": ["ga"], **changes}
    case = copy.deepcopy(GOOD)
    case["steps"][1:1] = [function, {"apply": "Square", "args": ["x"], "into": "q"}]
    return case


def test_a_custom_function_step_is_well_formed():
    assert [c.id for c in parse_document(_document(_with_function()), "f.json")] == ["c1"]


@pytest.mark.parametrize("changes, where", [
    # a body sees only its own names: x is the program's, not the forward's
    ({"forward": [{"let": "o", "op": "mul", "args": ["a", "x"]}]},
     r"step 1\.forward\.0, field 'args': undefined name 'x'"),
    ({"output": "nothing"}, r"step 1, field 'output': undefined name 'nothing'"),
    ({"save": ["o", "zz"]}, r"step 1, field 'save': undefined name 'zz'"),
    # the backward sees the saved names and the output's gradient, not the forward's others
    ({"derivative": [{"let": "ga", "op": "mul", "args": ["g", "o"]}]},
     r"step 1\.derivative\.0, field 'args': undefined name 'o'"),
    ({"input_grads": ["ga", "gb"]}, r"step 1, field 'input_grads': undefined name 'gb'"),
    ({"input_grads": "ga"}, r"step 1, field 'input_grads': expected list of names or nulls"),
    ({"output_grad": "a"}, r"step 1, field 'output_grad': re-defined name 'a'"),
    # several outputs: one gradient name per output, both lists
    ({"output": ["o", "a"]}, r"step 1, field 'output_grad': one gradient name per output: "
                             r"2 output\(s\), 1 gradient name"),
    ({"output": ["o"], "output_grad": "g"}, r"step 1, field 'output_grad': .* both names or both"),
])
def test_a_malformed_custom_function_names_its_body_and_field(changes, where):
    with pytest.raises(CaseError, match=where):
        parse_document(_document(_with_function(**changes)), "f.json")


def test_apply_takes_a_function_and_a_function_is_no_tensor():
    case = _with_function()
    case["steps"][2]["apply"] = "x"
    with pytest.raises(CaseError, match=r"step 2, field 'apply': 'x' is not a function"):
        parse_document(_document(case), "f.json")
    case = _with_function()
    case["steps"][3]["args"] = ["Square", 2.0]
    with pytest.raises(CaseError, match=r"step 3, field 'args': 'Square' is a function, not a tensor"):
        parse_document(_document(case), "f.json")


def test_apply_binds_one_name_per_output():
    case = _with_function(output=["o", "a"], output_grad=["g", "h"])
    with pytest.raises(CaseError, match=r"step 2, field 'into': 'Square' returns 2 outputs: "
                                        r"'into' lists 2 names"):
        parse_document(_document(case), "f.json")
    case["steps"][2]["into"] = ["q", "q2"]
    assert [c.id for c in parse_document(_document(case), "f.json")] == ["c1"]


def test_a_node_hook_kind_is_pre_or_post():
    case = copy.deepcopy(GOOD)
    case["steps"].insert(2, {"node_hook": "y", "kind": "middle"})
    with pytest.raises(CaseError, match=r"step 2, field 'kind': unknown node hook kind 'middle'"):
        parse_document(_document(case), "f.json")


def _refused_after_good(extra, where):
    """GOOD with ``extra`` steps appended fails to load with a message matching ``where``."""
    case = copy.deepcopy(GOOD)
    case["steps"] += extra
    with pytest.raises(CaseError, match=where):
        parse_document(_document(case), "f.json")


@pytest.mark.parametrize("extra, where", [
    ([{"optimizer": "opt", "kind": "rmsprop", "params": ["x"], "lr": 0.1}],
     r"step 4, field 'kind': unknown optimizer 'rmsprop'"),
    ([{"optimizer_step": "x"}], r"step 4, field 'optimizer_step': 'x' is not an optimizer"),
    ([{"optimizer": "opt", "kind": "sgd", "params": ["x"], "lr": 0.1},
      {"let": "z", "op": "mul", "args": ["opt", 2.0]}],
     r"step 5, field 'args': 'opt' is an optimizer, not a tensor"),
    ([{"optimizer": "opt", "kind": "sgd", "params": ["x"], "lr": 0.1},
      {"zero_grad": "opt", "to": "nan"}], r"step 5, field 'to'"),
])
def test_optimizer_steps_name_what_is_wrong(extra, where):
    _refused_after_good(extra, where)


@pytest.mark.parametrize("extra, where", [
    ([{"def": "f", "inputs": ["a"], "body": [{"let": "o", "op": "mul", "args": ["a", "x"]}],
       "output": "o"}], r"step 4\.body\.0, field 'args': undefined name 'x'"),
    ([{"functional": "jacobian", "of": "x", "at": ["x"]}],
     r"step 4, field 'of': 'x' is not a function defined by a def step"),
    ([{"def": "f", "inputs": ["a"], "body": [{"let": "o", "op": "exp", "args": ["a"]}],
       "output": "o"}, {"functional": "divergence", "of": "f", "at": ["x"]}],
     r"step 5, field 'functional': unknown functional API 'divergence'"),
])
def test_def_and_functional_steps_name_what_is_wrong(extra, where):
    _refused_after_good(extra, where)


LINEAR = {"module": "net", "kind": "linear", "weight": [[0.5, -1.0], [1.5, 0.25]],
          "bias": [0.1, 0.2], "params": ["w", "b"]}


@pytest.mark.parametrize("extra, where", [
    ([{**LINEAR, "kind": "conv"}], r"step 4, field 'kind': unknown module 'conv'"),
    ([{**LINEAR, "weight": [0.5, -1.0]}], r"step 4, field 'weight': a Linear weight"),
    ([{**LINEAR, "bias": [0.1]}], r"step 4, field 'bias': a Linear bias is a list of "
                                  r"out_features \(2\)"),
    ([{**LINEAR, "params": ["w"]}], r"step 4, field 'params': this Linear has 2 parameter"),
    ([LINEAR, {"let": "z", "op": "mul", "args": ["net", 2.0]}],
     r"step 5, field 'args': 'net' is a module, not a tensor"),
    ([{"call": "x", "args": ["x"], "into": "z"}],
     r"step 4, field 'call': 'x' is not a module defined by an earlier step"),
    ([{"optimizer": "opt", "kind": "sgd", "params": ["x"], "lr": 0.1, "momentum": 0.9}],
     r"step 4, field 'momentum': only a 'momentum' optimizer takes a momentum"),
])
def test_module_steps_name_what_is_wrong(extra, where):
    _refused_after_good(extra, where)


def test_a_module_is_called_and_cleared_by_name():
    case = copy.deepcopy(GOOD)
    case["steps"] += [LINEAR, {"leaf": "u", "value": [[1.0, 2.0]]},
                      {"call": "net", "args": ["u"], "into": "y2"}, {"zero_grad": "net"},
                      {"observe": "grad", "of": "w"}]
    (parsed,) = parse_document(_document(case), "f.json")
    assert [s.get("into") for s in parsed.steps if "call" in s] == ["y2"]


def test_cases_made_over_the_cores_from_a_thread_are_the_generated_ones(monkeypatch):
    """A run's own process makes its reports' corpus in a thread, where helpers are started
    afresh rather than forked."""
    monkeypatch.setattr(generator, "CHUNK", 4)
    made: list = []
    indices = [*range(3, 9), *range(1200, 1206)]
    thread = threading.Thread(target=lambda: made.extend(generate_indices(4, indices, 4, processes=2)))
    thread.start()
    thread.join()
    assert made == [generate_case(4, i) for i in indices]
