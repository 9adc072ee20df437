"""Where the two frameworks differ: one policy per dialect over a shared base.

``policy.Policy`` holds the behaviour both frameworks share and the questions the engine asks;
``torch_policy`` and ``paddle_policy`` answer them as torch 2.13 and paddle 3.3.1 do.
``torch_matmul`` is torch's choice of matmul kernel (what its backward saves), and
``paddle_kernels.json`` paddle's measured higher-order kernel table, and
``paddle_widened_seeds.json`` what its gradient kernels do with a seed wider than their output,
which the paddle policy reads.
"""
