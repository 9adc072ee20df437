"""``paddle.Model``: paddle's high-level training loop (``prepare``, ``fit``, ``evaluate``,
``predict`` and the one-batch steps) over the facade's layers, optimizers and data loaders, with
its callbacks (``paddle.callbacks``).

The loop is paddle's dynamic-graph one, measured against paddle 3.3.1: a dataset is batched by a
``DistributedBatchSampler`` (shuffled by epoch for training), a training batch runs the network
in train mode, sums the losses, runs backward, ``minimize`` and ``clear_gradients``; an optimizer
whose learning rate is a scheduler is stepped after every training batch (the ``LRScheduler``
callback's default); the logs report the last batch's losses and each metric accumulated over
the epoch; ``evaluate`` returns them. ``ProgBarLogger`` prints paddle's lines (``Epoch 1/2``,
``step 4/4 - loss: 0.6931 - acc: 0.5000 - 2ms/step``), its timings this machine's.
"""

from __future__ import annotations

import inspect
import numbers
import sys
import time
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine.paddle._core import Tensor, no_grad, to_tensor
from reference_engine.paddle.io import DataLoader, Dataset, DistributedBatchSampler
from reference_engine.paddle.optimizer import lr as lr_schedulers

__all__ = ["Callback", "EarlyStopping", "LRScheduler", "Model", "ModelCheckpoint", "ProgBarLogger"]

def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _flatten(data: Any) -> list[Any]:
    """A batch as one flat list (``[inputs..., labels...]``, or nested lists of them)."""
    if isinstance(data, (list, tuple)):
        return [leaf for item in data for leaf in _flatten(item)]
    return [data]


def _to_numpy(value: Any) -> Any:
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


class Callback:
    """paddle's callback base: every hook does nothing."""

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict[str, Any] = {}

    def set_params(self, params: dict[str, Any]) -> None:
        self.params = params

    def set_model(self, model: Any) -> None:
        self.model = model

    def __getattr__(self, name: str) -> Any:
        if name.startswith("on_"):
            return lambda *args, **kwargs: None
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


