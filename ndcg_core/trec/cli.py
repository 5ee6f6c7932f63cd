"""``ndcg-eval``: trec_eval's nDCG numbers for a run, with the options trec_eval lacks.

::

    ndcg-eval [-q] [-c] [-J] [-m ndcg_cut.5,10] [-m ndcg] QRELS RUN
              [--gain linear|exponential | --gain-table "0:0,1:1,2:3"]
              [--discount NAME] [--base B] [--explain QID] [--depth N]
              [--digits N] [--format trec|json|csv]

For the default configuration every line it prints is byte-identical to trec_eval's
(``name<TAB>qid|all<TAB>value``, names padded to 22 characters, 4 decimals). A file
that cannot be read gives one line on stderr (``ndcg-eval: <file>, line N: ...``) and
exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TextIO

from .._lazy import pd
from .._validation import check_positive_int
from ..discounts import DISCOUNT_NAMES
from ..gains import GAINS, parse_gain_table
from .evaluate import RunEvaluation, evaluate_run, parse_measures
from .files import read_qrels_table, read_run_table
from .reconcile import add_match_arguments, run_match

__all__ = ["main", "build_parser"]

EXIT_OK = 0
EXIT_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for the documentation and the tests)."""
    parser = argparse.ArgumentParser(
        prog="ndcg-eval",
        description=(
            "Score a TREC run against qrels with nDCG, exactly as trec_eval does "
            "(ties broken by document id, descending; the run's rank column ignored), "
            "plus other gains and discounts, per-rank explanations and the unjudged fraction."
        ),
        epilog=(
            "Measures: ndcg (whole run), ndcg_cut (cutoffs 5,10,15,20,30,100,200,500,1000) or "
            "ndcg_cut.5,10, unjudged_cut (5,10,20) or unjudged_cut.10 (share of unjudged documents "
            "in the top min(k, n)). Without -m: ndcg and ndcg_cut."
        ),
    )
    parser.add_argument("qrels", metavar="QRELS", help="qrels file: QID ITER DOCID REL per line")
    parser.add_argument("run", metavar="RUN", help="run file: QID Q0 DOCID RANK SCORE RUN per line")
    parser.add_argument("-q", dest="per_topic", action="store_true", help="print each topic's values, then the summary")
    parser.add_argument(
        "-c", dest="complete", action="store_true",
        help="complete averaging: every qrels topic counts, a topic missing from the run scores 0",
    )
    parser.add_argument(
        "-J", dest="judged_only", action="store_true",
        help="judged documents only: remove unjudged documents before ranking (a condensed list)",
    )
    parser.add_argument(
        "-m", dest="measures", action="append", metavar="MEASURE",
        help="measure to compute, e.g. ndcg, ndcg_cut.5,10, unjudged_cut.10 (repeatable)",
    )
    gains = parser.add_mutually_exclusive_group()
    gains.add_argument("--gain", choices=sorted(GAINS), help="gain function (trec_eval: linear)")
    gains.add_argument(
        "--gain-table", metavar="TABLE",
        help='gain per label, e.g. "0:0,1:1,2:3,3:7"; fractional gains are used exactly',
    )
    parser.add_argument(
        "--discount", choices=DISCOUNT_NAMES, default="log2",
        help="discount function (trec_eval: log2, i.e. 1/log2(i+1))",
    )
    parser.add_argument("--base", type=float, metavar="B", help="logarithm base of the log and jarvelin_kekalainen discounts")
    parser.add_argument("--explain", metavar="QID", help="print the per-rank table of one topic instead of the scores")
    parser.add_argument(
        "--depth", type=int, metavar="N",
        help="ranks shown by --explain (default: the largest ndcg_cut cutoff given with -m, else 10)",
    )
    parser.add_argument("--digits", type=int, metavar="N", help="decimals printed (trec format: 4)")
    parser.add_argument("--format", choices=("trec", "json", "csv"), default="trec", help="output format")
    add_match_arguments(parser)
    return parser


def _explain_depth(args: argparse.Namespace, measures: Sequence[str]) -> int | None:
    if args.depth is not None:
        return check_positive_int(args.depth, "--depth", value_hint="Show at least rank 1, e.g. --depth 10.")
    if args.measures:
        cutoffs = [int(name.rsplit("_", 1)[1]) for name in measures if name.startswith("ndcg_cut_")]
        if cutoffs:
            return max(cutoffs)
        if "ndcg" in measures:
            return None
    return 10


def _rounded(value: float, digits: int | None) -> float:
    return float(value) if digits is None else round(float(value), digits)


