"""In-memory datasets and the loader that batches them, shared by both facades
(``torch.utils.data``, ``paddle.io``): what a training loop iterates over. The order a shuffled
loader or ``random_split`` draws is the framework's own: torch's facade supplies torch's
sampler and permutation, paddle's sampler draws from numpy's global generator and its
``random_split`` from paddle's ``randperm``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

import numpy as np

from reference_engine import rng

Permutation = Callable[[int], Sequence[int]]


class Dataset:
    """A map-style dataset: ``__getitem__`` and ``__len__``."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError


class IterableDataset(Dataset):
    """A dataset read by iterating it (``__iter__``)."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class TensorDataset(Dataset):
    """Sample ``i`` is the tuple of each tensor's ``i``-th row."""

    def __init__(self, *tensors: Any) -> None:
        self.tensors = tuple(tensors)

    def __getitem__(self, index: int) -> tuple[Any, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return int(self.tensors[0].shape[0])


class Subset(Dataset):
    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, index: int) -> Any:
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Datasets one after the other: index ``i`` reads the dataset it falls in (negative
    indices from the end)."""

    def __init__(self, datasets: Sequence[Any]) -> None:
        self.datasets = list(datasets)
        self.cumulative_sizes = [int(n) for n in np.cumsum([len(d) for d in self.datasets])]

    def __len__(self) -> int:
        return int(self.cumulative_sizes[-1]) if self.cumulative_sizes else 0

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = int(np.searchsorted(self.cumulative_sizes, index, side="right"))
        start = int(self.cumulative_sizes[which - 1]) if which else 0
        return self.datasets[which][index - start]


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None,
                 permutation: Optional[Permutation] = None) -> list[Subset]:
    """Disjoint subsets of the given sizes (or fractions of the whole) in the order
    ``permutation`` draws (paddle's generator's by default)."""
    total = len(dataset)
    if all(0 <= length <= 1 for length in lengths) and not all(float(x).is_integer() for x in lengths):
        sizes = [math.floor(total * fraction) for fraction in lengths]
        for i in range(total - sum(sizes)):
            sizes[i % len(sizes)] += 1
    else:
        sizes = [int(length) for length in lengths]
    if sum(sizes) != total:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = list(map(int, (permutation or rng.generator("paddle").permutation)(total)))
    starts = np.cumsum([0, *sizes])
    return [Subset(dataset, order[start:start + size]) for start, size in zip(starts, sizes)]


def collate(samples: list[Any], make_tensor: Callable[[Any], Any], stack: Callable[[list[Any]], Any],
            tensor_type: type) -> Any:
    """A batch from samples of one structure, as both frameworks' default collation makes it:
    tensors and arrays stacked, Python floats a float64 tensor and ints an int64 one, mappings
    by key, tuples and lists element by element (as a list)."""
    first = samples[0]
    if isinstance(first, tensor_type):
        return stack(samples)
    if isinstance(first, (np.ndarray, np.generic)):
        return stack([make_tensor(np.asarray(s)) for s in samples])
    if isinstance(first, bool):
        return make_tensor(np.asarray(samples, dtype=np.bool_))
    if isinstance(first, int):
        return make_tensor(np.asarray(samples, dtype=np.int64))
    if isinstance(first, float):
        return make_tensor(np.asarray(samples, dtype=np.float64))
    if isinstance(first, Mapping):
        return {key: collate([s[key] for s in samples], make_tensor, stack, tensor_type) for key in first}
    if isinstance(first, (tuple, list)):
        return [collate(list(items), make_tensor, stack, tensor_type) for items in zip(*samples)]
    return samples


def batched(indices: Iterable[int], batch_size: int, drop_last: bool) -> Iterator[list[int]]:
    """``indices`` in lists of ``batch_size``, the last shorter one dropped with ``drop_last``."""
    batch: list[int] = []
    for index in indices:
        batch.append(index)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler:
    """Lists of ``batch_size`` indices from a sampler (or a dataset's indices, shuffled or not)."""

    def __init__(self, dataset: Any = None, sampler: Any = None, shuffle: bool = False, batch_size: int = 1,
                 drop_last: bool = False, random_sampler: Optional[type] = None) -> None:
        self.sampler = sampler if sampler is not None else (
            (random_sampler or RandomSampler)(dataset) if shuffle else SequenceSampler(dataset))
        self.batch_size, self.drop_last = batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        return batched(self.sampler, self.batch_size, self.drop_last)

    def __len__(self) -> int:
        count = len(self.sampler)
        return count // self.batch_size if self.drop_last else -(-count // self.batch_size)


class Sampler:
    """The samplers' base: a subclass yields indices (``__iter__``) and may say how many."""

    def __init__(self, data_source: Any = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        raise NotImplementedError


class SequenceSampler(Sampler):
    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(SequenceSampler):
    """paddle's sampler: the order numpy's global generator draws with ``np.random.choice``
    (as paddle's does, so a program that seeds numpy gets paddle's order); torch's facade
    subclasses it with torch's."""

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        return iter(np.random.choice(np.arange(n), n, replace=False).tolist())


class DataLoader:
    """Batches of ``batch_size`` samples collated into tensors (``batch_size=None``: samples one
    by one), in order or shuffled, the last short batch kept unless ``drop_last``; an iterable
    dataset is read in its own order. Workers, pinning and prefetching change nothing here."""

    collate_tensors: Callable[[list[Any]], Any] = staticmethod(lambda samples: samples)  # the facade's
    random_sampler: type = RandomSampler  # what ``shuffle=True`` draws the order with

    def __init__(self, dataset: Any, batch_size: Optional[int] = 1, shuffle: bool = False,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Optional[Callable[..., Any]] = None, drop_last: bool = False, **_: Any) -> None:
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.collate_fn = collate_fn or self.collate_tensors
        self.batch_sampler = None
        if not isinstance(dataset, IterableDataset) and batch_size is not None or batch_sampler is not None:
            self.batch_sampler = batch_sampler or BatchSampler(
                dataset, sampler=sampler, shuffle=shuffle, batch_size=batch_size or 1, drop_last=drop_last,
                random_sampler=self.random_sampler)

    def __iter__(self) -> Iterator[Any]:
        if isinstance(self.dataset, IterableDataset):
            yield from self._iterable_batches()
            return
        if self.batch_sampler is None:
            for index in range(len(self.dataset)):
                yield self.dataset[index]
            return
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])

    def _iterable_batches(self) -> Iterator[Any]:
        if self.batch_size is None:
            yield from self.dataset
            return
        batch: list[Any] = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self.batch_sampler is None:
            return len(self.dataset)
        return len(self.batch_sampler)
