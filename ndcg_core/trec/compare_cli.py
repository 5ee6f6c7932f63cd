"""``ndcg-eval --compare``: is one run really better than another? The paired tests, as a table.

::

    ndcg-eval [-m MEASURE] [-c] [-J] [--gain ...] QRELS RUN --compare RUN2 [RUN3 ...]
              [--rounds N] [--seed N] [--confidence C] [--format trec|csv|json] [-q]

Every run is scored as ``ndcg-eval QRELS RUN`` would score it with the same flags
(:func:`ndcg_core.trec.evaluate_run`); RUN is the baseline, each of RUN2 ... is compared
with it topic by topic (:func:`ndcg_core.trec.significance.compare_runs`): mean of each run,
mean difference and its bootstrap interval, p-values of the paired t-test, the Wilcoxon
signed-rank test and the randomization test, Holm-corrected p-values when more than one
run is compared with RUN, Cohen's d_z and wins/ties/losses. Without ``-m`` the measure is
``ndcg``. A topic one run has no lines for scores 0 there (as ``-c``), and stderr says so.
``-q`` adds the per-topic scores and differences.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from typing import IO, TextIO

from ..gains import parse_gain_table
from .files import read_qrels_table, read_run_table
from .significance import Comparison, PairedComparison, compare_runs, format_p

__all__ = ["add_compare_arguments", "run_compare"]

EXIT_OK = 0
EXIT_ERROR = 2
_SUMMARY_LINES = ("runid", "num_q")


def add_compare_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--compare`` and its options to ``ndcg-eval``'s parser."""
    group = parser.add_argument_group("comparing runs (paired significance tests over topics)")
    group.add_argument(
        "--compare", nargs="+", metavar="RUN2",
        help="compare RUN (the baseline) with these runs topic by topic: mean difference, bootstrap "
        "interval, paired t, Wilcoxon and randomization p-values, Holm-corrected p, Cohen's d_z",
    )
    group.add_argument("--rounds", type=int, default=10_000, metavar="N", help="bootstrap and randomization rounds (default 10000)")
    group.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the random draws (default 0)")
    group.add_argument("--confidence", type=float, default=0.95, metavar="C", help="level of the interval (default 0.95)")


class _InputError(Exception):
    pass


def _read(reader, path: object, kind: str, stdin: IO[bytes] | None):  # type: ignore[no-untyped-def]
    try:
        if path == "-":
            data = (stdin if stdin is not None else os.fdopen(0, "rb", closefd=False)).read()
            return reader(data, name="standard input")
        return reader(path)
    except OSError as error:
        reason = error.strerror or str(error)
        raise _InputError(f"cannot read the {kind} file {path}: {reason}. Check the path.") from None


def _names(paths: Sequence[str], tables: Sequence[object]) -> list[str]:
    """Each run's name: its run id (sixth field), else the file name; made unique."""
    names = []
    for path, table in zip(paths, tables):
        run_id = getattr(table, "attrs", {}).get("run_id") or os.path.basename(path)
        names.append(str(run_id))
    repeated = {name for name in names if names.count(name) > 1}
    names = [f"{name} ({path})" if name in repeated else name for name, path in zip(names, paths)]
    if len(set(names)) < len(names):
        raise _InputError(f"each run may be given once; got {', '.join(paths)}. Remove the repeated file.")
    return names


def _fmt(value: float, digits: int, signed: bool = False) -> str:
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _p(value: float, digits: int) -> str:
    return format_p(value, digits)


