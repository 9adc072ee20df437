"""Recorded baseline runs, shipped in the wheel as conformance.data.baselines (see conformance/data)."""
