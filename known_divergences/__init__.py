"""Known-divergence files, shipped in the wheel as conformance.data.known_divergences."""
