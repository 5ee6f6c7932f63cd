r"""Reading what a learner typed: numbers and choices. Typed text is never evaluated.

:func:`parse_number` reads ``0.78``, ``0,78``, ``78 %`` or ``3/4``; :func:`parse_choice`
reads a letter, an option's text or a listed word. Both raise ``ValueError`` with a
message that says which form is expected; the checker shows it to the learner.

>>> parse_number("0,78").value
0.78
>>> parse_choice("b)", ("A) yes", "B) no"))
1
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .model import LETTERS, MAX_ANSWER_CHARS

__all__ = ["ParsedNumber", "parse_number", "parse_choice", "COMPARE_SYNONYMS"]

_NUMBER = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"
_PLAIN = re.compile(rf"(?:≈|~|=)?\s*({_NUMBER})\s*(%)?")
_FRACTION = re.compile(rf"({_NUMBER})\s*/\s*({_NUMBER})")

#: Words a learner may type for a comparison's options, by what it asks -> option index.
COMPARE_SYNONYMS: dict[str, dict[str, int]] = {
    "higher": {"a": 0, "ranking a": 0, "list a": 0, "b": 1, "ranking b": 1, "list b": 1,
               "same": 2, "equal": 2, "the same": 2, "tie": 2, "both": 2, "=": 2, "c": 2},
    "flips": {"yes": 0, "y": 0, "changes": 0, "yes it changes": 0,
              "no": 1, "n": 1, "same": 1, "no it stays": 1},
}


class ParsedNumber(NamedTuple):
    """A typed number: its value (a percentage already divided by 100), how many
    decimals it was given with (None for a fraction, which is exact), and whether it
    was typed as a percentage."""

    value: float
    decimals: int | None
    percent: bool


def _number(token: str) -> tuple[float, int]:
    token = token.replace(",", ".")
    decimals = len(token.split(".", 1)[1]) if "." in token else 0
    return float(token), decimals


def _shown(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def parse_number(text: str, *, percent_allowed: bool = False) -> ParsedNumber:
    """Read a number as a student types it; never evaluates the text.

    Accepted: ``0.78``, ``0,78`` (decimal comma), `` 2.43 ``, ``≈ 2.43``, ``3/4`` and,
    where ``percent_allowed``, ``78 %`` or ``78%``.

    >>> parse_number(" 0,78 ")
    ParsedNumber(value=0.78, decimals=2, percent=False)
    >>> parse_number("78 %", percent_allowed=True).value
    0.78
    >>> parse_number("3/4").value
    0.75

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        For anything else, with a message saying what form is expected.
    """
    if not isinstance(text, str):
        raise TypeError(f"answer must be text; got {text!r} ({type(text).__name__}).")
    cleaned = text.strip().replace("\u2212", "-").replace("\u00a0", " ")
    forms = "a decimal number such as 0.78 (a decimal comma works too: 0,78) or a fraction such as 3/4"
    if percent_allowed:
        forms = "a decimal number such as 0.78 (or 0,78), a percentage such as 78 %, or a fraction such as 3/4"
    if not cleaned:
        raise ValueError(f"the answer is empty. Type {forms}.")
    shown = _shown(cleaned)
    if len(cleaned) > MAX_ANSWER_CHARS:
        raise ValueError(f"the answer is {len(cleaned)} characters long; type just the number: {forms}.")
    if "," in cleaned and "." in cleaned:
        raise ValueError(
            f"the answer {shown!r} mixes a decimal point and a decimal comma. Use one of them: "
            "0.78 or 0,78 (no thousands separators)."
        )
    fraction = _FRACTION.fullmatch(cleaned)
    if fraction:
        top, _ = _number(fraction.group(1))
        bottom, _ = _number(fraction.group(2))
        if bottom == 0:
            raise ValueError(f"the fraction {shown!r} divides by zero. Type {forms}.")
        return ParsedNumber(top / bottom, None, False)
    plain = _PLAIN.fullmatch(cleaned)
    if not plain:
        raise ValueError(f"the answer {shown!r} is not a number I can read. Type {forms}.")
    value, decimals = _number(plain.group(1))
    if plain.group(2):
        if not percent_allowed:
            raise ValueError(
                f"the answer {shown!r} is a percentage, but only nDCG (a fraction between 0 and 1) "
                "can be given in percent. Type this value as a plain number such as 2.43."
            )
        return ParsedNumber(value / 100.0, decimals + 2, True)
    return ParsedNumber(value, decimals, False)


def parse_choice(text: str, options: Sequence[str], synonyms: Mapping[str, int] | None = None) -> int:
    """The index of the chosen option: typed as a letter (``b``, ``B)``, ``(b)``,
    ``option B``), as the option's text, or as one of ``synonyms`` (lower case).

    >>> parse_choice(" Ranking B ", ("Ranking A", "Ranking B"))
    1
    >>> parse_choice("tie", ("Ranking A", "Ranking B", "Both score the same"), COMPARE_SYNONYMS["higher"])
    2

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        For anything else, listing the options.
    """
    if not isinstance(text, str):
        raise TypeError(f"answer must be text; got {text!r} ({type(text).__name__}).")
    letters = LETTERS[: len(options)]
    expected = (f"Answer with one letter, {letters[0]} to {letters[-1]}, or copy the text of the option"
                if len(options) > 2 else "Answer with one of the options")
    cleaned = " ".join(text.strip().split())
    if not cleaned:
        raise ValueError(f"the answer is empty. {expected}.")
    if len(cleaned) > 2 * MAX_ANSWER_CHARS:
        raise ValueError(f"the answer is {len(cleaned)} characters long. {expected}.")
    lowered = cleaned.lower().rstrip(".")
    letter = re.fullmatch(r"(?:option\s+)?\(?([a-h])[).:]?", lowered)
    if letter and letter.group(1).upper() in letters:
        return letters.index(letter.group(1).upper())
    for i, option in enumerate(options):
        full = " ".join(option.lower().split()).rstrip(".")
        bare = re.sub(r"^[a-h]\)\s*", "", full)
        if lowered in (full, bare):
            return i
    if synonyms and lowered in synonyms:
        return synonyms[lowered]
    listed = "; ".join(f"{letters[i]}) {o}" if not o.startswith(f"{letters[i]})") else o
                       for i, o in enumerate(options))
    raise ValueError(f"the answer {_shown(cleaned)!r} is not one of the options ({listed}). {expected}.")
