"""``paddle.metric``: top-k ``accuracy``, the ``Accuracy`` metric and the binary ``Precision``
and ``Recall``, computed on the values without recording (paddle's accuracy kernel has no
gradient; the others count in numpy)."""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import Tensor

__all__ = ["Accuracy", "Precision", "Recall", "accuracy"]


def _top_hits(scores: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Per row, whether each of the ``k`` best-scoring classes (the first of equal ones first)
    is the row's label: shape (N, k)."""
    order = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    return order == labels.reshape(-1, 1)


def accuracy(input: Tensor, label: Tensor, k: int = 1, correct: Any = None, total: Any = None,  # noqa: A002
             name: Any = None) -> Tensor:
    """The share of rows whose label (an (N, 1) tensor) is among their ``k`` best scores, as a
    0-d float32 tensor."""
    if label._data.ndim != 2:
        raise PADDLE.error("accuracy_label_dims", dims=label._data.ndim, shape=list(label._data.shape))
    hits = _top_hits(input._data, label._data, k).any(axis=1)
    return Tensor._from_array(np.array(hits.sum() / hits.size, np.float32))  # type: ignore[return-value]


class Accuracy:
    """``paddle.metric.Accuracy(topk=(1,))``: ``compute`` marks each row's hits among its top
    ``max(topk)`` scores, ``update`` adds a batch and returns its accuracies, ``accumulate``
    the running ones (one number for one ``k``, else a list)."""

    def __init__(self, topk: Sequence[int] = (1,), name: Any = None, *args: Any, **kwargs: Any) -> None:
        self.topk, self.maxk = tuple(topk), max(topk)
        self._name = name
        self.reset()

    def compute(self, pred: Tensor, label: Tensor, *args: Any) -> Tensor:
        labels = label._data.reshape(-1) if label._data.ndim == 1 or label._data.shape[-1] == 1 else \
            np.argmax(label._data, axis=-1)
        hits = _top_hits(pred._data, labels, self.maxk).astype(np.float32)
        return Tensor._from_array(hits)  # type: ignore[return-value]

    def update(self, correct: Any, *args: Any) -> Union[float, list[float]]:
        hits = np.asarray(correct._data if isinstance(correct, Tensor) else correct)
        rows = np.prod(np.array(hits.shape[:-1]))  # numpy integers, so the shares are numpy floats
        batch = []
        for i, k in enumerate(self.topk):
            count = hits[..., :k].sum()
            batch.append(float(count) / rows)
            self.total[i] += count
            self.count[i] += rows
        return batch[0] if len(self.topk) == 1 else batch

    def reset(self) -> None:
        self.total: list[Any] = [0.0] * len(self.topk)
        self.count: list[Any] = [0] * len(self.topk)

    def accumulate(self) -> Union[float, list[float]]:
        shares = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return shares[0] if len(self.topk) == 1 else shares

    def name(self) -> list[str]:
        base = self._name or "acc"
        return [f"{base}_top{k}" for k in self.topk] if self.maxk != 1 else [base]


class _BinaryCounts:
    """A binary metric counted over batches of predicted probabilities and 0/1 labels (numpy
    arrays or tensors, one row per sample), each prediction rounded to 0 or 1."""

    default_name = ""

    def __init__(self, name: Any = None, *args: Any, **kwargs: Any) -> None:
        self._name = name or self.default_name
        self.reset()

    def reset(self) -> None:
        self.tp = self.other = 0

    @staticmethod
    def _array(values: Any, what: str) -> np.ndarray:
        if isinstance(values, Tensor):
            return np.array(values._data)
        if not isinstance(values, np.ndarray):
            raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")
        return values

    def update(self, preds: Any, labels: Any) -> None:
        preds, labels = self._array(preds, "preds"), self._array(labels, "labels")
        rows = labels.shape[0]
        predicted = self._rounded(preds).astype("int32")[:rows].reshape(rows, -1)[:, 0]
        actual = labels.reshape(rows, -1)[:, 0]
        hit, counted = self._counted(predicted, actual)
        self.tp += int(np.sum(hit & counted))
        self.other += int(np.sum(~hit & counted))

    def accumulate(self) -> float:
        total = self.tp + self.other
        return float(self.tp) / total if total != 0 else 0.0

    def name(self) -> str:
        return self._name


class Precision(_BinaryCounts):
    """``paddle.metric.Precision``: true positives over the samples predicted 1 (a probability
    rounded half up)."""

    default_name = "precision"

    @staticmethod
    def _rounded(preds: np.ndarray) -> np.ndarray:
        return np.floor(preds + 0.5)

    @staticmethod
    def _counted(predicted: np.ndarray, actual: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return predicted == actual, predicted == 1


class Recall(_BinaryCounts):
    """``paddle.metric.Recall``: true positives over the samples labelled 1 (a probability
    rounded half to even, as paddle's ``np.rint``)."""

    default_name = "recall"

    @staticmethod
    def _rounded(preds: np.ndarray) -> np.ndarray:
        return np.rint(preds)

    @staticmethod
    def _counted(predicted: np.ndarray, actual: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return predicted == actual, actual == 1


__getattr__ = module_getattr("paddle.metric")
