"""The reconciler's answer: :func:`reconcile` and the :class:`Reconciliation` it returns.

:func:`reconcile` keeps the configurations of :func:`~.search.score_conventions` that
reproduce the target to its printed digits and ranks the rest by distance;
:class:`Reconciliation` shows them (:meth:`~Reconciliation.table`,
:meth:`~Reconciliation.topic_table`) and explains them (:mod:`.explain`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import product

import numpy as np

from ..._lazy import pd
from ..conventions import DIMENSIONS, PRESETS, TREC_EVAL, Convention
from .explain import explain, fact_words
from .search import ConventionScores, canonical, score_conventions
from .target import UNKNOWN_K, Target, read_target

__all__ = ["Reconciliation", "reconcile"]



@dataclass(frozen=True)
class Reconciliation:
    """What :func:`reconcile` found.

    Attributes
    ----------
    target : Target
    scores : ConventionScores
        Every convention's per-topic values.
    candidates : pandas.DataFrame
        Every configuration searched, best first: one column per dimension, then
        ``value`` (the mean, or NaN for per-topic targets), ``distance`` (the largest
        per-topic or the mean's absolute difference), ``mismatched`` (topics off by more
        than their printed digits), ``match``, ``differences`` (the dimensions that differ
        from trec_eval) and ``presets``.
    """

    target: Target
    scores: ConventionScores
    candidates: pd.DataFrame = field(repr=False)

    @property
    def matched(self) -> bool:
        """Whether at least one configuration reproduces the target."""
        return bool(self.candidates["match"].iloc[0]) if len(self.candidates) else False

    @property
    def matches(self) -> pd.DataFrame:
        """The configurations that reproduce the target (possibly none)."""
        return self.candidates[self.candidates["match"]]

    def _convention(self, row: pd.Series) -> Convention:
        return Convention(**{name: row[name] for name in DIMENSIONS})

    @property
    def best(self) -> Convention:
        """The first candidate: the match that differs from trec_eval in the fewest
        dimensions (a preset first among equals), else the nearest miss."""
        return self._convention(self.candidates.iloc[0])

    def table(self, n: int | None = 10) -> pd.DataFrame:
        """The first ``n`` candidates (all for ``None``) for display, in plain columns."""
        shown = self.candidates if n is None else self.candidates.head(n)
        return shown.reset_index(drop=True)

    @property
    def _per_topic(self) -> bool:
        return bool(self.target.per_topic)

    def topic_table(self, convention: Convention | None = None) -> pd.DataFrame:
        """Per topic: the target, trec_eval's value, ``convention``'s (default :attr:`best`),
        the difference from trec_eval and the reason in words (largest difference first)."""
        convention = self.best if convention is None else canonical(convention)
        reference = TREC_EVAL.with_topics(convention.topics)
        scores = self.scores
        ours = scores.values[scores.index(convention)]
        theirs = scores.values[scores.index(reference)]
        if self._per_topic:
            names = list(self.target.per_topic)
        else:
            names = [scores.topics[i] for i in np.flatnonzero(scores.topic_mask(convention.topics))]
        rows = []
        for name in names:
            t = scores.position(name)
            rows.append(
                {
                    "query_id": name,
                    "target": self.target.per_topic.get(name, np.nan),
                    "trec_eval": float(theirs[t]),
                    "convention": float(ours[t]),
                    "change": float(ours[t] - theirs[t]),
                    "reason": self._reason(name, convention) if ours[t] != theirs[t] else "",
                }
            )
        frame = pd.DataFrame(rows, columns=["query_id", "target", "trec_eval", "convention", "change", "reason"])
        order = np.argsort(-np.abs(frame["change"].to_numpy()), kind="stable")
        return frame.iloc[order].reset_index(drop=True)

    def _single_effects(self, query_id: str, convention: Convention) -> dict[str, float]:
        scores = self.scores
        t = scores.position(query_id)
        base = TREC_EVAL.with_topics(convention.topics)
        start = float(scores.values[scores.index(base)][t])
        effects = {}
        for name in convention.differences(base, topics=False):
            before = start
            changed = replace(base, **{name: getattr(convention, name)})
            if name == "negatives" and convention.unjudged == "condense":  # its effect among condensed lists
                before = float(scores.values[scores.index(replace(base, unjudged="condense"))][t])
                changed = replace(changed, unjudged="condense")
            effects[name] = float(scores.values[scores.index(changed)][t]) - before
        return effects

    def _reason(self, query_id: str, convention: Convention) -> str:
        position = self.scores.position(query_id)
        facts = {name: column.iat[position] for name, column in self.scores.facts.items()}
        k = self.scores.k
        effects = self._single_effects(query_id, convention)
        parts = []
        for name, effect in effects.items():
            if abs(effect) < 1e-15:
                continue
            parts.append(f"{fact_words(name, getattr(convention, name), facts, k)} ({effect:+.4f} on its own)")
        if not parts:
            return "no single change moves this topic; the changes act only together"
        return "; ".join(parts)

    @cached_property
    def explanation(self) -> str:
        """The answer in plain words: what matches, how it differs from trec_eval, and why
        the largest per-topic differences arise."""
        return explain(self)

    def markdown(self) -> str:
        """:attr:`explanation` as Markdown (one paragraph per sentence line, the topics as a
        list): what a notebook shows with ``mo.md``."""
        out = []
        for line in self.explanation.splitlines():
            if line.startswith("- ") and out and out[-1].startswith("- "):
                out.append(line)
            elif line:
                out.extend(["", line])
        return "\n".join(out).strip() + "\n"

    def report(self, n: int = 10, digits: int = 4) -> str:
        """The explanation followed by the first ``n`` candidates (what ``ndcg-eval --match`` prints)."""
        table = self.table(n).copy()
        columns = list(DIMENSIONS) + (["value"] if not self._per_topic else []) + ["distance", "mismatched", "match", "presets"]
        table = table[columns]
        with pd.option_context("display.width", 250, "display.max_columns", 30, "display.max_colwidth", 40):
            text = table.to_string(index=False, float_format=lambda x: f"{x:.{digits + 2}f}")
        return self.explanation + "\n\n" + ("Matching and nearest configurations:\n" if self.matched else "Nearest configurations:\n") + text + "\n"


def _preset_names() -> dict[Convention, list[str]]:
    names: dict[Convention, list[str]] = {}
    for preset in PRESETS.values():
        names.setdefault(canonical(preset.convention), []).append(preset.name)
    return names


def reconcile(qrels: object, run: object, target: object, k: object = UNKNOWN_K) -> Reconciliation:
    r"""Find the nDCG conventions under which ``run`` scores ``target``, and explain them.

    Every configuration of :data:`~ndcg_core.trec.conventions.DIMENSIONS` is scored
    (:func:`score_conventions`). One matches when every given value is reproduced to
    its printed digits: :math:`|v_c - t| \le \tfrac12 10^{-d}` for the mean and for each
    listed topic. Matches come first (named presets, then by how few dimensions differ
    from trec_eval), then near misses by distance (topics off, then the largest
    absolute difference).

    Parameters
    ----------
    qrels, run : table or dict
        As for :func:`~ndcg_core.trec.evaluate_run`; the run's row order is its file order.
    target : number, str, path, bytes, mapping or Target
        See :func:`read_target` (a notebook reads typed text with
        ``read_target(text, paths=False)`` and passes the :class:`Target`).
    k : int or None
        The target's cutoff (``None``: nDCG of the whole run). May be left out when the
        target file names its measure (``ndcg_cut_10``, ``nDCG@10``, ``ndcg``).

    Returns
    -------
    Reconciliation
        ``.explanation`` (text), ``.table()`` and ``.topic_table()`` (DataFrames), ``.best``.

    Raises
    ------
    ValueError
        For an unreadable target, an unknown cutoff, or target topics that neither the
        qrels nor the run hold.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d9": 0}, "q2": {"d1": 1}}
    >>> run = {"q1": {"d2": 3.0, "d7": 2.0, "d1": 1.0}, "q2": {"d5": 1.0}}
    >>> reconcile(qrels, run, 0.3194, k=3).matches["presets"].iloc[0]
    'trec_eval, pytrec_eval'
    """
    parsed = target if isinstance(target, Target) else read_target(target, k=k)
    if k is UNKNOWN_K:
        if parsed.k is UNKNOWN_K:
            raise ValueError(
                "say which measure the target is: k=10 for nDCG@10, k=None for nDCG of the whole run "
                "(on the command line -m ndcg_cut.10 or -m ndcg)."
            )
        k = parsed.k
    elif parsed.k is not UNKNOWN_K and parsed.k != k:
        raise ValueError(
            f"{parsed.source} holds {parsed.measure}, which is not nDCG@{k if k is not None else ' of the whole run'}; "
            "leave k out to use the file's measure."
        )
    scores = score_conventions(qrels, run, k)  # type: ignore[arg-type]
    unknown = [q for q in parsed.per_topic if q not in scores.topics]
    if unknown:
        raise ValueError(
            f"{parsed.source} lists topic{'s' if len(unknown) > 1 else ''} {', '.join(unknown[:5])}"
            f"{', ...' if len(unknown) > 5 else ''} that neither the qrels nor the run hold; check that the files belong together."
        )
    shape = scores.values.shape[:-1]
    n = int(np.prod(shape))
    grid = list(product(*(range(s) for s in shape)))
    if parsed.per_topic:
        idx = np.array([scores.position(q) for q in parsed.per_topic], dtype=np.intp)
        wanted = np.array(list(parsed.per_topic.values()))
        tolerance = np.array([0.5 * 10.0 ** -parsed.digits[q] for q in parsed.per_topic]) + 1e-12
        diff = np.abs(scores.values.reshape(n, -1)[:, idx] - wanted)
        mismatched = (diff > tolerance).sum(axis=1)
        distance = diff.max(axis=1)
    topic_sets = DIMENSIONS["topics"] if parsed.mean is not None else ("listed",)
    means = scores.means().reshape(n, len(DIMENSIONS["topics"])) if parsed.mean is not None else None
    mean_tolerance = 0.5 * 10.0 ** -parsed.mean_digits + 1e-12
    presets = _preset_names()
    any_topics: dict[Convention, list[str]] = {}  # the presets by their other dimensions (topics "listed")
    for c, names_ in presets.items():
        any_topics.setdefault(replace(c, topics="listed"), []).extend(names_)
    rows = []
    for s, topics in enumerate(topic_sets):
        for flat, index in enumerate(grid):
            convention = scores.convention(index, topics)
            row = {name: getattr(convention, name) for name in DIMENSIONS}
            if means is not None:
                value = float(means[flat, s])
                gap = abs(value - parsed.mean)  # type: ignore[operator]
                row["value"] = value
            else:
                row["value"] = np.nan
                gap = 0.0
            if parsed.per_topic:
                row["distance"] = max(float(distance[flat]), gap)
                row["mismatched"] = int(mismatched[flat])
                ok = mismatched[flat] == 0
            else:
                row["distance"] = gap
                row["mismatched"] = 0
                ok = True
            row["match"] = bool(ok and gap <= mean_tolerance)
            names = presets.get(convention, []) if topics != "listed" else any_topics.get(convention, [])
            row["presets"] = ", ".join(names)
            differences = convention.differences(TREC_EVAL, topics=topics != "listed")
            row["differences"] = ", ".join(differences)
            row["_n_diff"] = len(differences)
            rows.append(row)
    frame = pd.DataFrame(rows)
    frame["_not_preset"] = frame["presets"] == ""
    frame = frame.sort_values(
        ["match", "mismatched", "_n_diff", "_not_preset", "distance"],
        ascending=[False, True, True, True, True],
        kind="stable",
    )
    unmatched = ~frame["match"]
    if unmatched.any():  # near misses by distance, not by preset
        misses = frame[unmatched].sort_values(["mismatched", "distance", "_n_diff"], kind="stable")
        frame = pd.concat([frame[~unmatched], misses])
    frame = frame.drop(columns=["_not_preset", "_n_diff"]).reset_index(drop=True)
    return Reconciliation(parsed, scores, frame)
