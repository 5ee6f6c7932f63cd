"""``ndcg-eval --match``: its options and what it prints (the reconciler on the command line)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from .files import read_qrels, read_run
from .reconcile import read_target, reconcile
from .reconcile.target import UNKNOWN_K

__all__ = ["EXIT_NO_MATCH", "add_match_arguments", "run_match"]

#: ``ndcg-eval --match`` exit status when nothing in the space reproduces the target.
EXIT_NO_MATCH = 1


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--match TARGET`` and ``--candidates N`` to ``ndcg-eval``'s parser."""
    parser.add_argument(
        "--match", metavar="TARGET",
        help="find the nDCG conventions (gain, discount, ideal list, ties, unjudged and negative labels, "
        "topics, cutoff) under which RUN scores TARGET: a number another tool printed, or a file of "
        "per-topic values (trec_eval -q output, ir_measures output, qid,value CSV); -m ndcg_cut.K or "
        "-m ndcg says which measure it is when the file does not. Exit status 1 when nothing matches",
    )
    parser.add_argument(
        "--candidates", type=int, default=10, metavar="N",
        help="configurations listed by --match (default 10)",
    )


def run_match(args: argparse.Namespace, *, stdout: TextIO, stderr: TextIO) -> int:
    """``ndcg-eval --match``: read both files, reconcile, print the explanation and the table.

    Returns the exit status: 0 when a configuration matches, :data:`EXIT_NO_MATCH` when
    none does, 2 (with one line on stderr) for a bad target, file or flag.
    """
    try:
        set_flags = [
            flag
            for flag, on in (
                ("-c", args.complete), ("-J", args.judged_only), ("--gain", args.gain), ("--gain-table", args.gain_table),
                ("--discount", args.discount not in (None, "log2")), ("--base", args.base is not None),
                ("--explain", args.explain is not None), ("-q", args.per_topic),
            )
            if on
        ]
        if set_flags:
            raise ValueError(
                f"--match searches every convention itself; leave out {', '.join(set_flags)}."
            )
        if args.candidates < 1:
            raise ValueError(f"--candidates must be a positive whole number; got {args.candidates}.")
        k: object = UNKNOWN_K
        if args.measures:
            from .evaluate import parse_measures

            measures = [m for m in parse_measures(args.measures) if m.family != "unjudged_cut"]
            if len(measures) != 1:
                raise ValueError(
                    "--match reconciles one measure; give one, e.g. -m ndcg_cut.10 (nDCG@10) or -m ndcg (the whole run)."
                )
            k = None if measures[0].family == "ndcg" else measures[0].k
        target = read_target(args.match, k=k)
        qrels = _read(read_qrels, args.qrels, "qrels")
        run = _read(read_run, args.run, "run")
        found = reconcile(qrels, run, target, k=k)
        report = found.report(args.candidates) if args.format == "trec" else found.explanation
    except ValueError as error:
        stderr.write(f"ndcg-eval: {error}\n")
        return 2
    except TypeError as error:  # pragma: no cover - argparse gives text only
        stderr.write(f"ndcg-eval: {error}\n")
        return 2
    if args.format == "json":
        document = {
            "matched": found.matched,
            "left_out": list(found.target.left_out),
            "explanation": found.explanation,
            "candidates": json.loads(found.table(args.candidates).to_json(orient="records")),
        }
        stdout.write(json.dumps(document, indent=2) + "\n")
    elif args.format == "csv":
        stdout.write(found.table(args.candidates).to_csv(index=False, lineterminator="\n"))
    else:
        stdout.write(report)
    return 0 if found.matched else EXIT_NO_MATCH


def _read(reader, path: str, kind: str):  # type: ignore[no-untyped-def]
    try:
        return reader(path)
    except OSError as error:
        raise ValueError(f"cannot read the {kind} file {path}: {error.strerror or error}") from None