class ModelCheckpoint(Callback):
    """Saves nothing without a ``save_dir`` (saving is I/O, which the facade does not model)."""

    def __init__(self, save_freq: int = 1, save_dir: Optional[str] = None) -> None:
        super().__init__()
        self.save_freq, self.save_dir = save_freq, save_dir


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate scheduler after each training batch (``by_step``)
    or each epoch (``by_epoch``)."""

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step, self.by_epoch = by_step, by_epoch

    def _step(self) -> None:
        rate = getattr(self.model._optimizer, "_learning_rate", None)
        if isinstance(rate, lr_schedulers.LRScheduler):
            rate.step()

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self.by_epoch:
            self._step()

    def on_train_batch_end(self, step: int, logs: Any = None) -> None:
        if self.by_step:
            self._step()


class EarlyStopping(Callback):
    """Stops training once the monitored evaluation value has not improved by ``min_delta``
    for ``patience`` evaluations (``mode`` 'auto': 'max' for an accuracy, else 'min')."""

    def __init__(self, monitor: str = "loss", mode: str = "auto", patience: int = 0, verbose: int = 1,
                 min_delta: float = 0, baseline: Optional[float] = None,
                 save_best_model: bool = True) -> None:
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.save_best_model = baseline, save_best_model
        self.save_dir: Optional[str] = None
        if mode not in ("auto", "min", "max"):
            mode = "auto"
        if mode == "auto":
            mode = "max" if "acc" in monitor else "min"
        self.better = np.greater if mode == "max" else np.less
        self.min_delta = abs(min_delta) if mode == "max" else -abs(min_delta)
        self.wait_epoch, self.stopped_epoch = 0, 0

    def on_train_begin(self, logs: Any = None) -> None:
        self.wait_epoch, self.stopped_epoch = 0, 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.better is np.less else -np.inf

    def on_eval_end(self, logs: Any = None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn('Monitor of EarlyStopping should be loss or metric name.', stacklevel=2)
            return
        current = logs[self.monitor]
        if isinstance(current, (list, tuple)):
            current = current[0]
        elif not isinstance(current, numbers.Number):
            return
        if self.better(current - self.min_delta, self.best_value):
            self.best_value, self.wait_epoch = current, 0
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f'Epoch {self.stopped_epoch + 1}: Early stopping.')
        self.stopped_epoch += 1


class ProgressBar:
    """paddle's progress line: ``verbose`` 1 a bar rewritten in place, 2 one line each update."""

    def __init__(self, num: Optional[int] = None, width: int = 30, verbose: int = 1,
                 name: str = "step") -> None:
        if isinstance(num, int) and num <= 0:
            raise TypeError('num should be None or integer (> 0)')
        self._num, self._verbose, self.name = num, verbose, name
        self._width = min(width, 30)
        self._total_width = 0
        self._start = time.time()

    def _timing(self, current: int) -> tuple[float, str]:
        per_unit = (time.time() - self._start) / current if current else 0.0
        if per_unit >= 1 or per_unit == 0:
            return per_unit, f' - {per_unit:.0f}s/{self.name}'
        if per_unit >= 1e-3:
            return per_unit, f' - {per_unit * 1e3:.0f}ms/{self.name}'
        return per_unit, f' - {per_unit * 1e6:.0f}us/{self.name}'

    @staticmethod
    def _values(values: Sequence[tuple[str, Any]]) -> str:
        text = ''
        for key, value in values:
            text += f' - {key}:'
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
                    v = v.item()
                if isinstance(v, (float, np.floating)):
                    text += f' {v:.4f}' if abs(v) > 1e-3 else f' {v:.4e}'
                else:
                    text += f' {v}'
        return text

    def update(self, current: int, values: Sequence[tuple[str, Any]] = ()) -> None:
        per_unit, rate = self._timing(current)
        count = f'{self.name} {current:3}' if not self._num else \
            f'{self.name} {current:{len(str(self._num))}d}/{self._num}'
        if self._verbose != 1:
            sys.stdout.write(count + self._values(values) + rate + '\n')
            sys.stdout.flush()
            return
        previous = self._total_width
        sys.stdout.write('\b' * previous + '\r')
        line = count
        if self._num:
            filled = int(self._width * current / self._num)
            line += ' ['
            if filled > 0:
                line += '=' * (filled - 1) + ('>' if current < self._num else '=')
            line += '.' * (self._width - filled) + ']'
        info = self._values(values)
        if self._num is not None and current < self._num:
            eta = int(per_unit * (self._num - current))
            info += ' - ETA: ' + (f'{eta // 3600}:{(eta % 3600) // 60:02}:{eta % 60:02}' if eta > 3600
                                  else f'{eta // 60}:{eta % 60:02}' if eta > 60 else f'{eta}s')
        info += rate
        self._total_width = len(line) + len(info)
        if previous > self._total_width:
            info += ' ' * (previous - self._total_width)
        if self._num is None or current >= self._num:
            info += '\n'
        sys.stdout.write(line + info)
        sys.stdout.flush()


