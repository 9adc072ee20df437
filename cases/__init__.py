"""The hand-written corpus, shipped in the wheel as conformance.data.cases (see conformance/data)."""
