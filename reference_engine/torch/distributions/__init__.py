"""``torch.distributions``: the distributions that reinforcement-learning, VAE and Bayesian code
reaches for, each computing as torch 2.13's Python does (``base``: the normal, uniform,
categorical, Bernoulli, exponential, Laplace, independent and multivariate normal families;
``families``: gamma, Dirichlet, beta, Poisson, log-normal and one-hot categorical), and
``kl_divergence`` between two of one kind (``kl``)."""

from __future__ import annotations

from reference_engine.framework_names import module_getattr
from reference_engine.torch.distributions.base import *  # noqa: F403
from reference_engine.torch.distributions.base import __all__ as _base
from reference_engine.torch.distributions.families import *  # noqa: F403
from reference_engine.torch.distributions.families import __all__ as _families
from reference_engine.torch.distributions.kl import kl_divergence

__all__ = [*_base, *(name for name in _families if name != "kl_divergence_of"), "kl_divergence"]

__getattr__ = module_getattr("torch.distributions")
