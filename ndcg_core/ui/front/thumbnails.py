"""The front page's thumbnails: each notebook's own figures on the lecture example, cached.

For the notebooks without a figure, a small honest picture of what the page shows, drawn with
the numbers ndcg_core computes. :func:`thumbnail_png` draws one (matplotlib, imported on first
use; Pillow quantises the PNG); :class:`Thumbnails` keeps them in memory and in the per-user
cache folder (platformdirs), under a version that changes with the code and data they are
drawn from.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

from .catalogue import Notebook

__all__ = ["THUMBNAIL_PATH", "THUMBNAIL_WIDTH", "LECTURE_EXAMPLE", "thumbnail_alt", "thumbnail_png", "Thumbnails"]

#: Where the thumbnails are served: ``/ndcg-lab/thumbnails/NN_name.png?v=<version>``.
THUMBNAIL_PATH = "/ndcg-lab/thumbnails/"
#: The lecture example every thumbnail that draws a ranked list uses.
LECTURE_EXAMPLE = "1, 0, 2, 1, 0"
#: Thumbnails are drawn this many pixels wide (shown at about half that: sharp on a HiDPI screen).
THUMBNAIL_WIDTH = 640

_ALT = {
    "01": "Gains and discounted gains per rank of the lecture example 1, 0, 2, 1, 0, with cumulative DCG and IDCG",
    "02": "Discounted gain per rank of 1, 0, 2, 1, 0 under linear and exponential gain",
    "03": "The discount curves by rank, 1/log2(i+1) highlighted",
    "04": "nDCG at every cutoff of the lecture example 1, 0, 2, 1, 0",
    "05": "Per-topic nDCG@10 of two toy systems, judged by a depth-10 pool and by the full truth",
    "06": "Every topic's nDCG@10 of the toy run 'tuned', and their mean",
    "07": "An answer box: DCG@5 of 1, 0, 2, 1, 0 answered 2.43 and checked right",
    "08": "A generated exam sheet: a seed, problems and a score",
    "09": "P@5 and AP next to nDCG@5 for 1, 0, 2, 1, 0 and the list with ranks 1 and 3 swapped",
    "10": "The lecture example's nDCG@5 under linear gain (trec_eval) and exponential gain: two numbers for one run",
    "11": "The course's claims, counted: how many are explained, demonstrated and exercised",
    "12": "AP, nDCG@5 and bpref of 1, 0, 2, 1, 0 before and after two unjudged documents on top: bpref stays",
}


def thumbnail_alt(card: Notebook) -> str:
    """The thumbnail's text alternative: what the picture shows."""
    return _ALT.get(card.number, f"The title of chapter {card.title}")


def _picture(rows: Sequence[tuple[str, str, str]], title: str) -> Any:
    """A picture of the notebook's page: a heading and rows of (label, value, colour) in large type."""
    from .. import plots

    with plots.projector_style():
        fig = plots.new_figure(10, 5)
        fig.text(0.05, 0.86, title, fontsize=30, fontweight="bold", color=plots.COLORS["text"], va="center")
        for i, (label, value, color) in enumerate(rows):
            y = 0.66 - i * 0.19
            fig.text(0.05, y, label, fontsize=26, color=plots.COLORS["text"], va="center")
            fig.text(0.95, y, value, fontsize=30, fontweight="bold", color=plots.COLORS[color], va="center", ha="right")
            fig.add_artist(_rule(fig, y - 0.095))
    return fig


def _rule(fig: Any, y: float) -> Any:
    from matplotlib.lines import Line2D

    from .. import plots

    return Line2D([0.05, 0.95], [y, y], transform=fig.transFigure, color=plots.COLORS["grey"], linewidth=1)


