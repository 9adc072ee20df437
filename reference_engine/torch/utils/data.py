"""``torch.utils.data``: in-memory datasets, samplers and ``DataLoader`` with torch's
signatures over the shared ones of ``reference_engine.data``."""

from __future__ import annotations

from typing import Any, Iterator, Optional, Sequence

from reference_engine import data as shared
from reference_engine.framework_names import defining_module, module_getattr
from reference_engine.torch._core import Tensor, float64, stack, tensor
from reference_engine.torch.extras import as_tensor, multinomial
from reference_engine.torch.random import Generator, default_generator, drawing

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset", "RandomSampler",
           "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "default_collate", "random_split"]

Dataset, IterableDataset = shared.Dataset, shared.IterableDataset
TensorDataset, Subset, ConcatDataset = shared.TensorDataset, shared.Subset, shared.ConcatDataset
SequentialSampler, Sampler = shared.SequenceSampler, shared.Sampler


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = default_generator) -> list[Any]:
    """torch's ``random_split``: the order of ``randperm`` on ``generator``."""
    return shared.random_split(dataset, lengths, permutation=drawing(generator).permutation)


class RandomSampler(shared.RandomSampler):
    """torch's sampler: without a generator of its own, it seeds a fresh one from a draw of the
    default generator each time it is iterated, then takes that one's ``randperm``."""

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: Optional[int] = None,
                 generator: Any = None) -> None:
        super().__init__(data_source)
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        generator = self.generator
        if generator is None:
            generator = Generator().manual_seed(default_generator.full_range_int64())
        return iter(generator.permutation(len(self.data_source)).tolist())


class SubsetRandomSampler(shared.Sampler):
    """``indices`` in the order of ``randperm`` on ``generator`` (the default one if none)."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        order = drawing(self.generator).permutation(len(self.indices)).tolist()
        return iter([self.indices[i] for i in order])

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(shared.Sampler):
    """``num_samples`` indices drawn by ``torch.multinomial`` from ``weights`` (as float64), with
    or without replacement, on ``generator`` (the default one if none) each time it is iterated."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Any = None) -> None:
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        self.weights = as_tensor(weights, dtype=float64)
        if self.weights.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(self.weights.shape)}")
        self.num_samples, self.replacement, self.generator = num_samples, replacement, generator

    def __iter__(self) -> Iterator[int]:
        drawn = multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        return iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(shared.BatchSampler):
    """torch's ``BatchSampler(sampler, batch_size, drop_last)``."""

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        super().__init__(sampler=sampler, batch_size=batch_size, drop_last=drop_last)


def default_collate(batch: list[Any]) -> Any:
    return shared.collate(batch, tensor, stack, Tensor)


class DataLoader(shared.DataLoader):
    """torch's loader: each iteration first draws a base seed for its workers from the default
    generator (or the loader's ``generator``), workers or not."""

    collate_tensors = staticmethod(default_collate)
    random_sampler = RandomSampler

    def __init__(self, dataset: Any, batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0, collate_fn: Any = None,
                 pin_memory: bool = False, drop_last: bool = False, **options: Any) -> None:
        super().__init__(dataset, batch_size=batch_size, shuffle=bool(shuffle), sampler=sampler,
                         batch_sampler=batch_sampler, collate_fn=collate_fn, drop_last=drop_last)
        self.generator = options.get("generator")
        if shuffle and sampler is None and batch_sampler is None and self.batch_sampler is not None:
            self.batch_sampler.sampler.generator = self.generator

    def __iter__(self) -> Iterator[Any]:
        batches = super().__iter__()
        drawing(self.generator).full_range_int64()
        return batches


__getattr__ = module_getattr("torch.utils.data")

# the modules torch defines them in (``from torch.utils.data.sampler import Sampler``)
for _file, _names in (("dataloader", ("DataLoader", "Dataset", "IterableDataset", "default_collate",
                                      "BatchSampler", "RandomSampler", "Sampler", "SequentialSampler")),
                      ("dataset", ("ConcatDataset", "Dataset", "IterableDataset", "Subset", "TensorDataset",
                                   "random_split")),
                      ("sampler", ("BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
                                   "SubsetRandomSampler"))):
    globals()[_file] = defining_module(f"{__name__}.{_file}", f"torch.utils.data.{_file}",
                                       {name: globals()[name] for name in _names})
