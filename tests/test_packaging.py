"""The package as users get it: a wheel that carries its corpus and data, installed in a fresh
virtual environment and run from a folder that is not the repository."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli", reason="Python 3.10 reads TOML with tomli, not installed")

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
CODE = ("reference_engine", "conformance")


def test_the_package_list_is_every_package_on_disk_and_the_data_folders():
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for top in CODE
               for p in (ROOT / top).rglob("__init__.py")}
    mapped = set(PYPROJECT["tool"]["setuptools"]["package-dir"])
    assert set(SETUPTOOLS["packages"]) == on_disk | mapped
    for package, folder in SETUPTOOLS["package-dir"].items():
        assert (ROOT / folder / "__init__.py").exists(), package


def test_no_code_reads_data_through_a_path_relative_to_the_repository():
    """Data is found with importlib.resources (``conformance.data``); a path climbing out of the
    package (``Path(__file__).parents[2] / "cases"``) works only in a checkout."""
    climbing = []
    for top in CODE:
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "parents" \
                        and "__file__" in ast.unparse(node):
                    climbing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not climbing


def test_the_metadata_reads_as_users_expect():
    project = PYPROJECT["project"]
    assert project["readme"] == "README.md" and project["license"] == "Apache-2.0"
    assert (ROOT / "LICENSE").read_text().lstrip().startswith("Apache License")
    assert {"torch", "paddle", "all", "test"} <= set(project["optional-dependencies"])
    assert project["requires-python"] and project["classifiers"] and project["urls"]
    # the runner is a pytest plugin run by pytest-xdist: installing the package installs them
    assert {d.split(">")[0] for d in project["dependencies"]} >= {"numpy", "pytest", "pytest-xdist"}
    readme = (ROOT / "README.md").read_text()
    assert '".[all]"' in readme and '".[test]"' in readme


def _clean_env() -> dict[str, str]:
    """This environment without a PYTHONPATH that would show a fresh venv this checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _pip(venv_python: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv_python), "-m", "pip", "install", "-q", "-c",
                           str(ROOT / "constraints.txt"), *args],
                          capture_output=True, text=True, timeout=900, env=_clean_env())


def test_an_installed_wheel_runs_the_main_job_from_any_folder(tmp_path):
    """Build the wheel, install it in a fresh venv with torch (and paddle where it installs),
    and from a temporary folder run the hand-written cases and 200 generated ones, then
    validate, coverage, diff of two runs and --version."""
    dist = tmp_path / "dist"
    # isolated, as pip builds for users: a fresh Python's own setuptools is older than the one
    # pyproject.toml asks for (its licence fields)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                            "-q", "-w", str(dist)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("autograd_oracle-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = _pip(python, str(wheel), "torch")
    if installed.returncode != 0:
        pytest.skip(f"torch could not be installed in a fresh venv: {installed.stderr.strip()[-300:]}")
    backends = ["reference-torch", "torch-cpu"]
    if _pip(python, "paddlepaddle").returncode == 0:
        backends += ["reference-paddle", "paddle-cpu"]

    work = tmp_path / "somewhere"
    work.mkdir()
    env = _clean_env()
    tool = str(venv / "bin" / "autograd-oracle")

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([tool, *argv], cwd=work, env=env, capture_output=True, text=True,
                              timeout=900)

    main = run("run", "--backends", ",".join(backends), "--count", "200")
    assert main.returncode == 0, main.stdout[-2000:] + main.stderr[-2000:]
    summary = json.loads((work / "reports" / "latest" / "summary.json").read_text())
    assert summary["corpus"]["hand_written"]["files"] >= 20 and summary["corpus"]["generated"]["count"] == 200
    for backend in backends:
        counts = summary["counts"][backend]
        assert counts.get("pass", 0) > 300 and not {"fail", "crashed", "timeout"} & set(counts), counts
    # the known-divergence lists ship with the wheel (torch-cuda's has its entry; the
    # reference models every paddle one) and no entry went stale here
    shipped = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "from conformance.judge.known import load; "
                              "print(len(load('torch-cuda').entries), len(load('paddle-cpu').entries))"],
                             cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert shipped.stdout.split() == ["1", "0"], shipped.stderr[-2000:]
    assert summary["stale_known_divergences"] == []

    second = run("run", "--backends", ",".join(backends), "--corpus", "hand", "--out", "second")
    assert second.returncode == 0, second.stderr[-2000:]
    diff = run("diff", "reports/latest", "second")
    assert diff.returncode == 0 and "regressions (pass → fail): 0" in diff.stdout, diff.stdout[-2000:]
    baseline = run("diff", "torch-2.13.0-cpu", "reports/latest")  # a baseline the wheel ships
    assert baseline.returncode in (0, 1) and "# Regression report" in baseline.stdout, baseline.stderr
    (work / "mine.json").write_text(json.dumps({"format": 1, "cases": [{
        "id": "mine/one", "about": "a case of my own",
        "steps": [{"leaf": "x", "value": [1.0, 2.0], "requires_grad": True}]}]}))
    validate = run("validate", "mine.json")
    assert validate.returncode == 0
    assert "1 case files and 0 known-divergence files checked, 0 errors" in validate.stdout
    coverage = run("coverage", "--count", "200")
    assert coverage.returncode == 0 and "seed:implicit-scalar" in coverage.stdout
    version = run("--version")
    assert version.stdout.strip() == f"autograd-oracle {PYPROJECT['project']['version']}"
    assert not (work / "cases").exists()  # nothing of the repository was needed here