def _figure(number: str, card: Notebook) -> Any:
    """The matplotlib figure of a notebook's thumbnail."""
    from ...labels import parse_labels
    from ...metrics import dcg, ndcg
    from ...trec.evaluate import evaluate_run
    from .. import playground, plots

    if number in ("01", "04"):
        result = playground.evaluate(LECTURE_EXAMPLE)
        if number == "01":
            return plots.gains_per_rank(result.table, result.k)
        return plots.ndcg_at_cutoffs(result.curve, 5)
    if number == "02":
        return plots.contribution_bars(parse_labels(LECTURE_EXAMPLE), 5)
    if number == "03":
        return plots.discount_curves("log2", k=5, max_rank=10)
    if number in ("05", "06"):
        from ...teaching import pooling, toy

        collection = toy.read_toy_collection()
        if number == "06":
            evaluation = evaluate_run(collection.qrels, collection.runs["tuned"], "ndcg_cut.10")
            return plots.topic_strips({"toy: tuned": evaluation.per_topic["ndcg_cut_10"].tolist()},
                                      ylabel="nDCG@10 of one topic", title="Every topic's score, and their mean")
        pooled = pooling.pool_qrels(collection.qrels_full, {n: collection.runs[n] for n in ("classic", "tuned")}, 10)
        strips = {}
        for name in ("novel", "tuned"):
            for qrels, which in ((pooled, "pool"), (collection.qrels_full, "truth")):
                values = evaluate_run(qrels, collection.runs[name], "ndcg_cut.10", complete=True).per_topic["ndcg_cut_10"]
                strips[f"{name} · {which}"] = values.tolist()
        return plots.topic_strips(strips, ylabel="nDCG@10 of one topic", title="Pool depth 10: per-topic nDCG@10")
    labels = parse_labels(LECTURE_EXAMPLE)
    judged = [label for label in labels if label is not None]
    if number == "07":
        from ...teaching import exercises

        verdict = exercises.check("lecture-dcg", "2.43")
        return _picture([("DCG@5 of 1, 0, 2, 1, 0", "2.43", "text"),
                         ("Check", "Right" if verdict.correct else "Not yet", "green" if verdict.correct else "red"),
                         ("Worked solution", f"{dcg(labels, 5):.4f}", "blue")], "Exercises")
    if number == "08":
        from ...teaching import exam

        sheet = exam.generate_exam(2718)
        return _picture([("Seed", f"{sheet.seed}", "text"),
                         ("Problems", f"{len(sheet.problems)}", "text"),
                         ("Score", f"? / {len(sheet.problems)}", "blue")], "Exam practice")
    if number == "09":
        from ...teaching import claims

        swapped = claims.swapped(labels, 1, 3)
        table = claims.binary_table({"a": labels, "b": swapped}, 5, judgments=judged)
        a, b = table.iloc[0], table.iloc[1]
        return _picture([("P@5, both lists", f"{a['precision']:.2f} = {b['precision']:.2f}", "text"),
                         ("AP, both lists", f"{a['average_precision']:.2f} = {b['average_precision']:.2f}", "text"),
                         ("nDCG@5", f"{a['ndcg_linear']:.2f} vs {b['ndcg_linear']:.2f}", "orange")],
                        "Swap ranks 1 and 3")
    if number == "10":
        return _picture([("trec_eval: linear gain", f"{ndcg(labels, 5, judgments=judged):.4f}", "blue"),
                         ("exponential gain", f"{ndcg(labels, 5, judgments=judged, gain='exponential'):.4f}", "orange"),
                         ("same run, same k", "why?", "text")], "nDCG@5 of one run")
    if number == "11":
        from ...teaching import coverage

        table = coverage.coverage_table()
        counts = {column: int(table[column].astype(str).str.strip().astype(bool).sum())
                  for column in ("explained", "demonstrated", "exercised")}
        return _picture([(f"explained (of {len(table)} claims)", str(counts["explained"]), "blue"),
                         ("demonstrated live", str(counts["demonstrated"]), "green"),
                         ("exercised", str(counts["exercised"]), "orange")], "Claim coverage")
    if number == "12":
        from ...teaching import measures

        moved = measures.unjudged_on_top_table(labels, 5, judgments=judged, count=2)
        rows = [(name, f"{b:.2f} → {a:.2f}", "green" if b == a else "orange")
                for name, (b, a) in moved[["all judged", "unjudged on top"]].loc[["AP", "nDCG@5, unjudged = 0", "bpref"]].iterrows()]
        return _picture(rows, "2 unjudged documents on top")
    return _picture([], card.title)