def _write_scores(result: RunEvaluation, args: argparse.Namespace, out: TextIO) -> None:
    digits = args.digits
    if args.format == "trec":
        out.write(result.to_trec(per_topic=args.per_topic, digits=4 if digits is None else digits))
        return
    if args.format == "csv":
        frame = result.per_topic if args.per_topic else result.per_topic.iloc[0:0]
        summary = pd.DataFrame([result.mean.to_numpy()], columns=list(result.measures), index=pd.Index(["all"], name="query_id"))
        table = pd.concat([frame, summary])
        table.index.name = "query_id"
        if digits is not None:
            table = table.round(digits)
        out.write(table.to_csv(lineterminator="\n"))
        return
    document: dict[str, object] = {
        "configuration": result.describe(),
        "runid": result.run_id,
        "num_q": result.num_q,
        "complete": result.complete,
        "judged_only": result.config.unjudged == "condense",
        "measures": list(result.measures),
        "all": {name: _rounded(value, digits) for name, value in zip(result.measures, result.means)},
        "missing_topics": list(result.missing_topics),
        "ignored_topics": list(result.ignored_topics),
    }
    if args.per_topic:
        document["per_topic"] = {
            query_id: {name: _rounded(value, digits) for name, value in zip(result.measures, row)}
            for query_id, row in zip(result.topics, result.values)
        }
    out.write(json.dumps(document, indent=2) + "\n")


def _write_explain(result: RunEvaluation, args: argparse.Namespace, out: TextIO) -> None:
    query_id = args.explain
    depth = _explain_depth(args, result.measures)
    table = result.explain(query_id, depth)
    digits = 4 if args.digits is None else args.digits
    if query_id in result.topics:
        topic_values = {name: float(result.per_topic.loc[query_id, name]) for name in result.measures}
    else:
        topic_values = {}
    if args.format == "csv":
        out.write(table.round(digits).to_csv(index=False, lineterminator="\n"))
        return
    if args.format == "json":
        records = json.loads(table.round(digits).to_json(orient="records"))
        document = {
            "query_id": query_id,
            "configuration": result.describe(),
            "depth": depth,
            "values": {name: round(value, digits) for name, value in topic_values.items()},
            "ranks": records,
        }
        out.write(json.dumps(document, indent=2) + "\n")
        return
    shown = "the whole list" if depth is None else f"ranks 1 to {depth}"
    out.write(f"Topic {query_id}, {shown}. {result.describe()}\n\n")
    def label(x: float) -> str:
        return "-" if pd.isna(x) else f"{x:g}"

    with pd.option_context("display.width", 200, "display.max_columns", 50, "display.max_rows", None):
        text = table.to_string(
            index=False,
            float_format=lambda x: f"{x:.{digits}f}",
            formatters={"label": label, "ideal_label": label},
            na_rep="-",
        )
    out.write(text + "\n\n")
    if topic_values:
        for name, value in topic_values.items():
            out.write(f"{name:<22}\t{query_id}\t{value:6.{digits}f}\n")
    else:
        out.write(f"Topic {query_id} has no run lines: it is left out of the mean (use -c to count it as 0).\n")


def _is_default(args: argparse.Namespace) -> bool:
    return args.gain_table is None and args.gain in (None, "linear") and args.discount == "log2" and args.base is None


def run(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run ndcg-eval on ``argv``; return the exit status (the console script's body)."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.match is not None:
        return run_match(args, stdout=out, stderr=err)
    try:
        if args.digits is not None and not 0 <= args.digits <= 15:
            raise ValueError(f"--digits must be a whole number from 0 to 15; got {args.digits}.")
        measures = args.measures or ["ndcg", "ndcg_cut"]
        parse_measures(measures)  # a bad -m is reported before the files are read
        gain: object = args.gain or "linear"
        if args.gain_table is not None:
            gain = parse_gain_table(args.gain_table)
        qrels, run_table = _read_both(args.qrels, args.run)
        result = evaluate_run(
            qrels,
            run_table,
            measures,
            gain=gain,  # type: ignore[arg-type]
            discount=args.discount,
            base=args.base,
            unjudged="condense" if args.judged_only else "zero",
            complete=args.complete,
        )
        if not _is_default(args) and args.format != "json":
            err.write(f"ndcg-eval: {result.describe()}\n")
        if args.explain is not None:
            _write_explain(result, args, out)
        else:
            _write_scores(result, args, out)
        out.flush()
    except (ValueError, TypeError) as error:
        err.write(f"ndcg-eval: {error}\n")
        return EXIT_ERROR
    except _ReadError as error:
        err.write(f"ndcg-eval: {error}\n")
        return EXIT_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    return EXIT_OK


class _ReadError(Exception):
    pass


def _read_both(qrels_path: str, run_path: str):  # type: ignore[no-untyped-def]
    """Both files as checked tables (no DataFrame), the qrels read in a second thread.

    numpy releases the GIL on the big array operations, so on two cores the qrels cost
    almost nothing. A bad qrels file is reported first, as if it had been read first.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(_read, read_qrels_table, qrels_path, "qrels")
        try:
            run_table = _read(read_run_table, run_path, "run")
        except BaseException:
            pending.result()
            raise
        return pending.result(), run_table


def _read(reader, path: str, kind: str):  # type: ignore[no-untyped-def]
    try:
        return reader(path)
    except UnicodeError as error:  # pragma: no cover - the readers report decoding per line
        raise _ReadError(f"{path}: {error}") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise _ReadError(f"cannot read the {kind} file {path}: {reason}") from None


def _silence_stdout() -> None:
    """After a closed pipe (ndcg-eval ... | head), keep Python from complaining at exit."""
    try:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: ``ndcg-eval``."""
    try:
        return run(argv)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

