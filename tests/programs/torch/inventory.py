"""The widely used APIs of the inventory (docs/api-coverage.md) that no other program calls:
each called as real programs call it, against the framework."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def tensor_basics_real_programs_call(torch):
    """dim / ndim / T / cpu / flatten / cos / torch.float, the CUDA queries of a CPU build, and
    autocast on the CPU, with gradients through them."""
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
    y = torch.flatten(torch.cos(x.T.cpu())) * 2
    y.sum().backward()
    with torch.amp.autocast("cpu", dtype=torch.bfloat16):
        z = torch.mm(x, x.T)
    return [x.dim(), x.ndim, y, y.grad_fn.name(), x.grad, str(x.to(torch.float).dtype), str(z.dtype),
            torch.cuda.manual_seed(0), torch.cuda.is_bf16_supported(),
            attempt(lambda: torch.cuda.set_device(0)),
            attempt(lambda: torch.cuda.synchronize()), attempt(lambda: x.cuda())]


@program
def module_registration_and_forward(torch):
    """add_module registers a child by name; forward called directly; nn.init's random fills
    keep shapes, dtypes and versions (values differ between generators)."""
    model = torch.nn.Module()
    model.add_module("first", torch.nn.Linear(2, 3))
    model.add_module("act", torch.nn.ReLU())
    with torch.no_grad():
        model.first.weight.copy_(torch.tensor([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]))
        model.first.bias.fill_(0.1)
    out = model.act.forward(model.first.forward(torch.tensor([[1.0, 2.0]])))
    w = torch.empty(3, 4)
    torch.nn.init.normal_(w, 0.0, 0.02)
    torch.nn.init.uniform_(w, -0.1, 0.1)
    return [[name for name, _ in model.named_children()], out, w.shape, str(w.dtype), w._version,
            bool((w.abs() <= 0.1).all())]


@program
def printing_a_model(torch):
    """print(model): each module's name, settings and children as torch lays them out."""
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2d(1, 6, 5), nn.BatchNorm2d(6), nn.ReLU(), nn.MaxPool2d(2),
                                          nn.Conv1d(2, 3, 3, stride=2, padding=1), nn.AvgPool2d(2),
                                          nn.AdaptiveAvgPool2d((1, 1)))
            self.head = nn.ModuleList([nn.Dropout(0.25), nn.Flatten(), nn.Linear(4, 2, bias=False),
                                       nn.LayerNorm(8), nn.Embedding(5, 2, padding_idx=0)])
            self.named = nn.ModuleDict({"lstm": nn.LSTM(3, 2),
                                        "gru": nn.GRU(3, 2, batch_first=True, num_layers=2)})
            self.scale = nn.Parameter(torch.ones(1))

    activations = nn.Sequential(nn.LeakyReLU(0.2), nn.GELU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(dim=1),
                                nn.ELU(), nn.SiLU(), nn.ReLU(inplace=True), nn.Softplus(),
                                nn.LogSoftmax(dim=1),
                                nn.CrossEntropyLoss(), nn.MSELoss(), nn.Identity(), nn.BatchNorm1d(4))
    return [repr(Net()), str(activations), repr(nn.Module()), repr(nn.Linear(2, 3))]


@program
def in_place_activations_saved_tensors_and_defaults(torch):
    """relu / leaky_relu / elu / silu with inplace=True write their input (LeakyReluBackward1 and
    EluBackward1 are the in-place kernels) and refuse a leaf; grad_fn._saved_self / _other /
    _result before and after a pass frees them; set_default_device to the CPU; the storage
    flags and layout; a 0-d tensor in an f-string."""
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    seen = []
    for name in ("relu", "leaky_relu", "elu", "silu"):
        a = x * 1
        out = getattr(torch.nn.functional, name)(a, inplace=True)
        seen += [out is a, out.grad_fn.name(), a._version, torch.autograd.grad(out.sum(), x)]
    seen += [attempt(lambda: torch.nn.functional.elu(x, inplace=True)), str(torch.nn.ELU(inplace=True))]
    y = x * x
    e = x.exp()
    saved = [y.grad_fn._saved_self is x, y.grad_fn._saved_other is x, e.grad_fn._saved_result,
             x.sin().grad_fn._saved_self is x, attempt(lambda: y.grad_fn._saved_nothing)]
    y.sum().backward()
    saved.append(attempt(lambda: y.grad_fn._saved_self))
    torch.set_default_device("cpu")
    made = torch.ones(2)
    torch.set_default_device(None)
    return seen + saved + [str(made.device), str(torch.get_default_device()), made.is_sparse,
                           made.is_quantized, made.is_meta, str(made.layout), f"{torch.tensor(2.5)}",
                           f"{torch.tensor(3)}",
                           f"loss {torch.tensor(1 / 3):.4f}"]