def thumbnail_png(card: Notebook) -> bytes:
    """The notebook's thumbnail as a PNG, :data:`THUMBNAIL_WIDTH` pixels wide (palette colours)."""
    from PIL import Image

    fig = _figure(card.number, card)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=THUMBNAIL_WIDTH / fig.get_figwidth(), facecolor="white")
    image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _version() -> str:
    """A digest of what the thumbnails are drawn from: ndcg_core's source, its data files (name,
    size, time) and matplotlib's version. A change to any gives new URLs and a new disk folder."""
    from importlib.metadata import PackageNotFoundError, version

    from ...teaching.paths import DATA_DIR

    digest = hashlib.sha256()
    try:
        digest.update(version("matplotlib").encode())
    except PackageNotFoundError:
        pass
    package = Path(__file__).resolve().parents[2]  # ndcg_core
    for path in sorted(package.rglob("*.py")):
        try:
            digest.update(path.read_bytes())
        except OSError:
            pass
    for path in sorted(Path(DATA_DIR).rglob("*")):
        try:
            info = path.stat()
        except OSError:
            continue
        digest.update(f"{path.relative_to(DATA_DIR)}:{info.st_size}:{info.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]


def _cache_root() -> Path:
    return platformdirs.user_cache_path("ndcg-lab", appauthor=False) / "thumbnails"


class Thumbnails:
    """The thumbnails of one folder of notebooks: drawn once per process, kept on disk too.

    ``cache`` is the disk folder (default ``<per-user cache>/ndcg-lab/thumbnails/<version>``, ``~/.cache`` on Linux; ``None``
    keeps them in memory only). A disk that cannot be written is not an error: the thumbnails
    are then drawn once per process. Drawing holds one lock (matplotlib's settings are global).
    """

    def __init__(self, notebooks: Sequence[Notebook], *, cache: Path | None | str = "default") -> None:
        self.version = _version()
        self.notebooks = {card.file.removesuffix(".py"): card for card in notebooks}
        self.cache = (_cache_root() / self.version) if cache == "default" else (Path(cache) if cache else None)
        self._done: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self._prefetching = False

    def get(self, stem: str) -> bytes | None:
        """The PNG of notebook ``stem`` (``'01_playground'``), or None for no such notebook."""
        card = self.notebooks.get(stem)
        if card is None:
            return None
        with self._lock:
            if stem in self._done:
                return self._done[stem]
            data = self._read(stem)
            if data is None:
                data = thumbnail_png(card)
                self._write(stem, data)
            self._done[stem] = data
            return data

    def prefetch(self) -> None:
        """Draw every thumbnail in a background thread (once), so they are ready when asked for."""
        with self._lock:
            if self._prefetching:
                return
            self._prefetching = True

        def run() -> None:
            for stem in self.notebooks:
                try:
                    self.get(stem)
                except Exception:  # noqa: BLE001 - the request for it shows the error
                    pass

        # not a daemon: a server stopping in the middle waits for the picture being drawn (well
        # under a second) instead of killing the thread inside matplotlib's C++ code
        threading.Thread(target=run, name="ndcg-lab-thumbnails", daemon=False).start()

    def _read(self, stem: str) -> bytes | None:
        if self.cache is None:
            return None
        try:
            data = (self.cache / f"{stem}.png").read_bytes()
        except OSError:
            return None
        return data if data.startswith(b"\x89PNG") else None

    def _write(self, stem: str, data: bytes) -> None:
        if self.cache is None:
            return
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            partial = self.cache / f".{stem}.{os.getpid()}.{threading.get_ident()}.tmp"
            partial.write_bytes(data)
            os.replace(partial, self.cache / f"{stem}.png")
        except OSError:
            pass
