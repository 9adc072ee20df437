"""``paddle.io``: in-memory datasets, samplers and ``DataLoader`` with paddle's signatures over
the shared ones of ``reference_engine.data``."""

from __future__ import annotations

from typing import Any, Iterator, Optional, Sequence

from reference_engine import data as shared
from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import Tensor, stack
from reference_engine.paddle.extras import randperm

__all__ = ["BatchSampler", "DataLoader", "Dataset", "IterableDataset", "RandomSampler", "Sampler",
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
