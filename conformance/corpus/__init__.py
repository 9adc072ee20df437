"""The corpus: the case format and its vocabulary, loading and validating case files, the
deterministic generator and the feature buckets a corpus covers."""