@program
def datasets_and_loaders(torch):
    """torch.utils.data: TensorDataset, a Dataset subclass, Subset and random_split (sizes), and
    DataLoader batching them (default collation of tensors, numbers, arrays, tuples and dicts;
    drop_last; batch_size=None; a shuffled order covers every sample once), a training loop
    over it."""
    data = torch.utils.data
    X = torch.arange(10.0).reshape(5, 2)
    y = torch.tensor([0, 1, 0, 1, 1])
    ds = data.TensorDataset(X, y)

    class Pairs(data.Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return {"x": float(i), "n": i, "t": torch.ones(2) * i, "pair": (i, [i, i * 2])}

    first, second = data.random_split(ds, [3, 2])
    shuffled = sorted(int(b[1].sum()) for b in data.DataLoader(ds, batch_size=1, shuffle=True))
    model = torch.nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.fill_(0.1)
        model.bias.fill_(0.0)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for xb, yb in data.DataLoader(ds, batch_size=2):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(xb).squeeze(1), yb.float()).backward()
        optimizer.step()
    return [len(ds), ds[1], [list(b) for b in data.DataLoader(ds, batch_size=2)],
            len(data.DataLoader(ds, batch_size=2)), len(data.DataLoader(ds, batch_size=2, drop_last=True)),
            list(next(iter(data.DataLoader(Pairs(), batch_size=3))).items()),
            list(data.DataLoader(ds, batch_size=None))[0],
            len(first), len(second), data.Subset(ds, [0, 2])[1], shuffled, model.weight, model.bias]


@program
def accelerator_queries_and_sampler_paths(torch):
    """torch.accelerator on a machine without one (the queries answer, the rest refuse), the
    paths torch defines its data classes under, a custom Sampler subclass and
    SubsetRandomSampler drawing from the default and from its own generator."""
    accelerator = torch.accelerator
    seen = [accelerator.is_available(), accelerator.current_accelerator(), accelerator.device_count(),
            attempt(accelerator.current_device_index), attempt(lambda: accelerator.set_device_index(0)),
            attempt(accelerator.synchronize)]
    data = torch.utils.data
    seen += [data.sampler.Sampler is data.Sampler, data.dataloader.DataLoader is data.DataLoader,
             data.dataset.TensorDataset is data.TensorDataset, attempt(lambda: iter(data.Sampler()))]

    class Backwards(data.sampler.Sampler):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n - 1, -1, -1))

        def __len__(self):
            return self.n

    torch.manual_seed(2)
    subset = data.SubsetRandomSampler([10, 20, 30, 40])
    return seen + [list(subset), list(subset), len(subset),
                   list(data.SubsetRandomSampler([1, 2, 3], generator=torch.Generator().manual_seed(1))),
                   list(data.DataLoader(list(range(5)), sampler=Backwards(5), batch_size=2)),
                   list(data.DataLoader(list(range(5)), sampler=data.SubsetRandomSampler([0, 2, 4]),
                                        batch_size=2)),
                   isinstance(data.SequentialSampler([1]), data.Sampler)]


@program
def module_lookups_and_casts(torch):
    """Module.get_parameter / get_buffer / set_submodule (dotted paths, torch's errors, strict),
    _get_name, share_memory, and half / bfloat16 casting the floating tensors in place."""
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    seen = [model.get_parameter("0.weight"), model.get_buffer("1.running_mean"), model._get_name(),
            model.share_memory() is model]
    for target in ("0.nothing", "0.weight", "3.weight", "1.running_var"):
        seen += [attempt(lambda: model.get_parameter(target)), attempt(lambda: model.get_buffer(target))]
    model.set_submodule("1", nn.ReLU())
    model.set_submodule("5", nn.ReLU())
    seen += [repr(model), len(model), attempt(lambda: model.set_submodule("0.x", nn.ReLU(), strict=True)),
             attempt(lambda: model.set_submodule("0.weight", nn.ReLU()))]
    model.set_submodule("0.x", nn.ReLU())
    return seen + [hasattr(model[0], "x"), model.half() is model, model[0].weight, str(model[0].bias.dtype),
                   str(model.bfloat16()[0].weight.dtype)]
