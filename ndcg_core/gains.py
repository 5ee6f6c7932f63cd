r"""Gain functions: what a relevance label is worth before any discount.

A gain function maps an ordinal label :math:`\ell` to a number :math:`g(\ell)`.

========================  =======================  ======================
name                      formula                  labels 0, 1, 2, 3 give
========================  =======================  ======================
``"linear"``              :math:`g(\ell) = \ell`      0, 1, 2, 3
``"exponential"``         :math:`g(\ell) = 2^\ell - 1` 0, 1, 3, 7
a mapping                 ``{label: gain}``         any real gains
a callable                ``f(labels_array)``       whatever it returns
========================  =======================  ======================

Unjudged documents (NaN in the arrays used here) always get gain 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Real
from typing import Union

import numpy as np

from .labels import MAX_LABEL

__all__ = ["Gain", "GainFunction", "GAINS", "resolve_gain", "parse_gain_table"]

Gain = Union[str, Mapping[float, float], Callable[[np.ndarray], np.ndarray], "GainFunction"]


@dataclass(frozen=True)
class GainFunction:
    """A named gain function ``labels (float array) -> gains (float array)``.

    ``describe`` is the phrase used in configuration sentences.
    """

    name: str
    describe: str
    func: Callable[[np.ndarray], np.ndarray] = field(repr=False, compare=False)
    table: tuple[tuple[float, float], ...] | None = None

    def __call__(self, labels: np.ndarray) -> np.ndarray:
        labels = np.asarray(labels, dtype=float)
        unjudged = np.isnan(labels)
        if unjudged.any():
            out = np.zeros(labels.shape, dtype=float)
            out[~unjudged] = self.func(labels[~unjudged])
            return out
        return np.asarray(self.func(labels), dtype=float)


def _linear(labels: np.ndarray) -> np.ndarray:
    return labels.astype(float, copy=True)


def _exponential(labels: np.ndarray) -> np.ndarray:
    # labels.MAX_LABEL bounds typed labels so that 2^l - 1, and a sum of such gains, stays finite
    if labels.size and labels.max() > MAX_LABEL:
        raise ValueError(
            f"exponential gain 2^l - 1 needs labels of at most {MAX_LABEL}; got label "
            f"{labels.max():g}, whose gain is too large to compute. Use linear gain or a gain table."
        )
    return np.exp2(labels) - 1.0


GAINS: dict[str, GainFunction] = {
    "linear": GainFunction("linear", "linear gain g(l) = l", _linear),
    "exponential": GainFunction("exponential", "exponential gain g(l) = 2^l - 1", _exponential),
}


def _format_number(x: float) -> str:
    return f"{x:g}"


def _table_gain(table: Mapping[object, object], name: str = "gain") -> GainFunction:
    items: list[tuple[float, float]] = []
    for label, gain in table.items():
        for what, value in (("label", label), ("gain", gain)):
            if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(float(value)):
                raise TypeError(
                    f"{name} table {what} must be a finite number; got {value!r} "
                    f"({type(value).__name__}) in entry {label!r}: {gain!r}. "
                    "Write the table as label: gain pairs, e.g. {0: 0, 1: 1, 2: 3, 3: 7}."
                )
        items.append((float(label), float(gain)))  # type: ignore[arg-type]
    if not items:
        raise ValueError(
            f"{name} table must have at least one label: gain entry; got an empty table. "
            "Write it as e.g. {0: 0, 1: 1, 2: 3, 3: 7}."
        )
    items.sort()
    keys = np.array([k for k, _ in items])
    values = np.array([v for _, v in items])

    def lookup(labels: np.ndarray) -> np.ndarray:
        index = np.searchsorted(keys, labels)
        index_clipped = np.minimum(index, len(keys) - 1)
        found = keys[index_clipped] == labels
        if not found.all():
            missing = labels[~found][0]
            listed = ", ".join(_format_number(k) for k in keys)
            raise ValueError(
                f"{name} table has no gain for label {_format_number(missing)}; it lists labels {listed}. "
                f"Add an entry {_format_number(missing)}: <gain> to the table."
            )
        return values[index_clipped]

    text = ", ".join(f"{_format_number(k)}->{_format_number(v)}" for k, v in items)
    return GainFunction("table", f"table gain ({text})", lookup, table=tuple(items))


def parse_gain_table(text: str) -> dict[float, float]:
    """Parse a typed gain table such as ``"0:0, 1:1, 2:3, 3:7"``.

    Entries are ``label:gain`` (or ``label=gain``) separated by commas, semicolons
    or white space. Labels must be non-negative, gains any finite number (a document whose
    gain is negative is left out of the ideal list: see :func:`ndcg_core.idcg`).

    Examples
    --------
    >>> parse_gain_table("0:0, 1:1, 2:3, 3:7")
    {0.0: 0.0, 1.0: 1.0, 2.0: 3.0, 3.0: 7.0}
    >>> parse_gain_table("1:0.5; 2:1.5")
    {1.0: 0.5, 2.0: 1.5}
    """
    if not isinstance(text, str):
        raise TypeError(f"gain table must be text; got {text!r} ({type(text).__name__}).")
    tokens = text.replace(";", ",").replace(",", " ").split()
    if not tokens:
        raise ValueError(
            "gain table must have at least one label:gain entry; got an empty text. "
            "Type it as e.g. 0:0, 1:1, 2:3, 3:7."
        )
    table: dict[float, float] = {}
    for position, token in enumerate(tokens, start=1):
        parts = token.replace("=", ":").split(":")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise ValueError(
                f"gain table entry {position} must look like label:gain; got {token!r}. "
                "Type it as e.g. 0:0, 1:1, 2:3, 3:7."
            )
        try:
            label, gain = float(parts[0]), float(parts[1].replace("\u2212", "-"))
        except ValueError:
            raise ValueError(
                f"gain table entry {position} must be two numbers label:gain; got {token!r}. "
                "Type it as e.g. 0:0, 1:1, 2:3, 3:7."
            ) from None
        if not (np.isfinite(label) and np.isfinite(gain)):
            raise ValueError(
                f"gain table entry {position} must hold finite numbers; got {token!r}."
            )
        if label < 0:
            raise ValueError(
                f"gain table entry {position} has a negative label {parts[0]}; labels are 0 or more. "
                "A negative gain is allowed, a negative label is not."
            )
        if label in table:
            raise ValueError(
                f"gain table lists label {parts[0]} twice (entry {position}); give each label one gain."
            )
        table[label] = gain
    return table


def resolve_gain(gain: Gain) -> GainFunction:
    """Turn a gain given by name, table or callable into a :class:`GainFunction`.

    Examples
    --------
    >>> resolve_gain("exponential")(np.array([0.0, 1.0, 2.0, 3.0])).tolist()
    [0.0, 1.0, 3.0, 7.0]
    >>> resolve_gain({0: 0, 1: 0.5, 2: 1.5})(np.array([2.0, 1.0])).tolist()
    [1.5, 0.5]
    """
    if isinstance(gain, GainFunction):
        return gain
    if isinstance(gain, str):
        if gain not in GAINS:
            valid = ", ".join(repr(name) for name in GAINS)
            raise ValueError(
                f"gain must be one of {valid}, a {{label: gain}} table or a function; got {gain!r}."
            )
        return GAINS[gain]
    if isinstance(gain, Mapping):
        return _table_gain(gain)
    if callable(gain):
        func = gain
        name = getattr(func, "__name__", "custom")

        def checked(labels: np.ndarray) -> np.ndarray:
            out = np.asarray(func(labels), dtype=float)
            if out.shape != labels.shape:
                raise ValueError(
                    f"gain function {name} must return one gain per label; "
                    f"got shape {out.shape} for {labels.shape[0]} labels."
                )
            if not np.isfinite(out).all():
                raise ValueError(f"gain function {name} returned a NaN or infinite gain.")
            return out

        return GainFunction(name, f"custom gain {name}", checked)
    raise TypeError(
        f"gain must be a name ('linear', 'exponential'), a {{label: gain}} table or a function; "
        f"got {gain!r} ({type(gain).__name__})."
    )
