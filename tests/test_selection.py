"""``--select`` and ``--shard``, parsed in one place for the CLI and the pytest plugin."""

from __future__ import annotations

import pytest

from conformance.corpus.assembly import load_corpus
from conformance.corpus.selection import in_shard, parse_shard, select


@pytest.mark.parametrize("text", ["0/3", "4/3", "1", "a/b", "1/0", "-1/2", ""])
def test_a_malformed_shard_says_what_is_expected(text):
    with pytest.raises(ValueError, match=r"--shard expects K/N with 1 <= K <= N"):
        parse_shard(text)


def test_the_shards_of_a_corpus_partition_it_evenly():
    ids = [f"c{i}" for i in range(10)]
    shards = [in_shard(ids, (k, 3)) for k in (1, 2, 3)]
    assert set().union(*shards) == set(ids)
    assert sum(len(s) for s in shards) == len(ids)
    assert sorted(len(s) for s in shards) == [3, 3, 4]


def test_a_case_seen_twice_stays_in_one_shard():
    ids = ["a", "b", "a", "c", "b"]  # one item per backend
    assert in_shard(ids, (1, 2)) == {"a", "c"}
    assert in_shard(ids, (2, 2)) == {"b"}


def test_select_takes_comma_separated_globs():
    cases = load_corpus("hand", 0, 0, None)
    picked = select(cases, "seeds/*,retain-graph/*")
    assert picked and all(c.id.startswith(("seeds/", "retain-graph/")) for c in picked)
    assert select(cases, None) == cases
    assert select(cases, "no-such-case") == []
