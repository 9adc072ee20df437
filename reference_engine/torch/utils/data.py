"""``torch.utils.data``: in-memory datasets, samplers and ``DataLoader`` with torch's
signatures over the shared ones of ``reference_engine.data``."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine import data as shared
from reference_engine.framework_names import module_getattr
from reference_engine.torch._core import Tensor, stack, tensor

__all__ = ["BatchSampler", "DataLoader", "Dataset", "IterableDataset", "RandomSampler", "SequentialSampler",
           "Subset", "TensorDataset", "default_collate", "random_split"]

Dataset, IterableDataset = shared.Dataset, shared.IterableDataset
TensorDataset, Subset = shared.TensorDataset, shared.Subset
random_split = shared.random_split
SequentialSampler = shared.SequenceSampler


class RandomSampler(shared.RandomSampler):
    def __init__(self, data_source: Any, replacement: bool = False, num_samples: Optional[int] = None,
                 generator: Any = None) -> None:
        super().__init__(data_source)


class BatchSampler(shared.BatchSampler):
    """torch's ``BatchSampler(sampler, batch_size, drop_last)``."""

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        super().__init__(sampler=sampler, batch_size=batch_size, drop_last=drop_last)


def default_collate(batch: list[Any]) -> Any:
    return shared.collate(batch, tensor, stack, Tensor)


class DataLoader(shared.DataLoader):
    collate_tensors = staticmethod(default_collate)

    def __init__(self, dataset: Any, batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0, collate_fn: Any = None,
                 pin_memory: bool = False, drop_last: bool = False, **options: Any) -> None:
        super().__init__(dataset, batch_size=batch_size, shuffle=bool(shuffle), sampler=sampler,
                         batch_sampler=batch_sampler, collate_fn=collate_fn, drop_last=drop_last)


__getattr__ = module_getattr("torch.utils.data")
