"""The question app's pages: HTML templates shipped as package data (``templates/``) and a tiny renderer.

A template marks a place with ``{{NAME}}``; :func:`render` fills it with escaped text, or with
markup the caller built itself (:class:`Markup`: the bank's ``<option>`` list, the QR code's
SVG). Student text never reaches a template: the pages' scripts set it with ``textContent``.
"""

from __future__ import annotations

import functools
import html
import re
from importlib import resources

__all__ = ["Markup", "render", "login_page", "NO_STORE", "SECURITY", "qr_inline"]

NO_STORE = {"Cache-Control": "no-store"}
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline' 'self'; style-src 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    # same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" on its own POSTs,
    # and the app refuses POSTs whose Origin is not this site (auth.same_origin)
    "Referrer-Policy": "same-origin",
}
_PLACE = re.compile(r"\{\{([A-Z_]+)\}\}")


class Markup(str):
    """Text that is already HTML (built from escaped parts): :func:`render` puts it in as it is."""


@functools.cache
def template(name: str) -> str:
    """A template's text (read once per process)."""
    return resources.files(__package__).joinpath("templates", name).read_text(encoding="utf-8")


def render(name: str, **values: str) -> str:
    """``name`` with every ``{{KEY}}`` replaced by ``values[KEY]`` (escaped unless :class:`Markup`);
    a place without a value is a programming error (KeyError), never a blank on the page."""
    values = {"STYLE": Markup(template("style.css")), **values}

    def fill(match: re.Match[str]) -> str:
        value = values[match.group(1)]
        return value if isinstance(value, Markup) else html.escape(value)

    return _PLACE.sub(fill, template(name))


def login_page(title: str, action: str, field: str | None, label: str, message: str = "", button: str = "Enter") -> str:
    """A login form: one password field (``field``), or only a button when ``field`` is None."""
    note = Markup(f'<p class="msg err">{html.escape(message)}</p>') if message else Markup("")
    box = Markup(
        f'<label>{html.escape(label)} <input type=password name="{html.escape(field)}" autofocus required></label>'
        if field is not None else f"<p>{html.escape(label)}</p>"
    )
    return render("login.html", TITLE=title, NOTE=note, ACTION=action, FIELD=box, BUTTON=button)


def qr_inline(url: str) -> Markup:
    """The join link as an inline SVG QR code (segno: pure Python), or a note when segno is missing."""
    try:
        import segno
    except ImportError:
        return Markup("<p>(install the Python package segno for a QR code)</p>")
    return Markup(segno.make(url, error="m").svg_inline(scale=7, border=2))
