"""NDCG Lab's front page (ndcg_core.ui.front): the cards, the path, escaping, decks, thumbnails,
and the ASGI middleware that serves it inside marimo's app.

No server is started here: the middleware is driven with ASGI messages and a stand-in for
marimo's app (tests/browser/test_front_door.py starts a real ``ndcg-lab``).
"""

from __future__ import annotations

import asyncio
import html
import re
import struct
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ndcg_core.ui import front, lab, palette
from ndcg_core.ui.front import (
    FrontDoor,
    Notebook,
    Thumbnails,
    page_html,
    read_notebook,
    read_notebooks,
)

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.py"))
DECKS = {p.name for p in (REPO / "notebooks" / "decks").glob("*.py")}


@pytest.fixture(scope="module")
def cards() -> list[Notebook]:
    return read_notebooks(REPO / "notebooks")


def _run(coroutine: Any) -> Any:
    """Run ``coroutine`` in a thread of its own: a browser test's Playwright may hold this one's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _text(page: str) -> str:
    """The page's visible text: tags and the <style> block removed, entities decoded."""
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _between(page: str, start: str, end: str) -> str:
    return page[page.index(start): page.index(end, page.index(start))]


# ------------------------------------------------------------------------------- the cards


def test_every_notebook_has_one_card_linking_marimos_url(cards: list[Notebook]) -> None:
    page = page_html(cards)
    assert [c.file for c in cards] == NOTEBOOKS
    assert page.count('<li class="card">') == len(NOTEBOOKS)
    card_links = re.findall(r'<h3><a href="([^"]+)"', page)
    assert card_links == [f"/?file={name}" for name in NOTEBOOKS]


def test_titles_and_descriptions_come_from_the_opengraph_metadata(cards: list[Notebook]) -> None:
    first = cards[0]
    assert (first.file, first.number, first.title, first.short_title) == ("01_playground.py", "01", "01 · Playground", "Playground")
    assert first.description.startswith("Type a ranked list")
    assert all(c.title.startswith(c.number) and c.description for c in cards)


def test_each_title_is_printed_once(cards: list[Notebook]) -> None:
    text = _text(page_html(cards, decks=DECKS, class_url="/class/"))
    for card in cards:
        assert text.count(card.title) == 1, card.title
        assert text.count(card.description) == 1, card.description


def test_tab_title_and_heading_say_ndcg_lab(cards: list[Notebook]) -> None:
    page = page_html(cards)
    assert "<title>NDCG Lab</title>" in page
    assert re.findall(r"<h1>(.*?)</h1>", page) == ["NDCG Lab"]
    assert '<html lang="en">' in page and '<main id="main">' in page
    assert "marimo" not in _between(page, "<header>", "</header>")


def test_the_start_path_runs_01_to_08_then_the_further_chapters(cards: list[Notebook]) -> None:
    page = page_html(cards)
    start = _between(page, '<nav class="start"', "</nav>")
    path = re.findall(r'<li><a href="/\?file=(\d\d)_', start)
    assert path == ["01", "02", "03", "04", "05", "06", "07", "08"]
    then = _between(start, '<p class="then">', "</p>")
    assert re.findall(r'href="/\?file=(\d\d)_', then) == ["09", "10", "11", "12"]
    assert "Start here" in start
    # the course's cards come first, the further chapters in a section of their own
    assert page.index('id="course"') < page.index("01 · Playground") < page.index('id="further"') < page.index("09 · ")


def test_a_folder_without_some_path_chapters_still_gets_a_page(tmp_path: Path) -> None:
    for name in ("02_gains.py", "98_extra_bit.py"):
        (tmp_path / name).write_text("import marimo\napp = marimo.App()\n", encoding="utf-8")
    found = read_notebooks(tmp_path)
    assert [(c.number, c.title) for c in found] == [("02", "02 · Gains"), ("98", "98 · Extra bit")]
    page = page_html(found)
    assert re.findall(r'<li><a href="/\?file=(\d\d)_', _between(page, '<nav class="start"', "</nav>")) == ["02"]
    assert "98 · Extra bit" in _between(page, 'id="further"', "</section>")
    assert 'alt="The title of chapter 98 · Extra bit"' in page


