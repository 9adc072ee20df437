"""Judging traces: comparing two of them, the finite-difference oracle, verdicts and the list of
known framework divergences."""
