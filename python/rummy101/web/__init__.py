"""The web page (issue 14): static files served by ``rummy101 serve`` at ``/``.

The page is plain ES modules, CSS and SVG drawn by the scripts (no build step, nothing fetched
from the network): :mod:`rummy101.service.app` serves ``index.html`` at ``/`` (and ``/index.html``) and the other files
under ``/web/``, from :func:`static_files`. The page talks to the games API of
:mod:`rummy101.service.games` (docs/web.md).

>>> files = static_files()
>>> files["index.html"][1], files["app.js"][1]
('text/html; charset=utf-8', 'text/javascript; charset=utf-8')
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

__all__ = ["CONTENT_TYPES", "CSP", "static_files"]

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
}

#: The page loads only its own files: no script, style, image or connection elsewhere.
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


@lru_cache(maxsize=1)
def static_files() -> dict[str, tuple[bytes, str]]:
    """Every file of the page: name -> (bytes, content type), read once from the package."""
    root = resources.files(__name__).joinpath("static")
    out: dict[str, tuple[bytes, str]] = {}
    for entry in root.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in CONTENT_TYPES:
            out[entry.name] = (entry.read_bytes(), CONTENT_TYPES[suffix])
    return out
