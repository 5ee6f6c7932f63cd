"""A verdict marks itself stale while its answer box is being edited.

marimo sends a text box's value on Enter or when it loses focus, so while a learner types a
new answer the page would still show the verdict on the old one, as if it applied. The
server cannot see the typing; the browser can. Every verdict under a text answer box is
wrapped in ``<div data-ndcg-verdict-for="<the box's object id>">`` (:func:`mark`), and
:data:`STALE_HEAD` (added to every notebook page's ``<head>`` by ``ui.front.chrome_fixes``)
listens for typing in any box: the verdicts of that box fade and say that they are about
the answer checked before, until the box sends its value and the verdict is drawn anew.

Plain strings only (no marimo import): the front page imports this module.
"""

from __future__ import annotations

from html import escape

__all__ = ["ATTRIBUTE", "CHECKED", "STALE_CLASS", "STALE_HEAD", "wrap"]

#: The attribute naming the answer box a verdict belongs to.
ATTRIBUTE = "data-ndcg-verdict-for"
#: The class the script adds to a verdict whose box is being edited.
STALE_CLASS = "ndcg-stale"

#: The attribute holding the answer the verdict is about (as the box sent it).
CHECKED = "data-ndcg-checked"

STALE_HEAD = f"""<style id="ndcg-lab-stale-verdicts">
[{ATTRIBUTE}].{STALE_CLASS} > * {{ opacity: 0.4; }}
[{ATTRIBUTE}].{STALE_CLASS}::before {{
  content: "Not checked: you are editing the answer. Press Enter or Check to check it.";
  display: block; font-weight: 600; color: #3d4756; margin-bottom: 0.3rem;
}}
</style>
<script id="ndcg-lab-stale-verdicts-script">
(() => {{
  // Typing in a box (inside marimo's shadow DOM: the event's composed path leads to the
  // input and to its marimo-ui-element host) marks the verdicts naming that box's object id
  // stale while the text differs from the answer they are about, and unmarks them when it
  // is the same again.
  document.addEventListener("input", (event) => {{
    const path = event.composedPath ? event.composedPath() : [];
    const input = path[0];
    const host = path.find((node) => node && node.tagName === "MARIMO-UI-ELEMENT");
    if (!host || !input || typeof input.value !== "string") return;
    const id = host.getAttribute("object-id");
    for (const verdict of document.querySelectorAll("[{ATTRIBUTE}]")) {{
      if (verdict.getAttribute("{ATTRIBUTE}") !== id) continue;
      const same = input.value.trim() === (verdict.getAttribute("{CHECKED}") || "").trim();
      verdict.classList.toggle("{STALE_CLASS}", !same);
    }}
  }}, true);
  // A verdict drawn anew for another answer (the page keeps the element and changes its
  // attribute) is current again.
  new MutationObserver((changes) => {{
    for (const change of changes) change.target.classList.remove("{STALE_CLASS}");
  }}).observe(document.documentElement, {{subtree: true, attributes: true, attributeFilter: ["{CHECKED}"]}});
}})();
</script>"""


def wrap(inner_html: str, box_id: str, checked: str) -> str:
    """``inner_html`` (the verdict on ``checked``, the answer as the box sent it) in the
    element :data:`STALE_HEAD`'s script marks stale while the box with object id ``box_id``
    holds other text.

    >>> wrap("<p>Right</p>", "Hbol-0", "2.43")
    '<div class="ndcg-verdict" data-ndcg-verdict-for="Hbol-0" data-ndcg-checked="2.43"><p>Right</p></div>'
    """
    return (f'<div class="ndcg-verdict" {ATTRIBUTE}="{escape(box_id)}" {CHECKED}="{escape(str(checked))}">'
            f"{inner_html}</div>")
