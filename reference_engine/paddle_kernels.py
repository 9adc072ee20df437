"""paddle 3.3.1's higher-order gradient kernels, as measured by
``python -m conformance.probes.paddle_kernels --write`` (see that module for what a path
and an outcome mean). The reference's paddle policy reads it; do not edit by hand."""

MEASURED_ON = "3.3.1"

KERNELS: dict[str, dict[str, str]] = {
    "exp": {
        "x": "value+graph",
        "x:node": "ExpDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.x": "value+graph",
        "x.x.s": "value+graph",
        "x.s.x": "value+graph",
        "x.s.s": "None"
    },
    "log": {
        "x": "value+graph",
        "x:node": "LogDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.x": "value+graph",
        "x.x.s": "value+graph",
        "x.s.x": "value+graph",
        "x.s.s": "None",
        "x.x.x.*": "error: divide_double_grad",
        "x.x.s.*": "error: divide_double_grad",
        "x.s.x.*": "error: divide_double_grad"
    },
    "sqrt": {
        "x": "value+graph",
        "x:node": "SqrtDoubleGradNode",
        "x.*": "error: sqrt_double_grad"
    },
    "abs": {
        "x": "value+graph",
        "x:node": "AbsDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "sin": {
        "x": "value+graph",
        "x:node": "SinDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.*": "error: sin_triple_grad",
        "x.s.*": "error: sin_triple_grad"
    },
    "cos": {
        "x": "value+graph",
        "x:node": "CosDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.*": "error: cos_triple_grad",
        "x.s.*": "error: cos_triple_grad"
    },
    "tanh": {
        "x": "value+graph",
        "x:node": "TanhDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.x": "value+graph",
        "x.x.s": "value+graph",
        "x.s.x": "value+graph",
        "x.s.s": "zeros+graph"
    },
    "tan": {
        "*": "error: tan_grad"
    },
    "sinh": {
        "*": "error: sinh_grad"
    },
    "cosh": {
        "*": "error: cosh_grad"
    },
    "atan": {
        "*": "error: atan_grad"
    },
    "log1p": {
        "*": "error: log1p_grad"
    },
    "expm1": {
        "*": "error: expm1_grad"
    },
    "log2": {
        "*": "error: log2_grad"
    },
    "log10": {
        "*": "error: log10_grad"
    },
    "reciprocal": {
        "*": "error: reciprocal_grad"
    },
    "rsqrt": {
        "x": "value+graph",
        "x:node": "RsqrtDoubleGradNode",
        "x.*": "error: rsqrt_double_grad"
    },
    "erf": {
        "*": "error: erf_grad"
    },
    "asin": {
        "*": "error: asin_grad"
    },
    "acos": {
        "x": "value+graph",
        "x:node": "AcosDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.x": "value+graph",
        "x.x.s": "value+graph",
        "x.s.x": "value+graph",
        "x.s.s": "None"
    },
    "sigmoid": {
        "x": "value+graph",
        "x:node": "SigmoidDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.*": "error: sigmoid_triple_grad",
        "x.s.*": "error: sigmoid_triple_grad"
    },
    "relu": {
        "x": "value+graph",
        "x:node": "ReluDoubleGradNode",
        "x.*": "error: relu_double_grad"
    },
    "leaky_relu": {
        "x": "value+graph",
        "x:node": "LeakyReluDoubleGradNode",
        "x.*": "error: leaky_relu_double_grad"
    },
    "silu": {
        "x": "value+graph",
        "x:node": "SiluDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.x": "value+graph",
        "x.x.s": "value+graph",
        "x.s.x": "value+graph",
        "x.s.s": "None"
    },
    "gelu": {
        "*": "error: gelu_grad"
    },
    "softplus": {
        "x": "value+graph",
        "x:node": "SoftplusDoubleGradNode",
        "x.*": "error: softplus_double_grad"
    },
    "elu": {
        "x": "value+graph",
        "x:node": "EluDoubleGradNode",
        "x.*": "error: elu_double_grad"
    },
    "neg": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "clone": {
        "x": "value+graph",
        "x:node": "AssignGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "add/tensor-tensor": {
        "x": "value+graph",
        "x:node": "AddDoubleGradNode",
        "y": "value+graph",
        "y:node": "AddDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "subtract/tensor-tensor": {
        "x": "value+graph",
        "x:node": "SubtractDoubleGradNode",
        "y": "value+graph",
        "y:node": "SubtractDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "multiply/tensor-tensor": {
        "x": "value+graph",
        "x:node": "MultiplyDoubleGradNode",
        "y": "value+graph",
        "y:node": "MultiplyDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "divide/tensor-tensor": {
        "x": "value+graph",
        "x:node": "DivideDoubleGradNode",
        "y": "value+graph",
        "y:node": "DivideDoubleGradNode",
        "x.*": "error: divide_double_grad",
        "y.*": "error: divide_double_grad"
    },
    "pow/tensor-tensor": {
        "*": "error: elementwise_pow_grad"
    },
    "maximum/tensor-tensor": {
        "x": "value+graph",
        "x:node": "MaximumDoubleGradNode",
        "y": "value+graph",
        "y:node": "MaximumDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "minimum/tensor-tensor": {
        "x": "value+graph",
        "x:node": "MinimumDoubleGradNode",
        "y": "value+graph",
        "y:node": "MinimumDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "add/broadcast": {
        "x": "value+graph",
        "x:node": "AddDoubleGradNode",
        "y": "value+graph",
        "y:node": "AddDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "subtract/broadcast": {
        "x": "value+graph",
        "x:node": "SubtractDoubleGradNode",
        "y": "value+graph",
        "y:node": "SubtractDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "multiply/broadcast": {
        "x": "value+graph",
        "x:node": "MultiplyDoubleGradNode",
        "y": "value+graph",
        "y:node": "MultiplyDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "divide/broadcast": {
        "x": "value+graph",
        "x:node": "DivideDoubleGradNode",
        "y": "value+graph",
        "y:node": "DivideDoubleGradNode",
        "x.*": "error: divide_double_grad",
        "y.*": "error: divide_double_grad"
    },
    "pow/broadcast": {
        "*": "error: elementwise_pow_grad"
    },
    "maximum/broadcast": {
        "x": "value+graph",
        "x:node": "MaximumDoubleGradNode",
        "y": "value+graph",
        "y:node": "MaximumDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "minimum/broadcast": {
        "x": "value+graph",
        "x:node": "MinimumDoubleGradNode",
        "y": "value+graph",
        "y:node": "MinimumDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "multiply/constant": {
        "x": "value+graph",
        "x:node": "MultiplyDoubleGradNode",
        "x.x": "zeros+no grad_fn",
        "x.s": "value+graph",
        "x.x.x": "None",
        "x.x.s": "None",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "divide/constant": {
        "x": "value+graph",
        "x:node": "DivideDoubleGradNode",
        "x.*": "error: divide_double_grad"
    },
    "maximum/constant": {
        "x": "value+graph",
        "x:node": "MaximumDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "add/tensor-number": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "add/number-tensor": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "subtract/tensor-number": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "subtract/number-tensor": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "multiply/tensor-number": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "multiply/number-tensor": {
        "x": "value+graph",
        "x:node": "ScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "divide/tensor-number": {
        "x": "value+graph",
        "x:node": "DivScaleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "divide/number-tensor": {
        "x": "value+graph",
        "x:node": "DivideDoubleGradNode",
        "x.*": "error: divide_double_grad"
    },
    "pow/tensor-number": {
        "x": "value+graph",
        "x:node": "PowDoubleGradNode",
        "x.x": "value+graph",
        "x.s": "value+graph",
        "x.x.*": "error: pow_triple_grad",
        "x.s.*": "error: undefined"
    },
    "pow/number-tensor": {
        "*": "error: elementwise_pow_grad"
    },
    "matmul/1d-1d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/2d-2d-constant": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "matmul/2d-1d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/1d-2d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/2d-2d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/3d-3d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/3d-2d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/2d-3d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/3d-1d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.x": "zeros+graph",
        "x.y": "value+graph",
        "x.s": "value+graph",
        "y.x": "value+graph",
        "y.y": "zeros+graph",
        "y.s": "value+graph",
        "x.x.x": "None",
        "x.x.y": "None",
        "x.x.s": "zeros+graph",
        "x.y.x": "None",
        "x.y.y": "None",
        "x.y.s": "value+graph",
        "x.s.x": "zeros+graph",
        "x.s.y": "value+graph",
        "x.s.s": "None",
        "y.x.x": "None",
        "y.x.y": "None",
        "y.x.s": "value+graph",
        "y.y.x": "None",
        "y.y.y": "None",
        "y.y.s": "zeros+graph",
        "y.s.x": "value+graph",
        "y.s.y": "zeros+graph",
        "y.s.s": "None"
    },
    "matmul/1d-3d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "y": "value+graph",
        "y:node": "MatmulDoubleGradNode",
        "x.*": "error: undefined",
        "y.*": "error: undefined"
    },
    "matmul/4d-3d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "matmul/3d-4d": {
        "x": "value+graph",
        "x:node": "MatmulDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "sum/all": {
        "x": "value+graph",
        "x:node": "SumDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "sum/axis": {
        "x": "value+graph",
        "x:node": "SumDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "mean/all": {
        "x": "value+graph",
        "x:node": "MeanDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "prod/all": {
        "*": "error: prod_grad"
    },
    "norm/2": {
        "*": "error: p_norm_grad"
    },
    "norm/3": {
        "*": "error: p_norm_grad"
    },
    "prod/axis": {
        "*": "error: prod_grad"
    },
    "mean/axis": {
        "x": "value+graph",
        "x:node": "MeanDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "max/all": {
        "*": "error: max_grad"
    },
    "min/all": {
        "*": "error: min_grad"
    },
    "amax/all": {
        "*": "error: amax_grad"
    },
    "amin/all": {
        "*": "error: amin_grad"
    },
    "max/axis": {
        "*": "error: max_grad"
    },
    "min/axis": {
        "*": "error: min_grad"
    },
    "amax/axis": {
        "*": "error: amax_grad"
    },
    "amin/axis": {
        "*": "error: amin_grad"
    },
    "clip/both": {
        "x": "value+graph",
        "x:node": "ClipDoubleGradNode",
        "x.*": "error: clip_double_grad"
    },
    "clip/min": {
        "x": "value+graph",
        "x:node": "ClipDoubleGradNode",
        "x.*": "error: clip_double_grad"
    },
    "where/tensor-tensor": {
        "x": "value+graph",
        "x:node": "WhereDoubleGradNode",
        "y": "value+graph",
        "y:node": "WhereDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "where/zeros": {
        "x": "value+graph",
        "x:node": "WhereDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "masked_fill": {
        "x": "value+graph",
        "x:node": "MaskedFillDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "softmax": {
        "*": "error: softmax_grad"
    },
    "log_softmax": {
        "*": "error: log_softmax_grad"
    },
    "reshape": {
        "x": "value+graph",
        "x:node": "ReshapeDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "transpose": {
        "x": "value+graph",
        "x:node": "TransposeDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "squeeze": {
        "x": "value+graph",
        "x:node": "SqueezeDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "unsqueeze": {
        "x": "value+graph",
        "x:node": "UnsqueezeDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "expand": {
        "x": "value+graph",
        "x:node": "ExpandDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "getitem/slice": {
        "x": "value+graph",
        "x:node": "SliceDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "getitem/index": {
        "x": "value+graph",
        "x:node": "IndexElementwiseGetDoubleGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "concat": {
        "x": "value+graph",
        "x:node": "ConcatDoubleGradNode",
        "y": "value+graph",
        "y:node": "ConcatDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "stack": {
        "x": "value+graph",
        "x:node": "StackDoubleGradNode",
        "y": "value+graph",
        "y:node": "StackDoubleGradNode",
        "x.x": "None",
        "x.y": "None",
        "x.s": "value+graph",
        "y.x": "None",
        "y.y": "None",
        "y.s": "value+graph",
        "x.s.x": "None",
        "x.s.y": "None",
        "x.s.s": "None",
        "y.s.x": "None",
        "y.s.y": "None",
        "y.s.s": "None"
    },
    "split/num": {
        "x": "value+graph",
        "x:node": "ConcatGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "split/sections": {
        "x": "value+graph",
        "x:node": "ConcatGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "unbind": {
        "x": "value+graph",
        "x:node": "StackGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "cast": {
        "x": "value+graph",
        "x:node": "CastGradNode",
        "x.x": "None",
        "x.s": "value+graph",
        "x.s.x": "None",
        "x.s.s": "None"
    },
    "fill_": {
        "*": "error: fill_grad"
    },
    "setitem/tensor": {
        "*": "error: set_value_with_tensor_grad"
    },
    "setitem/number": {
        "*": "error: set_value_grad"
    }
}