class ProgBarLogger(Callback):
    """Prints the epoch, every ``log_freq``-th step's losses and metrics, and each mode's end."""

    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        super().__init__()
        self.log_freq, self.verbose = log_freq, verbose
        self.epochs: Optional[int] = None
        self.bars: dict[str, ProgressBar] = {}
        self.steps: dict[str, Optional[int]] = {}
        self.done: dict[str, int] = {}
        self.samples: dict[str, int] = {}
        self.metrics: dict[str, list[str]] = {}

    def _update(self, mode: str, logs: dict[str, Any]) -> None:
        values = [(k, logs[k]) for k in self.metrics[mode] if k in logs]
        self.bars[mode].update(self.done[mode], values)

    def _begin(self, mode: str, steps: Optional[int], metrics: list[str], banner: Optional[str]) -> None:
        self.steps[mode], self.metrics[mode] = steps, metrics
        self.done[mode] = self.samples[mode] = 0
        self.bars[mode] = ProgressBar(num=steps, verbose=self.verbose)
        if banner and self.verbose:
            print(banner)

    def _batch_end(self, mode: str, logs: Optional[dict[str, Any]]) -> None:
        logs = logs or {}
        self.done[mode] += 1
        self.samples[mode] += logs.get('batch_size', 1)
        steps, done = self.steps[mode], self.done[mode]
        if self.verbose and done % self.log_freq == 0 and (steps is None or done < steps):
            self._update(mode, logs)

    def on_train_begin(self, logs: Any = None) -> None:
        self.epochs = self.params['epochs']
        if self.verbose:
            print("The loss value printed in the log is the current step, and the metric is the "
                  "average value of previous steps.")

    def on_epoch_begin(self, epoch: Optional[int] = None, logs: Any = None) -> None:
        banner = f'Epoch {epoch + 1}/{self.epochs}' if self.epochs and epoch is not None else None
        self._begin('train', self.params['steps'], self.params['metrics'], banner)

    def on_train_batch_end(self, step: int, logs: Any = None) -> None:
        self._batch_end('train', logs)

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self.verbose and self.steps['train'] is not None:
            self._update('train', logs or {})

    def on_eval_begin(self, logs: Any = None) -> None:
        logs = logs or {}
        self._begin('eval', logs.get('steps'), logs.get('metrics', []), 'Eval begin...')

    def on_eval_batch_end(self, step: int, logs: Any = None) -> None:
        self._batch_end('eval', logs)

    def on_eval_end(self, logs: Any = None) -> None:
        if self.verbose and self.steps['eval'] is not None:
            self._update('eval', logs or {})
            print(f'Eval samples: {self.samples["eval"]}')

    def on_predict_begin(self, logs: Any = None) -> None:
        logs = logs or {}
        self._begin('predict', logs.get('steps'), logs.get('metrics', []), 'Predict begin...')

    def on_predict_batch_end(self, step: int, logs: Any = None) -> None:
        self._batch_end('predict', logs)

    def on_predict_end(self, logs: Any = None) -> None:
        if self.verbose:
            if self.done['predict'] % self.log_freq != 0 or self.verbose == 1:
                self._update('predict', logs or {})
            print(f'Predict samples: {self.samples["predict"]}')


class _Callbacks:
    """The callbacks of one call, as ``config_callbacks`` sets them up: a ProgBarLogger first
    (unless given, or ``verbose`` is 0), a ModelCheckpoint and an LRScheduler last."""

    def __init__(self, given: Any, model: Model, params: dict[str, Any], verbose: int,
                 log_freq: int = 2, save_freq: int = 1, save_dir: Optional[str] = None) -> None:
        callbacks = _as_list(given)
        if verbose and not any(isinstance(c, ProgBarLogger) for c in callbacks):
            callbacks.insert(0, ProgBarLogger(log_freq, verbose=verbose))
        if not any(isinstance(c, ModelCheckpoint) for c in callbacks):
            callbacks.append(ModelCheckpoint(save_freq, save_dir))
        if not any(isinstance(c, LRScheduler) for c in callbacks):
            callbacks.append(LRScheduler())
        self.callbacks = callbacks
        for c in callbacks:
            c.set_model(model)
            c.set_params({**params, "verbose": verbose})

    def __iter__(self) -> Any:
        return iter(self.callbacks)

    def call(self, name: str, *args: Any) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)


