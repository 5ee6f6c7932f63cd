"""``ndcg-eval``: trec_eval's nDCG numbers for a run, with the options trec_eval lacks.

::

    ndcg-eval [-q] [-n] [-c] [-J] [-M N] [-l L] [-m ndcg_cut.5,10] [-m ndcg] QRELS RUN|-
              [--gain linear|exponential | --gain-table "0:0,1:1,2:3"]
              [--discount NAME] [--base B] [--explain QID] [--depth N]
              [--digits N] [--format trec|json|csv]

For the default configuration it prints what trec_eval 10.0 prints for the same flags
and measures, byte for byte (``name<TAB>qid|all<TAB>value``, names padded to 22
characters, 4 decimals): with ``-m`` only the measures asked for (``runid`` and
``num_q`` are measures too), without ``-m`` the lines of ``-m runid -m num_q -m ndcg -m
ndcg_cut``. A file that cannot be read gives one line on stderr (``ndcg-eval: <file>,
line N: ...``) and exit status 2, never a traceback. Where it differs from trec_eval 10.0
on purpose, the help text (:data:`DIFFERENCES`) says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, TextIO

from .._lazy import pd
from .._validation import check_positive_int
from ..discounts import DISCOUNT_NAMES
from ..gains import GAINS, parse_gain_table
from .evaluate import RunEvaluation, evaluate_run, parse_measures
from .files import read_qrels_table, read_run_table
from .measures import check_trec_options, close_gains
from .match_cli import add_match_arguments, run_match

__all__ = ["main", "build_parser", "DIFFERENCES", "HEADER_LINES"]

EXIT_OK = 0
EXIT_ERROR = 2
#: Measures that are lines of the summary, not values per topic (trec_eval prints them first).
HEADER_LINES = ("runid", "num_q")
DEFAULT_MEASURES = ("runid", "num_q", "ndcg", "ndcg_cut")

DIFFERENCES = """\
Where ndcg-eval differs from trec_eval 10.0 on purpose:
  - a qrels topic that has no run lines is left out of the mean (trec_eval 9's behaviour;
    -c counts it as 0). trec_eval 10.0 stops with status 4 and the reversed message
    "result qid ... not found in qrels".
  - a topic whose qrels labels are all negative (pooled, none judged) scores 0 on every
    measure. trec_eval 9.0.x and 10.0 share the code that reads it, and what they do
    depends on the order: as the first topic they score, they stop (status 4, "Can't
    calculate measure"); after another topic, labels of -1 score 0 and a highest label of
    -2 or less crashes them (segmentation fault).
  - gain values (ndcg.1=3.5,2=9.0) are sorted exactly; trec_eval compares them as whole
    numbers, so two gains less than 1 apart can be misordered in its ideal list (it can
    print 0, or more than 1). The two agree whenever different gains differ by at least 1
    (integer gains always).
  - dcg, ideal_dcg, ndcg, ndcg_rel and Rndcg each take their own gain values (trec_eval's
    share one list and crash when only one is given values); -m repeated for a measure
    adds to it (-m P.5 -m P.10 prints both; trec_eval keeps the first).
  - Rndcg of a topic with no positive ideal gain (with -l 0 a topic judged all 0, or gain
    values all 0 or less) is 0, as any nDCG whose IDCG is 0; trec_eval divides 0 by 0 and
    prints -nan for the topic and for the mean.
  - cutoffs must be whole numbers (trec_eval reads ndcg_cut.23.4 as 23), ndcg_cut takes no
    gain values, -M and -l must be 0 or more, and gain labels must be qrels labels (0 or
    more): each is a clear error instead of a silent reading.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for the documentation and the tests)."""
    parser = argparse.ArgumentParser(
        prog="ndcg-eval",
        description=(
            "Score a TREC run against qrels with nDCG, exactly as trec_eval does\n"
            "(ties broken by document id, descending; the run's rank column ignored),\n"
            "plus other gains and discounts, per-rank explanations and the unjudged fraction."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "Measures (trec_eval's names and order): runid, num_q, map, Rprec (P@R), bpref, P (cutoffs\n"
            "5,10,15,20,30,100,200,500,1000) or P.5,10, dcg, ideal_dcg, ndcg (whole run), ndcg_rel,\n"
            "Rndcg, ndcg_cut (cutoffs as P) or ndcg_cut.5,10; the nDCG family takes trec_eval's gain\n"
            "values, e.g. ndcg.1=3.5,2=9.0 (label=gain; other labels keep gain = label). Beyond\n"
            "trec_eval: unjudged_cut (5,10,20) or unjudged_cut.10, the share of unjudged documents in\n"
            "the top min(k, n). Without -m: runid, num_q, ndcg and ndcg_cut.\n\n" + DIFFERENCES
        ),
    )
    parser.add_argument("qrels", metavar="QRELS", help="qrels file: QID ITER DOCID REL per line")
    parser.add_argument(
        "run", metavar="RUN", help="run file: QID Q0 DOCID RANK SCORE RUN per line; - reads it from standard input"
    )
    parser.add_argument("-q", dest="per_topic", action="store_true", help="print each topic's values, then the summary")
    parser.add_argument(
        "-n", "--nosummary", dest="no_summary", action="store_true",
        help="print no summary (the 'all' lines, runid and num_q): with -q, the per-topic lines only",
    )
    parser.add_argument(
        "-c", dest="complete", action="store_true",
        help="complete averaging: every qrels topic counts, a topic missing from the run scores 0",
    )
    parser.add_argument(
        "-J", dest="judged_only", action="store_true",
        help="judged documents only: remove unjudged documents before ranking (a condensed list)",
    )
    parser.add_argument(
        "-M", dest="max_docs", type=int, metavar="N",
        help="only the top N documents of each topic's ranking count (cut after sorting, before -J)",
    )
    parser.add_argument(
        "-l", dest="relevance_level", type=int, default=1, metavar="L",
        help="labels of at least L are relevant for P, map, Rprec and bpref (default 1; the nDCG family uses the gains)",
    )
    parser.add_argument(
        "-m", dest="measures", action="append", metavar="MEASURE",
        help="measure to compute, e.g. ndcg, ndcg_cut.5,10, P.10, map, Rprec, bpref, ndcg.1=3,2=9 (repeatable)",
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


def _write_scores(result: RunEvaluation, args: argparse.Namespace, out: TextIO, shown: set[str]) -> None:
    digits = args.digits
    if args.format == "trec":
        text = result.to_trec(per_topic=args.per_topic, digits=4 if digits is None else digits, summary=not args.no_summary)
        out.writelines(line for line in text.splitlines(keepends=True) if line.split("\t", 1)[0].rstrip() in shown)
        return
    if args.format == "csv":
        frame = result.per_topic if args.per_topic else result.per_topic.iloc[0:0]
        summary = pd.DataFrame([result.mean.to_numpy()], columns=list(result.measures), index=pd.Index(["all"], name="query_id"))
        table = frame.copy() if args.no_summary else pd.concat([frame, summary])
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
        "max_docs": args.max_docs,
        "relevance_level": args.relevance_level,
        "measures": list(result.measures),
        "all": None if args.no_summary else {name: _rounded(value, digits) for name, value in zip(result.measures, result.means)},
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
    if args.max_docs:  # -M: the ranks that counted
        depth = args.max_docs if depth is None else min(depth, args.max_docs)
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


def _warn_close_gains(measures: Sequence[str], max_label: int, err: TextIO) -> None:
    """Say when gain values are less than 1 apart: trec_eval 10.0 may print another value."""
    for m in parse_measures(measures):
        close = close_gains(m.gains, max_label) if m.gains else None
        if close is not None:
            err.write(
                f"ndcg-eval: in {m.name}, gains {close[0]:g} and {close[1]:g} are less than 1 apart; trec_eval 10.0 "
                "compares gains as whole numbers and may order its ideal list differently (ndcg-eval sorts exactly).\n"
            )


def _is_default(args: argparse.Namespace) -> bool:
    return args.gain_table is None and args.gain in (None, "linear") and args.discount == "log2" and args.base is None


def run(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: IO[bytes] | None = None,
) -> int:
    """Run ndcg-eval on ``argv``; return the exit status (the console script's body).

    ``stdin`` is where a RUN of ``-`` is read from (default: the process's standard input).
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.match is not None:
        return run_match(args, stdout=out, stderr=err)
    try:
        if args.digits is not None and not 0 <= args.digits <= 15:
            raise ValueError(f"--digits must be a whole number from 0 to 15; got {args.digits}.")
        requested = [spec.strip() for spec in (args.measures or DEFAULT_MEASURES)]
        measures = [spec for spec in requested if spec not in HEADER_LINES] or ["ndcg"]
        shown = {spec for spec in requested if spec in HEADER_LINES}
        if len(shown) < len(requested):
            shown.update(m.name for m in parse_measures(measures))  # a bad -m is reported before the files are read
        check_trec_options(args.max_docs, args.relevance_level)
        gain: object = args.gain or "linear"
        if args.gain_table is not None:
            gain = parse_gain_table(args.gain_table)
        if args.run == "-":
            run_source: object = (stdin if stdin is not None else sys.stdin.buffer).read()
        else:
            run_source = args.run
        qrels, run_table = _read_both(args.qrels, run_source)
        result = evaluate_run(
            qrels,
            run_table,
            measures,
            gain=gain,  # type: ignore[arg-type]
            discount=args.discount,
            base=args.base,
            unjudged="condense" if args.judged_only else "zero",
            complete=args.complete,
            max_docs=args.max_docs,
            relevance_level=args.relevance_level,
        )
        if not _is_default(args) and args.format != "json":
            err.write(f"ndcg-eval: {result.describe()}\n")
        elif len(qrels.values):
            _warn_close_gains(measures, int(qrels.values.max()), err)
        if args.explain is not None:
            _write_explain(result, args, out)
        else:
            _write_scores(result, args, out, shown)
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


def _read_both(qrels_path: str, run_path: object):  # type: ignore[no-untyped-def]
    """Both files as checked tables: the run first, then the qrels, one after the other.

    Not in two threads: a second thread's temporaries stay in its own malloc arena while
    the run is parsed (about 100 MB more peak memory on a 200 MB run), and the qrels
    are the small file. A bad qrels file is reported first, as if it had been read first.
    """
    try:
        run_table = _read(read_run_table, run_path, "run")
    except BaseException:
        _read(_read_qrels_strictly, qrels_path, "qrels")
        raise
    return _read(_read_qrels_strictly, qrels_path, "qrels"), run_table


def _read_qrels_strictly(path: object, **kwargs: object):  # type: ignore[no-untyped-def]
    """The qrels as trec_eval reads them: a blank line is an error."""
    return read_qrels_table(path, blank_lines=False, **kwargs)  # type: ignore[arg-type]


def _read(reader, path: object, kind: str):  # type: ignore[no-untyped-def]
    try:
        if isinstance(path, bytes):  # a run read from standard input
            return reader(path, name="standard input")
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