def test_metadata_text_is_escaped(tmp_path: Path) -> None:
    path = tmp_path / "01_evil.py"
    path.write_text(
        "# /// script\n# [tool.marimo.opengraph]\n"
        "# title = \"01 · <script>alert('t')</script> & co\"\n"
        "# description = '\"quoted\" <img src=x onerror=alert(1)>'\n# ///\nimport marimo\n",
        encoding="utf-8",
    )
    card = read_notebook(path)
    assert card.title == "01 · <script>alert('t')</script> & co"
    page = page_html([card], class_url='/class/"><script>x</script>')
    assert "<script" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt; &amp; co" in page
    assert "&quot;quoted&quot; &lt;img src=x onerror=alert(1)&gt;" in page
    assert 'href="/class/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in page


def test_broken_or_missing_metadata_falls_back_to_the_file_name(tmp_path: Path) -> None:
    bad = tmp_path / "03_two_words.py"
    bad.write_text("# /// script\n# [tool.marimo.opengraph\n# ///\n", encoding="utf-8")
    assert (read_notebook(bad).title, read_notebook(bad).description) == ("03 · Two words", "")
    with pytest.raises(ValueError, match=r"notebook file names look like 'NN_name.py'; got 'x.py'"):
        read_notebook(tmp_path / "x.py")


# ------------------------------------------------------------------------------- decks


def test_decks_are_the_notebooks_with_a_deck_of_their_name() -> None:
    assert front.deck_names(REPO / "notebooks") == DECKS
    assert DECKS >= {"01_playground.py", "02_gains.py", "03_discounts.py", "04_ideal_list.py", "09_graded_vs_binary.py"}
    # the decks ndcg-lab slides serves name their layout file
    assert set(lab.deck_files()) == DECKS == front.deck_names(REPO / "notebooks" / "decks")


def test_slides_mode_marks_the_decks_and_says_how_to_drive_them(cards: list[Notebook]) -> None:
    page = page_html(cards, slides=True, decks=DECKS)
    marked = [re.search(r'href="/\?file=([^"]+)"', card).group(1)  # type: ignore[union-attr]
              for card in page.split('<li class="card">')[1:] if '<span class="badge">Slide deck</span>' in card]
    assert sorted(marked) == sorted(DECKS)
    note = _text(_between(page, '<p class="note">', "</p>"))
    assert "→" in note and "←" in note and "Space" in note and "speaker view" in note
    assert '<body class="slides">' in page


def test_pages_mode_says_which_notebooks_have_a_deck(cards: list[Notebook]) -> None:
    page = page_html(cards, decks=DECKS)
    assert page.count('<span class="badge">Has a slide deck</span>') == len(DECKS)
    assert "<code>ndcg-lab slides</code> serves " + ", ".join(sorted(n[:2] for n in DECKS)) in page
    plain = page_html(cards)
    assert "badge" not in _between(plain, "<main", "</main>") and "ndcg-lab slides" not in plain


def test_classroom_mode_links_the_class_questions(cards: list[Notebook]) -> None:
    assert '<a href="/class/">the class questions</a>' in page_html(cards, class_url="/class/")
    assert "class questions" not in page_html(cards)


# ------------------------------------------------------------------------------- legibility


def test_text_colours_have_at_least_4_5_to_1_contrast() -> None:
    colours = dict(re.findall(r"--([a-z]+): (#[0-9a-fA-F]{6})", front.PAGE_CSS))
    for text in ("ink", "soft", "link", "deck", "focus"):
        for background in ("paper", "band"):
            ratio = palette.contrast_ratio(colours[text], colours[background])
            assert ratio >= 4.5, f"{text} on {background}: {ratio:.2f}"
    assert palette.contrast_ratio("#ffffff", colours["deck"]) >= 4.5  # the slides badge: white on --deck


