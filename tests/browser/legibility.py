"""The projector's legibility rules, checked in the page on the slide being shown.

:data:`LEGIBILITY_JS` returns a list of problems (empty when the slide passes) for the present
slide of a reveal.js deck:

- every visible text is at least ``minText`` px as drawn (its font size times the CSS zoom of
  its elements times the scale reveal.js draws the deck at; SVG text through its screen
  transform), the playground's numbers (``.ndcg-stat-value``) at least ``minNumber`` px;
- the PNG frame of a playground plot (``figure.ndcg-plot img``) is drawn at least
  ``minPlotScale`` of its natural width, so its smallest text (``plotTextPx`` px at natural size)
  reaches ``minText`` too;
- no element lies outside the slide, the slide's scroll container does not scroll, and
  marimo's "Scroll for more" badge is not shown;
- no two visible texts are drawn over each other (two fragments placed in one grid cell, a
  label over a caption): the boxes of their lines may not share more than a fifth of the
  smaller one (formulas, whose glyphs stack, are left out);
- coloured text (any colour that is not a grey) has at least 4.5:1 contrast against the
  background it is drawn on; SVG strokes and fills of plots at least 3:1 against white.

Hidden things (a fragment not revealed yet, speaker notes, closed accordions) are skipped: they
are checked on the step that shows them.
"""

from __future__ import annotations

__all__ = ["LEGIBILITY_JS", "RULES", "assert_legible"]

#: The thresholds (CSS px as drawn on a 1280x720 window).
RULES = {"minText": 20.0, "minNumber": 30.0, "textContrast": 4.5, "plotContrast": 3.0, "tolerance": 0.5}

