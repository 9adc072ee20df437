"""Every error and warning text the engine raises, per dialect, in one place.

Each entry maps a neutral *kind* to the framework's exception class and its main message (a
``str.format`` template). Texts are the frameworks' own, as measured with torch 2.13.0 and
paddlepaddle 3.3.1; paddle's trailing ``[Hint: …] (at /paddle/…)`` is not reproduced.
"""

from __future__ import annotations

from typing import Any, Optional

_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python


def type_name(obj: Any) -> str:
    """The name CPython's ``tp_name`` gives ``obj``'s type, as the frameworks' C++ messages
    print it: ``object``, ``C`` for a class defined in Python, ``numpy.float64`` for an
    extension type."""
    t = type(obj)
    if t.__module__ == "builtins" or t.__flags__ & _HEAP_TYPE:
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


# the signatures torch's argument parser lists when it finds none matching the arguments
TORCH_SIGNATURES = {
    "pow": ("Tensor input, Tensor exponent", "Number self, Tensor exponent", "Tensor input, Number exponent"),
    "comparison": ("Tensor input, Tensor other", "Tensor input, Number other"),
}


class GradcheckError(RuntimeError):
    """A gradcheck failed (torch's ``torch.autograd.gradcheck.GradcheckError``)."""


class _LinAlgError(RuntimeError):  # noqa: N801 - torch's name (torch.linalg.LinAlgError)
    """A linear-algebra kernel that could not complete (torch._C._LinAlgError)."""


class EnforceNotMet(Exception):  # noqa: N818 - paddle's name
    """A check of paddle's C++ kernels, reported under its own class (``paddle.EnforceNotMet``)."""


