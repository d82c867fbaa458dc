"""Running the HTTP service under uvicorn (``rummy101 serve``), hardened for exposure.

uvicorn alone waits forever for a request's headers and for its body, and only times out idle
keep-alive connections. :class:`GuardedHttp` (uvicorn's httptools protocol) adds two timers:

* a request's headers must arrive within :data:`~.limits.HEADER_SECONDS` of its first byte (and
  a new connection must start its first request as soon), else the connection is closed; a
  request begun behind one still to be answered has that time from the answer before it on
  (the timer ran meanwhile: a batch running past it lost its answer when the connection closed
  on the next request's unfinished head);
* its body must arrive within :data:`~.limits.BODY_SECONDS` of the headers, else the service
  answers 408 (when no answer was started) and closes the connection; a request pipelined
  behind one still to be answered, whose body uvicorn leaves unread until then, has that time
  from the answer before it on;
* a client that stops reading its answer (the write buffer stays full for
  :data:`~.limits.WRITE_SECONDS`) is disconnected, so unread answers do not pile up in memory;
* a request line and headers longer than :data:`~.limits.MAX_HEAD_BYTES` answer 431 and close
  the connection (httptools would hold any amount: 50 connections sending 20 MB headers took
  the process from 69 MB to 1 GB). The bytes are counted per read from the socket, up to the
  blank line that ends the headers; a request pipelined behind another in the same read is
  counted from the next read on, so it may pass the cap by the rest of that read (at most one
  read, 256 KiB);
* the trailer fields of a chunked body (header lines after its last chunk) are held to the same
  cap, counted from the first read that brings no body after a chunk's size line: httptools
  holds them too, and uvicorn adds them to the request's headers (one connection sending 100 MB
  of trailers, within its body timeout, took the process from 128 MB to 208 MB);
* bytes that are not HTTP/1.1 (a Content-Length that is no number, a bad chunk size) answer 400
  ``{"error"}`` like every other answer (uvicorn's is text/plain), and the connection is closed;
  when they follow requests read whole but not yet answered (a Content-Length shorter than its
  body leaves the rest of the body to be read as the next request), those are answered first
  (uvicorn dropped their answers: a game action was played, and its client was told only that
  its request was not HTTP);
* a connection may send at most :data:`~.limits.MAX_PIPELINED` requests ahead of their answers
  (uvicorn queued any number: 300,000 pipelined GETs, 10 MB, took the process to 1.7 GB); the
  request past them is not read, and a 429 follows the answers to those before it;
* when a client disconnects, every request of its connection learns it (uvicorn tells only the
  latest, and a request answered while a pipelined one waited behind it ran on for nobody);
* a request that offers an upgrade the server does not make (``Upgrade: h2c``, sent by Java's
  HttpClient and ``curl --http2``) is read as the HTTP/1.1 request it also is, body included
  (uvicorn ran the app on an empty body).

:func:`serve` starts uvicorn with that protocol, a graceful shutdown of
:data:`~.limits.SHUTDOWN_SECONDS` (requests still running then are cancelled, and the process ends
at most a second later even if a solve is still running in a worker thread), and the app of
:func:`rummy101.service.app.app_from_env`.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import signal
from collections import deque
from typing import Any

import httptools
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import (
    BODY_SECONDS,
    HEADER_SECONDS,
    MAX_HEAD_BYTES,
    MAX_PIPELINED,
    SHUTDOWN_SECONDS,
    WRITE_SECONDS,
)

__all__ = ["GuardedHttp", "serve", "uvicorn_config"]


def _closing_answer(status: bytes, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
            + body)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with header and body read timeouts (see the module)."""

    header_seconds = HEADER_SECONDS
    body_seconds = BODY_SECONDS
    write_seconds = WRITE_SECONDS
    max_head_bytes = MAX_HEAD_BYTES
    max_pipelined = MAX_PIPELINED

    _guard: asyncio.TimerHandle | None = None
    _write_guard: asyncio.TimerHandle | None = None
    # the request line and headers being read: bytes so far, the last 3 bytes (a blank line
    # split between two reads)
    _head_open = True
    _head_bytes = 0
    _head_tail = b""
    _in_body = False  # between a request's headers and the end of its body
    # a request's head begun while one before it is still to be answered: its header timer
    # starts once that one is answered (on_response_complete)
    _head_deferred = False
    # a chunk's size line was read and none of its data since: its data is still to come, or it
    # was the last chunk (size 0) and the trailer fields follow; _bodies counts on_body calls
    _chunk_waiting = False
    _bodies = 0
    _trailer_bytes = 0  # bytes of reads that brought no body while _chunk_waiting
    # this connection's requests not yet answered, in the order they are answered (set in
    # connection_made; the answered ones leave from the front)
    _open_cycles: deque[Any]
    _reread = b""  # the head of a request that offered an upgrade, to read again without it
    # the closing answer (status, message) due once the requests read before it are answered:
    # bytes that are not HTTP/1.1 after them (400), or one request too many sent ahead of its
    # answer (429); bytes that come meanwhile are dropped
    _after: tuple[bytes, str] | None = None
    _too_many = False  # the request being read is one more than max_pipelined waiting

    def data_received(self, data: bytes) -> None:
        if self._after is not None:
            return
        if self._head_open:
            end = data.find(b"\r\n\r\n")
            if end < 0 and self._head_tail:
                edge = (self._head_tail + data[:3]).find(b"\r\n\r\n")
                if edge >= 0:
                    end = edge - len(self._head_tail)
            self._head_bytes += len(data) if end < 0 else end + 4
            if self._head_bytes > self.max_head_bytes:
                self._head_too_large()
                return
            if end < 0:
                self._head_tail = (self._head_tail + data)[-3:]
            else:
                self._head_open = False
        trailing, bodies = self._in_body and self._chunk_waiting, self._bodies
        self._feed(data)
        if trailing and self._in_body and self._bodies == bodies:  # trailer fields, still open
            self._trailer_bytes += len(data)
            if self._trailer_bytes > self.max_head_bytes:
                self._too_large("the trailer fields after the request body's last chunk are")

    def _feed(self, data: bytes) -> None:
        """uvicorn's ``data_received``, except that an upgrade it does not make is no upgrade.

        A request that offers one (``Upgrade: h2c``: Java's HttpClient, HTTP/2 by default, does
        on every request to an http:// address; so does ``curl --http2``) is handed over by
        httptools as an upgrade, its body left unread, and uvicorn ran the app on an empty body
        (uvicorn#2722: every such POST answered 400 "request body is empty"). HTTP/1.1 lets a
        server ignore the offer (RFC 9110 7.8): the request is read again without it, body and
        all, and the connection goes on in HTTP/1.1."""
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            if self._too_many:  # (raised by on_headers_complete)
                self._answer_after(b"429 Too Many Requests", (
                    f"more than {self.max_pipelined} requests were sent on one connection ahead "
                    f"of their answers: the answers before this one are theirs; send the rest "
                    f"again once they have come"))
                return
            msg = "Invalid HTTP request received."
            self.logger.warning(msg)
            if not self._in_body and self._unanswered():
                self._answer_after(b"400 Bad Request", (
                    "the bytes after the previous request are not an HTTP/1.1 request: does "
                    "that request's Content-Length count every byte of its body?"))
            else:
                self.send_400_response(msg)
        except httptools.HttpParserUpgrade as exc:
            head, self._reread = self._reread, b""
            if head:
                self.parser = httptools.HttpRequestParser(self)
                self.parser.set_dangerous_leniencies(lenient_data_after_close=True)  # as uvicorn
                self._feed(head + data[int(exc.args[0]):])
            elif self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()

    def _head_without_upgrade(self) -> bytes:
        """The request line and headers just read, without the upgrade they offer."""
        drop = (b"upgrade", b"http2-settings")
        lines = [self.parser.get_method() + b" " + self.url + b" HTTP/"
                 + self.parser.get_http_version().encode("ascii")]
        for name, value in self.headers:
            if name == b"connection":
                value = b", ".join(t.strip() for t in value.split(b",")
                                   if t.strip() and t.strip().lower() not in drop)
            if name not in drop and value:
                lines.append(name + b": " + value)
        return b"\r\n".join(lines) + b"\r\n\r\n"

    def _head_too_large(self) -> None:
        self._head_open = False
        self._too_large("the request line and headers are")

    def _too_large(self, what: str) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_closing_answer(
                b"431 Request Header Fields Too Large",
                f"{what} longer than {self.max_head_bytes} bytes, the most accepted"))
            self.logger.info("closing a connection: %s too large", what.removesuffix(" are"))
            self.transport.close()

    def _unanswered(self) -> bool:
        return any(not c.response_complete for c in self._open_cycles)  # (on bad bytes only)

    def _answer_after(self, status: bytes, message: str) -> None:
        """Answer ``status`` and close the connection once the requests before are answered."""
        self._after = (status, message)
        self._disarm()
        self.flow.pause_reading()
        if not self._unanswered():
            self._send_after()

    def _send_after(self) -> None:
        assert self._after is not None
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_closing_answer(*self._after))
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to bytes httptools cannot read as HTTP/1.1 (a Content-Length that is
        no number or given twice, a bad chunk size, no request line), as ``{"error"}`` like every
        other answer of the service (uvicorn's is text/plain); the connection is closed."""
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_closing_answer(
                b"400 Bad Request",
                "the request is not valid HTTP/1.1: check its request line (a method HTTP "
                "defines, such as GET or POST, in upper case, a path, HTTP/1.1) and its headers "
                "(one Content-Length, a number, or Transfer-Encoding: chunked, not both)"))
            self.transport.close()

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self._guard = self.loop.call_later(seconds, self._expired, what)

    def _disarm(self) -> None:
        if self._guard is not None:
            self._guard.cancel()
            self._guard = None

    def _expired(self, what: str) -> None:
        self._guard = None
        if self.transport.is_closing():
            return
        started = self.cycle is not None and (self.cycle.response_started
                                              or self.cycle.response_complete)
        if what == "body" and not started:  # the app then sees a disconnect; its answer is dropped
            self.transport.write(_closing_answer(
                b"408 Request Timeout",
                f"the request body did not arrive within {self.body_seconds:g} s of its headers"))
        self.logger.info("closing a connection: its request %s did not arrive in time", what)
        self.transport.close()

    # a connection must start (and finish) its headers in time
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._open_cycles = deque()
        super().connection_made(transport)
        self._arm(self.header_seconds, "headers")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.cycle is not None and not self.cycle.response_complete:
            # begun behind a request still to be answered (the latest cycle: the answers go in
            # order): closing the connection on this head's timer would drop that answer, so
            # the timer starts when it is sent
            self._disarm()
            self._head_deferred = True
        elif self._guard is None:
            self._arm(self.header_seconds, "headers")

    def on_headers_complete(self) -> None:
        if (self.parser.should_upgrade() and not self._should_upgrade()
                and self.parser.get_method() != b"CONNECT"):
            self._reread = self._head_without_upgrade()  # read again without it (_feed)
            return
        if len(self.pipeline) >= self.max_pipelined and self.cycle is not None:
            # uvicorn queued every request sent ahead: 300,000 pipelined GETs (10 MB) took the
            # process to 1.7 GB; the parse stops here (feed_data raises) and a 429 follows
            # the answers to those before
            self._too_many = True
            raise RuntimeError("too many requests pipelined")
        super().on_headers_complete()
        self._head_open, self._head_deferred = False, False
        self._in_body = True
        # the requests of this connection not yet answered (uvicorn keeps only the latest);
        # pipelined requests are answered in order, so the answered ones are at the front (the
        # list was rebuilt whole for each request: 20,000 requests sent in one go took 20,000²
        # steps, and the server answered nothing else for 18 s)
        cycles = self._open_cycles
        while cycles and cycles[0].response_complete:
            cycles.popleft()
        if self.cycle:
            cycles.append(self.cycle)
        if self.pipeline:  # queued behind an answer still to come: uvicorn reads no more of it
            self._disarm()  # until then (the timer starts in on_response_complete)
        else:
            self._arm(self.body_seconds, "body")

    def on_body(self, body: bytes) -> None:
        self._chunk_waiting = False
        self._bodies += 1
        super().on_body(body)

    def on_chunk_header(self) -> None:
        self._chunk_waiting = True

    def on_chunk_complete(self) -> None:
        self._chunk_waiting = False

    def on_message_complete(self) -> None:
        if self._reread:  # an upgrade offered: the request is read again (_feed)
            return
        super().on_message_complete()
        self._disarm()
        self._in_body = False
        self._chunk_waiting, self._trailer_bytes = False, 0
        self._head_open, self._head_bytes, self._head_tail = True, 0, b""  # the next request

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._after is not None and not self.pipeline and not self._unanswered():
            self._send_after()
            return
        # a pipelined request whose body is still to come is now the one answered: uvicorn
        # reads again, and its body has body_seconds from now (before, the timer ran while its
        # body was left unread, and a 408 went out as the answer to the request before it)
        if self._in_body and not self.pipeline and not self.transport.is_closing():
            self._arm(self.body_seconds, "body")
        # a request whose head began while this answer was still to come now has header_seconds
        # for the rest of it (not uvicorn's keep-alive time, armed as if nothing had come)
        if (self._head_deferred and self.cycle is not None and self.cycle.response_complete
                and not self.transport.is_closing()):
            self._head_deferred = False
            self._unset_keepalive_if_required()
            self._arm(self.header_seconds, "headers")

    # an answer must be read: the write buffer may stay full for write_seconds at most
    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_guard is None:
            self._write_guard = self.loop.call_later(self.write_seconds, self._unread)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._write_guard is not None:
            self._write_guard.cancel()
            self._write_guard = None

    def _unread(self) -> None:
        self._write_guard = None
        # even a closing transport still holds its unsent answer: drop it at once
        self.logger.info("closing a connection: its client does not read the answer")
        self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        # uvicorn tells only the latest request that its client left; one answered while a
        # pipelined request waited behind it kept running (a batch, 20 s of the slow lane)
        for cycle in self._open_cycles:
            if cycle is not self.cycle and not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
        self._open_cycles.clear()
        self._disarm()
        if self._write_guard is not None:
            self._write_guard.cancel()
            self._write_guard = None
        super().connection_lost(exc)


