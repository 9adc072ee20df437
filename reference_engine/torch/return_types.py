"""``torch.return_types``: the named tuples torch's functions of several results return
(``torch.max(x, 1)``, ``torch.sort``, ``torch.linalg.slogdet``), printed as torch prints them:
``torch.return_types.max(\\nvalues=...,\\nindices=...)``."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

__all__ = ["aminmax", "cummax", "cummin", "kthvalue", "linalg_eigh", "linalg_qr", "linalg_slogdet",
           "linalg_svd", "max", "median", "min", "mode", "nanmedian", "svd", "slogdet", "sort", "topk"]


def _structseq(name: str, fields: tuple[str, ...]) -> type:
    base = namedtuple(name, fields)  # type: ignore[misc]

    def __repr__(self: Any) -> str:  # noqa: N807 - the method it is
        shown = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"torch.return_types.{name}(\n{shown})"

    return type(name, (base,), {"__repr__": __repr__, "__str__": __repr__, "__slots__": (),
                                "__module__": "torch.return_types"})


max = _structseq("max", ("values", "indices"))  # noqa: A001 - torch's name
min = _structseq("min", ("values", "indices"))  # noqa: A001 - torch's name
sort = _structseq("sort", ("values", "indices"))
topk = _structseq("topk", ("values", "indices"))
slogdet = _structseq("slogdet", ("sign", "logabsdet"))
aminmax = _structseq("aminmax", ("min", "max"))
cummax = _structseq("cummax", ("values", "indices"))
cummin = _structseq("cummin", ("values", "indices"))
linalg_slogdet = _structseq("linalg_slogdet", ("sign", "logabsdet"))
linalg_eigh = _structseq("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_svd = _structseq("linalg_svd", ("U", "S", "Vh"))
linalg_qr = _structseq("linalg_qr", ("Q", "R"))
svd = _structseq("svd", ("U", "S", "V"))
median = _structseq("median", ("values", "indices"))
nanmedian = _structseq("nanmedian", ("values", "indices"))
kthvalue = _structseq("kthvalue", ("values", "indices"))
mode = _structseq("mode", ("values", "indices"))