TORCH_ERRORS: dict[str, tuple[type[Exception], str]] = {
    "qr_not_differentiable_r": (
        RuntimeError, "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                      "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
                      "linalg.qr."),
    "qr_not_differentiable_tall": (
        RuntimeError, "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."),
    "not_positive_definite": (_LinAlgError, "{api}: The factorization could not be completed because the "
                                            "input is not positive-definite (the leading minor of order "
                                            "{order} is not positive-definite)."),
    "integer_division_by_zero": (RuntimeError, "ZeroDivisionError"),
    "rounding_mode": (RuntimeError, "div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                                    "but found '{mode}'"),
    "positive_bool": (RuntimeError, "The `+` operator, on a bool tensor is not supported."),
    "is_nonzero_empty": (RuntimeError, "Boolean value of Tensor with no values is ambiguous"),
    "is_nonzero_many": (RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"),
    "fliplr_rank": (RuntimeError, "Input must be >= 2-d."),
    "flipud_rank": (RuntimeError, "Input must be >= 1-d."),
    "vdot_rank": (RuntimeError, "1D tensors expected, but got {a}D and {b}D tensors"),
    "bool_ambiguous": (RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"),
    "fill_diagonal_rank": (RuntimeError, "dimensions must larger than 1"),
    "fill_diagonal_lengths": (RuntimeError, "all dimensions of input must be of equal length"),
    "index_conversion": (TypeError, "only integer tensors of a single element can be converted to an index"),
    "python_scalar": (ValueError, "only one element tensors can be converted to Python scalars"),
    "stack_module_state_empty": (RuntimeError, "stack_module_state: Expected at least one model, got 0."),
    "stack_module_state_mode": (RuntimeError, "stack_module_state: Expected all models to have the same "
                                              "training/eval mode."),
    "stack_module_state_class": (RuntimeError, "stack_module_state: Expected all models to be of the same "
                                               "class."),
    "stack_module_state_flags": (RuntimeError, "Expected {name} from each model to have the same "
                                               ".requires_grad"),
    "checkpoint_no_output_grad": (RuntimeError, "none of output has requires_grad=True, this checkpoint() is "
                                                "not necessary"),
    "checkpoint_keywords": (ValueError, "Unexpected keyword arguments: {names}"),
    "pad_non_constant_size": (NotImplementedError,
                              "Padding size {size} is not supported for {ndim}D input tensor.\nSupported "
                              "combinations for non-constant padding:\n  - 2D or 3D input: padding size = 2 "
                              "(pads last dimension)\n  - 3D or 4D input: padding size = 4 (pads last 2 "
                              "dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"),
    "function_no_jvp": (NotImplementedError, "You must implement the jvp function for custom "
                                             "autograd.Function to use it with forward mode AD."),
    "forward_ad_nested": (RuntimeError, "Nested forward mode AD is not supported at the moment"),
    "forward_ad_no_level": (RuntimeError, "Trying to create a dual Tensor for forward AD but no level "
                                          "exists, make sure to enter_dual_level() first."),
    "forward_ad_size": (RuntimeError, "Trying to set a forward gradient that has a different size than that "
                                      "of the original Tensor, this is not supported. Tensor is of size "
                                      "{size} while the given forward gradient is of size {tangent_size}."),
    "optim_tensor_lr": (ValueError, "Tensor lr must be 1-element"),
    "lbfgs_groups": (ValueError, "LBFGS doesn't support per-parameter options (parameter groups)"),
    "lbfgs_line_search": (RuntimeError, "only 'strong_wolfe' is supported"),
    "cross_no_dim_of_3": (RuntimeError, "no dimension of size 3 in input"),
    "cross_length": (RuntimeError,
                     "linalg.cross: inputs dimension {dim} must have length 3. Got {a} and {b}"),
    "one_hot_dtype": (RuntimeError, "one_hot is only applicable to index tensor of type LongTensor."),
    "one_hot_negative": (RuntimeError, "Class values must be non-negative."),
    "one_hot_too_large": (RuntimeError, "Class values must be smaller than num_classes."),
    # torch.optim
    "optim_params_type": (TypeError, "params argument given to the optimizer should be an iterable of "
                                     "Tensors or dicts, but got {type_name}"),
    "optim_empty_params": (ValueError, "optimizer got an empty parameter list"),
    "optim_group_type": (TypeError, "param_group must be a dict, but got {type}"),
    "optim_params_set": (TypeError, "optimizer parameters need to be organized in ordered collections, "
                                    "but the ordering of tensors in sets will change between runs. "
                                    "Please use a list instead."),
    "optim_param_type": (TypeError, "optimizer can only optimize Tensors, but one of the params is "
                                    "{type_name}"),
    "optim_non_leaf": (ValueError, "can't optimize a non-leaf Tensor"),
    "optim_required": (ValueError, "parameter group didn't specify a value of required optimization "
                                   "parameter {name}"),
    "optim_shared_param": (ValueError, "some parameters appear in more than one parameter group"),
    "optim_state_groups": (ValueError, "loaded state dict has a different number of parameter groups"),
    "optim_state_group_size": (ValueError, "loaded state dict contains a parameter group that doesn't "
                                           "match the size of optimizer's group"),
    "optim_invalid": (ValueError, "Invalid {what}: {value}"),
    "optim_nesterov": (ValueError, "Nesterov momentum requires a momentum and zero dampening"),
    "scheduler_initial_lr": (KeyError, "param 'initial_lr' is not specified in param_groups[{index}] "
                                       "when resuming scheduler with last_epoch >= 0.\nThis typically "
                                       "happens when:\n1. You're trying to resume training from a "
                                       "checkpoint but haven't properly loaded the optimizer state\n2. "
                                       "You're using last_epoch >= 0 for a fresh training run (not "
                                       "recommended)"),
    "scheduler_lambdas": (ValueError, "Expected {groups} lr_lambdas, but got {got}"),
    "cat_empty": (ValueError, "torch.cat(): expected a non-empty list of Tensors"),
    # torch.tensor / torch.Tensor from Python data (torch/csrc/utils/tensor_new.cpp)
    "data_type": (TypeError, "new(): invalid data type '{type_name}'"),
    "data_ctor_not_sequence": (TypeError, "new(): data must be a sequence (got {type_name})"),
    "data_infer_dtype": (RuntimeError, "Could not infer dtype of {type_name}"),
    "data_dims": (ValueError, "too many dimensions '{type_name}'"),
    "data_not_sequence": (TypeError, "not a sequence"),
    "data_length": (ValueError, "expected sequence of length {expected} at dim {dim} (got {got})"),
    "data_real": (TypeError, "must be real number, not {type_name}"),
    "data_integer": (TypeError, "'{type_name}' object cannot be interpreted as an integer"),
    "data_tensor_element": (ValueError, "only one element tensors can be converted to Python scalars"),
    "dtype_argument": (TypeError, "{api}(): argument 'dtype' must be torch.dtype, not {type_name}"),
    "default_dtype_object": (TypeError, "invalid dtype object: only floating-point types are supported as "
                                        "the default type"),
    "default_dtype_kind": (TypeError, "only floating-point types are supported as the default type"),
    "stack_empty": (RuntimeError, "stack expects a non-empty TensorList"),
    # torch.nn
    "parameter_type": (TypeError, "cannot assign '{type_name}' object to parameter '{name}' "
                                  "(torch.nn.Parameter or None required)"),
    "no_submodule": (AttributeError, "{module} has no attribute `{name}`"),
    "training_mode": (ValueError, "training mode is expected to be boolean"),
    "load_state_dict": (RuntimeError, "Error(s) in loading state_dict for {module}:\n\t{errors}"),
    "layer_norm_shape": (RuntimeError, "Given normalized_shape={shape}, expected input with shape "
                                       "[*, {dims}], but got input of size{size}"),
    "batch_norm_eval": (RuntimeError, "{name} must be defined in evaluation mode"),
    "variable_data": (TypeError, "Variable data has to be a tensor, but got {type_name}"),
    # torch.nn: module backward hooks, layers, init, functional
    "module_hook_no_inputs": (RuntimeError, "Cannot set Module backward hook for a Module with no input "
                                            "Tensors."),
    "module_hook_grad_input_count": (RuntimeError, "Backward hook returned an invalid number of grad_input, "
                                                   "got {got}, but expected {expected}"),
    "module_pre_hook_grad_output_count": (RuntimeError, "Backward pre hook returned an invalid number of "
                                                        "grad_output, got {got}, but expected {expected}"),
    "module_hook_no_input_grads": (RuntimeError, "Backward hook for Modules where no input requires gradient "
                                                 "should always return None or None for all gradients."),
    "norm_input_rank": (ValueError, "expected {ranks} input (got {got}D input)"),
    "scheduler_t0": (ValueError, "Expected positive integer T_0, but got {value}"),
    "scheduler_t_mult": (ValueError, "Expected integer T_mult >= 1, but got {value}"),
    "init_orthogonal_dims": (ValueError, "Only tensors with 2 or more dimensions are supported"),
    "index_out_of_bounds": (RuntimeError, "index {index} is out of bounds for dimension {dim} with size "
                                          "{size}"),
    "packed_unsorted": (RuntimeError, "`lengths` array must be sorted in decreasing order when "
                                      "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                                      "pack_padded_sequence and/or pack_sequence to sidestep this "
                                      "requirement if you do not need ONNX exportability."),
    "dropout_p": (ValueError, "dropout probability has to be between 0 and 1, but got {p}"),
    "channel_dropout_dims": (RuntimeError,
                             "{name}: Expected {unbatched}D or {batched}D input, but received a {dims}D "
                             "input. Note that {name} exists to provide channel-wise dropout on inputs "
                             "with {spatial} spatial dimension{plural}, a channel dimension, and an "
                             "optional batch dimension (i.e. {unbatched}D or {batched}D inputs)."),
    "glu_halving": (RuntimeError, "Halving dimension must be even, but dimension {dim} is size {size}"),
    "prelu_channels": (RuntimeError, "Mismatch of parameter numbers and input channel size. Found "
                                     "parameter numbers = {weights} and channel size = {channels}."),
    "instance_norm_features": (ValueError, "expected input's size at dim={dim} to match num_features "
                                           "({features}), but got: {got}."),
    "instance_norm_spatial": (ValueError, "Expected more than 1 spatial element when training, got "
                                          "input size torch.Size({shape})"),
    "module_no_forward": (NotImplementedError, 'Module [{name}] is missing the required "forward" function'),
    "function_no_forward": (NotImplementedError, "You must implement the forward function for custom "
                                                 "autograd.Function."),
    "function_no_setup_context": (NotImplementedError, "setup_context is not implemented."),
    "derivative_not_implemented": (NotImplementedError, "the derivative for '{name}' is not implemented."),
    "function_no_backward": (NotImplementedError, "You must implement either the backward or vjp method for "
                                                  "your custom autograd.Function to use it with backward "
                                                  "mode AD."),
    "conv_module_groups": (ValueError, "{channels} must be divisible by groups"),
    "init_eye_dims": (ValueError, "Only tensors with 2 dimensions are supported"),
    "init_nonlinearity": (ValueError, "Unsupported nonlinearity {nonlinearity}"),
    "init_fans": (ValueError, "Fan in and fan out can not be computed for tensor with fewer than 2 "
                              "dimensions"),
    "reduction": (ValueError, "{reduction} is not a valid value for reduction"),
    "vector_type": (TypeError, "expected torch.Tensor, but got: {type_name}"),
    # torch.func, torch.autograd.functional and gradcheck
    "func_grad_not_scalar": (RuntimeError, "grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                                           "Tensor, got tensor with {dims} dims. Maybe you wanted to use the "
                                           "vjp or jacrev APIs instead?"),
    "vmap_sizes": (ValueError, "vmap: Expected all tensors to have the same size in the mapped dimension, "
                               "got sizes {sizes} for the mapped dimension"),
    "functional_strict_no_grad": (RuntimeError, "Output {index} of the user-provided function does not "
                                                "require gradients. The outputs must be computed in a "
                                                "differentiable manner from the input when running in "
                                                "strict mode."),
    "functional_strict_independent": (RuntimeError, "Output {output} of the user-provided function is "
                                                    "independent of input {input}. This is not allowed in "
                                                    "strict mode."),
    "functional_strict_unreached": (RuntimeError, "The output of the user-provided function is "
                                                  "independent of input {index}. This is not allowed "
                                                  "in strict mode."),
    "functional_strict_grad_inputs": (RuntimeError, "The gradient with respect to input {index} is "
                                                    "independent of the inputs of the user-provided "
                                                    "function. This is not allowed in strict mode."),
    "functional_strict_jacobian": (RuntimeError, "While computing the hessian, found that the jacobian "
                                                 "of the user-provided function with respect to input "
                                                 "{index} is independent of the input. This is not "
                                                 "allowed in strict mode. You should ensure that your "
                                                 "function is twice differentiable and that the "
                                                 "jacobian depends on the inputs (this would be "
                                                 "violated by a linear function for example)."),
    "functional_strict_hessian": (RuntimeError, "The hessian of the user-provided function with "
                                                "respect to input {index} is independent of the input. "
                                                "This is not allowed in strict mode. You should ensure "
                                                "that your function is thrice differentiable and that "
                                                "the hessian depends on the inputs."),
    "functional_strict_back_trick": (RuntimeError, "The gradient with respect to the input is "
                                                   "independent of entry {index} in the grad_outputs "
                                                   "when using the double backward trick to compute "
                                                   "forward mode gradients. This is not allowed in "
                                                   "strict mode."),
    "functional_strict_double_back": (RuntimeError, "The jacobian of the user-provided function is "
                                                    "independent of input {index}. This is not allowed "
                                                    "in strict mode."),
    "functional_strict_double_back_trick": (RuntimeError, "The hessian of the user-provided function is "
                                                          "independent of entry {index} in the "
                                                          "grad_jacobian. This is not allowed in strict "
                                                          "mode as it prevents from using the double "
                                                          "backward trick to replace forward mode AD."),
    "functional_strict_create_graph": (RuntimeError, "The {what} of the user-provided function is "
                                                     "independent of input {index}. This is not allowed "
                                                     "in strict mode when create_graph=True."),
    "functional_single_tensor": (RuntimeError, "The function given to {api} should return a single "
                                               "Tensor"),
    "functional_single_element": (RuntimeError, "The Tensor returned by the function given to {api} "
                                                "should contain a single element"),
    "functional_v_none_input": (RuntimeError, "The vector v can only be None if the input to the "
                                              "user-provided function is a single Tensor with a "
                                              "single element."),
    "functional_v_none_output": (RuntimeError, "The vector v can only be None if the user-provided "
                                               "function returns a single Tensor with a single "
                                               "element."),
    "gradcheck_no_inputs": (ValueError, "gradcheck expects at least one input tensor to require gradient, "
                                        "but none of them have requires_grad=True."),
    "gradcheck_not_zero": (GradcheckError, "Numerical gradient for function expected to be zero"),
    "gradcheck_not_multiplied": (GradcheckError, "backward not multiplied by grad_output"),
    "gradcheck_undefined_grads": (GradcheckError, "Expected backward function to handle undefined output "
                                                  'grads. Please look at "Notes about undefined output '
                                                  'gradients" in "tools/autograd/derivatives.yaml"'),
    "gradcheck_zero_grads": (GradcheckError, "Expected all input grads to be undefined or zero when all "
                                             'output grads are undefined or zero. Please look at "Notes '
                                             'about undefined output gradients" in '
                                             '"tools/autograd/derivatives.yaml"'),
    # tensors
    "mm_matrix": (RuntimeError, "{name} must be a matrix"),
    "addmm_matrix": (RuntimeError, "{name} must be a matrix, got {ndim}-D tensor"),
    "scatter_src_size": (RuntimeError, "expected src to have a size equal to the slice of self. "
                                       "src size = {src}, slice size = {slice}"),
    "masked_scatter_source": (RuntimeError, "Number of elements of source < number of ones in mask"),
    "masked_scatter_mask": (RuntimeError,
                            "masked_scatter_ only supports boolean masks, but got mask with dtype {dtype}"),
    "cov_rank": (RuntimeError, "cov(): expected input to have two or fewer dimensions but got an input with "
                               "{ndim} dimensions"),
    "sections_positive": (RuntimeError, "number of sections must be larger than 0, got {count}"),
    "split_rank": (RuntimeError, "torch.{fn} requires a tensor with at least {least} dimension, but got a "
                                 "tensor with {ndim} dimensions!"),
    "split_divisible": (RuntimeError, "torch.{fn} attempted to split along dimension {dim}, but the size of "
                                      "the dimension {size} is not divisible by the split_size {sections}!"),
    "take_range": (IndexError,
                   "out of range: tried to access index {index} on a tensor of {count} elements."),
    "len_0d": (TypeError, "len() of a 0-d tensor"),
    "einsum_operands": (RuntimeError, "einsum(): {relation} operands were provided than specified in the "
                                      "equation"),
    # torch.amp.GradScaler
    "scaler_growth_factor": (AssertionError, "The growth factor must be > 1.0."),
    "scaler_backoff_factor": (AssertionError, "The backoff factor must be < 1.0."),
    "scaler_unscaled_twice": (RuntimeError, "unscale_() has already been called on this optimizer since "
                                            "the last update()."),
    "scaler_unscale_after_step": (RuntimeError, "unscale_() is being called after step()."),
    "scaler_closure": (RuntimeError, "Closure use is not currently supported if GradScaler is enabled."),
    "scaler_stepped_twice": (RuntimeError, "step() has already been called since the last update()."),
    "scaler_no_scale": (AssertionError, "Attempted {api} but _scale is None.  This may indicate your "
                                        "script did not use scaler.scale(loss or outputs) earlier in "
                                        "the iteration."),
    "scaler_no_inf_checks": (AssertionError, "No inf checks were recorded prior to update."),
    "scaler_empty_state": (RuntimeError, "The source state dict is empty, possibly because it was saved "
                                         "from a disabled instance of GradScaler."),
    "autocast_device_type": (ValueError, "Expected `device_type` of type `str`, got: `{type_name}`"),
    "invalid_device": (RuntimeError, "Invalid device string: '{device}'"),
    "unknown_device_type": (RuntimeError, "Expected one of {types} device type at start of device string: "
                                          "{device}"),
    # devices (measured on an NVIDIA GPU: python -m conformance.probes.torch_device)
    "not_compiled_with_cuda": (AssertionError, "Torch not compiled with CUDA enabled"),
    "no_accelerator": (RuntimeError, "Cannot access accelerator device when none is available."),
    "devices_differ": (RuntimeError, "Expected all tensors to be on the same device, but found at least "
                                     "two devices, {first} and {second}!"),
    "devices_differ_argument": (RuntimeError, "Expected all tensors to be on the same device, but got "
                                              "{argument} is on {device}, different from other tensors on "
                                              "{common} (when checking argument in method {kernel})"),
    "seed_device": (RuntimeError, "invalid gradient at index {index} - expected device {expected} but "
                                  "got {got}"),
    "grad_assign_device": (RuntimeError, "attempting to assign a gradient with device type '{got}' to a "
                                         "tensor with device type '{expected}'. Please ensure that the "
                                         "gradient and the tensor are on the same device"),
    "meta_copy_out": (NotImplementedError, "Cannot copy out of meta tensor; no data!"),
    "meta_item": (RuntimeError, "Tensor.item() cannot be called on meta tensors"),
    "meta_device_mix": (RuntimeError, "Tensor on device {device} is not on the expected device {expected}!"),
    "numpy_device": (TypeError, "can't convert {device} device type tensor to numpy. Use Tensor.cpu() to "
                                "copy the tensor to host memory first."),
    "hook_changed_type": (RuntimeError, "hook '{name}' has changed the type of value (was {was} got {got})"),
    "hook_changed_size": (RuntimeError, "hook '{name}' has changed the size of value"),
    "mm_dtype_device": (RuntimeError, "expected mat1 and mat2 to have the same dtype, but got: {a} != {b}"),
    "function_gradient_count": (RuntimeError, "function {name} returned an incorrect number of gradients "
                                              "(expected {expected}, got {got})"),
    "function_gradient_not_tensor": (RuntimeError, "function {name} returned a gradient different than None "
                                                   "at position {position}, but the corresponding forward "
                                                   "input was not a Variable"),
    "function_gradient_shape": (RuntimeError, "Function {name} returned an invalid gradient at index "
                                              "{index} - got {got} but expected shape compatible with "
                                              "{expected}"),
    "conv_input_rank": (RuntimeError, "Expected {unbatched}D (unbatched) or {batched}D (batched) input to "
                                      "{api}, but got input of size: {shape}"),
    "conv_weight_rank": (RuntimeError, "weight should have at least three dimensions"),
    "conv_groups": (RuntimeError, "Given groups={groups}, expected weight to be divisible by {groups} at "
                                  "dimension 0, but got weight of size {weight} instead"),
    "conv_channels": (RuntimeError, "Given groups={groups}, weight of size {weight}, expected input{input} "
                                    "to have {expected} channels, but got {got} channels instead"),
    "conv_kernel_size": (RuntimeError, "Calculated padded input size per channel: ({input}). Kernel size: "
                                       "({kernel}). Kernel size can't be greater than actual input size"),
    # torch.nn.Module.register_buffer
    "buffer_name_dot": (KeyError, 'buffer name can\'t contain "."'),
    "buffer_name_empty": (KeyError, 'buffer name can\'t be empty string ""'),
    "buffer_name_taken": (KeyError, "attribute '{name}' already exists"),
    "buffer_type": (TypeError, "cannot assign '{type_name}' object to buffer '{name}' (torch Tensor or None "
                               "required)"),
    # seeds and outputs
    "implicit_seed": (RuntimeError, "grad can be implicitly created only for scalar outputs"),
    "implicit_seed_dtype": (RuntimeError,
                            "grad can be implicitly created only for real scalar outputs but got "
                            "{dtype}"),
    "seed_type": (TypeError, "gradients can be either Tensors or None, but got {type_name}"),
    "seed_shape": (RuntimeError,
                   "Mismatch in shape: grad_output[{index}] has a shape of {grad_shape} and "
                   "output[{index}] has a shape of {out_shape}."),
    "seed_count": (RuntimeError, "got {tensors} tensors and {grads} gradients"),
    "not_iterable": (TypeError, "'{type_name}' object is not iterable"),
    "output_no_grad": (RuntimeError,
                       "element {index} of tensors does not require grad and does not have a "
                       "grad_fn"),
    # inputs of grad / backward(inputs=)
    "grad_inputs_empty": (RuntimeError, "`inputs` argument to `grad()` cannot be empty."),
    "backward_inputs_empty": (RuntimeError, "`inputs` argument to `backward()` cannot be empty."),
    "input_no_grad": (RuntimeError, "One of the differentiated Tensors does not require grad"),
    "unused_input": (RuntimeError,
                     "The differentiated Tensor at index {index} appears to not have been used "
                     "in the graph. Set allow_unused=True if this is the desired behavior."),
    "materialize_unused": (ValueError,
                           "Expected allow_unused to be True or not passed when "
                           "materialize_grads=True, but got: allow_unused=False."),
    "retain_no_grad": (RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"),
    "saved_detached_in_place": (
        RuntimeError,
        "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
        "This is not supported, please use out-of-place `.detach()` instead"),
    "no_grad_view_base_modified": (
        RuntimeError,
        "A view was created in no_grad mode and its base or another view of its base has been "
        "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
        "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
        "inplace either both inside the no_grad block (if you don't want the inplace to be "
        "tracked) or both outside (if you want the inplace to be tracked)."),
    "neg_bool": (RuntimeError,
                 "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                 "to invert a mask, use the `~` or `logical_not()` operator instead."),
    "sub_bool": (RuntimeError,
                 "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                 "trying to invert a mask, use the `~` or `logical_not()` operator instead."),
    "sub_two_bools": (RuntimeError,
                      "Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                      "the `^` or `logical_xor()` operator instead."),
    "partially_overlapping_in_place": (
        RuntimeError, "unsupported operation: some elements of the input tensor and the "
                      "written-to tensor refer to a single memory location. Please clone() the "
                      "tensor before performing the operation."),
    "overlapping_in_place": (RuntimeError,
                             "unsupported operation: more than one element of the written-to "
                             "tensor refers to a single memory location. Please clone() the "
                             "tensor before performing the operation."),
    "leaf_view_in_place": (RuntimeError,
                           "a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation."),
    "equal_argument": (TypeError, "equal(): argument '{arg}' (position {position}) must be Tensor, "
                                  "not {type_name}"),
    "nonfinite_total_norm": (RuntimeError,
                             "The total norm of order {norm_type} for gradients from `parameters` "
                             "is non-finite, so it cannot be clipped. To disable this error and "
                             "scale the gradients by the non-finite norm anyway, set "
                             "`error_if_nonfinite=False`"),
    "alpha_float": (RuntimeError, "For integral input tensors, argument alpha must not be a "
                                  "floating point number."),
    "dot_dtype": (RuntimeError, "dot : expected both vectors to have same dtype, but found {a} "
                                "and {b}"),
    "addmv_dtype": (RuntimeError, "addmv input tensors must have the same dtype, but got {vec}, "
                                  "{mat}, and {vec}"),
    "mm_dtype": (RuntimeError, "expected m1 and m2 to have the same dtype, but got: {a} != {b}"),
    "bmm_dtype": (RuntimeError, "expected scalar type {a} but found {b}"),
    "split_sizes_sum": (RuntimeError,
                        "split_with_sizes expects split_sizes to sum exactly to {size} (input "
                        "tensor's size at dimension {dim}), but got split_sizes={sizes}"),
    "split_sizes_negative": (RuntimeError,
                             "split_with_sizes expects split_sizes have only non-negative "
                             "entries, but got split_sizes={sizes}"),
    "split_size_zero": (RuntimeError, "split_size can only be 0 if dimension size is 0, but got "
                                      "dimension size of {size}"),
    "split_size_negative": (RuntimeError,
                            "split expects split_size be non-negative, but got split_size={split}"),
    "chunk_count": (RuntimeError, "chunk expects `chunks` to be greater than 0, got: {chunks}"),
    "roll_dims": (RuntimeError, "shifts and dimensions must align. shifts: {shifts}, dims:{dims}"),
    "diag_rank": (RuntimeError, "diag(): Supports 1D or 2D tensors. Got {ndim}D"),
    "narrow_range": (RuntimeError,
                     "start ({start}) + length ({length}) exceeds dimension size ({size})."),
    "topk_range": (RuntimeError, "selected index k out of range"),
    "topk_bool": (RuntimeError, "topk does not support bool dtypes on CPU"),
    "arg_extremum_bool": (RuntimeError, "{fn}(): does not support bool input"),
    "abs_bool": (NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
    "bitwise_float": (NotImplementedError, "\"{name}_cpu\" not implemented for 'Float'"),
    "bincount_input": (RuntimeError, "bincount only supports 1-d non-negative integral inputs."),
    "bincount_weights": (RuntimeError, "weights should be 1-d and have the same length as input"),
    "bincount_minlength": (RuntimeError, "minlength should be >= 0"),
    "multinomial_samples": (RuntimeError,
                            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    "hook_replaced_none": (RuntimeError, "can't replace a None gradient with a non-None value"),
    "split_view_in_place": (
        RuntimeError,
        "Output {index} of {name} is a view and is being modified inplace. This view is the "
        "output of a function that returns multiple views. Such functions do not allow the "
        "output views to be modified inplace. You should replace the inplace operation by an "
        "out-of-place one."),
    "split_view_base_modified": (
        RuntimeError,
        "Output {index} of {name} is a view and its base or another view of its base has been "
        "modified inplace. This view is the output of a function that returns multiple views. "
        "Such functions do not allow the output views to be modified inplace. You should "
        "replace the inplace operation by an out-of-place one."),
    "view_of_no_grad_view_in_place": (
        RuntimeError,
        "Output 0 of {name} is a view of a view which was created in no_grad mode and is being "
        "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
        "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
        "inplace either both inside the no_grad block (if you don't want the inplace to be "
        "tracked) or both outside (if you want the inplace to be tracked)."),
    "no_grad_view_in_place": (RuntimeError,
                              "A view was created in no_grad mode and is being modified inplace with "
                              "grad mode enabled. Given that this use case is ambiguous and "
                              "error-prone, it is forbidden. You can clarify your code by moving both "
                              "the view and the inplace either both inside the no_grad block (if you "
                              "don't want the inplace to be tracked) or both outside (if you want the "
                              "inplace to be tracked)."),
    # graph lifetime and in-place
    "leaf_moved_into_graph": (RuntimeError, "leaf variable has been moved into the graph interior"),
    "freed": (RuntimeError,
              "Trying to backward through the graph a second time (or directly access saved "
              "tensors after they have already been freed). Saved intermediate values of the "
              "graph are freed when you call .backward() or autograd.grad(). Specify "
              "retain_graph=True if you need to backward through the graph a second time or if "
              "you need to access saved tensors after calling backward."),
    "version": (RuntimeError,
                "one of the variables needed for gradient computation has been modified by an "
                "inplace operation: [{type_name} {shape}]{origin} is at version {version}; "
                "expected version {expected} instead. Hint: enable anomaly detection to find "
                "the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."),
    "leaf_in_place": (RuntimeError,
                      "a leaf Variable that requires grad is being used in an in-place "
                      "operation."),
    "in_place_cast": (RuntimeError,
                      "result type {got} can't be cast to the desired output type {want}"),
    "in_place_broadcast": (RuntimeError,
                           "output with shape {shape} doesn't match the broadcast shape {broadcast}"),
    "differentiated_twice": (RuntimeError, "trying to differentiate twice a function that was "
                                           "marked with @once_differentiable"),
    # a custom function's ctx.mark_dirty
    "dirty_leaf": (RuntimeError,
                   "a leaf Variable that requires grad has been used in an in-place operation."),
    "dirty_not_returned": (RuntimeError,
                           "Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all be "
                           "outputs of the Function."),
    # flags and hooks
    "non_leaf_flag_on": (RuntimeError,
                         "you can only change requires_grad flags of leaf variables."),
    "non_leaf_flag": (RuntimeError,
                      "you can only change requires_grad flags of leaf variables. If you want to "
                      "use a computed variable in a subgraph that doesn't require differentiation "
                      "use var_no_grad = var.detach()."),
    "int_requires_grad_ctor": (RuntimeError,
                               "Only Tensors of floating point and complex dtype can require "
                               "gradients"),
    "int_requires_grad_method": (RuntimeError,
                                 "only Tensors of floating point dtype can require gradients"),
    "int_requires_grad_setter": (RuntimeError,
                                 "only Tensors of floating point and complex dtype can require "
                                 "gradients"),
    "hook_no_grad": (RuntimeError,
                     "cannot register a hook on a tensor that doesn't require gradient"),
    "inference_saved": (RuntimeError,
                        "Inference tensors cannot be saved for backward. Please do not use Tensors "
                        "created in inference mode in computation tracked by autograd. To work "
                        "around this, you can make a clone to get a normal tensor and use it in "
                        "autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."),
    "detach_view": (RuntimeError,
                    "Can't detach views in-place. Use detach() instead. If you are using "
                    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                    "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                    "called on these gradients. To fix this error, please refer to the "
                    "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."),
    "inference_version": (RuntimeError, "Inference tensors do not track version counter."),
    "inference_in_place": (RuntimeError,
                           "Inplace update to inference tensor outside InferenceMode is not "
                           "allowed.You can make a clone to get a normal tensor before doing "
                           "inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
                           "details."),
    "anomaly_nan": (RuntimeError, "Function '{name}' returned nan values in its {index}th output."),
    "post_accumulate_non_leaf": (RuntimeError,
                                 "post accumulate grad hooks cannot be registered on non-leaf "
                                 "tensors"),
    "zero_tensor_numpy": (RuntimeError, " Cannot convert a ZeroTensor to numpy. Set force=True "
                                        "if you need the zero array."),
    "zero_tensor_tolist": (RuntimeError,
                           "tolist() shouldn't be called on a tensor with unallocated storage"),
    "zero_tensor_immutable": (RuntimeError,
                              "ZeroTensors are immutable. Please use the materialized zero tensor "
                              "obtained using .clone() if you want a mutable tensor."),
    "numpy_requires_grad": (RuntimeError,
                            "Can't call numpy() on Tensor that requires grad. Use "
                            "tensor.detach().numpy() instead."),
    "grad_assign_type": (TypeError,
                         "assigned grad expected to be a Tensor or None but got grad of type "
                         "{type_name}"),
    "grad_assign_shape": (RuntimeError,
                          "attempting to assign a gradient of size '{grad_shape}' to a tensor of "
                          "size '{shape}'. Please ensure that the gradient and the tensor are the "
                          "same size"),
    "grad_assign_dtype": (RuntimeError,
                          "attempting to assign a gradient with dtype '{grad_dtype}' to a tensor "
                          "with grad_dtype '{dtype}'. The gradient must match the tensor's "
                          "grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                          "grad_dtype attribute with a specific dtype, or None to allow any "
                          "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor "
                          "and its gradient may break downstream systems that assume they "
                          "match."),
    "item": (RuntimeError, "a Tensor with {numel} elements cannot be converted to Scalar"),
    # argument errors of operations
    "tensor_argument": (TypeError,
                        "{fn}(): argument '{arg}' (position {position}) must be Tensor, not {type_name}"),
    "invalid_combination": (TypeError, "{fn}() received an invalid combination of arguments - got ({got}), "
                                       "but expected one of:\n{signatures}\n"),
    "broadcast": (RuntimeError,
                  "The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at "
                  "non-singleton dimension {dim}"),
    "dim_range": (IndexError,
                  "Dimension out of range (expected to be in range of [{low}, {high}], but got "
                  "{dim})"),
    "matmul_type": (TypeError,
                    "matmul(): argument '{arg}' (position {position}) must be Tensor, not "
                    "{type_name}"),
    "matmul_0d": (RuntimeError,
                  "both arguments to matmul need to be at least 1D, but they are {ndim_a}D and "
                  "{ndim_b}D"),
    "matmul_dot_shape": (RuntimeError,
                         "inconsistent tensor size, expected tensor [{numel_a}] and src "
                         "[{numel_b}] to have the same number of elements, but got {numel_a} and "
                         "{numel_b} elements respectively"),
    "matmul_mv_shape": (RuntimeError,
                        "size mismatch, got input ({rows}), mat ({rows}x{k_a}), vec ({k_b})"),
    "matmul_mm_shape": (RuntimeError,
                        "mat1 and mat2 shapes cannot be multiplied ({rows}x{k_a} and {b})"),
    "matmul_bmm_shape": (RuntimeError,
                         "Expected size for first two dimensions of batch2 tensor to be: "
                         "[{batch}, {k_a}] but got: [{batch}, {k_b}]."),
    "reshape": (RuntimeError, "shape '{shape}' is invalid for input of size {size}"),
    "expand": (RuntimeError,
               "The expanded size of the tensor ({size}) must match the existing size ({have}) "
               "at non-singleton dimension {dim}.  Target sizes: {shape}.  Tensor sizes: {old}"),
    "expand_rank": (RuntimeError,
                    "expand(torch.FloatTensor{{{old}}}, size={shape}): the number of sizes "
                    "provided ({count}) must be greater or equal to the number of dimensions in "
                    "the tensor ({ndim})"),
    "expand_negative": (RuntimeError,
                        "The expanded size of the tensor (-1) isn't allowed in a leading, "
                        "non-existing dimension 0"),
    "permute_len": (RuntimeError,
                    "permute(sparse_coo): number of dimensions in the tensor input does not match "
                    "the length of the desired ordering of dimensions i.e. input.dim() = {ndim} "
                    "is not equal to len(dims) = {count}"),
    "permute_repeat": (RuntimeError, "permute(): duplicate dims are not allowed."),
    "t_rank": (RuntimeError, "{fn}() expects a tensor with <= 2 dimensions, but self is {ndim}D"),
    "cat_rank": (RuntimeError,
                 "Tensors must have same number of dimensions: got {ndim_a} and {ndim_b}"),
    "cat_size": (RuntimeError,
                 "Sizes of tensors must match except in dimension {dim}. Expected size "
                 "{expected} but got size {got} for tensor number {index} in the list."),
    "stack_size": (RuntimeError,
                   "stack expects each tensor to be equal size, but got {shape_a} at entry 0 and "
                   "{shape_b} at entry {index}"),
    "index": (IndexError, "{detail}"),
    "matrix_attribute": (RuntimeError,
                         "tensor.{name} is only supported on {what}. Got {ndim}-D tensor.{hint}"),
    "index_type": (IndexError,
                   "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                   "Variables are valid indices (got {type_name})"),
    "arg_type": (TypeError,
                 "{fn}(): argument '{arg}' (position {position}) must be {expected}, not {type_name}"),
    "tensor_list_type": (TypeError,
                         "{fn}(): argument 'tensors' (position 1) must be tuple of Tensors, not {type_name}"),
    "clamp_no_bounds": (RuntimeError,
                        "torch.clamp: At least one of 'min' or 'max' must not be None"),
    "where_condition": (RuntimeError,
                        "where expected condition to be a boolean tensor, but got a tensor with "
                        "dtype {dtype}"),
    "mean_dtype": (RuntimeError,
                   "mean(): could not infer output dtype. Input dtype must be either a floating "
                   "point or complex dtype. Got: {dtype}"),
    "empty_reduction": (RuntimeError,
                        "{op}(): Expected reduction dim to be specified for input.numel() == 0. "
                        "Specify the reduction dim with the 'dim' argument."),
    "bad_dtype": (TypeError, "unsupported dtype {dtype}"),
}
TORCH_ERRORS["stack_rank"] = TORCH_ERRORS["stack_size"]  # torch words a rank mismatch alike

TORCH_WARNINGS: dict[str, tuple[type[Warning], str]] = {
    "cov_degrees_of_freedom": (UserWarning, "cov(): degrees of freedom is <= 0. Correction should be "
                                            "strictly less than the number of observations."),
    "uint8_index": (UserWarning, "indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                                 "torch.bool instead."),
    "dropout2d_3d": (UserWarning,
                     "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
                     "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
                     "the channel dim. This behavior will change in a future release to interpret the "
                     "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
                     "channel-wise dropout behavior, please switch to using dropout1d instead."),
    "kl_div_mean": (UserWarning, "reduction: 'mean' divides the total loss by both the batch size and "
                                 "the support size.'batchmean' divides only by the batch size, and aligns "
                                 "with the KL div math definition.'mean' will be changed to behave the same "
                                 "as 'batchmean' in the next major release."),
    "autocast_no_cuda": (UserWarning, "CUDA is not available or torch_xla is imported. Disabling autocast."),
    "autocast_cpu_dtype": (UserWarning, "In CPU autocast, but the target dtype is not supported. Disabling "
                                        "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                                        "torch.float16 currently."),
    "full_backward_hook_no_inputs": (
        UserWarning, "Full backward hook is firing when gradients are computed with respect to module "
        "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
        "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details."),
    "list_of_arrays": (UserWarning,
                       "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please "
                       "consider converting the list to a single numpy.ndarray with numpy.array() "
                       "before converting to a tensor."),
    "loss_target_size": (UserWarning,
                         "Using a target size ({target}) that is different to the input size "
                         "({input}). This will likely lead to incorrect results due to "
                         "broadcasting. Please ensure they have the same size."),
    "anomaly_enabled": (UserWarning,
                        "Anomaly Detection has been enabled. This mode will increase the runtime "
                        "and should only be enabled for debugging."),
    "non_leaf_grad": (UserWarning,
                      "The .grad attribute of a Tensor that is not a leaf Tensor is being "
                      "accessed. Its .grad attribute won't be populated during "
                      "autograd.backward(). If you indeed want the .grad field to be populated "
                      "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
                      "access the non-leaf Tensor by mistake, make sure you access the leaf "
                      "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
                      "information."),
    "backward_create_graph": (UserWarning,
                              "Using backward() with create_graph=True will create a reference "
                              "cycle between the parameter and its gradient which can cause a "
                              "memory leak. We recommend using autograd.grad when creating the "
                              "graph to avoid this. If you have to use this function, make sure "
                              "to reset the .grad fields of your parameters to None after use "
                              "to break the cycle and avoid the leak."),
    "only_inputs": (FutureWarning,
                    "only_inputs argument is deprecated and is ignored now (defaults to True). "
                    "To accumulate gradient for other parts of the graph, please use "
                    "torch.autograd.backward."),
}


class VisibleDeprecationWarning(UserWarning):
    """paddle's category for its deprecated APIs (``paddle.utils.deprecated``)."""


PADDLE_WARNINGS: dict[str, tuple[type[Warning], str]] = {
    "gradient_deprecated": (VisibleDeprecationWarning,
                            '\x1b[93m\nWarning:\nAPI "paddle.base.dygraph.tensor_patch_methods.'
                            'gradient" is deprecated since 2.1.0, and will be removed in future '
                            'versions.\n    Reason: Please use tensor.grad, which returns the tensor '
                            'value of the gradient. \x1b[0m'),
    "to_tensor_of_tensor": (UserWarning, "To copy construct from a tensor, it is recommended to use "
                                         "sourceTensor.clone().detach(), rather than "
                                         "paddle.to_tensor(sourceTensor)."),
    "batch_norm_training": (UserWarning, "When training, we now always track global mean and variance."),
    "amp_guard_cpu": (UserWarning, "amp_guard can only be enabled on CUDAPlace, XPUPlace, and CustomPlace, "
                                   "current place is Place(cpu), so it makes no effect."),
    "amp_scaler_cpu": (UserWarning, "AmpScaler can only be enabled on CUDAPlace, XPUPlace and CustomPlace, "
                                    "current place is Place(cpu), so it makes no effect."),
}


class NotModelledError(AttributeError, NotImplementedError):
    """A name of the framework's API that the reference engine does not model. An
    ``AttributeError``, so that ``hasattr`` and ``getattr(..., default)`` answer as they do for
    any absent name; its message says the reference lacks it, so a program never silently runs
    something else."""


def no_attribute(module: str, name: str) -> AttributeError:
    """Python's error for a name a module lacks (``module.__getattr__`` raises it for names the
    import system probes, such as ``__path__``)."""
    return AttributeError(f"module {module!r} has no attribute {name!r}")


def not_supported(what: str, framework: Optional[str] = None) -> NotImplementedError:
    """The reference engine's refusal of a form of an API it has but does not model in full
    (``what``: "dropout along an axis"), so a program never silently runs something else."""
    engine = f"reference_engine.{framework}" if framework else "the reference engine"
    return NotImplementedError(f"{engine} does not model {what}")


def not_modelled(framework: str, name: str) -> NotModelledError:
    """The error for ``framework.name`` (``torch.einsum``) on the reference facade."""
    return NotModelledError(f"module '{framework}' has no attribute '{name}' (reference_engine."
                       f"{framework} does not model {framework}.{name})")


class UndefinedInFrameworkError(ValueError):
    """Raised by the reference engine where the framework's own result is undefined behaviour.

    Paddle 3.3.1 does not check the shape of seeds passed to ``paddle.grad`` and
    ``paddle.autograd.backward``: a smaller seed is read past its end (uninitialised values), a
    larger one is truncated. No value is right there, so the reference refuses instead.
    """


PADDLE_ERRORS: dict[str, tuple[type[Exception], str]] = {
    "qr_not_differentiable_r": (
        ValueError, "(InvalidArgument) The derivative of qr is not implemented when mode='r'."),
    "qr_not_differentiable_tall": (
        ValueError, "(InvalidArgument) The derivative of qr is not implemented when mode='complete' and "
                    "{m} > {n}."),
    "tensor_list_type": (ValueError, "(InvalidArgument) {fn}(): argument 'x' (position 0) must be list of "
                                     "Tensors, but got {type_name}"),
    # stack's shapes: the first dimension that differs, or the ranks
    "stack_size": (ValueError, "(InvalidArgument) The {dim}-th dimension of input[0] and input[{index}] is "
                               "expected to be equal.But received input[0]'s shape = {shape_a}, "
                               "input[{index}]'s shape = {shape_b}."),
    "stack_rank": (ValueError, "(InvalidArgument) The shape of input[0] and input[{index}] is expected to "
                               "be equal.But received input[0]'s shape = {shape_a}, input[{index}]'s shape "
                               "= {shape_b}."),
    "no_device_to_synchronize": (TypeError, "device should be gpu, xpu, "),
    "cpu_only_api": (ValueError, "The API {api} is not supported in CPU-only PaddlePaddle. Please reinstall "
                                 "PaddlePaddle with GPU or custom device support to call this API."),
    "conv_input_rank": (ValueError, "Input x should be {rank}D tensor, but received x with the shape of "
                                    "paddle.Size({shape})"),
    "integer_division_by_zero": (EnforceNotMet, "() InvalidArgumentError: Integer division by zero "
                                                "encountered in (floor/trunc) divide. Please check the "
                                                "input value."),
    "comparison_operand": (ValueError, "(InvalidArgument) {api}(): argument 'y' (position 1) must be "
                                       "Tensor, but got {type_name}"),
    "rnn_create_graph": (ValueError, "(InvalidArgument) Required tensor shall not be nullptr, but received "
                                     "nullptr."),
    "lbfgs_line_search": (RuntimeError, "only 'strong_wolfe' is supported"),
    "cross_no_axis_of_3": (ValueError, "(InvalidArgument) There must be at least one dimension 'd' "
                                       "so that Input(X/Y).dims()[d] is equal to 3. But received: "
                                       "Input(X/Y).dims() == {shape}."),
    "in_place_broadcast": (ValueError, "The shape of broadcast output {broadcast} is different "
                                       "from that of inplace tensor paddle.Size({shape}) in the "
                                       "Inplace operation."),
    "len_0d": (AssertionError, "len() of a 0-D tensor is wrong"),
    "dropout_p": (ValueError, "p argument should between 0 and 1"),
    "einsum_operands": (AssertionError, "Invalid equation: the number of operands is {operands}, but "
                                        "found {segments} segments in the label equation."),
    "none_argument": (AssertionError, "{name} should not be None"),
    "module_no_forward": (NotImplementedError, ""),
    "pylayer_no_forward": (NotImplementedError, "You must implement the forward function for PyLayer."),
    "pylayer_no_backward": (NotImplementedError, "You must implement the backward function for PyLayer."),
    # an error raised by a program's hook or PyLayer backward, as paddle's C++ backward passes it on
    "external": (OSError, "(External) {error}\n\nAt:\n{frames}\n"),
    "external_node": (OSError, "(External) \n{{\n    {banner} Error message in backward of {node}"
                               "(0x{address:x}){banner}\n    {error}\n    \n    At:\n{frames}\n    \n"
                               "    {footer}\n    \n}}\n"),
    "set_value_shape": (AssertionError, "Variable Shape not match, Variable [ {name} ] need tensor with "
                                        "shape {shape} but load set tensor with shape {given}"),
    "no_cuda_device": (ValueError, "No available device found."),
    "apply_requires_grad": (RuntimeError, "Cannot apply function on a tensor that required gradient."),
    "cuda_place": (ValueError, "(InvalidArgument) use wrong place, Please check."),
    # the slice and set_value kernels (measured on 3.3.1; an index's own error comes first)
    "slice_rank": (ValueError, "(InvalidArgument) The rank of input should be less than 7."),
    "set_value_rank": (ValueError, "(InvalidArgument) The rank of input should be less than 7, but "
                                   "received {ndim}."),
    "cuda_not_compiled": (RuntimeError, "(Unavailable) Paddle is not compiled with CUDA. Cannot visit device "
                                        "synchronize."),
    "device_not_compiled": (ValueError, "The device should not be '{device}', since PaddlePaddle is not "
                                        "compiled with CUDA"),
    # paddle.autograd.jacobian / hessian
    "jacobian_ndim": (ValueError, "{name}.ndim should be {low} or {high} when is_batched={batched} but "
                                  "got {ndim}"),
    "jacobian_0d_index": (IndexError, "0-D tensor can not be indexed."),
    "jacobian_batch_axis": (ValueError, "batch_axis should be None or 0, but got {batch_axis}."),
    "hessian_not_scalar": (ValueError, "Only support ys.numel()({size})==1 when batch_axis is None."),
    "hessian_batch_not_scalar": (ValueError, "Only support ys[0].numel()({size})==1 when batch_axis is int"),
    "hessian_batch_axis": (ValueError, "Only support batch_axis=0 yet."),
    "hessian_batch_axis_type": (ValueError, "batch_axis should be None or int, but got {type}."),
    # paddle.nn
    "loss_reduction": (ValueError, "The value of 'reduction' in {api} should be 'sum', 'mean' or 'none', "
                                   "but received {reduction}, which is not allowed."),
    "dropout_mode": (ValueError, "mode argument should be 'downscale_in_infer' or 'upscale_in_train'"),
    "norm_input_rank": (ValueError, "expected {ranks} input (got {got}D input)"),
    "to_tensor_dtype": (TypeError, "dtype must be any of [bool, float16, uint16, float32, float64, int8, "
                                   "int16, int32, int64, uint8, complex64, complex128, bfloat16], but "
                                   "received {dtype}"),
    "default_dtype_type": (TypeError, "set_default_dtype only supports [float16, float32, float64] , but "
                                      "received {name}"),
    "default_dtype": (TypeError, "set_default_dtype only supports [float16, float32, float64, bfloat16] , "
                                 "but received {dtype}"),
    # paddle.optimizer and paddle.optimizer.lr
    "scheduler_t0": (ValueError, "Expected positive integer T_0, but got {value}"),
    "scheduler_t_mult": (ValueError, "Expected integer T_mult >= 1, but got {value}"),
    "one_cycle_strategy": (ValueError, "'anneal_strategy' must by one of 'cos' or 'linear', but received "
                                       "{strategy}"),
    "one_cycle_past_end": (ValueError, "Tried to step {step} times. However the number of total steps is "
                                       "{total}"),
    "set_lr_with_scheduler": (RuntimeError, "optimizer's learning rate can't be LRScheduler when invoke this "
                                            "API, because this will lead to conflict."),
    "set_lr_type": (TypeError, "The type of 'value' in optimizer.set_lr must be float, but received "
                               "{type_name}."),
    "set_lr_scheduler_type": (TypeError, "The type of 'scheduler' in optimizer.set_lr_scheduler must be "
                                         "LRScheduler, but received {type_name}."),
    "minimize_loss_type": (AssertionError, "The loss should be an Tensor."),
    "lr_type": (TypeError, "The type of learning rate must be float, but received {type}"),
    "lr_step_size_type": (TypeError, "The type of 'step_size' must be 'int', but received {type}."),
    "lr_gamma": (ValueError, "gamma should be < 1.0."),
    "lr_milestones": (ValueError, "The elements of milestones must be incremented"),
    "lr_exponential_gamma": (AssertionError, " 'gamma' must be in interval (0.0, 1.0) so that the "
                                             "learning rate will decay."),
    "lr_lambda_type": (TypeError, "The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but "
                                  "received {type}."),
    "lr_t_max_type": (TypeError, "The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but "
                                 "received {type}."),
    # paddle.nn.Layer.register_buffer
    "buffer_name_dot": (KeyError, "The name of buffer can not contain `.`, because when you access the "
                                  "newly added buffer in the form of `self.**.**`, it will cause "
                                  "AttributeError."),
    "buffer_name_empty": (KeyError, "The name of buffer can not be empty."),
    "buffer_name_taken": (KeyError, "attribute '{name}' already exists."),
    "buffer_type": (TypeError, "The registered buffer should be a Paddle.Tensor, but received {type_name}."),
    "hook_replaced_none": (RuntimeError, "(PermissionDenied) The tensor in before and after hook "
                                         "are not consistent"),
    "equal_all_argument": (ValueError, "(InvalidArgument) equal_all(): argument '{arg}' (position "
                                       "{position}) must be Tensor, but got {got}"),
    "dtype_container": (ValueError,
                        "(InvalidArgument) The type of data we are trying to retrieve ({want}) does "
                        "not match the type of data ({have}) currently contained in the container."),
    "label_negative": (IndexError, "(OutOfRange) label value should >= 0 when label value({label}) not equal "
                                   "to ignore_index({ignore_index})"),
    "label_too_large": (IndexError,
                        "(OutOfRange) label value should less than the shape of axis dimension when label "
                        "value({label}) not equal to ignore_index({ignore_index}), But received label value "
                        "as {label} and shape of axis dimension is {classes}"),
    "chunk_count": (ValueError,
                    "The value of 'chunks' must be greater than 0 and less than or equal to the "
                    "size of the dimension specified by 'axis', but received chunks={chunks} and "
                    "x.shape[axis]={size}."),
    "split_num": (ValueError,
                  "(InvalidArgument) The input's size along the split dimension must be evenly "
                  "divisible by Attr(num_or_sections). But received Attr(num_or_sections) = {num}, "
                  "input(X)'s shape = {shape}, Attr(dim) = {dim}."),
    "split_sections": (ValueError,
                       "(InvalidArgument) Sum of Attr(num_or_sections) must be equal to the input's "
                       "size along the split dimension. But received Attr(num_or_sections) = "
                       "{sections}, input(X)'s shape = {shape}, Attr(dim) = {dim}."),
    "unbind_axis": (ValueError, "The axis must in range({low}, {high})."),
    "unstack_axis": (ValueError, "`axis` must be in the range [{low}, {high})"),
    "weight_norm_dim": (AssertionError, "dim must set between [-R, R), R means the dimension of weight."),
    "median_axis": (ValueError, "In median, axis should be none or an integer in range [-rank(x), rank(x))."),
    "nanmedian_axis": (ValueError, "(InvalidArgument) each element of the axis should be in the range "
                                   "[ -dimension(X), dimension(X) ) which dimension = {ndim}. But "
                                   "received axis = {axis}."),
    "median_mode": (ValueError, "Mode {mode} is not supported. Must be avg or min."),
    "selection_axis": (ValueError, "(InvalidArgument) the axis must be [-{ndim}, {ndim}), but received "
                                   "{axis} ."),
    "kthvalue_k": (ValueError, "(InvalidArgument) input of kthvalue must have >= {k} columns in axis "
                               "of {axis}"),
    "quantile_q_empty": (ValueError, "q should not be empty"),
    "quantile_q_range": (ValueError, "q should be in range [0, 1]"),
    "quantile_interpolation": (ValueError, "interpolation must be one of 'linear', 'lower', 'higher', "
                                           "'nearest' or 'midpoint', but got {interpolation}"),
    "quantile_axis": (ValueError, "Axis should be None, int, or a list, element should in range "
                                  "[-rank(x), rank(x))."),
    "bitwise_float": (RuntimeError, "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float32) "
                                    "of kernel `{name}` is not registered. Selected wrong DataType "
                                    "`float32`. Paddle support following DataTypes: int16, int32, uint8, "
                                    "bool, int64, int8."),
    "diff_order": (ValueError, "Diff expects input to be at least one-dimensional but got {n}"),
    "kernel_dtype": (RuntimeError, "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dtype}) of "
                                   "kernel `{kernel}` is not registered. Selected wrong DataType `{dtype}`. "
                                   "Paddle support following DataTypes: {supported}."),
    "roll_dims": (ValueError, "(InvalidArgument) When dims.size() != 0, dims.size() should be equal "
                              "to shifts.size(). But received dims.size() = {dims}, shifts.size() "
                              "= {shifts}"),
    "diag_rank": (ValueError, "(InvalidArgument) The input tensor X's dimensions of DiagV2Op should "
                              "be either 1 or 2, but received {ndim}."),
    "topk_range": (ValueError, "(InvalidArgument) The rank ({k}) of the input 'k' for topk op must "
                               "be less than or equal to {size}."),
    "topk_positive": (ValueError, "(InvalidArgument) the attribute of k in the topk must >= 1 or be "
                                  "a Tensor, but received {k} ."),
    "empty_tensor_list": (ValueError, "(InvalidArgument) {fn}(): argument '{arg}' (position 0) must be "
                                      "list of Tensors, but got empty list"),
    "trace_rank": (IndexError, "(OutOfRange) Input(x)'s dim is out of range (expected at least 2, "
                               "but got {ndim})."),
    "index_out_of_range": (IndexError,
                           "(OutOfRange) The starting index {index} of slice is out of bounds in "
                           "tensor {axis}-th axis, it should be in the range of [{low}, {high})."),
    "where_condition": (ValueError,
                        "The `condition` is expected to be a boolean Tensor, but got a Tensor "
                        "with dtype paddle.{dtype}"),
    "tensor_argument": (ValueError,
                        "(InvalidArgument) {fn}(): argument '{arg}' (position {position}) must be "
                        "Tensor, but got {got}"),
    "operator_operand": (TypeError, "(InvalidType) {operator}(): argument (position 1) must be int, float, "
                                    "bool or Tensor, but got {type_name}"),
    # paddle.autograd.backward / Tensor.backward / paddle.grad argument checks (Python side)
    "empty_list": (AssertionError, "{name} cannot be empty"),
    "not_tensor_list": (AssertionError, "{name} must be Tensor or list of Tensor"),
    "element_not_tensor": (AssertionError, "Elements of {name} must be {kind}"),
    "backward_duplicate": (AssertionError,
                           "The argument 'tensors' of paddle.autograd.backward contains duplicate "
                           "paddle.Tensor object."),
    "backward_seed_type": (AssertionError,
                           "The argument 'grad_tensors' of paddle.autograd.backward is invalid, it "
                           "can be 'None', 'paddle.Tensor' or 'list[None/paddle.Tensor]'."),
    "backward_seed_count": (AssertionError, "The length of grad_tensors must be equal to tensors"),
    "backward_retain_type": (AssertionError, "retain_graph must be True or False"),
    "tensor_backward_seed_type": (AssertionError, "The type of grad_tensor must be paddle.Tensor"),
    "tensor_backward_seed_shape": (AssertionError,
                                   "Tensor shape not match, Tensor of grad_tensor [ {seed_name} ] "
                                   "with shape {seed_shape} mismatch Tensor [ {name} ] with shape "
                                   "{shape}"),
    "grad_seed_type": (AssertionError,
                       "grad_outputs must be None, a Variable or a list containing None or "
                       "Variables"),
    "grad_seed_count": (AssertionError, "The length of grad_outputs must be equal to outputs"),
    "no_grad_vars_type": (AssertionError,
                          "no_grad_vars must be None, Tensor or list/tuple/set of Tensors"),
    "no_grad_vars_element": (AssertionError, "no_grad_vars can only contains Tensor"),
    "flag_type": (AssertionError, "{name} must be True or False"),
    "grad_retain_type": (AssertionError, "retain_graph must be None, True or False"),
    "only_inputs": (AssertionError, "only_inputs=False is not supported yet"),
    # the C++ engine
    "duplicate_outputs": (RuntimeError,
                          "(AlreadyExists) outputs contain duplicate tensor {name}, please check "
                          "outputs carefully."),
    "duplicate_inputs": (RuntimeError,
                         "(AlreadyExists) inputs contain duplicate tensor {name}, please check "
                         "inputs carefully."),
    "unused_input": (ValueError,
                     "(InvalidArgument) The {index}-th input does not appear in the backward "
                     "graph. Please check the input tensor or set allow_unused=True to get None "
                     "result."),
    "one_hot_index": (ValueError, "(InvalidArgument) Illegal index value, Input(input) value should be "
                                  "less than Input(depth), but received input ({value}) not less than depth "
                                  "({depth})"),
    "accuracy_label_dims": (ValueError, "(InvalidArgument) ShapeError: label's dimensions of AccuracyOp "
                                        "must be 2. But received label's dimensions = {dims}, label's "
                                        "shape = {shape}"),
    "no_grad_op": (SystemError,
                   "(Fatal) There is no grad op for {which}:[{index}] or it's stop_gradient=True."),
    "empty_grad_slot": (SystemError,
                        "(Fatal) Unable to fill empty grad inputs due to empty GradSlotMeta"),
    "freed": (SystemError,
              "(Fatal) The TensorWrappers of {name} do not exist. This may be because:\nYou "
              "calculate backward twice for the same subgraph without setting retain_graph=True. "
              "Please set retain_graph=True in the first backward/grad call."),
    "t_rank": (ValueError, "Input(input) only support N-D (N<=2) tensor, but received length of "
                           "Input(input) is {ndim}. Perhaps you can use paddle.tensor.transpose() instead."),
    "leaf_setitem": (ValueError,
                     "(InvalidArgument) Leaf Tensor ({name}) that doesn't stop gradient can't use "
                     "inplace strategy."),
    "version": (RuntimeError,
                "(PermissionDenied) Tensor '{name}' used in gradient computation has been modified "
                "by an inplace operation. Its version is {version} but the expected version is "
                "{expected}. Please fix your code to void calling an inplace operator after using "
                "the Tensor which will used in gradient computation."),
    "max_pool_double_grad": (ValueError, "(InvalidArgument) Pool op grad grad only supports avgpool."),
    "put_along_axis_assign_double_grad": (ValueError, "(InvalidArgument) put_along_axis_double_grad only "
                                                      "support reduce = 'add' yet, but received: 'assign'"),
    "no_double_grad": (RuntimeError,
                       "(Unavailable) The Op {op} doesn't have any grad op. If you don't intend "
                       "calculating higher order derivatives, please set `create_graph`to False."),
    "int_accumulation": (NotImplementedError,
                         "(Unimplemented) Gradient accumulation of data type ({ctype}) on place "
                         "(Place(cpu)) is not supported in imperative mode"),
    "leaf_in_place": (ValueError,
                      "(InvalidArgument) Leaf Var ({name}) that doesn't stop gradient can't use "
                      "inplace strategy."),
    "hook_no_grad": (RuntimeError, "Cannot register hook on a tensor that stop gradient."),
    "bitwise_operand": (ValueError, "(InvalidArgument) {function}(): argument 'y' (position 1) must be "
                                    "Tensor, but got {type}"),
    "promotion": (TypeError,
                  "(InvalidType) Type promotion only support calculations between floating-point "
                  "numbers and between complex and real numbers. But got different data type x: "
                  "{x}, y: {y}."),
    "bool_kernel": (RuntimeError,
                    "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), bool) of kernel "
                    "`{kernel}` is not registered. Selected wrong DataType `bool`. Paddle support "
                    "following DataTypes: {dtypes}."),
    "concat_dtypes": (ValueError,
                      "(InvalidArgument) The data_type of input tensor in list isn't consistent, "
                      "the first tensor is {first}, but {index}th tensor is {other}."),
    "item": (ValueError,
             "(InvalidArgument) only one element tensors can be converted to Python scalars when "
             "no input coordinates"),
    # operations
    "broadcast": (ValueError,
                  "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
                  "together with the shape of X = {shape_a} and the shape of Y = {shape_b}. "
                  "Received [{size_a}] in X is not equal to [{size_b}] in Y at i:{dim}."),
    "matmul_shape": (ValueError,
                     "(InvalidArgument) In operator matmul, the [{x_axis}] dimension of Input(X) "
                     "must be equal to the [{y_axis}] dimension of Input(Y). But receiving the "
                     "[{x_axis}]dimension of Input(X) is [{k_a}], and the [{y_axis}] dimension of "
                     "Input(Y) is [{k_b}]."),
    "matmul_batch_grad": (ValueError,
                          "(InvalidArgument) Input dimension size should be equal to {expected}, "
                          "but received dimension size is {got}."),
    "reshape": (ValueError,
                "(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input tensor X'size "
                "must be equal to the capacity of 'shape'. But received X's shape = {in_shape}, "
                "X's size = {size}, 'shape' is {shape}, the capacity of 'shape' is {capacity}."),
    "dim_range": (ValueError,
                  "(InvalidArgument) The reduce dim index {index} should be in the range "
                  "[ -dimension(X), dimension(X) ) which dimension = {ndim}. But received dim "
                  "index = {dim}."),
    "seed_shape_unchecked": (UndefinedInFrameworkError,
                             "reference_engine: the seed for output {index} has shape {seed_shape} "
                             "but the output has shape {out_shape}. paddle {api} does not check "
                             "seed shapes and computes with uninitialised or truncated memory "
                             "(undefined behaviour), so the reference engine refuses."),
    "pylayer_stop_gradient": (ValueError,
                              "(InvalidArgument) {name}'s backward function should return None at "
                              "{position} position, because it's forward Tensor's stopgradient "
                              "is true."),
    "pylayer_gradient_count": (ValueError,
                               "(InvalidArgument) {name} : The number of outputs of "
                               "`PyLayer.backward` should be {expected}, but received {got}."),
    "pylayer_gradient_missing": (ValueError,
                                 "(InvalidArgument) {name}'s backward function should not return "
                                 "empty at {position} position."),
    "pylayer_empty_gradient": (UndefinedInFrameworkError,
                               "paddle 3.3.1 hands the node before {name} an empty gradient for "
                               "the None its backward returns at position {position}: some "
                               "kernels then crash (segmentation fault), others read zeros, so "
                               "the reference engine refuses."),
    "pylayer_gradient_shape": (UndefinedInFrameworkError,
                               "paddle 3.3.1 does not check the shape of the gradient {name}'s "
                               "backward returns at position {position} (it reads memory of "
                               "another size), so the reference engine refuses."),
    "holder_size": (ValueError, "(InvalidArgument) The size of Holder is not enough to store the "
                                "Tensor."),
    "grad_set_dtype": (RuntimeError, "(PreconditionNotMet) Tensor  has different data type with "
                                     "Tensor {name}, Tensor Copy cannot be performed!"),
    "unpacked_read_past": (UndefinedInFrameworkError,
                           "paddle 3.3.1 reads a saved view of shape {shape} anew from the memory "
                           "of what the saved-tensor unpack hook returned, with the view's offset "
                           "and strides: here past its end (uninitialised memory), so the "
                           "reference engine refuses."),
    "accumulated_dtype": (UndefinedInFrameworkError,
                          "paddle 3.3.1 adds a {dtype} gradient into a .grad of {have} by reading "
                          "the .grad's memory as {dtype} (values of another type), so the "
                          "reference engine refuses."),
    "summed_dtypes": (UndefinedInFrameworkError,
                      "paddle 3.3.1 adds a {dtype} gradient to a {have} one for the same tensor in "
                      "a pass by reading the memory of one as the other's type (values of another "
                      "type), so the reference engine refuses."),
    "pylayer_second_backward": (UndefinedInFrameworkError,
                                "paddle 3.3.1 crashes (segmentation fault) running {name} a "
                                "second time, so the reference engine refuses."),
    "undefined_double_grad": (UndefinedInFrameworkError,
                              "paddle 3.3.1's double grad kernel fails inside for {form} (an "
                              "internal shape error), so the reference engine refuses."),
    "no_grad_var_only_input": (UndefinedInFrameworkError,
                               "reference_engine: no_grad_vars cuts the only input of {name}; "
                               "paddle 3.3.1 then fails with an internal error ('The current "
                               "MetaTensor is not initialized') or crashes, depending on the "
                               "node, so the reference engine refuses."),
    "leaf_seed_dtype_mixed": (UndefinedInFrameworkError,
                              "reference_engine: the seed for output {index}, a leaf, is {seed_dtype} "
                              "and the leaf {dtype}; {api} keeps such a seed as the leaf's "
                              "gradient, and with other outputs beside it adds their gradients "
                              "to it as if it were {dtype} (measured: wrong values), so the "
                              "reference engine refuses."),
    "one_sided_gradient": (UndefinedInFrameworkError,
                           "paddle 3.3.1's {api} gradient kernel crashes (segmentation fault), or "
                           "leaves the gradient unwritten, when only one of its two inputs needs a "
                           "gradient, so the reference engine refuses."),
    "partial_pass_crash": (UndefinedInFrameworkError,
                           "paddle 3.3.1 crashes (segmentation fault) running {name} when one of its "
                           "inputs needs no gradient or one of its outputs got none, so the reference "
                           "engine refuses."),
    "qr_create_graph": (UndefinedInFrameworkError,
                        "paddle 3.3.1 crashes (segmentation fault) running QrGradNode in a pass that "
                        "records (create_graph=True), so the reference engine refuses."),
    "no_grad_var_is_input": (UndefinedInFrameworkError,
                             "reference_engine: no_grad_vars contains input {index}; paddle 3.3.1 "
                             "crashes (segmentation fault) on this call, so the reference engine "
                             "refuses."),
}