class Model:
    """``paddle.Model(network, inputs=None, labels=None)``: without input specs, the network's
    ``forward`` parameters name the inputs, and the rest of each batch are the labels."""

    def __init__(self, network: Any, inputs: Any = None, labels: Any = None) -> None:
        self.mode = 'train'
        self.network = network
        self._loss: Any = None
        self._optimizer: Any = None
        self._metrics: list[Any] = []
        self.stop_training = False
        self._test_dataloader: Any = None
        specs = _as_list(inputs)
        self._inputs = specs or None
        self._input_count = len(specs) if specs else len(inspect.getfullargspec(network.forward).args[1:])
        self.num_iters: Optional[int] = None

    # --- setting up ---------------------------------------------------------------------------

    def prepare(self, optimizer: Any = None, loss: Any = None, metrics: Any = None,
                amp_configs: Any = None) -> None:
        self._optimizer = optimizer
        if loss is not None and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable function.")
        self._loss = loss
        self._metrics = _as_list(metrics)

    def parameters(self, *args: Any, **kwargs: Any) -> list[Tensor]:
        return self.network.parameters()

    def _metrics_name(self) -> list[str]:
        names = ['loss'] if self._loss else []
        for metric in self._metrics:
            names.extend(_as_list(metric.name()))
        return names

    # --- one batch ----------------------------------------------------------------------------

    def _outputs_and_labels(self, inputs: Any, labels: Any) -> tuple[list[Any], list[Any]]:
        outputs = self.network(*[to_tensor(x) for x in _as_list(inputs)])
        return _as_list(outputs), [to_tensor(label) for label in _as_list(labels)]

    def _update_metrics(self, outputs: list[Any], labels: list[Any]) -> list[Any]:
        results = []
        for metric in self._metrics:
            computed = metric.compute(*(outputs + labels))
            results.append(metric.update(*[_to_numpy(m) for m in _as_list(computed)]))
        return results

    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        if not self._optimizer:
            raise AssertionError("model not ready, please call `model.prepare()` first")
        self.network.train()
        self.mode = 'train'
        outputs, labels = self._outputs_and_labels(inputs, labels)
        losses = _as_list(self._loss(*(outputs + labels)))
        total = losses[0]
        for extra in losses[1:]:
            total = total + extra
        total.backward()
        if update:
            self._optimizer.minimize(total)
            self.network.clear_gradients()
        metrics = self._update_metrics(outputs, labels)
        values = [_to_numpy(loss) for loss in losses]
        return (values, metrics) if metrics else values

    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        with no_grad():
            self.network.eval()
            self.mode = 'eval'
            outputs, labels = self._outputs_and_labels(inputs, labels)
            losses = _as_list(self._loss(*(outputs + labels))) if self._loss else []
            metrics = self._update_metrics(outputs, labels)
        values = [_to_numpy(loss) for loss in losses]
        if self._loss:
            return (values, metrics) if metrics else values
        return metrics

    def predict_batch(self, inputs: Any) -> list[Any]:
        with no_grad():
            self.network.eval()
            self.mode = 'test'
            outputs = self.network(*[to_tensor(x) for x in _as_list(inputs)])
        return [_to_numpy(o) for o in _as_list(outputs)]

    # --- loops --------------------------------------------------------------------------------

    @staticmethod
    def _loader(data: Any, batch_size: int, shuffle: bool = False, drop_last: bool = False) -> Any:
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle,
                                              drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler)
        return data

    @staticmethod
    def _steps(loader: Any) -> Optional[int]:
        try:
            return len(loader)
        except Exception:  # noqa: BLE001 - a loader without a length has no step count
            return None

    def _run_one_epoch(self, loader: Any, callbacks: _Callbacks, mode: str) -> Any:
        logs: dict[str, Any] = {}
        outputs = []
        for step, data in enumerate(loader):
            data = _flatten(data)
            batch_size = data[0].shape[0]
            callbacks.call(f'on_{mode}_batch_begin', step, logs)
            if mode == 'predict':
                outputs.append(self.predict_batch(data[:self._input_count]))
            else:
                inputs, labels = data[:self._input_count], data[self._input_count:]
                if mode == 'train':
                    last = (step + 1) % self._accumulate == 0 or step + 1 == len(loader)
                    outs = self.train_batch(inputs, labels, last)
                else:
                    outs = self.eval_batch(inputs, labels)
                values: list[Any] = []
                if self._loss:
                    values.append([float(loss) for loss in (outs[0] if self._metrics else outs)])
                for metric in self._metrics:
                    values.extend(_as_list(metric.accumulate()))
                logs.update(zip(self._metrics_name(), values))
            logs['step'], logs['batch_size'] = step, batch_size
            callbacks.call(f'on_{mode}_batch_end', step, logs)
            if self.num_iters is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    self.num_iters = None
                    break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == 'predict' else logs

    def fit(self, train_data: Any = None, eval_data: Any = None, batch_size: Any = 1, epochs: int = 1,
            eval_freq: int = 1, log_freq: int = 10, save_dir: Optional[str] = None, save_freq: int = 1,
            verbose: int = 2, drop_last: bool = False, shuffle: bool = True, num_workers: int = 0,
            callbacks: Any = None, accumulate_grad_batches: int = 1,
            num_iters: Optional[int] = None) -> None:
        if train_data is None:
            raise AssertionError("train_data must be given!")
        train_size, eval_size = batch_size if isinstance(batch_size, (list, tuple)) else (batch_size,) * 2
        train_loader = self._loader(train_data, train_size, shuffle, drop_last)
        eval_loader = self._loader(eval_data, eval_size) if eval_data is not None else None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._steps(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and steps is not None:
            epochs, steps = num_iters // steps + 1, min(num_iters, steps)
        cbks = _Callbacks(callbacks, self, {"epochs": epochs, "steps": steps,
                                            "metrics": self._metrics_name()},
                          verbose, log_freq, save_freq, save_dir)
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in cbks):
            warnings.warn("EarlyStopping needs validation data.", stacklevel=2)
        cbks.call('on_train_begin', None)
        logs: Any = None
        for epoch in range(epochs):
            cbks.call('on_epoch_begin', epoch, None)
            logs = self._run_one_epoch(train_loader, cbks, 'train')
            cbks.call('on_epoch_end', epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                cbks.call('on_eval_begin', {'steps': self._steps(eval_loader),
                                            'metrics': self._metrics_name()})
                cbks.call('on_eval_end', self._run_one_epoch(eval_loader, cbks, 'eval'))
            if self.stop_training:
                break
        cbks.call('on_train_end', logs)
        self._test_dataloader = None

    def evaluate(self, eval_data: Any, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                 num_workers: int = 0, callbacks: Any = None,
                 num_iters: Optional[int] = None) -> dict[str, Any]:
        loader = self._loader(eval_data, batch_size)
        self._test_dataloader = loader
        cbks = _Callbacks(callbacks, self, {"metrics": self._metrics_name()}, verbose, log_freq)
        steps = self._steps(loader)
        self.num_iters = None
        if num_iters is not None and steps is not None:
            steps = min(num_iters, steps)
            self.num_iters = steps
        cbks.call('on_eval_begin', {'steps': steps, 'metrics': self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, 'eval')
        cbks.call('on_eval_end', logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    def summary(self, input_size: Any = None, dtype: Any = None) -> dict[str, Any]:
        """``paddle.summary`` of the network, on ``input_size`` or the input specs."""
        from reference_engine.paddle import model_summary

        if input_size is None and self._inputs is None:
            raise AssertionError("'input_size' or 'self._input' must be set")
        return model_summary.summary(self.network, input_size if input_size is not None else self._inputs,
                                     dtypes=dtype)

    def predict(self, test_data: Any, batch_size: int = 1, num_workers: int = 0,
                stack_outputs: bool = False, verbose: int = 1, callbacks: Any = None) -> list[Any]:
        loader = self._loader(test_data, batch_size)
        self._test_dataloader = loader
        cbks = _Callbacks(callbacks, self, {"metrics": []}, verbose)
        cbks.call('on_predict_begin', {'steps': self._steps(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, 'predict')
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.call('on_predict_end', logs)
        return outputs
