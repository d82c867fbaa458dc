"""Hostile-load benchmark of the HTTP service (issue 8): the real server (``rummy101 serve``,
uvicorn) on a free port of 127.0.0.1, driven by a bounded number of hostile and ordinary clients
for a bounded time. It prints figures; ``tests/test_service_load.py`` runs the same scenarios and
asserts their functional outcomes (answered, refused, dropped, bounded memory).

Scenarios, each on the native and the pure backend:

* ``dense``: four dense opening solves and two dense hints in flight, while one client sends
  ordinary opening solves one after another: p50/p99 of the ordinary ones (target p99 <= 100 ms),
  and what the dense ones got (200, or 422 naming the work budget);
* ``bait``: a 40 KB rules string, bare and inside a hint's ``record`` and ``observation``: time to
  the refusal (target <= 100 ms), and ``/health`` latency meanwhile (target <= 50 ms);
* ``stall``: a client that sends headers and stops in its body, one that stops in its headers:
  seconds until the server drops them (target <= 15 s);
* ``hold``: 200 connections that announce 4 MiB bodies, send 1 MiB each and stall: the server's
  RSS growth (was about 1 GB), and ``/health`` afterwards;
* ``unread``: clients that ask for a big answer (a 10,000-rack batch) and never read it: the
  server disconnects them (connections left, RSS growth);
* ``sigterm``: SIGTERM with dense work in flight: seconds until the process is gone (target 5 s);
* ``bulk``: 4 MiB bodies of about 840,000 short strings (an opening batch and a new game), and of
  2 million small integers, five of each: ``/health`` latency meanwhile (p50, max). json's C
  reader holds the interpreter through the whole body, in the worker thread as well.

    PYTHONPATH=python python bench/bench_service_hostile.py                 # both backends
    PYTHONPATH=python python bench/bench_service_hostile.py --backend native --scenarios dense

Loopback only; every loop is bounded in count and time; the servers started are stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

HOST = "127.0.0.1"  # loopback only, never any other address

#: 28 tiles, one of the costliest racks for the exact solver found by a random search over
#: racks of four to six numbers in every colour, twice, with both jokers (about 17 ms natively,
#: over ten seconds on the pure backend without a budget).
DENSE_RACK = ("K9 B8 B7 B5 Y5 K8 K9 Y3 K6 Y4 Y6 K5 K4 K7 R7 Y7 R4 B3 B4 R7 Y7 B6 R6 K3 B8 R3 "
              "* *")
#: 24 tiles for a hint (its cap): the same kind of rack.
DENSE_HINT_RACK = "K9 B8 B7 B5 Y5 K8 K9 Y3 K6 Y4 Y6 K5 K4 K7 R7 Y7 R4 B3 B4 R7 Y7 B6 * *"
ORDINARY_RACKS = [
    "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4 B6 K1 R7 Y11 B3 K5 Y2",
    "R1 R2 R3 Y5 Y5 B7 B7 K9 K9 R11 R11 * K2 B4 Y12 K6 R8 B10 Y1 K13 B2",
    "B1 B2 B3 B4 K7 Y7 R7 R12 R13 Y2 Y3 Y4 K10 K11 K12 B9 R5 Y9 K3 B6 R9",
]


def dense_hint() -> dict[str, Any]:
    return {"seat": 0, "stage": "play", "rack": DENSE_HINT_RACK, "alternatives": 3}


def bait_bodies(size: int = 40_000) -> list[tuple[str, dict[str, Any]]]:
    """(path, body) with a ``size``-character rules string in every place one can be."""
    rules = "rummy101(" + " " * (size - 10) + ")"
    obs = {"rules": rules, "seat": 0, "phase": "take", "current_player": 0, "rack": ["R1"],
           "table": [], "opened": [None, None], "thresholds": {}, "button": {},
           "turn_state": {}}
    record = {"format": "rummy101-game/2", "rules": rules, "seed": 1, "match_rounds": 1,
              "actions": []}
    return [("/v1/solve/opening", {"rules": rules, "rack": "R1 R2 R3"}),
            ("/v1/hint", {"record": record}),
            ("/v1/hint", {"record": json.dumps(record)}),
            ("/v1/hint", {"observation": obs})]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """``rummy101 serve`` in a subprocess on the loopback address."""

    def __init__(self, backend: str | None = None, threads: int = 4,
                 args: Sequence[str] = ()) -> None:
        self.port = free_port()
        # the server runs the rummy101 this process imports (the installed package in CI, the
        # working tree under PYTHONPATH=python): a bare source tree may lack the native core
        import rummy101

        here = os.path.dirname(os.path.dirname(os.path.abspath(rummy101.__file__)))
        path = here + os.pathsep + os.environ.get("PYTHONPATH", "")
        env = dict(os.environ, PYTHONPATH=path)
        if backend:
            env["RUMMY101_BACKEND"] = backend
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rummy101", "serve", "--host", HOST, "--port", str(self.port),
             "--threads", str(threads), "--log-level", "error", *args],
            env=env, start_new_session=True)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}")
            try:
                with socket.create_connection((HOST, self.port), timeout=1) as s:
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if b'"ok"' in s.recv(4096):
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not become ready")

    def rss(self) -> int:
        """Resident set size of the server process, bytes (Linux /proc)."""
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def terminate(self, timeout: float = 30.0) -> float:
        """SIGTERM; seconds until the process is gone (SIGKILL after ``timeout``)."""
        t0 = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return time.monotonic() - t0

    def __enter__(self) -> Server:  # noqa: PYI034 - not subclassed
        self.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.terminate()


# ---- one HTTP/1.1 exchange over a fresh connection ---------------------------------------------
async def request(port: int, method: str, path: str, body: bytes = b"",
                  content_type: str | None = "application/json",
                  timeout: float = 60.0) -> tuple[int, Any, float]:
    """(status, decoded JSON answer, seconds); status 0 when the connection failed."""
    t0 = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
    except (TimeoutError, OSError):
        return 0, None, time.perf_counter() - t0
    try:
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
        if content_type is not None:
            head += f"Content-Type: {content_type}\r\n"
        if method == "POST":
            head += f"Content-Length: {len(body)}\r\n"
        writer.write(head.encode() + b"\r\n" + body)
        raw = await asyncio.wait_for(reader.read(), timeout)
    except (TimeoutError, OSError):
        return 0, None, time.perf_counter() - t0
    finally:
        writer.close()
    seconds = time.perf_counter() - t0
    if not raw.startswith(b"HTTP/1.1 "):
        return 0, None, seconds
    status = int(raw[9:12])
    payload = raw.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in raw else b""
    try:
        return status, json.loads(payload), seconds
    except ValueError:
        return status, payload, seconds


async def post(port: int, path: str, body: Any, timeout: float = 120.0) -> tuple[int, Any, float]:
    return await request(port, "POST", path, json.dumps(body).encode(), timeout=timeout)


def _quantiles(values: Sequence[float]) -> tuple[float, float]:
    if len(values) < 2:
        v = values[0] if values else float("nan")
        return v, v
    q = statistics.quantiles(values, n=100)
    return q[49], q[98]


# ---- scenarios ------------------------------------------------------------------------------------
async def dense_load(port: int, duration: float = 8.0, max_ordinary: int = 2000) -> dict[str, Any]:
    """Four dense opening solves and two dense hints in flight (sent again as they finish, until
    ``duration``), one ordinary client meanwhile."""
    stop_at = time.perf_counter() + duration
    heavy: list[tuple[str, int, Any]] = []

    async def heavy_client(path: str, body: Any) -> None:
        while time.perf_counter() < stop_at:
            status, answer, _ = await post(port, path, body)
            heavy.append((path, status, answer))

    tasks = [asyncio.create_task(heavy_client("/v1/solve/opening", {"rack": DENSE_RACK}))
             for _ in range(4)]
    tasks += [asyncio.create_task(heavy_client("/v1/hint", dense_hint())) for _ in range(2)]
    await asyncio.sleep(0.5)  # the dense requests are in flight
    latencies: list[float] = []
    statuses: list[int] = []
    health: list[float] = []
    i = 0
    while time.perf_counter() < stop_at and i < max_ordinary:
        status, _, seconds = await post(port, "/v1/solve/opening",
                                        {"rack": ORDINARY_RACKS[i % len(ORDINARY_RACKS)]})
        latencies.append(seconds)
        statuses.append(status)
        if i % 10 == 0:
            health.append((await request(port, "GET", "/health", content_type=None))[2])
        i += 1
    await asyncio.gather(*tasks)
    p50, p99 = _quantiles(latencies)
    return {"ordinary_n": len(latencies), "ordinary_p50_ms": p50 * 1000,
            "ordinary_p99_ms": p99 * 1000, "ordinary_statuses": sorted(set(statuses)),
            "health_p99_ms": _quantiles(health)[1] * 1000,
            "dense": [(p, s, str(a.get("error", "")) if isinstance(a, dict) else "")
                      for p, s, a in heavy]}


async def bait(port: int) -> dict[str, Any]:
    """The 40 KB rules bait in every place; /health polled meanwhile."""
    health: list[float] = []
    done = asyncio.Event()

    async def poll() -> None:
        while not done.is_set():
            health.append((await request(port, "GET", "/health", content_type=None))[2])
            await asyncio.sleep(0.01)

    poller = asyncio.create_task(poll())
    answers = []
    for path, body in bait_bodies():
        for _ in range(5):
            answers.append(await post(port, path, body))
    done.set()
    await poller
    return {"bait_statuses": sorted({s for s, _, _ in answers}),
            "bait_errors": sorted({str(a.get("error", ""))[:90] for _, a, _ in answers
                                   if isinstance(a, dict)}),
            "bait_max_ms": max(t for _, _, t in answers) * 1000,
            "health_max_ms": max(health) * 1000 if health else float("nan"),
            "health_n": len(health)}


async def stall(port: int, limit: float = 30.0) -> dict[str, Any]:
    """Seconds until the server drops a connection stalled in its body, and one stalled in its
    headers (each bounded by ``limit``)."""
    async def dropped_after(first: bytes) -> tuple[float, bytes]:
        reader, writer = await asyncio.open_connection(HOST, port)
        t0 = time.perf_counter()
        writer.write(first)
        got = b""
        try:
            while True:
                chunk = await asyncio.wait_for(reader.read(65536), limit)
                if not chunk:
                    break
                got += chunk
        except TimeoutError:
            return float("inf"), got
        except OSError:
            pass
        finally:
            writer.close()
        return time.perf_counter() - t0, got

    body = (b"POST /v1/solve/opening HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{\"rack\": ")
    headers = b"POST /v1/solve/opening HTTP/1.1\r\nHost: x\r\nContent-Ty"
    (body_s, body_answer), (head_s, _) = await asyncio.gather(dropped_after(body),
                                                              dropped_after(headers))
    return {"stalled_body_dropped_s": body_s, "stalled_body_status": body_answer[9:12].decode(),
            "stalled_headers_dropped_s": head_s}


async def hold(server: Server, connections: int = 200, sent: int = 1 << 20,
               declared: int = 4 << 20, limit: float = 40.0) -> dict[str, Any]:
    """``connections`` clients announce ``declared``-byte bodies, send ``sent`` bytes and stall;
    the server's RSS is sampled meanwhile."""
    port = server.port
    before = server.rss()
    peak = before
    chunk = b" " * 65536
    head = (b"POST /v1/solve/opening HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(declared).encode() + b"\r\n\r\n{\"rack\": \"R1\", \"x\": \"")
    outcomes: list[str] = []

    async def client() -> None:
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            outcomes.append("connect failed")
            return
        try:
            writer.write(head)
            for _ in range(sent // len(chunk)):
                writer.write(chunk)
                await asyncio.wait_for(writer.drain(), limit)
            answer = await asyncio.wait_for(reader.read(200), limit)
            outcomes.append(answer[9:12].decode() if answer else "dropped")
        except (TimeoutError, OSError) as exc:
            outcomes.append(type(exc).__name__)
        finally:
            writer.close()

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, server.rss())
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    t0 = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(connections)))
    seconds = time.perf_counter() - t0
    sampler.cancel()
    status, _, health = await request(port, "GET", "/health", content_type=None)
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o] = counts.get(o, 0) + 1
    return {"rss_before_mb": before / 2**20, "rss_peak_mb": peak / 2**20,
            "rss_growth_mb": (peak - before) / 2**20, "hold_seconds": seconds,
            "hold_outcomes": counts, "health_after": status, "health_after_ms": health * 1000}