def uvicorn_config(host: str, port: int, *, workers: int = 1, log_level: str = "warning",
                   access_log: bool = False, **extra: Any) -> uvicorn.Config:
    """The uvicorn configuration of ``rummy101 serve`` (app :func:`~.app.app_from_env`).

    ``access_log``: uvicorn writes one line per answered request (client, request line, status)
    on standard error; its lines are at level info, so the log level is lowered to info at most.
    """
    if access_log and log_level in ("critical", "error", "warning"):
        log_level = "info"
    if "log_config" not in extra:  # uvicorn's, with its access lines on stderr as well
        log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
        log_config["handlers"]["access"]["stream"] = "ext://sys.stderr"
        extra["log_config"] = log_config
    return uvicorn.Config(
        "rummy101.service.app:app_from_env", factory=True, host=host, port=port,
        workers=workers, log_level=log_level, access_log=access_log, http=GuardedHttp,
        timeout_keep_alive=5, timeout_graceful_shutdown=SHUTDOWN_SECONDS, **extra)


def serve(host: str, port: int, *, workers: int = 1, threads: int = 4,
          log_level: str = "warning", cors_origins: str | None = None,
          access_log: bool = False) -> None:
    """Run the service until SIGTERM / SIGINT (see the module docstring)."""
    os.environ["RUMMY101_SERVICE_THREADS"] = str(threads)
    if cors_origins is not None:
        os.environ["RUMMY101_CORS_ORIGINS"] = cors_origins
    config = uvicorn_config(host, port, workers=workers, log_level=log_level, access_log=access_log)
    if workers > 1:
        _supervise(config)
        return
    uvicorn.Server(config).run()


def _supervise(config: Any) -> None:
    """Run ``config.workers`` worker processes under uvicorn's supervisor, and end as one worker
    does (uvicorn's ``Server`` raises again the signal that stopped it): Ctrl-C ends in
    ``KeyboardInterrupt`` (the command line's "interrupted", status 130), SIGTERM in its default
    action (status 143). The supervisor alone handled both and returned, so ``rummy101 serve
    --workers 2`` ended with status 0 and no word on Ctrl-C."""
    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.stopped_by: list[int] = []

        def handle_int(self) -> None:
            self.stopped_by.append(signal.SIGINT)
            super().handle_int()

        def handle_term(self) -> None:
            self.stopped_by.append(signal.SIGTERM)
            super().handle_term()

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    sock = config.bind_socket()
    supervisor = Supervisor(config, sockets=[sock])
    try:
        supervisor.run()
    finally:
        for sig, handler in before.items():  # the supervisor set its own and left them
            signal.signal(sig, handler)
    if supervisor.stopped_by:  # the first signal decides, as uvicorn's Server does for one worker
        signal.raise_signal(supervisor.stopped_by[0])
