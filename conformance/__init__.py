"""Runs autograd programs on several backends and compares what they observe."""
