"""The widely used APIs of the inventory (docs/api-coverage.md) that no other program calls:
each called as real programs call it, against the framework."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def tensor_methods_real_programs_call(paddle):
    """The Tensor methods and dtypes programs call most (max / min / argmax / topk / std / var
    / clip / abs / sqrt / log / tile / matmul / nonzero / subtract / multiply / divide,
    conversions), with their gradients; ndim / dim / place / cpu; the dtype objects; paddle.tensor."""
    x = paddle.to_tensor([[0.5, 1.0, 2.0], [1.5, 0.25, 3.0]], stop_gradient=False)
    outs = [x.max(), x.max(axis=1), x.min(axis=0), x.std(), x.var(axis=1), x.clip(0.3, 1.6), x.abs(),
            x.sqrt(), x.log(), x.tile([2, 1]), x.matmul(x.T), x.subtract(x * 2), x.multiply(x),
            x.divide(x + 1),
            paddle.tensor.math.add(x, x), paddle.tensor.manipulation.concat([x, x])]
    seen = []
    for out in outs:
        seen += [out, out.grad_fn.name(), paddle.grad(out.sum(), x)]
    values, indices = x.topk(2)
    seen += [values, indices, x.argmax(axis=1), x.nonzero(), x.float32(), x.int64(), x.ndim, x.dim(),
             str(x.place), x.cpu(), isinstance(x, paddle.Tensor), str(paddle.int32), str(paddle.float64),
             str(paddle.bool), isinstance(paddle.float32, paddle.dtype), paddle.__version__ >= "3.0"]
    return seen


@program
def layers_devices_and_optimizers_real_programs_use(paddle):
    """Layer.add_sublayer / add_parameter / children / sublayers / buffers / set_dict / train /
    forward, the CUDA queries of a CPU build, AdamW as an Optimizer with an L2Decay from
    paddle.regularizer, amp.decorate at level O1."""
    model = paddle.nn.Layer()
    model.add_sublayer("first", paddle.nn.Linear(2, 3))
    model.add_sublayer("act", paddle.nn.ReLU())
    model.add_parameter("scale", paddle.create_parameter([1], "float32",
                                                         default_initializer=paddle.nn.initializer.Constant(2.0)))
    model.register_buffer("steps", paddle.to_tensor([0.0]))
    model.train()
    model.first.weight.set_value(paddle.to_tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    out = model.act.forward(model.first.forward(paddle.to_tensor([[1.0, 2.0]]))) * model.scale
    out.sum().backward()
    optimizer = paddle.optimizer.AdamW(0.1, parameters=model.parameters())
    optimizer.step()
    other = paddle.nn.Layer()
    other.add_sublayer("first", paddle.nn.Linear(2, 3))
    other.set_dict({"first.weight": model.first.weight, "first.bias": model.first.bias})
    decorated = paddle.amp.decorate(models=paddle.nn.Linear(2, 2), level="O1")
    return [[type(c).__name__ for c in model.children()], len(model.sublayers()), len(model.buffers()), out,
            model.first.weight, other.first.weight, isinstance(optimizer, paddle.optimizer.Optimizer),
            str(paddle.regularizer.L2Decay(0.5)), type(decorated).__name__,
            attempt(lambda: paddle.CUDAPlace(0)), paddle.device.cuda.device_count(),
            paddle.device.set_device("cpu") is not None, attempt(lambda: paddle.device.set_device("gpu"))]


@program
def printing_a_model(paddle):
    """print(model): each layer's name, settings and children as paddle lays them out."""
    nn = paddle.nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2D(1, 6, 5), nn.BatchNorm2D(6), nn.ReLU(), nn.MaxPool2D(2),
                                          nn.Conv2D(1, 6, 3, stride=2, padding=1),
                                          nn.Conv1D(2, 4, 3, dilation=2, groups=2), nn.AvgPool2D(2),
                                          nn.AdaptiveAvgPool2D(1))
            self.head = nn.LayerList([nn.Dropout(0.25), nn.Flatten(), nn.Linear(4, 2), nn.LayerNorm(8),
                                      nn.Embedding(5, 2, padding_idx=0), nn.GroupNorm(2, 4)])

    activations = nn.Sequential(nn.LeakyReLU(0.2), nn.GELU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(axis=1),
                                nn.ELU(0.5), nn.Softplus(2, 10), nn.LogSoftmax(), nn.CrossEntropyLoss(),
                                nn.MSELoss(), nn.Identity(), nn.BatchNorm1D(4),
                                nn.Dropout(0.1, axis=1, mode="downscale_in_infer"))
    return [repr(Net()), str(activations), repr(nn.Layer()), repr(nn.Linear(2, 3))]


