"""``paddle.nn.SimpleRNN``, ``LSTM`` and ``GRU``: paddle's parameter names, shapes,
initialisation and call signature (batch first unless ``time_major``, ``direction``,
``initial_states``) over the shared cells of ``reference_engine.recurrent``. paddle runs one
fused kernel: its final states' node is RnnGradNode, the outputs' the transpose back to batch
first."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import recurrent, rng
from reference_engine.graph import as_kernel
from reference_engine.messages import not_supported
from reference_engine.paddle import param_attr
from reference_engine.paddle._core import Tensor, get_default_dtype, zeros
from reference_engine.paddle.extras import flip, full
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, Parameter

__all__ = ["GRU", "RNN", "BiRNN", "GRUCell", "LSTM", "LSTMCell", "SimpleRNN", "SimpleRNNCell"]

_DIRECTIONS = {"forward": 1, "bidirect": 2, "bidirectional": 2}


def _weight(attr: Any, shape: tuple[int, ...], bound: float, name: str) -> Parameter:
    """A weight or bias of a recurrent layer or cell: uniform in ±bound by paddle's generator,
    unless ``attr``'s initializer gives its values."""
    def drawn() -> Any:
        return rng.generator("paddle").uniform(-bound, bound, shape, get_default_dtype())

    values = param_attr.initial_values(attr, shape, get_default_dtype(), drawn)
    return param_attr.applied(Parameter.of(values, name), attr)


class _RNNBase(Layer):
    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 proj_size: int = 0, name: Optional[str] = None) -> None:
        super().__init__()
        if proj_size or direction not in _DIRECTIONS:
            raise not_supported(f"a recurrent layer with proj_size or direction={direction!r}", "paddle")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.time_major, self.dropout = time_major, float(dropout)
        self.num_directions = _DIRECTIONS[direction]
        gates = recurrent.GATES[self.mode] * hidden_size
        bound = 1.0 / math.sqrt(hidden_size) if hidden_size else 0.0
        attrs = {"weight_ih": weight_ih_attr, "weight_hh": weight_hh_attr, "bias_ih": bias_ih_attr,
                 "bias_hh": bias_hh_attr}
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:self.num_directions]:
                width = input_size if layer == 0 else hidden_size * self.num_directions
                shapes = {"weight_ih": (gates, width), "weight_hh": (gates, hidden_size),
                          "bias_ih": (gates,), "bias_hh": (gates,)}
                for name, shape in shapes.items():
                    if attrs[name] is False:
                        continue
                    setattr(self, f"{name}_l{layer}{suffix}",
                            _weight(attrs[name], shape, bound, f"{name}_l{layer}{suffix}"))

    def _cells(self) -> list[list[recurrent.CellWeights]]:
        suffixes = ("", "_reverse")[:self.num_directions]
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        return [[recurrent.CellWeights(*(getattr(self, f"{n}_l{layer}{suffix}", None) for n in names))
                 for suffix in suffixes] for layer in range(self.num_layers)]

    def forward(self, inputs: Tensor, initial_states: Any = None, sequence_length: Any = None) -> Any:
        """``sequence_length``: each sequence runs as if alone, its outputs past its length
        zero and its final state its last step's (measured against running each alone)."""
        x = inputs if self.time_major else F.transpose(inputs, 0, 1)
        states = self._initial(x, initial_states)
        lengths = None if sequence_length is None else np.asarray(
            sequence_length._data if isinstance(sequence_length, Tensor) else sequence_length).reshape(-1)
        with as_kernel("rnn_kernel"):
            output, finals = recurrent.run(self.mode, x, list(zip(*states)), self._cells(),
                                           self._between_layers, lengths)
        output = C.named(output, "RnnGradNode")
        if not self.time_major:
            output = F.transpose(output, 0, 1)
        stacked = [C.named(F.stack([final[i] for final in finals], 0), "RnnGradNode")
                   for i in range(len(states))]
        return output, (tuple(stacked) if self.mode == "LSTM" else stacked[0])

    def _between_layers(self, t: Tensor) -> Tensor:
        return functional.dropout(t, self.dropout, training=self.training) if self.dropout else t

    def __repr__(self) -> str:
        """paddle's printout: the sizes and settings, then a wrapper per layer (RNN around one
        cell, BiRNN around a forward and a backward one)."""
        text = f"{type(self).__name__}({self.input_size}, {self.hidden_size}"
        settings = (("num_layers", self.num_layers, 1), ("time_major", self.time_major, False),
                    ("dropout", self.dropout, 0))
        for name, value, default in settings:
            if value != default:
                text += f", {name}={value}"
        cell = {"LSTM": "LSTMCell", "GRU": "GRUCell"}.get(self.mode, "SimpleRNNCell")
        extra = ", activation=relu" if self.mode == "RNN_RELU" else ""
        lines = [text]
        for layer in range(self.num_layers):
            width = self.input_size if layer == 0 else self.hidden_size * self.num_directions
            shown = f"{cell}({width}, {self.hidden_size}{extra})"
            if self.num_directions == 1:
                lines += [f"  ({layer}): RNN(", f"    (cell): {shown}", "  )"]
            else:
                lines += [f"  ({layer}): BiRNN(", f"    (cell_fw): {shown}", f"    (cell_bw): {shown}", "  )"]
        return "\n".join(lines) + "\n)"

    def _initial(self, x: Tensor, given: Any) -> list[list[Tensor]]:
        kinds = 2 if self.mode == "LSTM" else 1
        count = self.num_layers * self.num_directions
        if given is None:
            shape = [x.shape[1], self.hidden_size]
            return [[zeros(shape, dtype=x.dtype) for _ in range(count)] for _ in range(kinds)]
        states = list(given) if kinds == 2 else [given]
        return [list(F.unbind(h, 0)) for h in states]


