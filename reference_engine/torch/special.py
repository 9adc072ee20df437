"""``torch.special``: the names it gives functions the facade has elsewhere (``expit`` is
``sigmoid``, ``gammaln`` is ``lgamma``, ``psi`` is ``digamma``, …), each recording the node
the function records. The rest of torch.special is refused by name."""

from __future__ import annotations

from reference_engine.framework_names import module_getattr
from reference_engine.torch import _core, extras, math_functions
from reference_engine.torch.nn import functional

__all__ = ["digamma", "entr", "erf", "erfc", "erfinv", "expit", "expm1", "gammaln", "log1p", "log_softmax",
           "logit", "logsumexp", "polygamma", "psi", "round", "sinc", "softmax", "xlogy"]

expit = _core.sigmoid
erf = _core.erf
erfinv = math_functions.erfinv
erfc, entr, sinc, xlogy = math_functions.erfc, math_functions.entr, math_functions.sinc, math_functions.xlogy
expm1 = _core.expm1
log1p = _core.log1p
gammaln = _core.lgamma
digamma = psi = _core.digamma
polygamma = math_functions.polygamma
logit = math_functions.logit
logsumexp = extras.logsumexp
round = _core.round  # noqa: A001 - torch's name
softmax = functional.softmax
log_softmax = functional.log_softmax

__getattr__ = module_getattr("torch.special")