def established(port: int) -> int:
    """Established TCP connections whose local port is ``port`` (the server's side; Linux)."""
    count = 0
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name, encoding="ascii") as fh:
                lines = fh.readlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                count += 1
    return count


def unread(server: Server, clients: int = 8, wait: float = 25.0) -> dict[str, Any]:
    """``clients`` connections each ask for a 10,000-rack batch answer (about 7 MB) and never
    read it; how many of them does the server still hold ``wait`` seconds later? The server
    solves the batches first and then drops each unread answer after its write timeout, so the
    count is polled once a second and the time the last one went is reported: on a loaded
    machine the solving alone can take most of ``wait``."""
    rack = ORDINARY_RACKS[0] + " R1 R3 K2 K3 B9 Y3 Y6"
    body = json.dumps({"racks": [rack] * 10_000}).encode()
    head = (b"POST /v1/solve/opening HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    socks = []
    before = server.rss()
    for _ in range(clients):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((HOST, server.port))
        s.sendall(head + body)
        socks.append(s)
    t0 = time.perf_counter()
    held, peak = clients, before
    while True:
        time.sleep(1.0)
        held, peak = established(server.port), max(peak, server.rss())
        if not held or time.perf_counter() - t0 >= wait:
            break
    for s in socks:
        s.close()
    return {"unread_clients": clients, "unread_still_held": held,
            "unread_released_after_s": round(time.perf_counter() - t0, 1) if not held else None,
            "unread_rss_growth_mb": (peak - before) / 2**20}


async def sigterm(backend: str | None) -> dict[str, Any]:
    """SIGTERM while dense work is in flight: seconds until the process is gone."""
    server = Server(backend)
    server.wait_ready()
    port = server.port
    batch = {"racks": [DENSE_RACK] * 2000}
    work = [asyncio.create_task(post(port, "/v1/solve/opening", {"rack": DENSE_RACK}, 30))
            for _ in range(4)]
    work += [asyncio.create_task(post(port, "/v1/hint", dense_hint(), 30)) for _ in range(2)]
    work.append(asyncio.create_task(post(port, "/v1/solve/opening", batch, 30)))
    await asyncio.sleep(1.0)
    gone = await asyncio.get_running_loop().run_in_executor(None, server.terminate)
    await asyncio.gather(*work)
    return {"sigterm_exit_s": gone, "exit_status": server.proc.returncode}


def bulk_bodies(size: int = 4 * 1024 * 1024) -> list[tuple[str, str, bytes]]:
    """(name, path, body): ``size``-byte JSON bodies of many short values."""
    strings = ",".join(['"ab"'] * ((size - 20) // 5))
    return [("strings", "/v1/solve/opening", ("[" + strings + "]").encode()),
            ("game_strings", "/v1/games", ('{"x": [' + strings + "]}").encode()),
            ("integers", "/v1/solve/opening",
             ("[" + ",".join(["1"] * ((size - 20) // 2)) + "]").encode())]


async def bulk(port: int, repeat: int = 5) -> dict[str, Any]:
    """Each of :func:`bulk_bodies` ``repeat`` times; /health polled meanwhile."""
    out: dict[str, Any] = {}
    for name, path, body in bulk_bodies():
        health: list[float] = []
        done = asyncio.Event()

        async def poll(health: list[float] = health, done: asyncio.Event = done) -> None:
            while not done.is_set():
                health.append((await request(port, "GET", "/health", content_type=None))[2])
                await asyncio.sleep(0.005)

        poller = asyncio.create_task(poll())
        answers = [await request(port, "POST", path, body) for _ in range(repeat)]
        done.set()
        await poller
        out[f"bulk_{name}_statuses"] = sorted({s for s, _, _ in answers})
        out[f"bulk_{name}_post_ms"] = statistics.median(t for _, _, t in answers) * 1000
        out[f"bulk_{name}_health_p50_ms"] = _quantiles(health)[0] * 1000
        out[f"bulk_{name}_health_max_ms"] = max(health) * 1000 if health else float("nan")
    return out


SCENARIOS = ("dense", "bait", "stall", "hold", "unread", "sigterm", "bulk")


def run(backend: str, scenarios: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"backend": backend}
    with Server(backend) as server:
        if "dense" in scenarios:
            out.update(asyncio.run(dense_load(server.port)))
        if "bait" in scenarios:
            out.update(asyncio.run(bait(server.port)))
        if "stall" in scenarios:
            out.update(asyncio.run(stall(server.port)))
        if "hold" in scenarios:
            out.update(asyncio.run(hold(server)))
        if "bulk" in scenarios:
            out.update(asyncio.run(bulk(server.port)))
        if "unread" in scenarios and backend == "native":  # pure: the answers take minutes
            out.update(unread(server))
    if "sigterm" in scenarios:
        out.update(asyncio.run(sigterm(backend)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--backend", default="native,pure", help="comma-separated: native, pure")
    p.add_argument("--scenarios", default=",".join(SCENARIOS))
    p.add_argument("--json", default=None, help="also write the figures here")
    args = p.parse_args(argv)
    results = []
    for backend in args.backend.split(","):
        r = run(backend, args.scenarios.split(","))
        results.append(r)
        for key, value in r.items():
            if key == "dense":
                kinds: dict[str, int] = {}
                for path, status, err in value:
                    tag = f"{path} {status}" + (" (work budget)" if "search nodes" in err else "")
                    kinds[tag] = kinds.get(tag, 0) + 1
                value = kinds
            elif isinstance(value, float):
                value = round(value, 2)
            print(f"{backend:6s} {key:26s} {value}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
