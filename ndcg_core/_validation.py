"""Input checks for ndcg_core: the only place error messages are worded.

Every message follows one template, because the notebooks show them to learners
word for word::

    <name>[<where>] must be <expectation>; got <repr> (<type>). <hint>
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np

__all__ = ["check_positive_int", "check_k", "check_labels", "check_judgments", "check_choice", "check_base"]


def _type_name(value: object) -> str:
    return type(value).__name__


def check_positive_int(
    value: object,
    name: str,
    *,
    expected: str = "a positive whole number",
    type_hint: str = "",
    value_hint: str = "",
) -> int:
    """Return ``value`` as an int if it is a whole number of at least 1, else raise.

    The one positive-integer check of ndcg_core (cutoffs, depths, counts). An int or a
    numpy integer passes; ``True`` does not.

    Parameters
    ----------
    value : object
        What was given.
    name : str
        Its name in the message (``k``, ``depth``, ``--depth``).
    expected : str
        The expectation the message states.
    type_hint, value_hint : str
        The hint after a value of the wrong type (``TypeError``) or below 1 (``ValueError``).

    Raises
    ------
    TypeError
        For anything but an integer (a float such as 5.0 too: the hint says to drop the
        decimal point).
    ValueError
        For an integer below 1.

    Examples
    --------
    >>> check_positive_int(10, "depth")
    10
    >>> check_positive_int(0, "depth", value_hint="A pool takes at least the top document.")
    Traceback (most recent call last):
    ...
    ValueError: depth must be a positive whole number; got depth=0. A pool takes at least the top document.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        if isinstance(value, float) and value.is_integer() and value > 0:
            type_hint = f"Write {name}={int(value)} without the decimal point."
        raise TypeError(
            f"{name} must be {expected}; got {name}={value!r} ({_type_name(value)}). {type_hint}".rstrip()
        )
    if value < 1:
        raise ValueError(f"{name} must be {expected}; got {name}={int(value)}. {value_hint}".rstrip())
    return int(value)


def check_k(k: object) -> int | None:
    """Return the cutoff ``k`` if it is None or a positive int, else raise with a hint."""
    if k is None:
        return None
    return check_positive_int(
        k,
        "k",
        expected="a positive int or None",
        type_hint="Use a whole number of ranks such as k=5, or k=None to score the whole ranking.",
        value_hint="Use k=None to score the whole ranking, or a cutoff of at least 1.",
    )


def _check_number(value: object, name: str, index: int, *, allow_none: bool) -> float:
    """One label: a finite, non-negative real number (or None where allowed)."""
    if value is None:
        if allow_none:
            return math.nan
        raise TypeError(
            f"{name}[{index}] must be a number; got None. "
            f"Every entry of {name} is a judged label; leave unjudged documents out of {name}."
        )
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        hint = (
            " Write unjudged documents as None (typed: '?')." if allow_none else ""
        )
        raise TypeError(
            f"{name}[{index}] must be a number; got {value!r} ({_type_name(value)}).{hint}"
        )
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(
            f"{name}[{index}] must be a finite number; got {value!r}. "
            + ("Use None for an unjudged document instead of NaN." if allow_none
               else "Give every judged document its relevance label.")
        )
    if number < 0:
        raise ValueError(
            f"{name}[{index}] must be a non-negative number; got {value!r}. "
            "Map a negative TREC label to None (unjudged) before scoring: trec_eval reads it as pooled "
            "but unjudged, not as judged non-relevant; use 0 only for a judged non-relevant document."
        )
    return number


_PLAIN_NUMBERS = {int, float}


def _as_float_array(values: object, name: str, *, allow_none: bool) -> np.ndarray:
    """Validate a sequence of labels and return it as a float array (NaN = unjudged)."""
    if isinstance(values, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of numbers; got a string {values!r}. "
            "Parse typed text first with parse_labels(text)."
        )
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(
                f"{name} must be one-dimensional (one ranked list); got an array of shape {values.shape}. "
                "Score one query at a time."
            )
        if values.dtype.kind in "iuf":
            array = values.astype(float, copy=True)
            bad = ~np.isfinite(array)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                if not allow_none or not np.isnan(array[i]):
                    _check_number(values[i].item(), name, i, allow_none=False)
            negative = array < 0
            if negative.any():
                i = int(np.flatnonzero(negative)[0])
                _check_number(values[i].item(), name, i, allow_none=allow_none)
            return array
        values = values.tolist()
    if not isinstance(values, Sequence):
        try:
            values = list(values)  # type: ignore[call-overload]
        except TypeError:
            raise TypeError(
                f"{name} must be a sequence of numbers; got {values!r} ({_type_name(values)}). "
                "Pass a list such as [1, 0, 2, 1, 0]."
            ) from None
    if set(map(type, values)) <= _PLAIN_NUMBERS:
        array = np.array(values, dtype=float)
        if len(array) == 0 or (np.isfinite(array).all() and array.min() >= 0):
            return array
    out = np.empty(len(values), dtype=float)
    for i, value in enumerate(values):
        if type(value) is int or type(value) is float:
            if value >= 0 and value != math.inf:  # NaN fails ">= 0"
                out[i] = value
                continue
        out[i] = _check_number(value, name, i, allow_none=allow_none)
    return out


def check_labels(labels: object, name: str = "labels") -> np.ndarray:
    """Ranked labels -> float array, NaN marking an unjudged (None) document."""
    return _as_float_array(labels, name, allow_none=True)


def check_judgments(judgments: object, name: str = "judgments") -> np.ndarray:
    """All judged labels of a query -> float array (no None allowed)."""
    return _as_float_array(judgments, name, allow_none=False)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """A value from a fixed set of names; the message lists the valid ones."""
    if value not in choices:
        valid = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {valid}; got {value!r}.")
    return str(value)


def check_base(base: object, name: str = "base") -> float:
    """A logarithm base: a finite real number greater than 1."""
    if isinstance(base, bool) or not isinstance(base, Real):
        raise TypeError(
            f"{name} must be a number greater than 1; got {base!r} ({_type_name(base)}). "
            "Use base=2 for the usual binary logarithm."
        )
    b = float(base)
    if not math.isfinite(b) or b <= 1:
        raise ValueError(
            f"{name} must be a number greater than 1; got {base!r}. "
            "A logarithm base of 1 or less has no meaning as a discount; base=2 is the usual choice."
        )
    return b
