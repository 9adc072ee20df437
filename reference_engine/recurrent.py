"""Recurrent layers (Elman, LSTM, GRU) composed from the engine's operations, shared by both
facades: a layer's cells run step by step over the sequence, each direction of each layer in
turn, so their derivatives of every order come from the derivative table.

The gates follow the frameworks' layout: the input-to-hidden and hidden-to-hidden weights hold
the gates stacked along their first axis (LSTM: input, forget, cell, output; GRU: reset,
update, new), each with its own bias; the GRU's new gate applies the reset gate to the hidden
state's product after its bias (``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import numpy as np

from reference_engine import ops as F

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


@dataclass(frozen=True)
class CellWeights:
    """One direction of one layer: its weights and (optional) biases."""

    w_ih: Tensor
    w_hh: Tensor
    b_ih: Optional[Tensor]
    b_hh: Optional[Tensor]


def _affine(x: Tensor, weight: Tensor, bias: Optional[Tensor]) -> Tensor:
    out = F.matmul(x, F.t(weight))
    return out if bias is None else F.add(out, bias)


def _chunks(t: Tensor, n: int) -> list[Tensor]:
    return list(F.split(t, [t._data.shape[-1] // n] * n, t._data.ndim - 1, False)) if n > 1 else [t]


def step(mode: str, x: Tensor, state: Sequence[Tensor], w: CellWeights) -> tuple[Tensor, ...]:
    """One time step of a cell: the new hidden state (and, for an LSTM, the new cell state)."""
    h = state[0]
    if mode == "GRU":
        r_i, z_i, n_i = _chunks(_affine(x, w.w_ih, w.b_ih), 3)
        r_h, z_h, n_h = _chunks(_affine(h, w.w_hh, w.b_hh), 3)
        r, z = F.sigmoid(F.add(r_i, r_h)), F.sigmoid(F.add(z_i, z_h))
        n = F.tanh(F.add(n_i, F.mul(r, n_h)))
        return (F.add(F.mul(F.rsub(z, 1), n), F.mul(z, h)),)
    gates = F.add(_affine(x, w.w_ih, w.b_ih), _affine(h, w.w_hh, w.b_hh))
    if mode == "LSTM":
        i, f, g, o = _chunks(gates, 4)
        c = F.add(F.mul(F.sigmoid(f), state[1]), F.mul(F.sigmoid(i), F.tanh(g)))
        return F.mul(F.sigmoid(o), F.tanh(c)), c
    return (F.tanh(gates) if mode == "RNN_TANH" else F.relu(gates),)


def run(mode: str, x: Tensor, initial: Sequence[Sequence[Tensor]], cells: Sequence[Sequence[CellWeights]],
        dropout: Callable[[Tensor], Tensor],
        lengths: Optional[np.ndarray] = None) -> tuple[Tensor, list[tuple[Tensor, ...]]]:
    """The layers over ``x`` (L, N, features), time first: ``cells[layer][direction]`` with
    the initial state ``initial[layer * directions + direction]`` (h, and c for an LSTM);
    ``dropout`` between layers. Returns the last layer's outputs (L, N, directions * hidden)
    and each (layer, direction)'s final state, in that order. ``lengths`` (one per sequence,
    paddle's ``sequence_length``): a step past a sequence's end keeps its state and outputs
    zeros, so each sequence runs as if alone (the reverse direction from its own end)."""
    steps, finals = run_steps(mode, list(F.unbind(x, 0)), None, initial, cells, dropout, lengths)
    return F.stack(steps, 0), finals


def run_direction(mode: str, steps: Sequence[Tensor], state: tuple[Tensor, ...], weights: CellWeights,
                  reverse: bool, batch_sizes: Optional[Sequence[int]] = None,
                  lengths: Optional[np.ndarray] = None) -> tuple[list[Tensor], tuple[Tensor, ...]]:
    """One layer's cell over the steps, first to last (``reverse``: last to first), from
    ``state``: each step's output, and the final state (see :func:`run_steps`)."""
    full = state[0]._data.shape[0]
    order = range(len(steps) - 1, -1, -1) if reverse else range(len(steps))
    produced: list[Any] = [None] * len(steps)
    for t in order:
        n = full if batch_sizes is None else batch_sizes[t]
        active = tuple(s if n == full else F.getitem(s, slice(0, n)) for s in state)
        new = step(mode, steps[t], active, weights)
        if lengths is not None:
            running = F.constant_like(new[0], (t < lengths)[:, None])
            new = tuple(F.where(running, m, s) for m, s in zip(new, state))
            produced[t] = F.where(running, new[0], 0.0)
        else:
            produced[t] = new[0]
        state = tuple(m if n == full else F.cat([m, F.getitem(s, slice(n, None))], 0)
                      for m, s in zip(new, state))
    return produced, state


def run_steps(mode: str, steps: list[Tensor], batch_sizes: Optional[Sequence[int]],
              initial: Sequence[Sequence[Tensor]], cells: Sequence[Sequence[CellWeights]],
              dropout: Callable[[Tensor], Tensor],
              lengths: Optional[np.ndarray] = None) -> tuple[list[Tensor], list[tuple[Tensor, ...]]]:
    """The layers over a list of steps. With ``batch_sizes`` (a packed batch), ``steps[t]``
    holds the ``batch_sizes[t]`` sequences still running at step ``t`` (the longest first):
    each sequence's state stops where it ends, and the reverse direction starts each at its own
    last step. Returns each step's outputs (the last layer's) and each (layer, direction)'s
    final state."""
    finals: list[tuple[Tensor, ...]] = []
    for layer, directions in enumerate(cells):
        outputs = []
        for direction, weights in enumerate(directions):
            produced, state = run_direction(mode, steps, tuple(initial[layer * len(directions) + direction]),
                                            weights, direction == 1, batch_sizes, lengths)
            outputs.append(produced)
            finals.append(state)
        steps = [F.cat([o[t] for o in outputs], -1) if len(outputs) > 1 else outputs[0][t]
                 for t in range(len(steps))]
        if layer < len(cells) - 1:
            steps = [dropout(s) for s in steps]
    return steps, finals