def _text_block(comparison: Comparison, digits: int, per_topic: bool) -> str:
    pairs = comparison.pairs
    holm = len(pairs) > 1
    level = round(pairs[0].confidence * 100, 6)
    header = ["run", "mean", "diff", f"{level:g}% CI", "p(t)", "p(Wilcoxon)", "p(rand)"]
    if holm:
        header += ["Holm p(t)", "Holm p(W)", "Holm p(rand)"]
    header += ["d_z", "W/T/L"]
    rows = [[pairs[0].baseline, _fmt(pairs[0].mean_baseline, digits)] + [""] * (len(header) - 2)]
    for pair in pairs:
        row = [
            pair.other,
            _fmt(pair.mean_other, digits),
            _fmt(pair.mean_difference, digits, signed=True),
            f"[{_fmt(pair.ci_low, digits, True)}, {_fmt(pair.ci_high, digits, True)}]",
            _p(pair.t_p_value, digits),
            _p(pair.wilcoxon_p_value, digits),
            _p(pair.randomization_p_value, digits),
        ]
        if holm:
            row += [_p(pair.t_p_holm, digits), _p(pair.wilcoxon_p_holm, digits), _p(pair.randomization_p_holm, digits)]
        row += [f"{pair.effect_size:.2f}", f"{pair.wins}/{pair.ties}/{pair.losses}"]
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"{comparison.measure} over {len(comparison.scores)} topics (diff = run - {pairs[0].baseline})"]
    for row in [header, *rows]:
        lines.append("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    first = pairs[0]
    how = (
        f"exact over all {first.randomization_rounds:,} sign assignments"
        if first.randomization_exact
        else f"{first.randomization_rounds:,} random sign assignments"
    )
    lines.append(f"p: two-sided; p(rand): randomization test, {how}; d_z: mean diff / sd of the diffs.")
    if per_topic:
        lines.append("")
        lines.append(_per_topic_text(comparison, digits))
    return "\n".join(lines) + "\n"


def _per_topic_text(comparison: Comparison, digits: int) -> str:
    frame = comparison.scores
    base = comparison.pairs[0].baseline
    columns = list(frame.columns) + [f"{p.other}-{base}" for p in comparison.pairs]
    widths = [max(len("query_id"), *(len(str(t)) for t in frame.index))] + [max(len(c), digits + 3) for c in columns]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(["query_id", *columns], widths)))]
    for row, topic in enumerate(frame.index):
        cells = [_fmt(frame.iloc[row, j], digits) for j in range(frame.shape[1])]
        cells += [_fmt(p.differences[row], digits, signed=True) for p in comparison.pairs]
        lines.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip([str(topic), *cells], widths))))
    return "\n".join(lines)


_CSV_FIELDS = (
    "measure", "run", "baseline", "topics", "mean", "diff", "ci_low", "ci_high", "confidence",
    "t", "p_t", "p_t_holm", "wilcoxon", "p_wilcoxon", "p_wilcoxon_holm", "p_rand", "p_rand_holm",
    "rand_exact", "rand_rounds", "d_z", "wins", "ties", "losses",
)


def _csv_row(comparison: Comparison, pair: PairedComparison, digits: int | None) -> list[object]:
    def r(value: float) -> object:
        return value if digits is None else round(value, digits)

    return [
        comparison.measure, pair.other, pair.baseline, len(comparison.scores), r(pair.mean_other),
        r(pair.mean_difference), r(pair.ci_low), r(pair.ci_high), pair.confidence, r(pair.t_statistic),
        r(pair.t_p_value), r(pair.t_p_holm), r(pair.wilcoxon_statistic), r(pair.wilcoxon_p_value),
        r(pair.wilcoxon_p_holm), r(pair.randomization_p_value), r(pair.randomization_p_holm),
        pair.randomization_exact, pair.randomization_rounds, r(pair.effect_size), pair.wins, pair.ties, pair.losses,
    ]


def _write_csv(comparisons: Sequence[Comparison], digits: int | None, out: TextIO) -> None:
    import csv

    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV_FIELDS)
    for comparison in comparisons:
        first = comparison.pairs[0]
        mean = first.mean_baseline if digits is None else round(first.mean_baseline, digits)
        writer.writerow([comparison.measure, first.baseline, "", len(comparison.scores), mean] + [""] * (len(_CSV_FIELDS) - 5))
        for pair in comparison.pairs:
            writer.writerow(_csv_row(comparison, pair, digits))


