"""The API inventory: the scanner's counting, the coverage page kept current, and the facades
refusing by name every framework API they lack."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.inventory import build, coverage
from conformance.inventory.scan import MethodOwners, scan_files
from conformance.inventory.status import IN_SCOPE, facade_status, out_of_scope_reason
from reference_engine.framework_names import LISTING

ROOT = Path(__file__).resolve().parents[1]
OWNERS = MethodOwners({"torch.Tensor": frozenset({"backward", "grad", "split", "sum", "apply"}),
                       "torch.nn.Module": frozenset({"parameters", "sum", "apply"})})


def _scan(tmp_path: Path, name: str, text: str) -> dict[str, int]:
    path = tmp_path / name
    path.write_text(text)
    counts, using = scan_files([path], "torch", OWNERS)
    return dict(counts) if using else {}


def test_qualified_names_follow_the_imports(tmp_path):
    program = ("import torch\nimport torch.nn.functional as F\nfrom torch import nn\n"
               "from torch.autograd import grad as g\nimport numpy as np\n"
               "x = torch.randn(3).sum()\nF.relu(x)\nnn.Linear(2, 2)\ng(x, x)\nnp.sum(x)\n"
               "x.backward()\nx.grad\n'a,b'.split(',')\nmodel.parameters()\n"
               "functional = torch.nn.functional\nfunctional.gelu(x)\nx.apply(f)\nself.apply(f)\n")
    assert _scan(tmp_path, "p.py", program) == {
        "torch.randn": 1, "torch.Tensor.sum": 1, "torch.nn.functional.relu": 1, "torch.nn": 1,
        "torch.nn.Linear": 1, "torch.autograd.grad": 2, "torch.Tensor.backward": 1,
        "torch.Tensor.grad": 1, "torch.nn.Module.parameters": 1, "torch.nn.functional": 1,
        "torch.nn.functional.gelu": 1, "torch.Tensor.apply": 1, "torch.nn.Module.apply": 1}


def test_a_file_that_never_names_the_framework_counts_nothing(tmp_path):
    assert _scan(tmp_path, "p.py", "x.backward()\n") == {}


def test_book_blocks_for_another_framework_are_skipped_and_imports_carry_over(tmp_path):
    page = ("```{.python .input}\n#@tab pytorch\nimport torch.nn as tnn\n```\n\n"
            "```{.python .input}\n#@tab paddle\nimport paddle\npaddle.ones(1)\n```\n\n"
            "```{.python .input}\nmxnet_only()\n```\n\n"
            "```{.python .input}\n#@tab all\ntnn.ReLU()\n```\n\n"
            "```python\n!pip install x\n>>> torch.zeros(1)\n```\n")
    assert _scan(tmp_path, "page.md", page) == {"torch.nn.ReLU": 1, "torch.zeros": 1}


def test_rst_blocks_and_notebook_cells_are_read(tmp_path):
    rst = "Text\n\n.. code-block:: python\n\n    import torch\n    torch.cat([])\n\nMore text\n"
    assert _scan(tmp_path, "page.rst", rst) == {"torch.cat": 1}
    notebook = {"cells": [{"cell_type": "code", "source": ["import torch\n", "%matplotlib inline\n"]},
                          {"cell_type": "markdown", "source": "torch.stack"},
                          {"cell_type": "code", "source": "torch.stack([])"}]}
    assert _scan(tmp_path, "n.ipynb", json.dumps(notebook)) == {"torch.stack": 1}


def test_out_of_scope_goes_by_a_prefix():
    assert out_of_scope_reason("torch", "torch.utils.data.distributed.DistributedSampler")
    assert out_of_scope_reason("torch", "torch.utils.data.DataLoader") is None
    assert out_of_scope_reason("torch", "torch.nn.Module.compile")
    assert out_of_scope_reason("torch", "torch.nn.Module.load_state_dict") is None
    assert out_of_scope_reason("paddle", "paddle.nn.Linear") is None


def test_the_coverage_page_is_current():
    """``autograd-oracle inventory report`` rewrites it; run that after changing a facade."""
    page = coverage.report(build.load(), ROOT)
    assert (ROOT / "docs" / "api-coverage.md").read_text() == page


@pytest.mark.parametrize("framework", ["torch", "paddle"])
def test_every_widely_used_api_the_facade_lacks_is_refused_by_name(framework):
    rows = coverage.rows(build.load(), framework, ROOT)
    unnamed = [(r.api, r.status.reason) for r in rows if r.bodies >= coverage.WIDELY_USED
               and r.status.status == "refused" and r.status.reason.startswith("not refused by name")]
    assert unnamed == []
    assert all(r.status.status in (*IN_SCOPE, "out of scope", "absent") for r in rows)


def test_the_framework_names_listing_matches_the_installed_frameworks():
    listing = json.loads(LISTING.read_text())
    names = build.framework_names()
    if names["versions"] != listing["versions"]:
        pytest.skip(f"the listing was written from {listing['versions']}, installed: {names['versions']}")
    assert names == listing


@pytest.mark.parametrize(("framework", "expression"), [
    ("torch", "torch.nn.NoSuchLayer"), ("torch", "torch.tensor([1.0]).no_such_method"),
    ("torch", "torch.no_such_function"), ("torch", "torch.nn.Linear(1, 1).no_such_attribute"),
    ("paddle", "paddle.nn.functional.no_such_function"), ("paddle", "paddle.to_tensor([1.0]).no_such_method"),
])
def test_a_name_the_framework_lacks_gets_the_frameworks_own_error(framework, expression):
    def error(module):
        with pytest.raises(AttributeError) as caught:
            eval(expression, {framework: module})  # noqa: S307 - a fixed expression of this test
        return caught.value

    real = error(pytest.importorskip(framework))
    facade = error(__import__(f"reference_engine.{framework}", fromlist=["_"]))
    assert type(facade) is AttributeError
    assert str(facade).replace("reference_engine.", "").split("'")[-2] == str(real).split("'")[-2]


def test_a_name_the_framework_has_is_refused_naming_it():
    status = facade_status("torch", "torch.nn.CTCLoss")
    assert status.status == "refused"
    assert "does not model torch.nn.CTCLoss" in status.reason


def test_importing_a_facade_imports_no_framework_and_no_ml_dtypes():
    code = ("import sys, reference_engine.torch, reference_engine.paddle\n"
            "print(sorted(m for m in ('torch', 'paddle', 'ml_dtypes') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
