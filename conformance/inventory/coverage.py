"""``docs/api-coverage.md``: the inventory's APIs per framework and namespace, with the counts
of use, each API's status and the checks that run it."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from conformance.inventory.status import IN_SCOPE, STATUSES, ApiStatus, checked_apis, classify

WIDELY_USED = 2  # an API counts as widely used from this many bodies on
_METHOD_OWNERS = {"torch.Tensor", "torch.nn.Module", "torch.optim.Optimizer", "paddle.Tensor",
                  "paddle.nn.Layer", "paddle.optimizer.Optimizer"}


@dataclass(frozen=True)
class Row:
    api: str
    bodies: int
    uses: int
    status: ApiStatus
    counterpart: str = ""


def namespace(api: str) -> str:
    """The namespace an API is listed under: its owner class for methods, else its module path
    (``torch.nn.functional``), the framework's top level for ``torch.cat``."""
    owner = api.rsplit(".", 1)[0]
    for candidate in sorted(_METHOD_OWNERS, key=len, reverse=True):
        if api.startswith(candidate + "."):
            return candidate
    parts = owner.split(".")
    return ".".join(parts[:3]) if len(parts) > 1 else parts[0]


def rows(inventory: dict[str, Any], framework: str, repository_root: Path) -> list[Row]:
    checks = checked_apis(framework, repository_root)
    absent = set(inventory["absent"][framework])
    mapping = inventory["mapping"]["torch_to_paddle"] if framework == "torch" else {}
    out = []
    for api, uses in inventory["apis"][framework].items():
        status = classify(framework, api, absent, tuple(sorted(checks.get(api, ()))))
        out.append(Row(api, len(uses), sum(uses.values()), status, mapping.get(api, "")))
    return sorted(out, key=lambda r: (-r.bodies, -r.uses, r.api))


@dataclass(frozen=True)
class Figures:
    """The goal's figures for one framework: of the in-scope APIs used by at least
    ``WIDELY_USED`` bodies, how many the facade has and how many of those a check runs."""

    widely_used: int
    in_scope: int
    provided: int
    checked: int
    by_status: dict[str, int]


def figures(table: Iterable[Row]) -> Figures:
    wide = [r for r in table if r.bodies >= WIDELY_USED]
    by_status = Counter(r.status.status for r in wide)
    provided = [r for r in wide if r.status.status in ("modelled", "composed")]
    return Figures(len(wide), sum(by_status[s] for s in IN_SCOPE), len(provided),
                   sum(1 for r in provided if r.status.checks), dict(by_status))


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _status_cell(row: Row) -> str:
    status = row.status
    if status.status == "out of scope":
        return f"out of scope: {status.reason}"
    if status.status == "refused" and status.reason.startswith("not refused by name"):
        return "refused (" + status.reason + ")"
    return status.status


def render(inventory: dict[str, Any], tables: dict[str, list[Row]]) -> str:
    lines = [
        "# API coverage",
        "",
        "Which torch and paddle APIs real code calls, and what `reference_engine.torch` and",
        "`reference_engine.paddle` do with each. Written by `autograd-oracle inventory report`",
        "from the inventory (`conformance/inventory/inventory.json`, made by `autograd-oracle",
        "inventory scan`); `tests/test_api_inventory.py` keeps this page current. Do not edit it by hand.",
        "",
        "## The bodies of code",
        "",
        "Counted by reading the source, never running it (`conformance/inventory/scan.py` says",
        "how): qualified names rooted at an import of the framework, and attribute names of its",
        "tensor, module and optimizer classes read on anything else. Names Python's own `str`,",
        "`list`, `dict` and `set` also have (`split`, `add`, `copy`) are not counted as methods;",
        "other names shared with numpy arrays (`shape`, `sum`) are.",
        "",
        "| body | commit | what | files using torch | files using paddle |",
        "|---|---|---|---:|---:|",
    ]
    for body in inventory["bodies"]:
        files = body["files"]
        where = body["repository"] + ("/" + ",".join(body["folders"]) if body["folders"] else "")
        lines.append(f"| {where} | {body['commit'][:10]} | {body['what']} | {files.get('torch', '')} "
                     f"| {files.get('paddle', '')} |")
    mapping = inventory["mapping"]
    lines += ["", f"The paddle counterparts of torch APIs come from {mapping['repository']}'s mapping "
              f"(commit {mapping['commit'][:10]}). Frameworks: "
              + ", ".join(f"{f} {v}" for f, v in inventory["versions"].items()) + ".", "",
              "## Summary", "",
              f"APIs used by at least {WIDELY_USED} bodies, by status. *Provided* is modelled or composed; "
              "*checked* is provided with an automatic check that runs it against the framework "
              "(differential programs, field programs, the op registry's generated cases).", "",
              "| framework | APIs seen | used by ≥ 2 bodies | out of scope | absent | in scope | provided | "
              "refused | provided / in scope | checked / provided |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for framework, table in tables.items():
        fig = figures(table)
        lines.append(
            f"| {framework} | {len(table)} | {fig.widely_used} | {fig.by_status.get('out of scope', 0)} | "
            f"{fig.by_status.get('absent', 0)} | {fig.in_scope} | {fig.provided} | "
            f"{fig.by_status.get('refused', 0)} | {_percent(fig.provided, fig.in_scope)} | "
            f"{_percent(fig.checked, fig.provided)} |")
    for framework, table in tables.items():
        lines += ["", f"## {framework}", ""]
        by_namespace: dict[str, list[Row]] = defaultdict(list)
        for row in table:
            by_namespace[namespace(row.api)].append(row)
        lines += [f"{len(by_namespace)} namespaces. Each lists its APIs used by at least {WIDELY_USED} "
                  "bodies in full, and counts the rest by status, naming the ones it lacks.", ""]
        for name in sorted(by_namespace, key=lambda n: (-sum(r.uses for r in by_namespace[n]), n)):
            lines += _namespace_section(name, by_namespace[name], framework == "torch")
    return "\n".join(lines).rstrip() + "\n"


def _namespace_section(name: str, table: list[Row], with_counterpart: bool) -> list[str]:
    wide = [r for r in table if r.bodies >= WIDELY_USED]
    rest = [r for r in table if r.bodies < WIDELY_USED]
    counts = Counter(r.status.status for r in table)
    summary = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
    lines = [f"### `{name}`", "", f"{len(table)} APIs ({summary}).", ""]
    if wide:
        header = "| API | bodies | uses | status | checks |" + (" paddle |" if with_counterpart else "")
        lines += [header, "|---|---:|---:|---|---|" + ("---|" if with_counterpart else "")]
        for r in wide:
            line = (f"| `{r.api}` | {r.bodies} | {r.uses} | {_cell(_status_cell(r))} | "
                    f"{', '.join(r.status.checks)} |")
            if with_counterpart:
                line += f" {'`' + r.counterpart + '`' if r.counterpart else ''} |"
            lines.append(line)
        lines.append("")
    lacking = [r.api for r in rest if r.status.status == "refused"]
    if lacking:
        lines += [f"Used by one body and not provided: {', '.join(f'`{a}`' for a in lacking)}.", ""]
    return lines


def report(inventory: dict[str, Any], repository_root: Path) -> str:
    return render(inventory, {f: rows(inventory, f, repository_root) for f in inventory["apis"]})
