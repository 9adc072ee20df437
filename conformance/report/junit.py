"""``junit.xml``: one testcase per (case, backend), for CI systems that read JUnit.

Every text from a case or a result goes through ``xml_text``: a control character would make the
whole file ill-formed, and a CI system then loses the run.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Optional

from conformance.report.escape import xml_text as _x
from conformance.report.summary import backends_under_test


def write_junit(path: Path, results: list[dict[str, Any]],
                backends: Optional[dict[str, dict[str, Any]]] = None) -> None:
    """One testsuite per backend; ``backends`` (``summary.backends_under_test``) names each
    suite's module and what it is, as properties."""
    backends = backends if backends is not None else backends_under_test(results)
    by_backend: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_backend.setdefault(r["backend"], []).append(r)
    suites = ET.Element("testsuites", name="autograd-oracle")
    for backend, rs in sorted(by_backend.items()):
        failures = sum(r["verdict"] == "fail" for r in rs)
        errors = sum(r["verdict"] in ("crashed", "timeout") for r in rs)
        skipped = sum(r["verdict"] in ("unsupported", "unavailable", "known") for r in rs)
        suite = ET.SubElement(suites, "testsuite", name=_x(backend), tests=str(len(rs)),
                              failures=str(failures), errors=str(errors), skipped=str(skipped),
                              time=f"{sum(r.get('seconds') or 0 for r in rs):.3f}")
        about = backends.get(backend)
        if about is not None:
            properties = ET.SubElement(suite, "properties")
            subject = about.get("subject") or {}
            module = f"{about['dialect']}:{about['module']}" if about.get("module") else ""
            for name, value in (("module", module),
                                ("subject", subject.get("description") or "not loaded"),
                                ("distribution", subject.get("distribution") or ""),
                                ("version", subject.get("version") or "")):
                ET.SubElement(properties, "property", name=name, value=_x(value))
        for r in rs:
            case = ET.SubElement(suite, "testcase", classname=_x(backend),
                                 name=_x(f"{r['case']}[{backend}]"), time=f"{r.get('seconds') or 0:.6f}")
            verdict = r["verdict"]
            if verdict == "fail":
                detail = r["detail"] or ""
                ET.SubElement(case, "failure", message=_x(detail[:200])).text = _x(detail)
            elif verdict in ("crashed", "timeout"):
                ET.SubElement(case, "error", message=verdict).text = _x(r["detail"] or "")
            elif verdict == "known":
                ET.SubElement(case, "skipped", message=_x(f"known divergence: {r.get('known_reason')}"))
            elif verdict in ("unsupported", "unavailable"):
                ET.SubElement(case, "skipped", message=_x(r["detail"] or ""))
    ET.indent(suites)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)
