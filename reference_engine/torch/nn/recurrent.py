"""``torch.nn.RNN``, ``LSTM`` and ``GRU``: torch's parameter names, shapes, initialisation and
call signature over the shared cells of ``reference_engine.recurrent``. A float32 LSTM runs as
torch's CPU kernel for it does: each layer and direction one ``MkldnnRnnLayerBackward0`` node
(edges: the layer's input, its four weights, its initial h and c, each selected from ``hx``),
whose outputs the final states stack (``reference_engine.kernel_node``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reference_engine import kernel_node, recurrent
from reference_engine import ops as F
from reference_engine.messages import not_supported
from reference_engine.torch._core import Tensor, get_default_dtype, no_grad, tensor, zeros
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Module, initialised
from reference_engine.torch.nn.parameter import Parameter
from reference_engine.torch.nn.utils.rnn import PackedSequence
from reference_engine.torch.random import drawing

__all__ = ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNCell"]

class _RNNBase(Module):
    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 proj_size: int = 0, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if proj_size:
            raise not_supported("an LSTM with proj_size", "torch")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional = bidirectional
        gates = recurrent.GATES[self.mode] * hidden_size
        bound = 1.0 / math.sqrt(hidden_size) if hidden_size else 0.0
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:2 if bidirectional else 1]:
                width = input_size if layer == 0 else hidden_size * (2 if bidirectional else 1)
                shapes = {"weight_ih": (gates, width), "weight_hh": (gates, hidden_size)}
                if bias:
                    shapes.update(bias_ih=(gates,), bias_hh=(gates,))
                for name, shape in shapes.items():
                    setattr(self, f"{name}_l{layer}{suffix}", _parameter(shape, bound, dtype))

    def _cells(self) -> list[list[recurrent.CellWeights]]:
        suffixes = ("", "_reverse")[:2 if self.bidirectional else 1]
        return [[recurrent.CellWeights(*(getattr(self, f"{name}_l{layer}{suffix}", None)
                                         for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")))
                 for suffix in suffixes] for layer in range(self.num_layers)]

    def forward(self, input: Any, hx: Any = None) -> Any:  # noqa: A002
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        batched = input.dim() == 3
        x = input if batched else F.unsqueeze(input, 1)
        if self.batch_first and batched:
            x = F.transpose(x, 0, 1)
        if self._runs_fused(x):
            output, finals = self._fused_layers(x, hx, batched)
        else:
            states = self._initial(x, hx, batched)
            output, finals = recurrent.run(self.mode, x, list(zip(*states)), self._cells(),
                                           self._between_layers)
        if self.batch_first and batched:
            output = F.transpose(output, 0, 1)
        stacked = [F.stack([final[i] for final in finals], 0) for i in range(len(finals[0]))]
        if not batched:
            output, stacked = F.squeeze(output, 1), [F.squeeze(s, 1) for s in stacked]
        return output, (tuple(stacked) if self.mode == "LSTM" else stacked[0])

    def _forward_packed(self, packed: PackedSequence, hx: Any) -> Any:
        """The layers over a packed batch: a packed output, and final states (each sequence's at
        its own last step) in the sequences' own order."""
        sizes = [int(n) for n in packed.batch_sizes._data]
        starts = np.cumsum([0, *sizes])
        steps = [F.getitem(packed.data, slice(int(a), int(b))) for a, b in zip(starts[:-1], starts[1:])]
        kinds = 2 if self.mode == "LSTM" else 1
        count = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            states = [[zeros(sizes[0], self.hidden_size, dtype=packed.data.dtype) for _ in range(count)]
                      for _ in range(kinds)]
        else:
            given = list(hx) if kinds == 2 else [hx]
            if packed.sorted_indices is not None:
                given = [F.index_select(h, 1, packed.sorted_indices._data) for h in given]
            states = [list(F.unbind(h, 0)) for h in given]
        outputs, finals = recurrent.run_steps(self.mode, steps, sizes, list(zip(*states)), self._cells(),
                                              self._between_layers)
        stacked = [F.stack([final[i] for final in finals], 0) for i in range(kinds)]
        if packed.unsorted_indices is not None:
            stacked = [F.index_select(h, 1, packed.unsorted_indices._data) for h in stacked]
        output = PackedSequence(F.cat(outputs, 0), packed.batch_sizes, packed.sorted_indices,
                                packed.unsorted_indices)
        return output, (tuple(stacked) if kinds == 2 else stacked[0])

    def _runs_fused(self, x: Tensor) -> bool:
        """Whether torch runs this call with its fused CPU kernel (oneDNN's LSTM layer): an
        LSTM with biases on float32 input that is not empty."""
        return self.mode == "LSTM" and self.bias and x.dtype.numpy == np.float32 and x.numel() > 0 \
            and x.device.type == "cpu"

    def _fused_layers(self, x: Tensor, hx: Any, batched: bool) -> tuple[Tensor, list[tuple[Tensor, ...]]]:
        """The layers as torch's fused kernel records them: per layer and direction one node over
        the whole sequence; a bidirectional layer's outputs concatenated, dropout between
        layers."""
        directions = 2 if self.bidirectional else 1
        count = self.num_layers * directions
        if hx is None:
            shape = (x.shape[1], self.hidden_size)
            initial = [(zeros(*shape, dtype=x.dtype), zeros(*shape, dtype=x.dtype)) for _ in range(count)]
        else:
            given = [h if batched else F.unsqueeze(h, 1) for h in hx]
            initial = [(F.getitem(given[0], k), F.getitem(given[1], k)) for k in range(count)]
        finals: list[tuple[Tensor, ...]] = []
        layer_input = x
        for layer, cells in enumerate(self._cells()):
            outputs = []
            for direction, w in enumerate(cells):
                def composite(seq: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor,
                              h: Tensor, c: Tensor, reverse: bool = direction == 1) -> tuple[Tensor, ...]:
                    steps, state = recurrent.run_direction(
                        "LSTM", list(F.unbind(seq, 0)), (h, c), recurrent.CellWeights(w_ih, w_hh, b_ih, b_hh),
                        reverse)
                    return (F.stack(steps, 0), *state)
                out, h_n, c_n = kernel_node.one_node(
                    "MkldnnRnnLayerBackward0",
                    [layer_input, w.w_ih, w.w_hh, w.b_ih, w.b_hh, *initial[layer * directions + direction]],
                    composite)
                outputs.append(out)
                finals.append((h_n, c_n))
            layer_input = F.cat(outputs, -1) if directions == 2 else outputs[0]
            if layer < self.num_layers - 1:
                layer_input = self._between_layers(layer_input)
        return layer_input, finals

    def _between_layers(self, t: Tensor) -> Tensor:
        return functional.dropout(t, self.dropout, self.training) if self.dropout else t

    def _initial(self, x: Tensor, hx: Any, batched: bool) -> list[list[Tensor]]:
        """The initial states, one list per kind (h, and c for an LSTM), each one entry per layer
        and direction: zeros where ``hx`` is not given."""
        kinds = 2 if self.mode == "LSTM" else 1
        count = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            shape = (x.shape[1], self.hidden_size)
            return [[zeros(*shape, dtype=x.dtype) for _ in range(count)] for _ in range(kinds)]
        given = list(hx) if kinds == 2 else [hx]
        return [list(F.unbind(h if batched else F.unsqueeze(h, 1), 0)) for h in given]

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.batch_first:
            text += ", batch_first=True"
        if self.bidirectional:
            text += ", bidirectional=True"
        return text

