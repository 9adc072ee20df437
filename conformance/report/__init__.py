"""Reports of a conformance run: summary, JUnit XML, Markdown, HTML, regressions, COMPAT.md."""