class SimpleRNN(_RNNBase):
    """An Elman network: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, activation: str = "tanh",
                 **kwargs: Any) -> None:
        if activation not in ("tanh", "relu"):
            raise not_supported(f"SimpleRNN activation={activation!r}", "paddle")
        object.__setattr__(self, "mode", "RNN_TANH" if activation == "tanh" else "RNN_RELU")
        super().__init__(input_size, hidden_size, num_layers, **kwargs)


class LSTM(_RNNBase):
    mode = "LSTM"


class GRU(_RNNBase):
    mode = "GRU"


class _RNNCellBase(Layer):
    """One step of a recurrent layer: ``weight_ih``, ``weight_hh``, ``bias_ih`` and ``bias_hh``,
    drawn uniform in ±1/√hidden_size in that order; ``forward(inputs, states)`` returns the
    output and the new states (for an LSTM, ``(h, c)``)."""

    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        gates = recurrent.GATES[self.mode] * hidden_size
        bound = 1.0 / math.sqrt(hidden_size) if hidden_size else 0.0
        attrs = {"weight_ih": weight_ih_attr, "weight_hh": weight_hh_attr, "bias_ih": bias_ih_attr,
                 "bias_hh": bias_hh_attr}
        shapes = {"weight_ih": (gates, input_size), "weight_hh": (gates, hidden_size), "bias_ih": (gates,),
                  "bias_hh": (gates,)}
        for name_, shape in shapes.items():
            if attrs[name_] is False:
                setattr(self, name_, None)
                continue
            setattr(self, name_, _weight(attrs[name_], shape, bound, name_))

    def forward(self, inputs: Tensor, states: Any = None) -> Any:
        kinds = 2 if self.mode == "LSTM" else 1
        if states is None:
            shape = [inputs.shape[0], self.hidden_size]
            state = tuple(zeros(shape, dtype=inputs.dtype) for _ in range(kinds))
        else:
            state = tuple(states) if kinds == 2 else (states,)
        weights = recurrent.CellWeights(self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        new = recurrent.step(self.mode, inputs, state, weights)
        return (new[0], new) if kinds == 2 else (new[0], new[0])

    def get_initial_states(self, batch_ref: Tensor, shape: Any = None, dtype: Any = None,
                           init_value: float = 0.0, batch_dim_idx: int = 0) -> Any:
        """The states a wrapper starts from: ``init_value`` of the default dtype, one row per
        batch element of ``batch_ref`` (an LSTM's h and c)."""
        rows = batch_ref.shape[batch_dim_idx]
        made = [full([rows, self.hidden_size], init_value, dtype or get_default_dtype())
                for _ in range(2 if self.mode == "LSTM" else 1)]
        return tuple(made) if self.mode == "LSTM" else made[0]

    @property
    def state_shape(self) -> Any:
        shape = (self.hidden_size,)
        return (shape, shape) if self.mode == "LSTM" else shape

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        return text + (", activation=relu" if self.mode == "RNN_RELU" else "")


class SimpleRNNCell(_RNNCellBase):
    """An Elman cell: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh", **kwargs: Any) -> None:
        if activation not in ("tanh", "relu"):
            raise not_supported(f"SimpleRNNCell activation={activation!r}", "paddle")
        object.__setattr__(self, "mode", "RNN_TANH" if activation == "tanh" else "RNN_RELU")
        super().__init__(input_size, hidden_size, **kwargs)


class LSTMCell(_RNNCellBase):
    mode = "LSTM"


class GRUCell(_RNNCellBase):
    mode = "GRU"


def _run_cell(cell: Any, inputs: Tensor, states: Any, sequence_length: Any, time_major: bool,
              reverse: bool) -> tuple[Tensor, Any]:
    """paddle's dygraph ``rnn``: the cell stepped over time (reversed for ``reverse``), its
    outputs stacked along the time axis; with ``sequence_length`` a step past a sequence's end
    keeps that sequence's states (``new * mask + old * (1 - mask)``; the outputs are not
    masked)."""
    time_axis = 0 if time_major else 1
    steps = inputs.shape[time_axis]
    if states is None:
        states = cell.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if time_major else 0)
    x = inputs if time_major else F.permute(inputs, (1, 0, *range(2, inputs.dim())))
    masks = None
    if sequence_length is not None:
        lengths = np.asarray(sequence_length._data).reshape(-1)
        masks = (np.arange(steps)[:, None] < lengths[None, :]).astype(x._data.dtype)
    if reverse:
        x = flip(x, [0])
        masks = None if masks is None else masks[::-1]
    outputs = []
    for t in range(steps):
        out, new = cell(x[t], states)
        if masks is not None:
            keep = F.constant_like(x, masks[t][:, None])
            pairs = zip(new, states) if isinstance(new, tuple) else [(new, states)]
            kept = [F.add(F.mul(n, keep), F.mul(s, F.sub(1.0, keep))) for n, s in pairs]
            new = tuple(kept) if isinstance(new, tuple) else kept[0]
        states = new
        outputs.append(out)
    stacked = F.stack(outputs, time_axis)
    return (flip(stacked, [time_axis]) if reverse else stacked), states


class RNN(Layer):
    """``paddle.nn.RNN(cell)``: a cell stepped over a sequence (batch first unless
    ``time_major``, backwards with ``is_reverse``)."""

    def __init__(self, cell: Any, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell, self.is_reverse, self.time_major = cell, is_reverse, time_major

    def forward(self, inputs: Tensor, initial_states: Any = None, sequence_length: Any = None,
                **kwargs: Any) -> Any:
        return _run_cell(self.cell, inputs, initial_states, sequence_length, self.time_major,
                         self.is_reverse)


class BiRNN(Layer):
    """``paddle.nn.BiRNN(cell_fw, cell_bw)``: one cell forwards, the other backwards, outputs
    concatenated, final states as ``(forward's, backward's)``."""

    def __init__(self, cell_fw: Any, cell_bw: Any, time_major: bool = False) -> None:
        super().__init__()
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equals"
                             f"that of backward cell({cell_bw.input_size})")
        self.cell_fw, self.cell_bw, self.time_major = cell_fw, cell_bw, time_major

    def forward(self, inputs: Tensor, initial_states: Any = None, sequence_length: Any = None,
                **kwargs: Any) -> Any:
        if isinstance(initial_states, (list, tuple)) and len(initial_states) != 2:
            raise AssertionError("length of initial_states should be 2 when it is a list/tuple")
        if initial_states is None:
            first = self.cell_fw.get_initial_states(batch_ref=inputs,
                                                    batch_dim_idx=1 if self.time_major else 0)
            second = self.cell_fw.get_initial_states(batch_ref=inputs,
                                                     batch_dim_idx=1 if self.time_major else 0)
        else:
            first, second = initial_states
        out_fw, states_fw = _run_cell(self.cell_fw, inputs, first, sequence_length, self.time_major, False)
        out_bw, states_bw = _run_cell(self.cell_bw, inputs, second, sequence_length, self.time_major, True)
        return F.cat([out_fw, out_bw], -1), (states_fw, states_bw)
