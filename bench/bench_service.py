"""Load benchmark of the HTTP service: the real server (uvicorn, ``rummy101 serve``) on
127.0.0.1, driven by a bounded number of concurrent keep-alive clients for a bounded time.

Reports requests/s with p50/p99 latency for single opening solves and for hints, and racks/s
through the batch endpoint, on each backend (native, pure). Targets (docs/service.md):
>= 2,000 opening solves/s over HTTP with p99 <= 20 ms, >= 50,000 racks/s through the batch.

Each line also gives the server's CPU time per request (``cpu ms/req``, all its threads, read from
/proc on Linux) and, for the batch, racks per second of server CPU (``racks/cpu-s``): on a shared
machine these move less with the load than the wall-clock rates do.

    PYTHONPATH=python python bench/bench_service.py                  # both backends, 5 s each
    PYTHONPATH=python python bench/bench_service.py --backend native --duration 10 --workers 2

The server only ever listens on the loopback address; the benchmark stops by itself (``--duration``
per scenario, at most ``--max-requests`` per scenario) and stops the server it started.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

HOST = "127.0.0.1"  # loopback only, never any other address
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILES = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + ["*", "*"]
REQUEST_GRACE = 30.0  # a request still unanswered this long after the deadline is abandoned


def session_cpu_seconds(sid: int) -> float | None:
    """CPU time (user + system) of every live process of session ``sid`` (the server and its
    workers), from /proc; None where /proc is not there."""
    if not os.path.isdir("/proc"):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:  # field 6 of stat: the session id
            total += int(fields[11]) + int(fields[12])  # fields 14, 15: utime, stime
    return total / tick


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def random_racks(n: int, size: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(TILES, size)) for _ in range(n)]


def hint_requests(n: int, seed: int) -> list[dict[str, Any]]:
    """Seat views from real engine deals: the starter's first turn and the next seat's take."""
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from rummy101.game import new_game

    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < n:
        state = new_game("rummy101", seed + i)
        out.append({"observation": state.observation(state.current_player), "alternatives": 2})
        rack = state.rack(state.current_player)
        state.apply(f"discard {rack[-1]}")
        out.append({"observation": state.observation(state.current_player), "alternatives": 2})
        i += 1
    return out[:n]


class Server:
    """``rummy101 serve`` in a subprocess on the loopback address."""

    def __init__(self, backend: str, workers: int, threads: int) -> None:
        self.port = free_port()
        path = os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", "")
        env = dict(os.environ, RUMMY101_BACKEND=backend, PYTHONPATH=path)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rummy101", "serve", "--host", HOST, "--port", str(self.port),
             "--workers", str(workers), "--threads", str(threads), "--log-level", "warning"],
            env=env, start_new_session=True)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}")
            try:
                with socket.create_connection((HOST, self.port), timeout=1) as s:
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    if b'"ok"' in s.recv(4096):
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not become ready")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _request(path: str, body: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


async def _client(port: int, requests: Sequence[bytes], start: int, stop_at: float,
                  budget: list[int], latencies: list[float], errors: list[int]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    i = start
    try:
        await _loop(reader, writer, requests, i, stop_at, budget, latencies, errors)
    except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
        errors.append(0)  # abandoned: the server did not answer in time
    finally:
        writer.close()


async def _loop(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                requests: Sequence[bytes], i: int, stop_at: float, budget: list[int],
                latencies: list[float], errors: list[int]) -> None:
    while time.perf_counter() < stop_at and budget[0] > 0:
        budget[0] -= 1
        req = requests[i % len(requests)]
        i += 1
        t0 = time.perf_counter()
        writer.write(req)
        remaining = max(1.0, stop_at - time.perf_counter() + REQUEST_GRACE)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), remaining)
        length = 0
        for line in head.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        await asyncio.wait_for(reader.readexactly(length), remaining)
        latencies.append(time.perf_counter() - t0)
        if not head.startswith(b"HTTP/1.1 200"):
            errors.append(int(head[9:12]))


async def _drive(port: int, requests: Sequence[bytes], concurrency: int, duration: float,
                 max_requests: int) -> dict[str, float]:
    latencies: list[float] = []
    errors: list[int] = []
    budget = [max_requests]
    t0 = time.perf_counter()
    stop_at = t0 + duration
    await asyncio.gather(*(_client(port, requests, k * 997, stop_at, budget, latencies, errors)
                           for k in range(concurrency)))
    elapsed = time.perf_counter() - t0
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else latencies * 99
    return {"requests": len(latencies), "seconds": round(elapsed, 2),
            "requests_per_s": round(len(latencies) / elapsed, 1),
            "p50_ms": round(q[49] * 1000, 2), "p99_ms": round(q[98] * 1000, 2),
            "errors": len(errors)}


def run_scenario(port: int, name: str, path: str, bodies: Sequence[Any], concurrency: int,
                 duration: float, max_requests: int, per_request: int = 1,
                 server_sid: int | None = None) -> dict[str, Any]:
    requests = [_request(path, json.dumps(b).encode()) for b in bodies]
    # warm-up: caches, thread pool, connection set-up
    asyncio.run(_drive(port, requests, min(concurrency, 4), min(1.0, duration), 200))
    cpu0 = None if server_sid is None else session_cpu_seconds(server_sid)
    result = asyncio.run(_drive(port, requests, concurrency, duration, max_requests))
    cpu1 = None if server_sid is None else session_cpu_seconds(server_sid)
    result["scenario"] = name
    result["concurrency"] = concurrency
    if cpu0 is not None and cpu1 is not None and result["requests"]:
        result["server_cpu_s"] = round(cpu1 - cpu0, 2)
        result["cpu_ms_per_request"] = round((cpu1 - cpu0) * 1000 / result["requests"], 3)
    if per_request > 1:
        result["racks_per_request"] = per_request
        result["racks_per_s"] = round(result["requests_per_s"] * per_request, 1)
        if result.get("server_cpu_s"):
            result["racks_per_cpu_s"] = round(result["requests"] * per_request / result["server_cpu_s"], 1)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", default="native,pure", help="comma-separated: native, pure")
    p.add_argument("--duration", type=float, default=5.0, help="seconds per scenario (<= 120)")
    p.add_argument("--concurrency", type=int, default=16, help="concurrent clients (<= 256)")
    p.add_argument("--max-requests", type=int, default=200_000, help="cap per scenario")
    p.add_argument("--workers", type=int, default=1, help="server worker processes")
    p.add_argument("--threads", type=int, default=4, help="solver threads per worker")
    p.add_argument("--batch-size", type=int, default=2000,
                   help="racks per batch request (native backend)")
    p.add_argument("--pure-batch-size", type=int, default=100,
                   help="racks per batch request on the pure backend")
    p.add_argument("--scenarios", default="opening,hint,batch")
    p.add_argument("--json", default=None, help="also write the results here")
    args = p.parse_args(argv)
    if not 0 < args.duration <= 120 or not 0 < args.concurrency <= 256:
        p.error("--duration must be in (0, 120] and --concurrency in 1..256")
    scenarios = args.scenarios.split(",")
    racks = random_racks(4000, 21, seed=1)
    hints = hint_requests(200, seed=100) if "hint" in scenarios else []
    results = []
    for backend in args.backend.split(","):
        server = Server(backend, args.workers, args.threads)
        try:
            server.wait_ready()
            row: list[dict[str, Any]] = []
            if "opening" in scenarios:
                row.append(run_scenario(server.port, "opening", "/v1/solve/opening",
                                        [{"rules": "rummy101", "rack": r} for r in racks],
                                        args.concurrency, args.duration, args.max_requests,
                                        server_sid=server.proc.pid))
            if "hint" in scenarios:
                row.append(run_scenario(server.port, "hint", "/v1/hint", hints,
                                        args.concurrency, args.duration, args.max_requests,
                                        server_sid=server.proc.pid))
            if "batch" in scenarios:
                size = args.batch_size if backend == "native" else args.pure_batch_size
                batches = [{"rules": "rummy101", "racks": random_racks(size, 21, seed=10 + k)}
                           for k in range(4)]
                row.append(run_scenario(server.port, "batch", "/v1/solve/opening", batches,
                                        max(1, min(4, args.concurrency)), args.duration,
                                        args.max_requests, per_request=size,
                                        server_sid=server.proc.pid))
            for r in row:
                r["backend"] = backend
                r["workers"] = args.workers
                results.append(r)
                extra = f"  racks/s {r['racks_per_s']:>10,.0f}" if "racks_per_s" in r else ""
                if "cpu_ms_per_request" in r:
                    extra += f"  cpu ms/req {r['cpu_ms_per_request']:.2f}"
                if "racks_per_cpu_s" in r:
                    extra += f"  racks/cpu-s {r['racks_per_cpu_s']:>8,.0f}"
                print(f"{backend:6s} {r['scenario']:8s} c={r['concurrency']:<3d} "
                      f"req/s {r['requests_per_s']:>9,.1f}  p50 {r['p50_ms']:7.2f} ms  "
                      f"p99 {r['p99_ms']:7.2f} ms  n={r['requests']} errors={r['errors']}{extra}",
                      flush=True)
        finally:
            server.stop()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
