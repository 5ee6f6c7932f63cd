"""Typed text -> relevance labels, with a message a learner can act on."""

from __future__ import annotations

import re

__all__ = ["parse_labels", "MAX_LABEL", "MAX_LABELS", "UNJUDGED_TOKENS"]

_SEPARATORS = re.compile(r"[\s,;]+")
_INTEGER = re.compile(r"[+]?\d+")
_DECIMAL = re.compile(r"[+]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
UNJUDGED_TOKENS = ("?",)
MAX_LABELS = 100_000
#: Largest label: far above any grading scale, and 2^l - 1 stays finite in a sum. The one
#: label limit: parse_labels refuses a larger typed label, the exponential gain a larger one.
MAX_LABEL = 1000


def _in_range(value: int | float, token: str, position: int) -> int | float:
    if value > MAX_LABEL:
        shown = token if len(token) <= 20 else token[:17] + "..."
        raise ValueError(
            f"label {position} is {shown!r}, far above any relevance scale (at most {MAX_LABEL}). "
            "Type small grades such as 0, 1, 2, 3."
        )
    return value


_HARD = re.compile(r"[,;]")


def _check_no_empty_entries(text: str) -> None:
    """Refuse ``1,,2`` (and ``,1``): an empty entry between commas or semicolons."""
    pieces = _HARD.split(text)
    if len(pieces) < 2 or not "".join(pieces).strip():
        return  # no comma, or nothing but separators (the "empty list" message)
    if pieces and not pieces[-1].strip():
        pieces = pieces[:-1]  # one trailing comma: "1, 0," is two labels
    before = 0  # labels seen so far
    for piece in pieces:
        words = piece.split()
        if not words:
            if before == 0:
                raise ValueError("the list starts with a comma: there is no label before it. Delete the comma, "
                                 "or type a label (? for an unjudged document) before it.")
            raise ValueError(
                f"label {before + 1} is empty: there is nothing between two commas after label {before}. "
                "Type a label there (? for an unjudged document) or delete one of the commas.")
        before += len(words)


def parse_labels(text: str) -> list[float | int | None]:
    """Parse a typed ranked list of relevance labels.

    Labels are separated by commas, semicolons or white space; ``?`` marks an
    unjudged document. Whole numbers come back as ``int``; decimals (fractional grades
    such as ``1.5``) are allowed and come back as ``float``. Two commas with nothing
    between them (``1,,2``) are an error naming the place: the list is never shortened
    silently. One comma at the very end (``1, 0,``) is ignored.

    Parameters
    ----------
    text : str
        What the learner typed, e.g. ``"1, 0, 2 ? 3"``.

    Returns
    -------
    list of int, float or None
        The labels in rank order; ``None`` for each ``?``.

    Raises
    ------
    ValueError
        For an empty list, a token that is not a label (named, with its position),
        or a negative label.

    Examples
    --------
    >>> parse_labels("1, 0, 2 ? 3")
    [1, 0, 2, None, 3]
    >>> parse_labels("1 0 2 1 0")
    [1, 0, 2, 1, 0]
    >>> parse_labels("1, 1.5, 2")
    [1, 1.5, 2]
    >>> parse_labels("1, x, 2")
    Traceback (most recent call last):
    ...
    ValueError: label 2 is 'x', which is not a relevance label. Type numbers of 0 or more such as 0, 1, 2, 3 (decimals such as 1.5 work too), or ? for an unjudged document, separated by commas or spaces.
    >>> parse_labels("1,,2")
    Traceback (most recent call last):
    ...
    ValueError: label 2 is empty: there is nothing between two commas after label 1. Type a label there (? for an unjudged document) or delete one of the commas.
    """
    if not isinstance(text, str):
        raise TypeError(f"labels text must be a string; got {text!r} ({type(text).__name__}).")
    text = text.replace("\u2212", "-")  # a typographic minus pasted from slides
    _check_no_empty_entries(text)
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if not tokens:
        raise ValueError(
            "the list of labels is empty. Type at least one relevance label, e.g. 1, 0, 2, 1, 0."
        )
    if len(tokens) > MAX_LABELS:
        raise ValueError(
            f"the list has {len(tokens):,} labels; at most {MAX_LABELS:,} can be typed here. "
            "Evaluate long runs from a run file instead."
        )
    labels: list[float | int | None] = []
    for position, token in enumerate(tokens, start=1):
        if token in UNJUDGED_TOKENS:
            labels.append(None)
        elif _INTEGER.fullmatch(token):
            labels.append(_in_range(int(token), token, position))
        elif _DECIMAL.fullmatch(token):
            labels.append(_in_range(float(token), token, position))
        elif token.startswith("-") and _DECIMAL.fullmatch(token[1:]):
            raise ValueError(
                f"label {position} is {token!r}, a negative label. Relevance labels are 0 or more: "
                "use 0 for a judged non-relevant document, or ? for an unjudged one (trec_eval reads a "
                "negative qrels label as pooled but unjudged, not as judged non-relevant)."
            )
        else:
            raise ValueError(
                f"label {position} is {token!r}, which is not a relevance label. Type numbers of 0 or more "
                "such as 0, 1, 2, 3 (decimals such as 1.5 work too), or ? for an unjudged document, "
                "separated by commas or spaces."
            )
    return labels
