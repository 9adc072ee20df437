"""``paddle.io``: in-memory datasets, samplers and ``DataLoader`` with paddle's signatures over
the shared ones of ``reference_engine.data``."""

from __future__ import annotations

import math
from typing import Any, Iterator, Optional, Sequence

import numpy as np

from reference_engine import data as shared
from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import Tensor, stack
from reference_engine.paddle.extras import randperm

__all__ = ["BatchSampler", "DataLoader", "Dataset", "DistributedBatchSampler", "IterableDataset",
           "RandomSampler", "Sampler",
           "SequenceSampler", "Subset", "SubsetRandomSampler", "TensorDataset", "random_split"]

Dataset, IterableDataset, Subset = shared.Dataset, shared.IterableDataset, shared.Subset
BatchSampler, SequenceSampler = shared.BatchSampler, shared.SequenceSampler
RandomSampler, Sampler = shared.RandomSampler, shared.Sampler
random_split = shared.random_split


class TensorDataset(shared.TensorDataset):
    """paddle's ``TensorDataset(tensors)``: the tensors as one list."""

    def __init__(self, tensors: Sequence[Any]) -> None:
        super().__init__(*tensors)


class SubsetRandomSampler(shared.Sampler):
    """``indices`` in the order of paddle's ``randperm`` (its seeded generator)."""

    def __init__(self, indices: Sequence[int]) -> None:
        if len(indices) == 0:
            raise ValueError("The length of `indices` in SubsetRandomSampler should be greater than 0.")
        self.indices = indices

    def __iter__(self) -> Iterator[int]:
        return iter([self.indices[i] for i in randperm(len(self.indices)).tolist()])

    def __len__(self) -> int:
        return len(self.indices)


class DistributedBatchSampler(shared.BatchSampler):
    """Batches of one replica's share of the dataset (``rank`` of ``num_replicas``; by default
    the only one, which gets all of it), padded to equal shares. With ``shuffle``, each pass
    shuffles the indices with numpy's ``RandomState(epoch)`` and counts the epoch on, as paddle's
    sampler does (``set_epoch`` sets it)."""

    def __init__(self, dataset: Any, batch_size: int, num_replicas: Optional[int] = None,
                 rank: Optional[int] = None, shuffle: bool = False, drop_last: bool = False) -> None:
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise AssertionError("batch_size should be a positive integer")
        self.dataset, self.batch_size, self.shuffle, self.drop_last = dataset, batch_size, shuffle, drop_last
        self.nranks = num_replicas or 1
        self.local_rank = rank or 0
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def __iter__(self) -> Iterator[list[int]]:
        indices = list(range(len(self.dataset)))
        padding = self.total_size - len(indices)
        indices += (indices * math.ceil(padding / max(len(indices), 1)))[:padding]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        yield from shared.batched(self._share(indices) if self.nranks > 1 else indices,
                                  self.batch_size, self.drop_last)

    def _share(self, indices: list[int]) -> list[int]:
        """This rank's indices: its batch of every round of ``nranks`` batches, then its part of
        the last, shorter round."""
        last = self.total_size % (self.batch_size * self.nranks)
        share: list[int] = []
        for start in range(self.local_rank * self.batch_size, len(indices) - last,
                           self.batch_size * self.nranks):
            share.extend(indices[start:start + self.batch_size])
        tail, part = indices[len(indices) - last:], last // self.nranks
        return share + tail[self.local_rank * part:(self.local_rank + 1) * part]

    def __len__(self) -> int:
        return (self.num_samples + int(not self.drop_last) * (self.batch_size - 1)) // self.batch_size

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch


def _collate(batch: list[Any]) -> Any:
    """(The numbers' tensor is made outside any graph: no accumulation node, as paddle's.)"""
    return shared.collate(batch, Tensor._from_array, stack, Tensor)


class DataLoader(shared.DataLoader):
    collate_tensors = staticmethod(_collate)

    def __init__(self, dataset: Any, feed_list: Any = None, places: Any = None, return_list: bool = True,
                 batch_sampler: Any = None, batch_size: Optional[int] = 1, shuffle: bool = False,
                 drop_last: bool = False, collate_fn: Any = None, num_workers: int = 0,
                 **options: Any) -> None:
        super().__init__(dataset, batch_size=batch_size, shuffle=shuffle, batch_sampler=batch_sampler,
                         collate_fn=collate_fn, drop_last=drop_last)

    def __call__(self) -> Any:
        """``loader()``: the same iteration as ``iter(loader)`` (paddle's older spelling)."""
        return iter(self)


__getattr__ = module_getattr("paddle.io")