def _json_document(comparisons: Sequence[Comparison], digits: int | None, per_topic: bool) -> dict[str, object]:
    def r(value: object) -> object:
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return None if value != value else str(value)
            return value if digits is None else round(value, digits)
        return value

    first = comparisons[0]
    document: dict[str, object] = {
        "configuration": first.configuration,
        "runs": list(first.runs),
        "baseline": first.pairs[0].baseline,
        "topics": len(first.scores),
        "missing_topics_scored_0": {run: list(topics) for run, topics in first.filled.items()},
        "measures": {},
    }
    for comparison in comparisons:
        entry: dict[str, object] = {
            "means": {run: r(float(comparison.scores[run].mean())) for run in comparison.runs},
            "comparisons": [{k: r(v) for k, v in pair.as_dict().items()} for pair in comparison.pairs],
        }
        if per_topic:
            entry["per_topic"] = {
                str(topic): {run: r(float(comparison.scores.loc[topic, run])) for run in comparison.runs}
                for topic in comparison.scores.index
            }
        document["measures"][comparison.measure] = entry  # type: ignore[index]
    return document


def _note(comparison: Comparison) -> str:
    parts = [f"comparing {', '.join(comparison.runs)} on {len(comparison.scores)} topics"]
    for run, topics in comparison.filled.items():
        shown = ", ".join(topics[:6]) + (", ..." if len(topics) > 6 else "")
        parts.append(f"run {run} has no lines for {len(topics)} of them ({shown}): scored 0 there, as with -c")
    if comparison.configuration:
        parts.append(comparison.configuration)
    return "ndcg-eval: " + "; ".join(parts) + ".\n"


def run_compare(
    args: argparse.Namespace, *, stdout: TextIO, stderr: TextIO, stdin: IO[bytes] | None = None
) -> int:
    """``ndcg-eval ... --compare``: read, score, compare and print; the exit status."""
    try:
        if args.explain is not None or getattr(args, "match", None) is not None:
            raise ValueError("--compare cannot be combined with --explain or --match; run them separately.")
        if args.digits is not None and not 0 <= args.digits <= 15:
            raise ValueError(f"--digits must be a whole number from 0 to 15; got {args.digits}.")
        measures = [m.strip() for m in (args.measures or ["ndcg"]) if m.strip() not in _SUMMARY_LINES] or ["ndcg"]
        gain: object = args.gain or "linear"
        if args.gain_table is not None:
            gain = parse_gain_table(args.gain_table)
        paths = [args.run, *args.compare]
        if paths.count("-") > 1:
            raise ValueError("only one run can be read from standard input (-); give the others as files.")
        tables = [_read(read_run_table, path, "run", stdin) for path in paths]
        qrels = _read(read_qrels_table, args.qrels, "qrels", stdin)
        names = _names(paths, tables)
        comparisons = compare_runs(
            qrels, dict(zip(names, tables)), measures, rounds=args.rounds, seed=args.seed,
            confidence=args.confidence, complete=args.complete, gain=gain, discount=args.discount,
            base=args.base, unjudged="condense" if args.judged_only else "zero", max_docs=args.max_docs,
            relevance_level=args.relevance_level,
        )
    except (ValueError, TypeError, _InputError) as error:
        stderr.write(f"ndcg-eval: {error}\n")
        return EXIT_ERROR
    if args.format != "json":
        stderr.write(_note(comparisons[0]))
    digits = args.digits
    if args.format == "json":
        stdout.write(json.dumps(_json_document(comparisons, digits, args.per_topic), indent=2) + "\n")
    elif args.format == "csv":
        _write_csv(comparisons, digits, stdout)
    else:
        stdout.write("\n".join(_text_block(c, 4 if digits is None else digits, args.per_topic) for c in comparisons))
    stdout.flush()
    return EXIT_OK
