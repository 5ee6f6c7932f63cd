"""axe-core for the browser tests: fetched from the npm registry once, injected into a page.

``axe_source()`` returns axe-core's ``axe.min.js`` (version :data:`AXE_VERSION`, MPL-2.0, not
vendored: ``npm pack axe-core@VERSION`` downloads it into the user's cache folder the first time,
``~/.cache/ndcg-lab/axe-core-VERSION/``, and later runs reuse it). :func:`audit` injects it and
runs it on the page, optionally only inside the cells' outputs (``[id^="output-"]``: the
notebook's own content, without marimo's chrome). :func:`audit_split` runs it once on the whole
page and splits the violations into those two parts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

AXE_VERSION = "4.14.1"
#: The cells' outputs, in a page and on a slide: the notebook's content, not marimo's chrome.
CONTENT = '[id^="output-"]'


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ndcg-lab" / f"axe-core-{AXE_VERSION}"


def axe_source() -> str:
    """axe.min.js, from the cache or from ``npm pack``; RuntimeError naming the problem."""
    target = cache_dir() / "axe.min.js"
    if target.is_file():
        return target.read_text(encoding="utf-8")
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("the accessibility audit needs npm (apt-get install npm) to fetch axe-core")
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([npm, "pack", f"axe-core@{AXE_VERSION}", "--silent"], cwd=folder,
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"npm pack axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-500:]}")
        archive = Path(folder) / done.stdout.strip().splitlines()[-1]
        with tarfile.open(archive) as tar:
            member = tar.extractfile("package/axe.min.js")
            licence = tar.extractfile("package/LICENSE")
            assert member is not None
            target.parent.mkdir(parents=True, exist_ok=True)
            if licence is not None:
                (target.parent / "LICENSE").write_bytes(licence.read())
            # written aside, then renamed: a test process reading the cache meanwhile (pytest-xdist
            # runs several) sees the whole file or none
            partial = target.with_name(f"{target.name}.{os.getpid()}.part")
            partial.write_bytes(member.read())
            os.replace(partial, target)
    return target.read_text(encoding="utf-8")


_RUN_JS = r"""
async ([include]) => {
  const context = include ? {include: [...document.querySelectorAll(include)].map((e) => e)} : document;
  if (include && context.include.length === 0) return [];
  const result = await axe.run(context, {resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({target: JSON.stringify(n.target), html: n.html.slice(0, 160),
                                             summary: (n.failureSummary || '').slice(0, 200)}))}));
}
"""


def audit(page: object, source: str, *, content_only: bool, within: str = "") -> list[dict]:
    """axe-core's violations on the page (or only in the cells' outputs ``within`` a selector)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):  # type: ignore[attr-defined]
        page.add_script_tag(content=source)  # type: ignore[attr-defined]
    include = f"{within} {CONTENT}".strip() if content_only else ""
    return list(page.evaluate(_RUN_JS, [include]))  # type: ignore[attr-defined]


_SPLIT_JS = r"""
async ([content]) => {
  const result = await axe.run(document, {resultTypes: ['violations'], elementRef: true});
  // inside a cell's output: an ancestor in the document (shadow hosts crossed) matching `content`,
  // as the elements a content-only run includes (document.querySelectorAll(content))
  const inContent = (e) => {
    for (let a = e; a; a = a.parentElement || (a.parentNode && a.parentNode.host) || null) {
      if (a.matches && a.getRootNode() === document && a.matches(content)) return true;
    }
    return false;
  };
  const out = {content: [], chrome: []};
  for (const v of result.violations) {
    for (const where of ['content', 'chrome']) {
      const nodes = v.nodes.filter((n) => inContent(n.element) === (where === 'content'));
      if (nodes.length) out[where].push({id: v.id, impact: v.impact, help: v.help,
        nodes: nodes.slice(0, 5).map((n) => ({target: JSON.stringify(n.target), html: n.html.slice(0, 160),
                                              summary: (n.failureSummary || '').slice(0, 200)}))});
    }
  }
  return out;
}
"""


def audit_split(page: object, source: str) -> tuple[list[dict], list[dict]]:
    """One axe-core run on the whole page, its violations split by where each node is: (inside
    the cells' outputs, outside them: marimo's chrome and the page itself). The first part is
    what :func:`audit` finds with ``content_only=True``, and both together what it finds with
    ``content_only=False``, node for node: compared on every notebook, as they are and with
    violations planted inside an output and outside (an unnamed input, faint text, an image
    without alt), before the accessibility test used one run instead of two."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):  # type: ignore[attr-defined]
        page.add_script_tag(content=source)  # type: ignore[attr-defined]
    found = page.evaluate(_SPLIT_JS, [CONTENT])  # type: ignore[attr-defined]
    return list(found["content"]), list(found["chrome"])


def describe(violations: list[dict]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(
        f"{n['target']} {n['html']}" for n in v["nodes"]) for v in violations)


#: Every form control inside the cells' outputs (shadow roots too) with its accessible name as
#: the page gives it: aria-label, aria-labelledby, a <label>, or a button's text.
NAMES_JS = r"""
(within) => {
  const out = [];
  function nameOf(e) {
    const root = e.getRootNode();
    if (e.getAttribute('aria-label')) return e.getAttribute('aria-label');
    const by = e.getAttribute('aria-labelledby');
    if (by) return by.split(/\s+/).map((id) => (root.getElementById ? root.getElementById(id) : document.getElementById(id))?.textContent || '').join(' ');
    if (e.id && root.querySelector) { const l = root.querySelector(`label[for="${CSS.escape(e.id)}"]`); if (l) return l.textContent; }
    const wrap = e.closest('label'); if (wrap) return wrap.textContent;
    if (e.tagName === 'BUTTON') return e.textContent;
    return '';
  }
  function walk(node) {
    if (node.nodeType === 1) {
      const e = node;
      const role = e.getAttribute('role');
      if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(e.tagName) || ['slider', 'switch', 'checkbox', 'radio', 'combobox', 'button'].includes(role)) {
        if (e.type !== 'hidden' && e.checkVisibility()) out.push({tag: e.tagName.toLowerCase(), role: role || '', type: e.type || '', placeholder: e.getAttribute('placeholder') || '', name: (nameOf(e) || '').replace(/\s+/g, ' ').trim()});
      }
      if (e.shadowRoot) walk(e.shadowRoot);
    }
    for (const child of node.childNodes) walk(child);
  }
  for (const c of document.querySelectorAll(within)) walk(c);
  return out;
}
"""
