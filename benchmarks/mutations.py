"""Plant one fault at a time in the reference engine and see whether the fast tests notice.

    python benchmarks/mutations.py rules [--only exp:0,gelu_backward:0]
    python benchmarks/mutations.py flags [--only TorchPolicy.hooks_record]

``rules`` scales each derivative rule's result by 1.5 (a rule whose derivative is zero cannot be
told apart: sign, floor, round, fill). ``flags`` flips each boolean of the torch and paddle
policies (a flag a dialect never reads on its paths changes nothing). Each mutant runs the
in-process tests — the differential programs and the finite-difference tests — in a fresh
``pytest``, and the script lists the mutants no test failed for. Mutants the corpus alone
catches need a corpus run with the fault planted in the backend processes too; this script does
not plant it there.

The fault is planted by this file itself, loaded as a pytest plugin (``-p mutations``) that reads
``AUTOGRAD_ORACLE_MUTANT``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/test_differential.py", "tests/test_finite_differences.py",
         "tests/test_finite_differences_paddle.py", "tests/test_functional_finite_differences.py",
         "tests/test_engine_unit.py", "tests/test_seed_examples.py"]
VARIABLE = "AUTOGRAD_ORACLE_MUTANT"


def pytest_configure(config: object) -> None:
    """The plugin side: plant the mutant the environment names."""
    mutant = os.environ.get(VARIABLE)
    if not mutant:
        return
    kind, _, what = mutant.partition("=")
    if kind == "rules":
        _scale_rule(*what.rsplit(":", 1))
    else:
        _flip_flag(*what.split("."))


def _scale_rule(op: str, index: str) -> None:
    from reference_engine import ops as F
    from reference_engine import rules as R

    rule = R.RULES[op]
    original = rule.vjps[int(index)]

    def scaled(g, *args, **kwargs):
        out = original(g, *args, **kwargs)
        if isinstance(out, (list, tuple)):
            return [None if o is None else F.mul(o, 1.5) for o in out]
        return None if out is None else F.mul(out, 1.5)

    vjps = list(rule.vjps)
    vjps[int(index)] = scaled
    object.__setattr__(rule, "vjps", tuple(vjps))


def _policy_classes() -> dict[str, type]:
    from reference_engine.dialects.paddle_policy import PaddlePolicy
    from reference_engine.dialects.torch_policy import TorchPolicy

    return {"TorchPolicy": TorchPolicy, "PaddlePolicy": PaddlePolicy}


def _flip_flag(class_name: str, flag: str) -> None:
    cls = _policy_classes()[class_name]
    setattr(cls, flag, not getattr(cls, flag))


def mutants(kind: str) -> list[str]:
    if kind == "rules":
        from reference_engine import rules as R

        return [f"{op}:{i}" for op, rule in R.RULES.items()
                for i, vjp in enumerate(rule.vjps) if vjp is not None]
    return [f"{name}.{flag}" for name, cls in _policy_classes().items()
            for flag in sorted({k for c in cls.__mro__ for k, v in vars(c).items()
                                if isinstance(v, bool) and not k.startswith(("_", "warned"))})]


def caught(kind: str, mutant: str) -> bool:
    env = {**os.environ, VARIABLE: f"{kind}={mutant}",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "benchmarks"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "mutations",
                           "-p", "no:cacheprovider", *TESTS], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    return bool(re.search(r"\d+ (failed|error)", done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["rules", "flags"])
    parser.add_argument("--only", help="comma-separated mutants (default: every one)")
    parser.add_argument("-j", type=int, default=2, help="mutants run side by side")
    args = parser.parse_args()
    chosen = args.only.split(",") if args.only else mutants(args.kind)
    with ThreadPoolExecutor(args.j) as pool:
        results = list(pool.map(lambda m: (m, caught(args.kind, m)), chosen))
    missed = [m for m, hit in results if not hit]
    print(f"{len(results) - len(missed)} of {len(results)} mutants caught")
    for mutant in missed:
        print(f"missed: {mutant}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