@program
def legacy_namespace_flags_and_in_place_arithmetic(paddle):
    """paddle.base's flags, in_dygraph_mode and dygraph.guard; mul_ / sub_ / div_ (the
    multiply_ / subtract_ / divide_ kernels); a 0-d tensor in an f-string."""
    paddle.base.set_flags({"FLAGS_check_nan_inf": True})
    flags = paddle.base.get_flags(["FLAGS_check_nan_inf"])
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    with paddle.base.dygraph.guard():
        inside = paddle.in_dynamic_mode()
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    seen = []
    for name in ("mul_", "sub_", "div_"):
        y = x * 1
        getattr(y, name)(paddle.to_tensor([2.0, 4.0]))
        seen += [y, y.grad_fn.name(), paddle.grad(y.sum(), x)]
    return seen + [flags, paddle.get_flags("FLAGS_check_nan_inf"), paddle.base.in_dygraph_mode(),
                   inside,
                   f"{paddle.to_tensor(5.0)}", f"{paddle.to_tensor(3)}",
                   f"loss {paddle.to_tensor(1 / 3):.4f}"]


@program
def datasets_and_loaders(paddle):
    """paddle.io: TensorDataset, a Dataset subclass, BatchSampler, random_split (sizes), and
    DataLoader batching them (default collation of tensors, numbers, arrays, tuples and dicts;
    drop_last; a shuffled order covers every sample once), a training loop over it."""
    import numpy as np

    io = paddle.io
    X = paddle.arange(10, dtype="float32").reshape([5, 2])
    y = paddle.to_tensor([0, 1, 0, 1, 1])
    ds = io.TensorDataset([X, y])

    class Pairs(io.Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return float(i), i, {"a": np.float32(i)}, np.array([i, i], dtype="float32")

    first, second = io.random_split(ds, [3, 2])
    shuffled = sorted(int(b[1].sum()) for b in io.DataLoader(ds, batch_size=1, shuffle=True))
    model = paddle.nn.Linear(2, 1)
    model.weight.set_value(paddle.full([2, 1], 0.1))
    model.bias.set_value(paddle.zeros([1]))
    optimizer = paddle.optimizer.SGD(0.01, parameters=model.parameters())
    for xb, yb in io.DataLoader(ds, batch_size=2):
        paddle.nn.functional.mse_loss(model(xb).squeeze(1), yb.astype("float32")).backward()
        optimizer.step()
        optimizer.clear_grad()
    return [len(ds), ds[1], [list(b) for b in io.DataLoader(ds, batch_size=2)],
            len(io.DataLoader(ds, batch_size=2)), len(io.DataLoader(ds, batch_size=2, drop_last=True)),
            [list(item.items()) if isinstance(item, dict) else item
             for item in next(iter(io.DataLoader(Pairs(), batch_size=3)))],
            list(io.BatchSampler(Pairs(), batch_size=2)), len(first), len(second), shuffled,
            model.weight, model.bias]


@program
def version_cuda_queries_and_samplers(paddle):
    """paddle.version's fields, paddle.cuda and paddle.device on a build without CUDA (queries,
    seeding that seeds paddle's generator, the refusals), paddle.nn.loss's path, and
    SubsetRandomSampler drawing paddle's randperm."""
    version = paddle.version
    seen = [version.major, version.minor, version.patch, version.rc, version.full_version, version.commit,
            version.cuda(), version.cudnn(), paddle.__version__, paddle.__git_commit__,
            paddle.cuda.is_available(), paddle.cuda.device_count(), attempt(paddle.cuda.synchronize),
            attempt(paddle.device.synchronize), paddle.device.cuda.empty_cache(),
            attempt(paddle.device.cuda.max_memory_allocated), attempt(paddle.device.cuda.memory_reserved),
            paddle.nn.loss.CrossEntropyLoss is paddle.nn.CrossEntropyLoss]
    paddle.cuda.manual_seed_all(3)
    seen.append(paddle.rand([3]))
    paddle.cuda.manual_seed(3)
    seen.append(paddle.rand([3]))
    io = paddle.io
    subset = io.SubsetRandomSampler([10, 20, 30, 40])
    return seen + [list(subset), list(subset), len(subset), attempt(lambda: io.SubsetRandomSampler([])),
                   attempt(lambda: iter(io.Sampler())), issubclass(io.RandomSampler, io.Sampler)]


@program
def upsample_and_silu_printouts(paddle):
    """nn.Upsample's printout (size or scale factor, mode, alignment, layout) and nn.Silu's
    (paddle 3.3.1 shows ``inplace``)."""
    nn = paddle.nn
    return [repr(layer) for layer in (nn.Upsample(size=[4, 4], mode="bilinear"), nn.Upsample(scale_factor=2),
                                      nn.Upsample(scale_factor=[2, 3], mode="bicubic", align_corners=True),
                                      nn.Upsample(size=4, mode="linear", data_format="NCW"), nn.Silu(),
                                      nn.SiLU())]
