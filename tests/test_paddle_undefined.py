"""Where paddle 3.3.1's own result is undefined, the reference engine refuses with its own error.

These cases cannot be compared with paddle: a seed of another size is read past its end or
truncated, and an input listed in ``no_grad_vars`` crashes the process (segmentation fault).
"""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

import reference_engine.paddle as paddle
from reference_engine.messages import UndefinedInFrameworkError
from tests.custom_functions import custom


@pytest.mark.parametrize("api", ["grad", "backward"])
def test_seed_of_another_size_is_refused(api):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    seed = paddle.to_tensor([1.0, 2.0, 3.0])
    with pytest.raises(UndefinedInFrameworkError, match="does not check seed shapes"):
        if api == "grad":
            paddle.grad(x * 2, x, grad_outputs=seed)
        else:
            paddle.autograd.backward(x * 2, seed)


def test_seed_of_same_size_other_shape_is_accepted_as_paddle_does():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    z = paddle.matmul(x, paddle.to_tensor([2.0]))  # 0-d
    paddle.autograd.backward(z, paddle.to_tensor([3.0]))
    assert x.grad.numpy().tolist() == [6.0]  # the seed document's value


def test_an_input_in_no_grad_vars_is_refused():
    k = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(UndefinedInFrameworkError, match="segmentation fault"):
        paddle.grad((k * 2).sum(), [k], no_grad_vars=[k])


@pytest.mark.parametrize("only_input_of", ["sum", "exp"])
def test_cutting_the_only_input_of_a_node_is_refused(only_input_of):
    # paddle 3.3.1: "The current MetaTensor is not initialized" after sum, a segmentation fault
    # after exp; cutting an operand of a binary op is defined (tests/programs/paddle/unused_inputs.py)
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    h = x * 3
    y = h.sum() if only_input_of == "sum" else paddle.exp(h).sum()
    with pytest.raises(UndefinedInFrameworkError, match="cuts the only input"):
        paddle.grad(y, x, no_grad_vars=[h])


def test_a_second_backward_through_a_pylayer_is_refused():
    """paddle 3.3.1 crashes with a segmentation fault there."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = custom(paddle.autograd.PyLayer, "Double", lambda ctx, t: t * 2,
               lambda ctx, g: g * 2).apply(x)
    y.sum().backward()
    with pytest.raises(UndefinedInFrameworkError, match="segmentation fault"):
        y.sum().backward()  # a new sum node, then the freed PyLayer node


@pytest.mark.parametrize("again", ["backward", "grad"])
def test_a_pylayer_node_a_backward_ran_is_refused_even_with_retain_graph(again):
    """paddle 3.3.1 crashes there too; after ``paddle.grad(retain_graph=True)`` it runs again."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = custom(paddle.autograd.PyLayer, "Double", lambda ctx, t: t * 2,
               lambda ctx, g: g * 2).apply(x)
    s = y.sum()
    (g,) = paddle.grad([s], [x], retain_graph=True)
    assert g.numpy().tolist() == [2.0, 2.0]
    s.backward(retain_graph=True)
    with pytest.raises(UndefinedInFrameworkError, match="segmentation fault"):
        s.backward() if again == "backward" else paddle.grad([s], [x])


def test_a_pylayer_none_for_an_input_with_a_node_is_refused():
    """paddle 3.3.1 hands that node an empty gradient: exp's and sum's kernels crash, multiply's
    read zeros. A None for a leaf is accepted, as paddle accepts it."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    drop = custom(paddle.autograd.PyLayer, "Drop", lambda ctx, t: t * 1.0, lambda ctx, g: None)
    drop.apply(x).sum().backward()
    assert x.grad is None
    with pytest.raises(UndefinedInFrameworkError, match="empty gradient"):
        drop.apply(paddle.exp(x)).sum().backward()


def test_a_pylayer_gradient_of_another_shape_is_refused():
    wrong_shape = custom(paddle.autograd.PyLayer, "WrongShape", lambda ctx, t: t * 2,
                         lambda ctx, g: paddle.ones([3]))
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(UndefinedInFrameworkError, match="does not check the shape"):
        wrong_shape.apply(x).sum().backward()


@pytest.mark.parametrize("leaf_dtype, grad_dtype", [("float32", "float64"), ("float64", "float32")])
def test_accumulating_into_a_grad_of_another_dtype_is_refused(leaf_dtype, grad_dtype):
    # paddle 3.3.1 reads the assigned .grad's memory as the incoming gradient's dtype: a float32
    # 0.5 read as float64 gives a different huge number on each run
    x = paddle.to_tensor(2.0, dtype=leaf_dtype, stop_gradient=False)
    x.grad = paddle.to_tensor(0.5, dtype=grad_dtype)
    with pytest.raises(UndefinedInFrameworkError, match="reading the .grad's memory"):
        paddle.autograd.backward([x * 1.0])


QR_GRADIENT_RECORDED = """
import paddle
x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype="float64", stop_gradient=False)
q, r = paddle.linalg.qr(x)
paddle.grad(r.sum(), x, create_graph=True)
print("finished")
"""


def test_a_qr_gradient_that_records_is_refused():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype="float64", stop_gradient=False)
    q, r = paddle.linalg.qr(x)
    with pytest.raises(UndefinedInFrameworkError, match="QrGradNode"):
        paddle.grad(r.sum(), x, create_graph=True)
    assert paddle.grad(r.sum(), x)[0].shape == [3, 2]  # without recording it runs


def test_paddle_crashes_on_a_qr_gradient_that_records():
    """The behaviour the refusal above stands for, measured on paddle itself."""
    pytest.importorskip("paddle", reason="paddle is not installed")
    ran = subprocess.run([sys.executable, "-c", QR_GRADIENT_RECORDED], capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == -signal.SIGSEGV or "Segmentation fault" in ran.stderr, ran.stderr[-2000:]
    assert "finished" not in ran.stdout


BROADCAST_GRADIENT_OF_ONE_OUTPUT = """
import paddle
p = paddle.to_tensor([0.3, 0.9], stop_gradient=False)
q = paddle.to_tensor([[1.0], [0.0]], stop_gradient=False)
a, b = paddle.broadcast_tensors([p, q])
a.sum().backward()
print("finished")
"""


@pytest.mark.parametrize("partial", ["an output without gradient", "an input that stops gradient"])
def test_a_partial_broadcast_tensors_gradient_is_refused(partial):
    p = paddle.to_tensor([0.3, 0.9], stop_gradient=False)
    q = paddle.to_tensor([[1.0], [0.0]], stop_gradient=partial.startswith("an input"))
    a, b = paddle.broadcast_tensors([p, q])
    with pytest.raises(UndefinedInFrameworkError, match="BroadcastTensorsGradNode"):
        (a.sum() if partial.startswith("an output") else (a * b).sum()).backward()
    c, d = paddle.broadcast_tensors([p, paddle.to_tensor([[1.0], [0.0]], stop_gradient=False)])
    (c * d).sum().backward()  # every input needs a gradient and every output gets one: it runs
    assert p.grad.numpy().tolist() == [1.0, 1.0]


def test_paddle_crashes_on_a_partial_broadcast_tensors_gradient():
    """The behaviour the refusal above stands for, measured on paddle itself."""
    pytest.importorskip("paddle", reason="paddle is not installed")
    ran = subprocess.run([sys.executable, "-c", BROADCAST_GRADIENT_OF_ONE_OUTPUT], capture_output=True,
                         text=True, timeout=120)
    assert ran.returncode == -signal.SIGSEGV or "Segmentation fault" in ran.stderr, ran.stderr[-2000:]
    assert "finished" not in ran.stdout