LEGIBILITY_JS = r"""
(rules) => {
  const problems = [];
  const section = document.querySelector('.reveal .slides > section.present');
  if (!section) return ['no slide is shown'];
  const slides = document.querySelector('.reveal .slides');
  const scale = slides.getBoundingClientRect().width / slides.offsetWidth;
  const box = section.getBoundingClientRect();
  const tol = rules.tolerance;
  const short = (t) => t.replace(/\s+/g, ' ').trim().slice(0, 60);

  function parse(c) {
    const m = c && c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  }
  function lum(c) {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  }
  function ratio(a, b) { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
  function isGrey(c) { return Math.max(c.r, c.g, c.b) - Math.min(c.r, c.g, c.b) < 24; }
  function parentOf(e) { return e.parentElement || (e.getRootNode() && e.getRootNode().host) || null; }
  function background(e) {
    for (let x = e; x; x = parentOf(x)) {
      const c = parse(getComputedStyle(x).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return {r: 255, g: 255, b: 255, a: 1};
  }
  function zoomOf(e) { return e.currentCSSZoom || 1; }
  function visible(e) {
    if (!e.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    for (let x = e; x && x !== section; x = parentOf(x)) {
      if (x.tagName === 'ASIDE') return false;
      if (parseFloat(getComputedStyle(x).opacity) < 0.1) return false;
    }
    return true;
  }

  // the slide must not scroll, and marimo's badge must not show
  for (const s of section.querySelectorAll('[data-testid="slide-scroll-container"]')) {
    if (s.scrollHeight > s.clientHeight + 2) problems.push(`the slide scrolls: ${s.scrollHeight} px of content in ${s.clientHeight} px`);
    if (s.scrollWidth > s.clientWidth + 2) problems.push(`the slide scrolls sideways: ${s.scrollWidth} px of content in ${s.clientWidth} px`);
  }

  const seen = new Set();
  const lines = [];  // [text, DOMRect] of each visible HTML text's line boxes
  function walk(node) {
    if (node.nodeType === 3) {
      const text = node.textContent;
      const e = node.parentElement;
      if (!text.replace(/[\s\u200b\u200c\u200d\u2060\ufeff]/g, '') || !e || seen.has(e)) return;
      seen.add(e);
      if (!visible(e)) return;
      const style = getComputedStyle(e);
      if (/scroll for more/i.test(text)) problems.push(`marimo shows "${short(text)}"`);
      let size;
      if (e instanceof SVGElement) {
        const ctm = e.getScreenCTM();
        size = parseFloat(style.fontSize) * (ctm ? Math.hypot(ctm.a, ctm.b) : scale);
      } else {
        size = parseFloat(style.fontSize) * zoomOf(e) * scale;
      }
      const need = e.closest && e.closest('.ndcg-stat-value') ? rules.minNumber : rules.minText;
      if (size + tol < need) problems.push(`text ${size.toFixed(1)} px < ${need} px: "${short(text)}"`);
      const r = e.getBoundingClientRect();
      if (r.width > 0 && (r.left < box.left - 2 || r.right > box.right + 2 || r.top < box.top - 2 || r.bottom > box.bottom + 2))
        problems.push(`text outside the slide: "${short(text)}"`);
      if (!(e instanceof SVGElement) && !e.closest('.katex, math')) {  // a formula's glyphs stack by design
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const q of range.getClientRects()) if (q.width > 2 && q.height > 2) lines.push([text, q]);
      }
      const color = parse(e instanceof SVGElement ? (style.fill !== 'none' ? style.fill : style.color) : style.color);
      if (color && !isGrey(color)) {
        const bg = e instanceof SVGElement ? {r: 255, g: 255, b: 255, a: 1} : background(e);
        const cr = ratio(color, bg);
        if (cr + 0.005 < rules.textContrast) problems.push(`coloured text ${cr.toFixed(2)}:1 < ${rules.textContrast}:1: "${short(text)}" (${style.color})`);
      }
      return;
    }
    if (node.nodeType === 1) {
      const e = node;
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'ASIDE'].includes(e.tagName)) return;
      if (e.tagName === 'IMG' && e.closest('figure.ndcg-plot') && visible(e)) {
        const drawn = e.getBoundingClientRect().width / e.naturalWidth;
        if (drawn * rules.plotTextPx + tol < rules.minText)
          problems.push(`plot drawn at ${(drawn * 100).toFixed(0)} % of its width: its ${rules.plotTextPx.toFixed(1)} px text shows at ${(drawn * rules.plotTextPx).toFixed(1)} px`);
      }
      if ((e.tagName === 'path' || e.tagName === 'line' || e.tagName === 'polyline' || e.tagName === 'rect') && e.closest('figure.ndcg-plot') && visible(e)) {
        const st = getComputedStyle(e);
        for (const [what, value] of [['stroke', st.stroke], ['fill', st.fill]]) {
          const c = parse(value);
          if (!c || c.a < 0.5 || (c.r > 240 && c.g > 240 && c.b > 240)) continue;
          if (isGrey(c) && lum(c) < 0.2) continue;
          const cr = ratio(c, {r: 255, g: 255, b: 255});
          if (cr + 0.005 < rules.plotContrast) problems.push(`plot ${what} ${value} ${cr.toFixed(2)}:1 < ${rules.plotContrast}:1`);
        }
      }
      if (e.tagName !== 'svg' && !(e instanceof SVGElement) && visible(e)) {
        const r = e.getBoundingClientRect();
        if (r.width > 1 && r.height > 1 && (r.left < box.left - 2 || r.right > box.right + 2 || r.bottom > box.bottom + 2 || r.top < box.top - 2)) {
          const inner = (e.innerText || e.getAttribute('aria-label') || e.tagName).toString();
          problems.push(`${e.tagName.toLowerCase()} outside the slide (${Math.round(r.left - box.left)},${Math.round(r.top - box.top)} ${Math.round(r.width)}x${Math.round(r.height)} in ${Math.round(box.width)}x${Math.round(box.height)}): "${short(inner)}"`);
        }
      }
      if (e.shadowRoot) walk(e.shadowRoot);
    }
    for (const child of node.childNodes) walk(child);
  }
  walk(section);
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const [ta, a] = lines[i], [tb, b] = lines[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0 && h > 0 && w * h > 0.2 * Math.min(a.width * a.height, b.width * b.height))
        problems.push(`texts drawn over each other: "${short(ta)}" and "${short(tb)}"`);
    }
  }
  return [...new Set(problems)];
}
"""


def assert_legible(page: object, path: object) -> None:
    """Wait until the deck is still, save a screenshot to ``path`` and assert that the present
    slide passes :data:`LEGIBILITY_JS` (the deck tests' check after each press)."""
    from marimo_page import DECK_STILL_JS

    from ndcg_core.ui.plots import ranking

    rules = {**RULES, "plotTextPx": ranking.SMALLEST_TEXT_PT * ranking.PNG_DPI / 72}
    page.wait_for_function(DECK_STILL_JS, polling="raf")  # type: ignore[attr-defined]
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    problems = page.evaluate(LEGIBILITY_JS, rules)  # type: ignore[attr-defined]
    assert not problems, f"{getattr(path, 'stem', path)}: " + "\n".join(problems[:20])