def _parameter(shape: tuple[int, ...], bound: float, dtype: Any) -> Parameter:
    values = drawing(None).uniform(-bound, bound, shape, (dtype or get_default_dtype()).numpy)
    with no_grad():
        return Parameter(initialised(tensor(values)))

class RNN(_RNNBase):
    """An Elman network: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or relu)."""

    def __init__(self, *args: Any, nonlinearity: str = "tanh", **kwargs: Any) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        object.__setattr__(self, "mode", "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU")
        super().__init__(*args, **kwargs)
        self.nonlinearity = nonlinearity

class LSTM(_RNNBase):
    mode = "LSTM"

class GRU(_RNNBase):
    mode = "GRU"


class _RNNCellBase(Module):
    """One step of a recurrent layer: ``weight_ih``, ``weight_hh`` (and ``bias_ih``,
    ``bias_hh``), drawn uniform in ±1/√hidden_size in that order, as torch's cells do."""

    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        gates = recurrent.GATES[self.mode] * hidden_size
        bound = 1.0 / math.sqrt(hidden_size) if hidden_size else 0.0
        self.weight_ih = _parameter((gates, input_size), bound, dtype)
        self.weight_hh = _parameter((gates, hidden_size), bound, dtype)
        self.bias_ih = _parameter((gates,), bound, dtype) if bias else None
        self.bias_hh = _parameter((gates,), bound, dtype) if bias else None

    def forward(self, input: Tensor, hx: Any = None) -> Any:  # noqa: A002
        batched = input.dim() == 2
        x = input if batched else F.unsqueeze(input, 0)
        kinds = 2 if self.mode == "LSTM" else 1
        if hx is None:
            state = tuple(zeros(x.shape[0], self.hidden_size, dtype=x.dtype) for _ in range(kinds))
        else:
            given = tuple(hx) if kinds == 2 else (hx,)
            state = given if batched else tuple(F.unsqueeze(h, 0) for h in given)
        weights = recurrent.CellWeights(self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        new = recurrent.step(self.mode, x, state, weights)
        if not batched:
            new = tuple(F.squeeze(h, 0) for h in new)
        return new if kinds == 2 else new[0]

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            text += ", bias=False"
        if self.mode == "RNN_RELU":
            text += ", nonlinearity=relu"
        return text


class RNNCell(_RNNCellBase):
    """An Elman cell: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {nonlinearity}")
        object.__setattr__(self, "mode", "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU")
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity


class LSTMCell(_RNNCellBase):
    mode = "LSTM"


class GRUCell(_RNNCellBase):
    mode = "GRU"