# ------------------------------------------------------------------------------- thumbnails


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_every_notebook_gets_its_own_thumbnail(cards: list[Notebook], tmp_path: Path) -> None:
    thumbnails = Thumbnails(cards, cache=tmp_path)
    seen = {}
    for card in cards:
        data = thumbnails.get(card.file.removesuffix(".py"))
        assert data is not None
        width, height = _png_size(data)
        assert width == front.THUMBNAIL_WIDTH and 0.4 * width <= height <= 0.55 * width, card.file
        assert len(data) < 60_000
        seen[card.file] = data
    assert len(set(seen.values())) == len(cards)  # no two the same picture
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [n.replace(".py", ".png") for n in NOTEBOOKS]
    assert thumbnails.get("99_nothing") is None


def test_thumbnails_are_drawn_once_and_read_back_from_disk(cards: list[Notebook], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    monkeypatch.setattr(front.thumbnails, "thumbnail_png", lambda card: drawn.append(card.file) or b"\x89PNG-fake")
    first = Thumbnails(cards[:2], cache=tmp_path)
    assert first.get("01_playground") == first.get("01_playground") == b"\x89PNG-fake"
    assert drawn == ["01_playground.py"]
    second = Thumbnails(cards[:2], cache=tmp_path)  # another process: the disk copy
    assert second.get("01_playground") == b"\x89PNG-fake" and drawn == ["01_playground.py"]
    unwritable = Thumbnails(cards[:2], cache=tmp_path / "file" / "below")
    (tmp_path / "file").write_text("not a folder")
    assert unwritable.get("02_gains") == b"\x89PNG-fake"  # no disk: drawn, kept in memory


def test_prefetch_draws_every_thumbnail_once_in_the_background(cards: list[Notebook], monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    drawn: list[str] = []
    monkeypatch.setattr(front.thumbnails, "thumbnail_png", lambda card: drawn.append(card.file) or b"\x89PNG-fake")
    thumbnails = Thumbnails(cards, cache=None)
    thumbnails.prefetch()
    thumbnails.prefetch()  # a second page view starts no second thread
    for thread in [t for t in threading.enumerate() if t.name == "ndcg-lab-thumbnails"]:
        thread.join(timeout=60)
    assert drawn == [c.file for c in cards]


def test_the_thumbnails_alt_texts_say_what_they_show(cards: list[Notebook]) -> None:
    alts = [front.thumbnail_alt(card) for card in cards]
    assert len(set(alts)) == len(alts) and all(len(a) > 20 for a in alts)
    assert "1, 0, 2, 1, 0" in alts[0]


def test_the_version_in_the_thumbnails_url_follows_their_source(cards: list[Notebook]) -> None:
    version = Thumbnails(cards, cache=None).version
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert f"/ndcg-lab/thumbnails/01_playground.png?v={version}" in page_html(cards, version=version)


# ------------------------------------------------------------------------------- the middleware


class Marimo:
    """A stand-in for marimo's app: records what reached it."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self.seen.append(f"{scope.get('method')} {scope['path']}?{scope.get('query_string', b'').decode()}")
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b"marimo"})


def _get(door: FrontDoor, path: str, query: str = "", *, method: str = "GET", auth: Any = "absent",
         host: str = "127.0.0.1:2718") -> tuple[int, dict[str, str], bytes]:
    scope: dict[str, Any] = {"type": "http", "method": method, "path": path, "query_string": query.encode(),
                             "headers": [(b"host", host.encode())], "root_path": ""}
    if auth != "absent":
        scope["auth"] = auth
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    async def send(message: dict) -> None:
        sent.append(message)

    _run(door(scope, receive, send))
    headers = {k.decode(): v.decode() for k, v in sent[0].get("headers", [])}
    return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


def _quiet(thumbnails: Thumbnails) -> Thumbnails:
    thumbnails.prefetch = lambda: None  # type: ignore[method-assign]  # no background drawing in a unit test
    return thumbnails


@pytest.fixture
def door(tmp_path: Path, cards: list[Notebook]) -> tuple[FrontDoor, Marimo]:
    marimo = Marimo()
    return FrontDoor(marimo, REPO / "notebooks", slides=False, class_url=None,
                     thumbnails=_quiet(Thumbnails(cards, cache=tmp_path))), marimo


def test_the_middleware_answers_slash_and_passes_everything_else_on(door: tuple[FrontDoor, Marimo]) -> None:
    app, marimo = door
    status, headers, body = _get(app, "/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert b"<title>NDCG Lab</title>" in body and marimo.seen == []
    for path, query, method in [("/", "file=01_playground.py", "GET"), ("/", "access_token=abc", "GET"),
                                ("/", "", "POST"), ("/assets/x.js", "", "GET"), ("/ws", "", "GET"),
                                ("/health", "", "GET")]:
        status, _, body = _get(app, path, query, method=method)
        assert (status, body) == (299, b"marimo"), (path, query, method)
    assert marimo.seen == ["GET /?file=01_playground.py", "GET /?access_token=abc", "POST /?", "GET /assets/x.js?",
                           "GET /ws?", "GET /health?"]


def test_a_visitor_who_has_not_logged_in_goes_to_marimo(door: tuple[FrontDoor, Marimo]) -> None:
    app, marimo = door
    assert _get(app, "/", auth=SimpleNamespace(scopes=[]))[0] == 299  # marimo redirects to its login
    assert _get(app, "/ndcg-lab/thumbnails/01_playground.png", auth=SimpleNamespace(scopes=[]))[0] == 299
    assert _get(app, "/", auth=SimpleNamespace(scopes=["read"]))[0] == 200
    assert len(marimo.seen) == 2


def test_thumbnails_are_served_cacheable_and_unknown_ones_are_404(door: tuple[FrontDoor, Marimo]) -> None:
    app, marimo = door
    status, headers, body = _get(app, "/ndcg-lab/thumbnails/03_discounts.png", "v=1")
    assert status == 200 and headers["content-type"] == "image/png"
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert _png_size(body)[0] == front.THUMBNAIL_WIDTH and int(headers["content-length"]) == len(body)
    for bad in ("99_none.png", "03_discounts.svg", "../03_discounts.png", ""):
        assert _get(app, "/ndcg-lab/thumbnails/" + bad)[0] == 404, bad
    status, headers, body = _get(app, "/ndcg-lab/thumbnails/03_discounts.png", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    assert marimo.seen == []


def test_a_thumbnail_that_cannot_be_drawn_is_a_500_with_its_reason(door: tuple[FrontDoor, Marimo],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    app, _ = door

    def broken(card: Notebook) -> bytes:
        raise RuntimeError("no fonts")

    monkeypatch.setattr(front.thumbnails, "thumbnail_png", broken)
    status, _, body = _get(app, "/ndcg-lab/thumbnails/05_unjudged.png")
    assert status == 500 and b"05_unjudged could not be drawn: RuntimeError: no fonts" in body


def test_slides_and_class_settings_come_from_the_environment(cards: list[Notebook]) -> None:
    environ = {front.DECK_ENV: "1", front.CLASS_URL_ENV: ":2719/class/"}
    app = FrontDoor(Marimo(), REPO / "notebooks" / "decks", thumbnails=_quiet(Thumbnails(cards, cache=None)), environ=environ)
    assert app.slides and app.decks == DECKS
    body = _get(app, "/", host="10.1.2.3:2718")[2].decode()
    assert '<a href="http://10.1.2.3:2719/class/">the class questions</a>' in body
    assert body.count('<span class="badge">Slide deck</span>') == len(DECKS)


def test_the_decks_ndcg_lab_slides_serves_are_slides_mode_without_the_flag(cards: list[Notebook]) -> None:
    assert FrontDoor(Marimo(), REPO / "notebooks" / "decks", thumbnails=Thumbnails(cards, cache=None), environ={}).slides
    assert not FrontDoor(Marimo(), REPO / "notebooks", thumbnails=Thumbnails(cards, cache=None), environ={}).slides


def test_a_folder_without_notebooks_leaves_marimo_alone(tmp_path: Path) -> None:
    marimo = Marimo()
    app = FrontDoor(marimo, tmp_path, slides=False, class_url=None, thumbnails=_quiet(Thumbnails([], cache=None)))
    assert _get(app, "/")[0] == 299


@pytest.mark.parametrize(
    ("setting", "host", "expected"),
    [
        ("/class/", "whatever", "/class/"),
        (":2719/class/", "lab.example.org:2718", "http://lab.example.org:2719/class/"),
        (":2719/class/", "10.0.0.7", "http://10.0.0.7:2719/class/"),
        (":2719/class/", "[fe80::1]:2718", "http://[fe80::1]:2719/class/"),
        (":2719/class/", 'evil"><x', "http://127.0.0.1:2719/class/"),
        (":2719/class/", None, "http://127.0.0.1:2719/class/"),
        (None, "x", None),
    ],
)
def test_the_class_questions_url_follows_the_visitors_host(setting: str | None, host: str | None, expected: str | None) -> None:
    assert front.class_questions_url(setting, host) == expected


def test_classroom_mode_tells_the_workers_where_the_questions_are(monkeypatch: pytest.MonkeyPatch) -> None:
    from ndcg_core.ui.classroom import proxy, supervise

    seen: dict[str, str | None] = {}

    def fake_run(self: supervise.Classroom, workers: int, on_ready: Any) -> int:
        seen["url"] = lab.os.environ.get(front.CLASS_URL_ENV)
        return 0

    monkeypatch.delenv(front.CLASS_URL_ENV, raising=False)
    monkeypatch.setattr(supervise.Classroom, "run", fake_run)
    launch = lab.build_command(lab.parse_args(["--workers", "1", "--port", "4100"]), environ={}, python="PY")
    monkeypatch.setattr(proxy, "find_haproxy", lambda: "/usr/sbin/haproxy")
    assert lab._serve_classroom(launch, REPO / "notebooks", "127.0.0.1", 4100, True) == 0
    assert seen["url"] == "/class/"
    monkeypatch.setattr(proxy, "find_haproxy", lambda: None)
    monkeypatch.setattr(lab, "_check_port_free", lambda host, port: None)
    assert lab._serve_classroom(launch, REPO / "notebooks", "127.0.0.1", 4100, True) == 0
    assert seen["url"] == ":4101/class/"
    assert front.CLASS_URL_ENV not in lab.os.environ  # restored


# ------------------------------------------------------------------------------- marimo's chrome


def test_the_chrome_fixes_go_into_every_notebook_pages_head() -> None:
    async def enter(state: SimpleNamespace) -> str:
        async with front.chrome_fixes(SimpleNamespace(state=state)):
            return str(state.html_head)

    assert _run(enter(SimpleNamespace())) == front.CHROME_HEAD
    assert _run(enter(SimpleNamespace(html_head="<meta name=x>"))) == "<meta name=x>" + front.CHROME_HEAD
    assert 'aria-label", "Notebook menu"' in front.CHROME_HEAD and '"role", "main"' in front.CHROME_HEAD


def test_the_worker_registers_the_front_door_in_marimos_registries() -> None:
    from marimo._server.registry import LIFESPAN_REGISTRY, MIDDLEWARE_REGISTRY

    from ndcg_core.ui.classroom import worker

    try:
        assert worker.install_front_door(str(REPO / "notebooks"))
        middleware = MIDDLEWARE_REGISTRY.get(worker.FRONT_DOOR)
        assert middleware.cls is FrontDoor and middleware.kwargs == {"folder": str(REPO / "notebooks")}
        assert LIFESPAN_REGISTRY.get(worker.FRONT_DOOR) is front.chrome_fixes
    finally:
        MIDDLEWARE_REGISTRY.unregister(worker.FRONT_DOOR)
        LIFESPAN_REGISTRY.unregister(worker.FRONT_DOOR)
