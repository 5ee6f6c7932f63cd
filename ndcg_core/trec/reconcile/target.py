"""What another tool printed, read: :func:`read_target` and :class:`Target`.

A number, ``{query_id: value}``, or a file (trec_eval ``-q``, ir_measures, ``qid,value``
CSV, trectools' per-topic output with NaN for topics it could not score).
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import numpy as np

__all__ = ["UNKNOWN_K", "Target", "read_target"]


class _Unknown:
    """The cutoff of a target that does not name its measure."""

    def __repr__(self) -> str:
        return "unknown"


#: The ``k`` of a target that does not name its measure (a file without ``ndcg_cut_10``,
#: a bare number): :func:`~.result.reconcile` then needs ``k`` from its caller.
UNKNOWN_K = _Unknown()


_MEASURE = re.compile(r"^ndcg(?:_cut_(\d+)|_cut\.(\d+)|(?:\(.*\))?@(\d+)|(?:\(.*\))?)$", re.IGNORECASE)
_TARGET_FORMATS = "'measure qid value' (trec_eval -q), 'qid measure value' (ir_measures) or 'qid,value' (CSV)"


def _measure_k(name: str) -> tuple[bool, int | None]:
    """Whether ``name`` is an nDCG measure name, and its cutoff (None: the whole run)."""
    match = _MEASURE.match(name.strip())
    if not match:
        return False, None
    number = next((g for g in match.groups() if g), None)
    return True, None if number is None else int(number)


#: How tools print a value they could not compute (trectools, pandas: NaN; an empty CSV cell).
_NOT_SCORED = ("nan", "-nan", "+nan", "")


def _value(text: str, where: str) -> tuple[float, int] | None:
    """A printed number and its decimals, or None for a topic the tool could not score
    (``NaN``, ``-nan`` or an empty cell, as trectools and pandas print it)."""
    if text.strip().lower() in _NOT_SCORED:
        return None
    return _number(text, where)


def _number(text: str, where: str) -> tuple[float, int]:
    """A printed number and its count of decimals ("0,7943" is accepted)."""
    cleaned = text.strip().replace(",", ".") if text.count(",") == 1 and "." not in text else text.strip()
    try:
        decimal = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"{where}: {text.strip()!r} is not a number; write it as printed, e.g. 0.4312.") from None
    if not decimal.is_finite():
        raise ValueError(f"{where}: {text.strip()!r} is not a finite number.")
    exponent = decimal.as_tuple().exponent
    return float(decimal), max(0, -int(exponent))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Target:
    """The number(s) another tool printed: a mean, per-topic values, or both.

    ``digits`` counts the printed decimals: a value matches when it rounds to the
    printed one (within half a unit of its last digit). ``measure`` and ``k`` come from a
    file's measure name (``ndcg_cut_10`` gives k = 10; ``ndcg`` the whole run) when it
    has one.
    """

    mean: float | None = None
    mean_digits: int = 4
    per_topic: Mapping[str, float] = field(default_factory=dict)
    digits: Mapping[str, int] = field(default_factory=dict)
    measure: str | None = None
    k: object = UNKNOWN_K
    source: str = "the target"
    #: Topics listed without a value (NaN: the other tool could not score them), left out.
    left_out: tuple[str, ...] = ()

    def describe(self) -> str:
        """The target in a few words: 'mean 0.4312' or '25 topics (and their mean 0.4312)'."""
        if not self.per_topic:
            return f"mean {self.mean:.{self.mean_digits}f}"
        text = f"{len(self.per_topic)} topic{'s' if len(self.per_topic) != 1 else ''}"
        return text + (f" and their mean {self.mean:.{self.mean_digits}f}" if self.mean is not None else "")

    def left_out_sentence(self) -> str:
        """'Left out 2 topics ... (NaN): 301, 305.' or '' when every listed topic has a value."""
        if not self.left_out:
            return ""
        n = len(self.left_out)
        shown = ", ".join(self.left_out[:10]) + (", ..." if n > 10 else "")
        return (
            f"Left out {n} topic{'s' if n != 1 else ''} that {self.source} gives no value for (NaN: the other tool "
            f"could not score {'them' if n != 1 else 'it'}, e.g. no relevant document): {shown}."
        )


def _csv_rows(text: str, source: str) -> list[tuple[int, list[str]]]:
    rows = []
    for number, fields_ in enumerate(csv.reader(io.StringIO(text)), 1):
        cells = [cell.strip() for cell in fields_]
        if not any(cells) or cells[0].startswith("#"):
            continue
        rows.append((number, cells))
    return rows


def _parse_csv(text: str, source: str, k: object) -> Target:
    rows = _csv_rows(text, source)
    number, first = rows[0]
    try:
        _value(first[-1], "")
        header = None
    except ValueError:
        header, rows = first, rows[1:]
    column = 1
    measure = None
    if header is not None:
        ndcg_columns = [i for i, name in enumerate(header) if i and _measure_k(name)[0]]
        if len(ndcg_columns) > 1:
            wanted = [i for i in ndcg_columns if k is not UNKNOWN_K and _measure_k(header[i])[1] == k]
            if len(wanted) != 1:
                raise ValueError(
                    f"{source} holds several nDCG columns ({', '.join(header[i] for i in ndcg_columns)}); say which "
                    "one to match (k=10 for ndcg_cut_10, k=None for ndcg; on the command line -m ndcg_cut.10 or -m ndcg)."
                )
            ndcg_columns = wanted
        if ndcg_columns:
            column, measure = ndcg_columns[0], header[ndcg_columns[0]]
        elif len(header) != 2:
            raise ValueError(f"{source}: no nDCG column among {', '.join(header)}; expected qid,value or a column such as ndcg_cut_10.")
    values: dict[str, tuple[float, int] | None] = {}
    for number, cells in rows:
        where = f"{source}, line {number}"
        if len(cells) <= column:
            raise ValueError(f"{where}: expected {_TARGET_FORMATS}; got {','.join(cells)!r}.")
        if cells[0] in values:
            raise ValueError(f"{where}: topic {cells[0]} is listed twice; keep one line per topic.")
        values[cells[0]] = _value(cells[column], where)
    return _target_from(values, measure, source)


def _target_from(values: dict[str, tuple[float, int] | None], measure: str | None, source: str) -> Target:
    if not values:
        raise ValueError(f"{source} holds no nDCG values; expected lines such as {_TARGET_FORMATS}.")
    mean = values.pop("all", None)
    scored = {q: v for q, v in values.items() if v is not None}
    left_out = tuple(q for q, v in values.items() if v is None)
    if mean is None and not scored:
        raise ValueError(
            f"{source} gives no topic a value (all {len(left_out)} are NaN or empty); nothing to match. "
            "Give the values of the topics the other tool could score."
        )
    return Target(
        mean=None if mean is None else mean[0],
        mean_digits=4 if mean is None else mean[1],
        per_topic={q: v for q, (v, _) in scored.items()},
        digits={q: d for q, (_, d) in scored.items()},
        measure=measure,
        k=_measure_k(measure)[1] if measure else UNKNOWN_K,
        source=source,
        left_out=left_out,
    )


def _parse_lines(text: str, source: str, k: object) -> Target:
    data = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    if not data:
        raise ValueError(f"{source} is empty; expected lines such as {_TARGET_FORMATS}.")
    words = data[0].split()
    if "," in data[0] and not (len(words) in (2, 3) and "," not in " ".join(words[:-1])):
        return _parse_csv(text, source, k)
    measures: dict[str, dict[str, tuple[float, int] | None]] = {}
    plain: dict[str, tuple[float, int] | None] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{source}, line {number}"
        parts = stripped.split()
        if len(parts) == 3:
            if _measure_k(parts[0])[0]:
                measure, qid = parts[0], parts[1]
            elif _measure_k(parts[1])[0]:
                qid, measure = parts[0], parts[1]
            else:
                continue  # runid, num_q or another measure of the same file (map, P_10, ...)
            found = measures.setdefault(measure, {})
            if qid in found:
                raise ValueError(f"{where}: topic {qid} of {measure} is listed twice; keep one line per topic.")
            found[qid] = _value(parts[2], where)
        elif len(parts) == 2:
            if _measure_k(parts[0])[0]:  # ir_measures' aggregate line: nDCG@10 0.4312
                measures.setdefault(parts[0], {})["all"] = _value(parts[1], where)
                continue
            if parts[0] in plain:
                raise ValueError(f"{where}: topic {parts[0]} is listed twice; keep one line per topic.")
            plain[parts[0]] = _value(parts[1], where)
        else:
            raise ValueError(f"{where}: expected {_TARGET_FORMATS}; got {stripped!r}.")
    if measures and plain:
        raise ValueError(f"{source} mixes lines with and without a measure name; keep one format per file.")
    measure = None
    if measures:
        names = sorted(measures)
        if len(names) > 1:
            wanted = [n for n in names if k is not UNKNOWN_K and _measure_k(n)[1] == k]
            if len(wanted) != 1:
                raise ValueError(
                    f"{source} holds several nDCG measures ({', '.join(names)}); say which one to match "
                    "(k=10 for ndcg_cut_10, k=None for ndcg; on the command line -m ndcg_cut.10 or -m ndcg)."
                )
            names = wanted
        measure = names[0]
        plain = measures[measure]
    return _target_from(plain, measure, source)


def read_target(target: object, *, k: object = UNKNOWN_K, paths: bool = True) -> Target:
    """Read what another tool printed: a number, per-topic values, or a file of either.

    Parameters
    ----------
    target : float, str, os.PathLike, bytes or mapping
        A number (``0.4312`` or the text ``"0.4312"``; its printed digits set the
        tolerance); ``{query_id: value}`` (``"all"`` for the mean); a path to, or the
        text of, a file in trec_eval ``-q`` format (``ndcg_cut_10  301  0.4312``),
        ir_measures format (``301  nDCG@10  0.4312``) or ``qid,value`` CSV.
    k : int or None, optional
        Which measure to take from a file holding several (``k=10``: ndcg_cut_10).
    paths : bool
        Whether a one-line ``str`` may name a file. A served notebook passes
        ``paths=False``: typed text is then a number or the file's text, and no server
        path is ever opened.

    Raises
    ------
    ValueError, TypeError
        For anything that is not one of those, naming the file and line.

    Examples
    --------
    >>> read_target("0.4312").describe()
    'mean 0.4312'
    >>> t = read_target("ndcg_cut_10\\t301\\t0.5000\\nndcg_cut_10\\tall\\t0.5000\\n")
    >>> t.k, dict(t.per_topic), t.mean
    (10, {'301': 0.5}, 0.5)
    """
    if isinstance(target, bool):
        raise TypeError("target must be a number, per-topic values or a file; got a bool.")
    if isinstance(target, (int, float, np.integer, np.floating)):
        value = float(target)
        if not math.isfinite(value):
            raise ValueError(f"target must be a finite number; got {target!r}.")
        return Target(mean=value, mean_digits=_number(repr(value), "target")[1], source="the target")
    if isinstance(target, Mapping):
        values: dict[str, tuple[float, int] | None] = {}
        for qid, value in target.items():
            text = value if isinstance(value, str) else repr(float(value)) if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) else None
            if text is None:
                raise TypeError(f"target[{qid!r}] must be a number; got {value!r} ({type(value).__name__}).")
            values[str(qid)] = _value(text, f"target[{qid!r}]")
        if not values:
            raise ValueError("target holds no values; give {query_id: value} for at least one topic.")
        return _target_from(values, None, "the target")
    if isinstance(target, bytes):
        return _parse_lines(target.decode("utf-8", errors="replace"), "the target", k)
    if isinstance(target, os.PathLike) and not paths:
        raise TypeError("target must be a number or text here, not a path (paths=False).")
    if isinstance(target, (os.PathLike, str)):
        text = os.fspath(target)
        if isinstance(target, str) and "\n" in text:
            return _parse_lines(text, "the target", k)
        try:
            value, digits = _number(text, "target")
            return Target(mean=value, mean_digits=digits)
        except ValueError:
            if not paths:
                if len(text.split()) in (2, 3) or "," in text:
                    return _parse_lines(text, "the target", k)
                raise ValueError(
                    f"target must be a number such as 0.4312 or per-topic lines such as 'ndcg_cut_10 301 0.4312'; "
                    f"got {text[:40]!r}."
                ) from None
        if not os.path.exists(text):
            raise ValueError(
                f"target must be a number such as 0.4312 or a file of per-topic values; got {text!r}, "
                "which is neither a number nor an existing file."
            )
        if os.path.isdir(text):
            raise ValueError(f"target {text!r} is a folder; give a file of per-topic values or a number.")
        with open(text, encoding="utf-8", errors="replace") as handle:
            return _parse_lines(handle.read(), text, k)
    raise TypeError(f"target must be a number, a file or {{query_id: value}}; got {type(target).__name__}.")
