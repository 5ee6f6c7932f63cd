"""What "usable on a phone" means, checked in the page: the scripts tests/browser/test_phone.py runs.

:data:`OVERFLOW_JS` (argument: the viewport's width) lists every visible text or control that
ends past the right edge and is not held by a box that scrolls on its own (``overflow-x`` auto
or scroll, ``scrollWidth > clientWidth``, itself inside the viewport). The frame that holds a
marimo notebook's cells (``#App``) scrolls, but it is the page, not a box of its own: content
it would scroll sideways counts as cut off. Visually hidden text (KaTeX's MathML copy for
screen readers, ``sr-only`` labels: a 1 px box that clips) is skipped. It also reports how
wide the page is (the document, and marimo's frame).

:data:`TARGETS_JS` lists the controls a finger presses (text boxes, dropdowns, buttons, radio
buttons, checkboxes, switches, slider thumbs) smaller than ``min`` x ``min`` CSS px, and pairs
of them that overlap. Links inside running text are not targets here (WCAG 2.5.8 exempts them).

:data:`PLOTS_JS` gives the scale each plot's picture is drawn at (drawn width / natural width).

:data:`SLIDERS_JS` gives each shown slider's label and track width in CSS px (a full-width
slider in a wrapped row once shrank to its thumb, 0 px of track, at 360 px).
"""

from __future__ import annotations

__all__ = ["OVERFLOW_JS", "TARGETS_JS", "PLOTS_JS", "SLIDERS_JS", "ON_A_PHONE"]

#: How the phone tests open a page: the device's scale, a touch screen, the mobile viewport
#: (the page's ``<meta name="viewport">`` counts, and a page wider than the screen is zoomed out).
ON_A_PHONE = {"device_scale_factor": 3, "is_mobile": True, "has_touch": True}

_SHARED = r"""
  const parentOf = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const shown = (e) => e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  function hiddenByClip(e) {
    for (let a = e; a; a = parentOf(a)) {
      const r = a.getBoundingClientRect();
      if (r.width <= 1 && r.height <= 1 && getComputedStyle(a).overflow !== "visible") return true;
    }
    return false;
  }
  function describe(e) {
    let d = e.tagName.toLowerCase();
    if (e.id) d += "#" + e.id;
    if (typeof e.className === "string" && e.className.trim()) d += "." + e.className.trim().split(/\s+/).slice(0, 3).join(".");
    const text = (e.innerText || e.value || e.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim().slice(0, 50);
    return text ? `${d} "${text}"` : d;
  }
  function walk(node, visit) {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) {
        visit(child);
      } else if (child.nodeType === 1) {
        if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"].includes(child.tagName)) continue;
        visit(child);
        if (child.shadowRoot) walk(child.shadowRoot, visit);
        walk(child, visit);
      }
    }
  }
"""

OVERFLOW_JS = (
    r"""
(vw) => {
"""
    + _SHARED
    + r"""
  const CONTROL = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "IMG", "SVG", "CANVAS", "VIDEO", "IFRAME"]);
  // the frame holding the cells (marimo's #App) or the page itself is not "a box of its own"
  const isFrame = (a) => a === document.documentElement || a === document.body || a.id === "App" ||
    !!a.querySelector(".marimo-cell, main, [role=main]");
  function ownScroller(e) {
    for (let a = parentOf(e); a; a = parentOf(a)) {
      const s = getComputedStyle(a);
      if ((s.overflowX === "auto" || s.overflowX === "scroll") && a.scrollWidth > a.clientWidth + 1) {
        return isFrame(a) ? null : a;
      }
    }
    return null;
  }
  const out = [];
  const seen = new Set();
  function check(e, right, what) {
    if (right <= vw + 0.5) return;
    const box = ownScroller(e);
    if (box && box.getBoundingClientRect().right <= vw + 0.5) return;
    if (hiddenByClip(e)) return;
    const d = `${what} ${describe(e)} ends at ${Math.round(right)} px`;
    if (!seen.has(d)) { seen.add(d); out.push(d); }
  }
  walk(document.body, (node) => {
    if (node.nodeType === 3) {
      const p = node.parentElement;
      if (!node.textContent.trim() || !p || !shown(p)) return;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 1 && r.height > 1) check(p, r.right, "text in");
    } else if ((CONTROL.has(node.tagName.toUpperCase()) || node.getAttribute("role") === "slider") && shown(node)) {
      const r = node.getBoundingClientRect();
      if (r.width > 1 && r.height > 1) check(node, r.right, "control");
    }
  });
  const app = document.getElementById("App");
  return {
    offenders: out,
    documentWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    frameWidth: app ? app.scrollWidth : 0,
    frameClientWidth: app ? app.clientWidth : 0,
  };
}
"""
)

TARGETS_JS = (
    r"""
(min) => {
"""
    + _SHARED
    + r"""
  const ROLES = new Set(["radio", "checkbox", "switch", "slider", "button", "combobox", "tab"]);
  function isTarget(e) {
    const tag = e.tagName.toUpperCase();
    if (tag === "INPUT") return !["hidden", "file"].includes(e.type);
    if (["SELECT", "TEXTAREA", "BUTTON"].includes(tag)) return true;
    return ROLES.has(e.getAttribute("role") || "") && tag !== "A";
  }
  const targets = [];
  walk(document.body, (node) => {
    if (node.nodeType !== 1 || !isTarget(node) || !shown(node) || hiddenByClip(node)) return;
    if (node.closest && node.closest("[inert], [aria-hidden=true]")) return;
    // a target inside another (the label's text in a button) counts once, as the outer one
    for (let a = parentOf(node); a; a = parentOf(a)) if (a.nodeType === 1 && isTarget(a)) return;
    const r = node.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    targets.push({e: node, r});
  });
  const small = targets.filter(({r}) => r.width + 0.5 < min || r.height + 0.5 < min)
    .map(({e, r}) => `${describe(e)} is ${Math.round(r.width)}x${Math.round(r.height)}`);
  const overlapping = [];
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const a = targets[i].r, b = targets[j].r;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) overlapping.push(`${describe(targets[i].e)} overlaps ${describe(targets[j].e)}`);
    }
  }
  return {count: targets.length, small, overlapping};
}
"""
)

PLOTS_JS = r"""
() => [...document.querySelectorAll("figure.ndcg-plot img")]
  .filter((i) => i.checkVisibility() && i.naturalWidth > 0)
  .map((i) => i.getBoundingClientRect().width / i.naturalWidth)
"""

SLIDERS_JS = r"""
() => [...document.querySelectorAll('marimo-slider')].map((s) => {
  // marimo-slider is display: contents (no box): measure the slider's root inside its shadow root
  const track = (s.shadowRoot || s).querySelector('[data-orientation="horizontal"]');
  let label = s.getAttribute('data-label') || '';
  try { label = JSON.parse(label); } catch (err) { /* a plain string */ }
  label = String(label).replace(/<[^>]*>/g, '').trim();
  return track && track.checkVisibility() ? [label, Math.round(track.getBoundingClientRect().width)] : null;
}).filter(Boolean)
"""
