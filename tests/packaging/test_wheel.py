"""The built wheel works on its own: installed non-editable into a fresh virtual environment
and run from a folder that is not the checkout, it loads the exercise bank, scores the shipped
toy collection with ``ndcg-eval``, serves every notebook with ``ndcg-lab`` (pages and slide
decks, writing nothing into the package) and refuses ``ndcg-lab edit``. And an editable install
of the same sources reads the checkout's own ``notebooks/`` and ``data/``.

How (no download): the wheel is built with ``pip wheel --no-build-isolation`` from a copy of
the files the build reads (so the checkout gets no ``build/`` folder), by the setuptools of
the interpreter running the tests (``pip install -e '.[test]'`` brings one that can); with an
older setuptools pip builds in isolation and fetches setuptools from PyPI (the editable wheel
likewise). Each venv is made without pip, and the wheel installed into it with this
interpreter's pip (``--python``). The
dependencies (marimo, numpy, ...) come from this interpreter's site-packages, named in a
``.pth`` file *after* the install: a path line in a ``.pth`` file only extends ``sys.path``, so
that folder's own ``.pth`` files (an editable install of ``ndcg_core``) are not run, and the
``ndcg_core`` imported is the wheel's (checked). No subprocess gets ``PYTHONPATH``.

Select these tests with ``-m packaging``; the browser check follows tests/browser's rule (a
skip without Chromium or Playwright, a failure under ``CI``).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ndcg_core.infra.processes import free_port

pytestmark = pytest.mark.packaging

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "browser"))  # marimo_page: Chromium's path and flags, page helpers
#: What the build reads: the project file, its readme and the three folders it packages.
BUILD_INPUTS = ("pyproject.toml", "README.md", "ndcg_core", "data", "notebooks")
#: Where each checkout folder lands in the wheel (pyproject.toml's package-dir mapping).
WHEEL_PLACES = {"ndcg_core": "ndcg_core", "data": "ndcg_core/_data", "notebooks": "ndcg_core/_notebooks"}
#: Files a checkout may hold that are not part of the project.
NOT_SHIPPED = shutil.ignore_patterns("__pycache__", "__marimo__", "*.pyc", "*.egg-info", ".*")
#: The project's dependencies, taken from the interpreter running the tests.
DEPENDENCIES = ("marimo", "numpy", "pandas", "matplotlib")
NOTEBOOKS = sorted(path.name for path in (REPO / "notebooks").glob("*.py"))
COMMAND_TIMEOUT = 120
SERVER_START_TIMEOUT = 120.0
SERVER_STOP_TIMEOUT = 20.0


@dataclass(frozen=True)
class Installed:
    """A temporary venv holding the installed wheel, and a folder that is not the checkout."""

    wheel: Path
    venv: Path
    site_packages: Path
    elsewhere: Path
    env: dict[str, str]

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        """Run a command of the venv from the other folder, without PYTHONPATH."""
        return subprocess.run(
            argv, cwd=self.elsewhere, env=self.env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False
        )


def _checked(argv: list[str], what: str, **kwargs: object) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        pytest.fail(f"{what} failed ({' '.join(argv)}), exit {done.returncode}:\n{done.stdout}\n{done.stderr}", pytrace=False)


def _setuptools_builds_wheels() -> bool:
    """True when this interpreter's setuptools has bdist_wheel built in (70.1 and newer)."""
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) for part in re.findall(r"\d+", version)[:2])
    return (major, minor) >= (70, 1)


def _module_folder(name: str) -> Path:
    """The folder holding the top-level package ``name`` (its site-packages)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, f"{name} is not installed: pip install -e '.[test]'"
    return Path(spec.origin).resolve().parent.parent


def _installed_files(site_packages: Path) -> set[str]:
    return {str(path.relative_to(site_packages)) for path in (site_packages / "ndcg_core").rglob("*")}


def _without_pythonpath() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "NDCG_LAB_PASSWORD")}


def _pip_build_flags() -> list[str]:
    """No build isolation (no download) when this interpreter's setuptools can build the wheel."""
    return ["--no-build-isolation"] if _setuptools_builds_wheels() else []


