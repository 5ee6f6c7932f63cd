r"""Discount functions: how position erodes a gain.

A discount takes the array of 1-based ranks :math:`i` and returns the factor
:math:`d(i)` that multiplies the gain at that rank.

=============================  ===========================================  ===========================
name                           formula                                      rank 1, 2, 5, 10, 100
=============================  ===========================================  ===========================
``"log2"``                     :math:`1/\log_2(i+1)` (the lecture's)        1, 0.63, 0.39, 0.29, 0.15
``"log2_shifted"``             :math:`1/\log_2(i+2)` (bounded-loss)         0.63, 0.5, 0.36, 0.28, 0.15
``"reciprocal"``               :math:`1/i`                                  1, 0.5, 0.2, 0.1, 0.01
``"log"`` with ``base=b``      :math:`1/\log_b(i+1)`                        (base 2 is ``"log2"``)
``"jarvelin_kekalainen"``      1 for :math:`i < b`, :math:`1/\log_b(i)`     base 2: 1, 1, 0.43, 0.30, 0.15
                               from :math:`i = b` on (Järvelin and
                               Kekäläinen, 2002; default ``base=2``)
``"none"``                     :math:`1` (plain cumulative gain, CG)        1, 1, 1, 1, 1
=============================  ===========================================  ===========================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Union

import numpy as np

from ._validation import check_base

__all__ = ["Discount", "DiscountFunction", "DISCOUNTS", "DISCOUNT_NAMES", "TAKES_BASE", "resolve_discount"]

Discount = Union[str, Callable[[np.ndarray], np.ndarray], "DiscountFunction"]

#: Names accepted by ``discount=``.
DISCOUNT_NAMES = ("log2", "log2_shifted", "reciprocal", "log", "jarvelin_kekalainen", "none")
#: The discounts that take ``base=`` (the others refuse it).
TAKES_BASE = ("log", "jarvelin_kekalainen")


@dataclass(frozen=True)
class DiscountFunction:
    """A named discount ``ranks (1-based int array) -> factors (float array)``."""

    name: str
    describe: str
    func: Callable[[np.ndarray], np.ndarray] = field(repr=False, compare=False)
    base: float | None = None

    def __call__(self, ranks: np.ndarray) -> np.ndarray:
        return np.asarray(self.func(np.asarray(ranks)), dtype=float)

    def prefix(self, n: int) -> np.ndarray:
        """The factors for ranks 1..n (cached for the named discounts; read-only)."""
        if self.name == "custom":
            return self(np.arange(1, n + 1))
        return _cached_prefix(self, _bucket(n))[:n]


def _bucket(n: int) -> int:
    """Round n up to a power of two (at least 16) so the cache stays small."""
    size = 16
    while size < n:
        size *= 2
    return size


@lru_cache(maxsize=64)
def _cached_prefix(discount: DiscountFunction, n: int) -> np.ndarray:
    out = discount(np.arange(1, n + 1))
    out.setflags(write=False)
    return out


def _format_base(base: float) -> str:
    return f"{base:g}"


def _log(base: float) -> DiscountFunction:
    lb = np.log(base)
    if base == 2:
        return DISCOUNTS["log2"]
    return DiscountFunction(
        "log",
        f"discount 1/log_{_format_base(base)}(i+1)",
        lambda ranks: lb / np.log(ranks + 1.0),
        base=base,
    )


def _jarvelin_kekalainen(base: float) -> DiscountFunction:
    lb = np.log(base)

    def func(ranks: np.ndarray) -> np.ndarray:
        ranks = ranks.astype(float)
        out = np.ones(ranks.shape, dtype=float)
        deep = ranks >= base
        out[deep] = lb / np.log(ranks[deep])
        return out

    return DiscountFunction(
        "jarvelin_kekalainen",
        f"Järvelin–Kekäläinen discount with base {_format_base(base)} "
        f"(1 for ranks below {_format_base(base)}, 1/log_{_format_base(base)}(i) from there on)",
        func,
        base=base,
    )


DISCOUNTS: dict[str, DiscountFunction] = {
    "log2": DiscountFunction("log2", "discount 1/log2(i+1)", lambda r: 1.0 / np.log2(r + 1.0)),
    "log2_shifted": DiscountFunction(
        "log2_shifted", "shifted discount 1/log2(i+2)", lambda r: 1.0 / np.log2(r + 2.0)
    ),
    "reciprocal": DiscountFunction("reciprocal", "reciprocal discount 1/i", lambda r: 1.0 / r),
    "none": DiscountFunction("none", "no discount (plain cumulative gain)", lambda r: np.ones(np.shape(r))),
}


@lru_cache(maxsize=32)
def _with_base(name: str, base: float) -> DiscountFunction:
    return _log(base) if name == "log" else _jarvelin_kekalainen(base)


def resolve_discount(discount: Discount, base: float | None = None) -> DiscountFunction:
    """Turn a discount given by name or callable into a :class:`DiscountFunction`.

    ``base`` is the logarithm base b of ``"log"`` (default 2) and of
    ``"jarvelin_kekalainen"`` (default 2); the other names take no base.

    Examples
    --------
    >>> resolve_discount("log2")(np.array([1, 2, 5, 10, 100])).round(4).tolist()
    [1.0, 0.6309, 0.3869, 0.2891, 0.1502]
    >>> resolve_discount("jarvelin_kekalainen", base=3)(np.array([1, 2, 3, 9])).tolist()
    [1.0, 1.0, 1.0, 0.5]
    """
    if isinstance(discount, DiscountFunction):
        if base is not None and base != discount.base:
            raise ValueError(
                f"base={base!r} conflicts with the discount object's own base {discount.base!r}; "
                "pass one or the other."
            )
        return discount
    if isinstance(discount, str):
        if discount not in DISCOUNT_NAMES:
            valid = ", ".join(repr(name) for name in DISCOUNT_NAMES)
            raise ValueError(f"discount must be one of {valid} or a function of the rank; got {discount!r}.")
        if discount in TAKES_BASE:
            return _with_base(discount, check_base(2 if base is None else base))
        if base is not None:
            raise ValueError(
                f"base applies only to the {' and '.join(map(repr, TAKES_BASE))} discounts; got base={base!r} "
                f"with discount={discount!r}. Leave base out, or choose discount='log' to set the base."
            )
        return DISCOUNTS[discount]
    if callable(discount):
        func = discount
        name = getattr(func, "__name__", "custom")

        def checked(ranks: np.ndarray) -> np.ndarray:
            out = np.asarray(func(ranks), dtype=float)
            if out.shape != ranks.shape:
                out = np.broadcast_to(out, ranks.shape).astype(float)
            if not np.isfinite(out).all():
                raise ValueError(f"discount function {name} returned a NaN or infinite factor.")
            return out

        return DiscountFunction("custom", f"custom discount {name}", checked)
    raise TypeError(
        f"discount must be a name ({', '.join(repr(n) for n in DISCOUNT_NAMES)}) or a function of the rank; "
        f"got {discount!r} ({type(discount).__name__})."
    )
