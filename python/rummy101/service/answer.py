"""Answers of the JSON operations: JSON bytes, and the ``{"error"}`` object of a failure that is
no user mistake (logged under a request id; the answer quotes only that id). Needs no FastAPI.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

__all__ = ["encode", "internal_error", "request_id"]

log = logging.getLogger("rummy101.service")


def request_id() -> str:
    """A short id quoted in a generic error answer and in the log line that has the details."""
    return uuid.uuid4().hex[:12]


def internal_error(exc: BaseException, path: str | None = None) -> dict[str, str]:
    """Log ``exc`` (raised answering a request on ``path``) under a new request id; the
    ``{"error"}`` answer says no more than that id."""
    rid = request_id()
    if path is None:
        log.error("request %s failed", rid, exc_info=exc)
    else:
        log.error("request %s on %s failed", rid, path, exc_info=exc)
    return {"error": f"internal error while answering this request (request id {rid}); the "
                     f"details are in the service log"}


def encode(payload: Any) -> bytes:
    r"""``payload`` as compact UTF-8 JSON (bytes already encoded, in a worker thread, pass).

    A lone surrogate, which a client may send in JSON (``"\ud800"``) and an answer may quote
    back (an unknown field's name, a value in an error message), has no UTF-8 form: it is sent
    escaped, as ``ensure_ascii`` would write it, and reads back as the same string.

    >>> encode({"error": "field " + chr(0xD800)})
    b'{"error":"field \\ud800"}'
    """
    if isinstance(payload, bytes):
        return payload
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a surrogate is only ever inside a JSON string: escaped there
        return text.encode("utf-8", "backslashreplace")
