r"""Side-by-side comparisons for the concept chapters (02 gains, 03 discounts, 04 the ideal list).

Each helper runs the same list through several choices of gain, discount or
configuration and returns one small table, so a notebook shows a comparison
without computing anything itself.

=======================  ==================================================================
helper                   what it compares
=======================  ==================================================================
:func:`gain_values`      the gain of each label under several gain functions
:func:`promote`          one document moved to a new label: its contribution before/after
:func:`discount_values`  the discount factor at chosen ranks under several discounts
:func:`weight_share`     how much of the total discount weight the top ranks hold
:func:`score_configs`    DCG, IDCG and nDCG of one list under several configurations
:func:`compare_runs`     nDCG of several lists (same query) under several configurations
:func:`per_topic`        DCG, IDCG and nDCG of one list per topic, with its relevant count
:func:`judged_labels`    every judged label of a query: the list's own plus those it missed
:func:`is_ideal`         whether the top k of a list carry exactly the ideal gains
=======================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral, Real

import numpy as np
import pandas as pd

from .._validation import check_judgments, check_k, check_labels, check_positive_int
from ..config import NDCGConfig
from ..discounts import Discount, resolve_discount
from ..gains import Gain, resolve_gain
from ..metrics import Labels, breakdown, dcg

__all__ = [
    "named_items",
    "gain_values",
    "promote",
    "discount_values",
    "weight_share",
    "score_configs",
    "compare_runs",
    "per_topic",
    "judged_labels",
    "is_ideal",
]

_DEFAULT_GAINS = ("linear", "exponential")


def named_items(items: object, what: str) -> dict[str, object]:
    """A sequence of names or a ``{name: value}`` mapping -> an ordered ``{name: value}`` dict.

    How every comparison (and the figures that draw one) takes its gains or discounts: by name
    (``["linear", "exponential"]``) or as named objects (``{"halved": lambda l: l / 2}``).
    ``what`` (``"gains"``, ``"discounts"``) names them in the error messages.

    >>> named_items(["linear", "exponential"], "gains")
    {'linear': 'linear', 'exponential': 'exponential'}
    >>> named_items([], "gains")
    Traceback (most recent call last):
    ...
    ValueError: gains must name at least one gain; got none.
    """
    if isinstance(items, Mapping):
        named = {str(name): value for name, value in items.items()}
    elif isinstance(items, Sequence) and not isinstance(items, (str, bytes)):
        named = {}
        for item in items:
            if not isinstance(item, str):
                raise TypeError(
                    f"{what} must be names or a {{name: {what[:-1]}}} mapping; got {item!r} "
                    f"({type(item).__name__}) in the list. Use a mapping to name a {what[:-1]} object."
                )
            named[item] = item
    else:
        raise TypeError(
            f"{what} must be a list of names or a {{name: {what[:-1]}}} mapping; got {items!r} "
            f"({type(items).__name__})."
        )
    if not named:
        raise ValueError(f"{what} must name at least one {what[:-1]}; got none.")
    return named


def _check_rank(rank: object, n: int) -> int:
    if isinstance(rank, bool) or not isinstance(rank, Integral):
        raise TypeError(
            f"rank must be a whole number from 1 to {n}; got {rank!r} ({type(rank).__name__}). "
            "Ranks count from 1 at the top of the list."
        )
    if not 1 <= int(rank) <= n:
        raise ValueError(
            f"rank must be between 1 and {n} (the list has {n} document{'s' if n != 1 else ''}); "
            f"got rank={int(rank)}. Pick a rank inside the list."
        )
    return int(rank)


def _check_new_label(label: object) -> float:
    if isinstance(label, bool) or not isinstance(label, Real):
        raise TypeError(
            f"new_label must be a number; got {label!r} ({type(label).__name__}). "
            "Relevance labels are numbers such as 0, 1, 2, 3."
        )
    value = float(label)
    if not np.isfinite(value) or value < 0:
        raise ValueError(
            f"new_label must be a non-negative finite number; got {label!r}. "
            "Relevance labels are 0 or more."
        )
    return value


def gain_values(
    labels: Sequence[float] = (0, 1, 2, 3),
    gains: Sequence[str] | Mapping[str, Gain] = _DEFAULT_GAINS,
) -> pd.DataFrame:
    r"""The gain :math:`g(\ell)` of each label under each gain function.

    Returns a table indexed by ``label`` with one column per gain (named by the
    name given, or the mapping's key).

    Examples
    --------
    >>> gain_values()  # doctest: +NORMALIZE_WHITESPACE
           linear  exponential
    label
    0         0.0          0.0
    1         1.0          1.0
    2         2.0          3.0
    3         3.0          7.0
    """
    array = check_judgments(labels, "labels")
    named = named_items(gains, "gains")
    columns = {name: resolve_gain(gain)(array) for name, gain in named.items()}  # type: ignore[arg-type]
    index = pd.Index([int(x) if float(x).is_integer() else float(x) for x in array], name="label")
    return pd.DataFrame(columns, index=index)


def promote(
    labels: Labels,
    rank: int,
    new_label: float,
    *,
    k: int | None = None,
    gains: Sequence[str] | Mapping[str, Gain] = _DEFAULT_GAINS,
    discount: Discount = "log2",
    base: float | None = None,
) -> pd.DataFrame:
    r"""What relabelling the document at ``rank`` does to its contribution and to DCG@k.

    One row per gain function. The document's contribution is
    :math:`g(\ell_i)\,d(i)`; changing its label from :math:`\ell` to :math:`\ell'`
    multiplies that contribution by ``factor`` :math:`= g(\ell')/g(\ell)` (NaN when the
    old gain is 0: nothing times a factor is still nothing). DCG@k changes by the
    difference of the contributions when the rank is inside the cutoff, else not at all.

    Columns: ``old_label``, ``new_label``, ``old_gain``, ``new_gain``, ``factor``,
    ``discount`` :math:`d(i)`, ``old_contribution``, ``new_contribution``,
    ``dcg_before``, ``dcg_after``; the index is the gain name.

    Raises
    ------
    TypeError, ValueError
        For a rank outside the list, a negative new label, or anything :func:`dcg` rejects.

    Examples
    --------
    Moving the top document of 2, 3, 0, 1, 2 from label 2 to label 3: the contribution
    grows by 3/2 under linear gain and by 7/3 under exponential gain.

    >>> table = promote([2, 3, 0, 1, 2], 1, 3)
    >>> table[["old_gain", "new_gain", "factor"]].round(4)  # doctest: +NORMALIZE_WHITESPACE
                 old_gain  new_gain  factor
    gain
    linear            2.0       3.0  1.5000
    exponential       3.0       7.0  2.3333
    """
    k = check_k(k)
    array = check_labels(labels)
    where = _check_rank(rank, len(array))
    target = _check_new_label(new_label)
    d = resolve_discount(discount, base)
    factor_at_rank = float(d.prefix(where)[where - 1])
    changed = array.copy()
    changed[where - 1] = target
    old_label = float(array[where - 1])
    rows = {}
    for name, gain in named_items(gains, "gains").items():
        g = resolve_gain(gain)  # type: ignore[arg-type]
        old_gain, new_gain = (float(x) for x in g(np.array([old_label, target])))
        rows[name] = {
            "old_label": old_label,
            "new_label": target,
            "old_gain": old_gain,
            "new_gain": new_gain,
            "factor": new_gain / old_gain if old_gain != 0 else float("nan"),
            "discount": factor_at_rank,
            "old_contribution": old_gain * factor_at_rank,
            "new_contribution": new_gain * factor_at_rank,
            "dcg_before": dcg(array, k, gain=g, discount=d),
            "dcg_after": dcg(changed, k, gain=g, discount=d),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "gain"
    return table


def discount_values(
    ranks: Sequence[int] = (1, 2, 5, 10, 100),
    discounts: Sequence[str] | Mapping[str, Discount] = ("log2", "log2_shifted", "reciprocal", "none"),
) -> pd.DataFrame:
    r"""The discount factor :math:`d(i)` at each of ``ranks`` under each discount.

    ``discounts`` are names or a ``{name: discount}`` mapping whose values may be
    :class:`~ndcg_core.discounts.DiscountFunction` objects with their own base,
    e.g. ``{"JK b=3": resolve_discount("jarvelin_kekalainen", base=3)}``.

    Examples
    --------
    >>> discount_values(discounts=["log2"]).round(2)  # doctest: +NORMALIZE_WHITESPACE
          log2
    rank
    1     1.00
    2     0.63
    5     0.39
    10    0.29
    100   0.15
    """
    if isinstance(ranks, (str, bytes)) or not isinstance(ranks, Sequence) or not ranks:
        raise TypeError(
            f"ranks must be a non-empty list of positive whole numbers; got {ranks!r}. "
            "Pass e.g. ranks=[1, 2, 5, 10, 100]."
        )
    checked = [check_positive_int(r, "ranks[" + str(i) + "]") for i, r in enumerate(ranks)]
    positions = np.array(checked)
    columns = {
        name: resolve_discount(discount)(positions)  # type: ignore[arg-type]
        for name, discount in named_items(discounts, "discounts").items()
    }
    return pd.DataFrame(columns, index=pd.Index(checked, name="rank"))


def weight_share(discount: Discount = "log2", n: int = 100, head: int = 10, *, base: float | None = None) -> float:
    r"""Share of the total discount weight of ranks 1..n that ranks 1..head hold.

    .. math:: \frac{\sum_{i=1}^{\mathit{head}} d(i)}{\sum_{i=1}^{n} d(i)}

    A fast-decaying discount puts most of its weight near the top; a slow one leaves
    the deep ranks a real share.

    Examples
    --------
    The reciprocal discount: H(10)/H(100), harmonic numbers.

    >>> round(weight_share("reciprocal", 100, 10), 4)
    0.5646
    >>> weight_share("none", 100, 10)
    0.1
    """
    n = check_positive_int(n, "n", value_hint="Ranks count from 1.")
    head = check_positive_int(head, "head", value_hint="Ranks count from 1.")
    if head > n:
        raise ValueError(
            f"head must be at most n; got head={head} and n={n}. The top ranks are part of the whole list."
        )
    factors = resolve_discount(discount, base).prefix(n)
    total = float(factors.sum())
    if total == 0:
        raise ValueError(
            f"the discount gives weight 0 to every rank from 1 to {n}, so no share can be computed. "
            "Use a discount with positive factors."
        )
    return float(factors[:head].sum()) / total


def _configs(configs: object) -> dict[str, NDCGConfig]:
    if not isinstance(configs, Mapping) or not configs:
        raise TypeError(
            f"configs must be a non-empty {{name: NDCGConfig}} mapping; got {configs!r} "
            f"({type(configs).__name__}). Pass e.g. {{'linear': NDCGConfig(k=5)}}."
        )
    for name, config in configs.items():
        if not isinstance(config, NDCGConfig):
            raise TypeError(
                f"configs[{name!r}] must be an NDCGConfig; got {config!r} ({type(config).__name__}). "
                "Build it as NDCGConfig(gain=..., discount=..., k=...)."
            )
    return {str(name): config for name, config in configs.items()}


def score_configs(
    labels: Labels,
    configs: Mapping[str, NDCGConfig],
    *,
    judgments: Sequence[float] | None = None,
) -> pd.DataFrame:
    """DCG, IDCG, nDCG and the unjudged fraction of one list under each configuration.

    Columns ``dcg``, ``idcg``, ``ndcg``, ``unjudged_fraction`` and ``configuration``
    (the sentence of :meth:`NDCGConfig.describe`); the index is the configuration's name.

    Examples
    --------
    The log base scales DCG and IDCG alike, so nDCG does not move:

    >>> configs = {"base 2": NDCGConfig(k=5), "base 10": NDCGConfig(k=5, discount="log", base=10)}
    >>> score_configs([1, 0, 2, 1, 0], configs, judgments=[2, 1, 1])[["dcg", "idcg", "ndcg"]].round(4)  # doctest: +NORMALIZE_WHITESPACE
                dcg     idcg    ndcg
    config
    base 2   2.4307   3.1309  0.7763
    base 10  8.0745  10.4007  0.7763
    """
    named = _configs(configs)
    rows = {}
    for name, config in named.items():
        scored = config.score(labels, judgments)
        rows[name] = {
            "dcg": scored.dcg,
            "idcg": scored.idcg,
            "ndcg": scored.ndcg,
            "unjudged_fraction": scored.unjudged_fraction,
            "configuration": config.describe(),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "config"
    return table


def compare_runs(
    runs: Mapping[str, Labels],
    configs: Mapping[str, NDCGConfig],
    *,
    judgments: Sequence[float] | Mapping[str, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """nDCG of several ranked lists under several configurations.

    Rows are the runs, columns the configurations. Shows how one choice (the gain,
    the discount, the ideal source) can reorder two systems. ``judgments`` is one list
    shared by all runs (runs for the same query) or a ``{run name: judgments}`` mapping.

    Examples
    --------
    Linear gain prefers three 2s; exponential gain prefers a single 3 on top.

    >>> runs = {"A": [2, 2, 2, 0], "B": [3, 0, 0, 0]}
    >>> configs = {"linear": NDCGConfig(k=4), "exponential": NDCGConfig(k=4, gain="exponential")}
    >>> compare_runs(runs, configs, judgments=[3, 2, 2, 2]).round(4)  # doctest: +NORMALIZE_WHITESPACE
         linear  exponential
    run
    A    0.6960       0.5471
    B    0.4899       0.5991
    """
    if not isinstance(runs, Mapping) or not runs:
        raise TypeError(
            f"runs must be a non-empty {{name: labels}} mapping; got {runs!r} ({type(runs).__name__}). "
            "Pass e.g. {'A': [2, 2, 0], 'B': [3, 0, 0]}."
        )
    named = _configs(configs)
    rows = {}
    for run, labels in runs.items():
        if isinstance(judgments, Mapping):
            if run not in judgments:
                raise ValueError(
                    f"judgments has no entry for run {run!r}; it lists {', '.join(map(repr, judgments))}. "
                    "Give every run its query's judged labels, or one shared list."
                )
            judged = judgments[run]
        else:
            judged = judgments
        rows[str(run)] = {name: config.score(labels, judged).ndcg for name, config in named.items()}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "run"
    return table


def per_topic(
    runs: Mapping[str, Labels],
    judgments: Mapping[str, Sequence[float]],
    config: NDCGConfig | None = None,
) -> pd.DataFrame:
    """DCG, IDCG and nDCG of one system's ranked list for each topic.

    ``runs`` maps topic -> ranked labels, ``judgments`` topic -> every judged label of
    that topic. Columns: ``relevant`` (judged documents with a positive label),
    ``dcg``, ``idcg``, ``ndcg``; the index is the topic. The mean of ``ndcg`` is the
    system's score; the table shows what that one number averages over.

    Examples
    --------
    >>> table = per_topic({"t1": [1, 0], "t2": [0, 3]}, {"t1": [1], "t2": [3]}, NDCGConfig(k=2))
    >>> table.round(4)  # doctest: +NORMALIZE_WHITESPACE
           relevant     dcg  idcg    ndcg
    topic
    t1            1  1.0000   1.0  1.0000
    t2            1  1.8928   3.0  0.6309
    """
    if not isinstance(runs, Mapping) or not runs:
        raise TypeError(
            f"runs must be a non-empty {{topic: labels}} mapping; got {runs!r} ({type(runs).__name__})."
        )
    if not isinstance(judgments, Mapping):
        raise TypeError(
            f"judgments must be a {{topic: judged labels}} mapping; got {judgments!r} "
            f"({type(judgments).__name__})."
        )
    config = NDCGConfig() if config is None else _configs({"config": config})["config"]
    rows = {}
    for topic, labels in runs.items():
        if topic not in judgments:
            raise ValueError(
                f"judgments has no entry for topic {topic!r}; it lists {', '.join(map(repr, judgments))}. "
                "Give every topic of the run its judged labels."
            )
        judged = check_judgments(judgments[topic], f"judgments[{topic!r}]")
        scored = config.score(labels, judged.tolist())
        rows[str(topic)] = {
            "relevant": int((judged > 0).sum()),
            "dcg": scored.dcg,
            "idcg": scored.idcg,
            "ndcg": scored.ndcg,
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "topic"
    return table


def judged_labels(labels: Labels, missed: Sequence[float] = ()) -> list[float]:
    """Every judged label of the query: the list's own judged labels plus the missed ones.

    ``labels`` is the ranked list (``None`` = unjudged, left out); ``missed`` the labels
    of judged documents the list did not return. The result is what ``judgments=``
    expects.

    Examples
    --------
    >>> judged_labels([1, 0, None, 2], missed=[3, 1])
    [1.0, 0.0, 2.0, 3.0, 1.0]
    """
    run = check_labels(labels)
    extra = check_judgments(missed, "missed")
    return [float(x) for x in run[~np.isnan(run)]] + [float(x) for x in extra]


def is_ideal(
    labels: Labels,
    k: int | None = None,
    *,
    judgments: Sequence[float] | None = None,
    gain: Gain = "linear",
    unjudged: str = "zero",
) -> bool:
    """Whether the top k of the list carry exactly the gains of the ideal list's top k.

    With a discount that gives every rank a positive weight, this is exactly when
    nDCG@k = 1 (provided IDCG@k > 0; when no judged document has a positive gain, every
    list is ideal and nDCG is 0.0 by convention). Ranks past the end of a short list
    count as gain 0.

    Examples
    --------
    >>> is_ideal([2, 1, 1, 0, 0], 5, judgments=[2, 1, 1])
    True
    >>> is_ideal([2, 1, 0], 3, judgments=[2, 1, 1])
    False
    >>> is_ideal([2, 1, 0], 2, judgments=[2, 1, 1])
    True
    """
    table = breakdown(labels, k, judgments=judgments, gain=gain, unjudged=unjudged)
    return bool(np.array_equal(table["gain"].to_numpy(), table["ideal_gain"].to_numpy()))