def _build_failure(what: str) -> str:
    if _setuptools_builds_wheels():
        return what
    return what + " (this setuptools is older than 70.1, so pip fetched one; pip install -e '.[test]' avoids that)"


def _venv(folder: Path) -> tuple[Path, Path]:
    """A venv without pip at ``folder``: its python and its site-packages."""
    _checked([sys.executable, "-m", "venv", "--without-pip", str(folder)], "creating a venv")
    python = folder / "bin" / "python"
    site_packages = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, env=_without_pythonpath(),
    ).stdout.strip()  # fmt: skip
    return python, Path(site_packages)


def _add_dependencies(site_packages: Path) -> None:
    """Make this interpreter's marimo, numpy, ... importable in the venv: path lines in a .pth file.

    Written after the install, so pip never sees this interpreter's packages (and its editable
    ndcg-lab) as installed in the venv.
    """
    folders = dict.fromkeys(
        [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
        + [str(_module_folder(name)) for name in DEPENDENCIES]
    )
    (site_packages / "ndcg_lab_test_dependencies.pth").write_text("".join(f"{folder}\n" for folder in folders))


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the build reads: a checkout without tests, caches or build leftovers."""
    folder = tmp_path_factory.mktemp("checkout")
    for name in BUILD_INPUTS:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, folder / name, ignore=NOT_SHIPPED)
        else:
            shutil.copy2(REPO / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def installed(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("wheel")
    dist, elsewhere = root / "dist", root / "elsewhere"
    elsewhere.mkdir()
    _checked(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", *_pip_build_flags(), "-w", str(dist), "."],
        _build_failure("building the wheel"),
        cwd=source,
    )
    (wheel,) = dist.glob("ndcg_lab-*.whl")
    python, site_packages = _venv(root / "venv")
    _checked(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        "installing the wheel",
    )
    _add_dependencies(site_packages)
    return Installed(wheel, root / "venv", site_packages, elsewhere, _without_pythonpath())


def _expected_wheel_files() -> set[str]:
    """Every project file of the checkout's ndcg_core/, data/ and notebooks/, at its place in the wheel."""
    expected = set()
    for folder, place in WHEEL_PLACES.items():
        for parent, folders, files in os.walk(REPO / folder):
            folders[:] = sorted(set(folders) - NOT_SHIPPED(parent, folders))
            for name in sorted(set(files) - NOT_SHIPPED(parent, files)):
                expected.add(f"{place}/{(Path(parent) / name).relative_to(REPO / folder).as_posix()}")
    return expected


def test_the_wheel_holds_every_file_of_the_package_the_notebooks_and_data(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as archive:
        shipped = {name for name in archive.namelist() if not name.split("/")[0].endswith(".dist-info")}
    expected = _expected_wheel_files()
    missing, extra = sorted(expected - shipped), sorted(shipped - expected)
    assert not missing, (
        f"the wheel lacks {missing}: a new subpackage goes into [tool.setuptools] packages in pyproject.toml, "
        "a new folder of data/ or notebooks/ gets its packages and package-data entries there"
    )
    assert not extra, f"the wheel holds files the checkout does not: {extra}"
    assert {f"ndcg_core/_notebooks/{name}" for name in NOTEBOOKS} | {
        "ndcg_core/_notebooks/decks/layouts/slides.css", "ndcg_core/_notebooks/decks/01_playground.py",
        "ndcg_core/_notebooks/decks/layouts/01_playground.slides.json",
        "ndcg_core/_data/exercises.toml", "ndcg_core/_data/toy/run_tuned.txt",
    } <= shipped  # fmt: skip


def test_the_installed_package_is_the_wheels_and_loads_the_exercise_bank(installed: Installed) -> None:
    script = (
        "import json, ndcg_core, marimo\n"
        "from ndcg_core.exercises import check\n"
        "from ndcg_core.teaching import paths\n"
        "feedback = check('lecture-ndcg', '0.78')\n"
        "print(json.dumps({'ndcg_core': ndcg_core.__file__, 'marimo': marimo.__file__, 'correct': feedback.correct,\n"
        "    'message': feedback.message, 'checkout': paths.is_checkout(), 'notebooks': str(paths.notebooks_dir()),\n"
        "    'data': str(paths.DATA_DIR), 'toy': str(paths.TOY_DIR)}))\n"
    )
    done = installed.run(installed.bin("python"), "-c", script)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    package = installed.site_packages / "ndcg_core"
    assert Path(seen["ndcg_core"]) == package / "__init__.py", "the checkout's ndcg_core was imported, not the wheel's"
    assert not Path(seen["marimo"]).is_relative_to(installed.venv), "marimo should come from the test interpreter"
    assert seen["correct"] is True, seen["message"]
    assert seen["checkout"] is False
    assert Path(seen["notebooks"]) == package / "_notebooks"
    assert Path(seen["data"]) == package / "_data" and Path(seen["toy"]) == package / "_data" / "toy"


def test_ndcg_eval_scores_the_shipped_toy_collection(installed: Installed) -> None:
    toy = installed.site_packages / "ndcg_core" / "_data" / "toy"
    done = installed.run(installed.bin("ndcg-eval"), "-m", "ndcg_cut.10", str(toy / "qrels.txt"), str(toy / "run_tuned.txt"))
    assert done.returncode == 0, done.stderr
    assert re.search(r"^ndcg_cut_10\s*\tall\t0\.8098$", done.stdout, flags=re.M), done.stdout


def test_ndcg_lab_edit_is_refused_in_an_installed_wheel(installed: Installed) -> None:
    done = installed.run(installed.bin("ndcg-lab"), "edit", "--headless", "--port", str(free_port()))
    assert done.returncode == 2, done.stdout + done.stderr
    notebooks = installed.site_packages / "ndcg_core" / "_notebooks"
    assert done.stderr.startswith(
        f"ndcg-lab: 'ndcg-lab edit' edits the notebooks of a source checkout, and this ndcg-lab is an installed "
        f"package: its notebooks are in {notebooks}"
    ), done.stderr
    assert "pip install -e ." in done.stderr


def _status(url: str) -> int | None:
    """The HTTP status of a GET, or None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        return int(err.code)
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return None


@dataclass(frozen=True)
class Server:
    url: str
    files_before: set[str]


@contextlib.contextmanager
def _serving(installed: Installed, *mode: str) -> Iterator[str]:
    """``ndcg-lab [mode] --headless --port <free>`` of the venv, started from the other folder;
    yields its base URL and stops it (and the marimo server under it)."""
    port = free_port()
    log_path = installed.elsewhere / f"ndcg-lab-{port}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [installed.bin("ndcg-lab"), *mode, "--headless", "--port", str(port)],
            cwd=installed.elsewhere, env=installed.env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while _status(url + "/") != 200:
            if process.poll() is not None:
                pytest.fail(f"ndcg-lab exited with {process.returncode}:\n{log_path.read_text()}", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(f"ndcg-lab did not answer on {url} within {SERVER_START_TIMEOUT:g} s:\n{log_path.read_text()}", pytrace=False)
            time.sleep(0.1)  # polling the condition above, not a fixed wait
        yield url
    finally:
        # SIGTERM to ndcg-lab, which forwards it to marimo's process group; SIGKILL to ndcg-lab's
        # group if it hangs (marimo then gets SIGTERM through PR_SET_PDEATHSIG).
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=SERVER_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        deadline = time.monotonic() + SERVER_STOP_TIMEOUT
        while _status(url + "/") is not None and time.monotonic() < deadline:
            time.sleep(0.1)  # polling until the port is closed
        assert _status(url + "/") is None, f"the marimo server on {url} survived ndcg-lab"


@pytest.fixture(scope="module")
def lab(installed: Installed) -> Iterator[Server]:
    """The installed ``ndcg-lab`` serving, and the package's files before it started."""
    files_before = _installed_files(installed.site_packages)
    with _serving(installed) as url:
        yield Server(url, files_before)


def test_ndcg_lab_serves_every_notebook_from_site_packages(lab: Server, installed: Installed) -> None:
    for name in NOTEBOOKS:
        assert _status(f"{lab.url}/?file={name}") == 200, name
    assert _status(f"{lab.url}/?file=09_no_such_notebook.py") == 404  # marimo answers for files it has only
    assert _installed_files(installed.site_packages) == lab.files_before, "serving wrote into the installed package"


def test_ndcg_lab_slides_serves_the_installed_decks(installed: Installed) -> None:
    with _serving(installed, "slides") as url:
        with urllib.request.urlopen(f"{url}/?file=01_playground.py", timeout=30) as response:
            page = response.read().decode("utf-8")
    # marimo puts the deck's app config and its css_file's rules into the page
    assert json.dumps({"layout_file": "layouts/01_playground.slides.json"})[1:-1] in page
    assert "The one stylesheet of every deck" in page  # notebooks/decks/layouts/slides.css


def test_an_editable_install_reads_the_checkouts_own_folders(source: Path, tmp_path: Path) -> None:
    """``pip install -e .`` (the README's command): the checkout's notebooks/ and data/ are used,
    so an edit there is what ``ndcg-lab`` serves and what the checker reads."""
    python, site_packages = _venv(tmp_path / "venv")
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps"]
    if _setuptools_builds_wheels():
        # what pip does for -e, with this interpreter's setuptools (pip would run it in the venv, which has none)
        build = "import sys; from setuptools import build_meta; print(build_meta.build_editable(sys.argv[1]))"
        done = subprocess.run(
            [sys.executable, "-c", build, str(tmp_path / "dist")], cwd=source, capture_output=True, text=True,
            timeout=COMMAND_TIMEOUT, check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"building the editable wheel failed:\n{done.stdout}\n{done.stderr}"
        _checked([*install, "--no-index", str(tmp_path / "dist" / done.stdout.split()[-1])], "installing the editable wheel")
    else:
        _checked([*install, "-e", str(source)], _build_failure("installing the checkout editable"))
    _add_dependencies(site_packages)
    script = (
        "import json, ndcg_core\n"
        "from ndcg_core.teaching import paths\n"
        "from ndcg_core.ui import lab\n"
        "print(json.dumps({'ndcg_core': ndcg_core.__file__, 'checkout': paths.is_checkout(),\n"
        "    'notebooks': str(paths.notebooks_dir()), 'data': str(paths.DATA_DIR),\n"
        "    'edit': lab.build_command(lab.parse_args(['edit'])).argv[3:5]}))\n"
    )
    done = subprocess.run(
        [str(python), "-c", script], cwd=tmp_path, env=_without_pythonpath(), capture_output=True, text=True,
        timeout=COMMAND_TIMEOUT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert Path(seen["ndcg_core"]) == source / "ndcg_core" / "__init__.py"
    assert seen["checkout"] is True
    assert Path(seen["notebooks"]) == source / "notebooks" and Path(seen["data"]) == source / "data"
    assert seen["edit"] == ["edit", str(source / "notebooks")]


def test_the_front_page_lists_every_notebook_and_the_playground_computes_in_chromium(
    lab: Server, installed: Installed, chromium: object
) -> None:
    from marimo_page import assert_no_traceback, open_notebook, page_text
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        page.goto(lab.url + "/")
        expect(page).to_have_title("NDCG Lab")  # NDCG Lab's front page (ndcg_core.ui.front), not marimo's gallery
        links = page.locator('.card h3 a[href*="?file="]')  # one card per notebook
        expect(page.locator(".card img")).to_have_count(len(NOTEBOOKS))
        page.wait_for_function("() => [...document.images].every((i) => i.complete && i.naturalWidth > 0)")
        expect(links).to_have_count(len(NOTEBOOKS), timeout=60_000)
        hrefs = links.evaluate_all("links => links.map(link => link.getAttribute('href'))")
        assert sorted(href.rsplit("?file=", 1)[1] for href in hrefs) == NOTEBOOKS
        open_notebook(page, lab.url, "01_playground.py")
        text = page_text(page)
        assert "nDCG@5" in text and "0.7763" in text, text[:2000]
        assert_no_traceback(page)
    finally:
        context.close()
    assert _installed_files(installed.site_packages) == lab.files_before, "a marimo session wrote into the installed package"
