"""The games' threads are shared fairly between clients (web_routes.GameLane).

Before, a request waited for a game thread first come first served: one client that sent a
request to each of its 16 games at once (search bots, about a second each) took both threads
and most of the queue, and a person with one game behind it waited up to 20 s and got 429. Now a
freed thread goes to the waiting client with the fewest requests running (of equals, the one
served least recently), one client may queue only so many requests, and every count comes back
to zero whichever way a request ends.

The orders are proven with events and ``wait_all_tasks_blocked`` (every request queued before
the next is sent), never with sleeps or timings; the lane has one thread, so the work runs one
request after another and records the order in which the lane started them.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import anyio
import pytest

pytest.importorskip("fastapi")
from anyio import wait_all_tasks_blocked
from anyio.abc import TaskGroup
from rummy101.service.asgi import Service
from rummy101.service.games import LIMITS, MAX_GAME_WAITING, MAX_GAME_WAITING_PER_CLIENT
from rummy101.service.web_routes import GameLane


def _lane(**limits: Any) -> GameLane:
    return GameLane(Service(threads=1), threads=1, **limits)


def _idle(lane: GameLane) -> bool:
    """Every count back where it started: no thread held, nothing waiting, no client kept."""
    return (lane.free == lane.threads and lane.waiting == 0 and not lane.queues
            and not lane.running and not lane.started)


class _Holder:
    """Work that holds the lane's one thread until released."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self) -> dict[str, bool]:
        self.started.set()
        self.release.wait(30)
        return {"held": True}

    async def wait_started(self) -> None:
        assert await anyio.to_thread.run_sync(self.started.wait, 10)


class _Asker:
    """Sends requests to a lane from tasks, each queued before the next is sent, and keeps
    their answers by name."""

    def __init__(self, lane: GameLane, tg: TaskGroup) -> None:
        self.lane, self.tg = lane, tg
        self.answers: dict[str, tuple[int, Any]] = {}

    async def _ask(self, name: str, fn: Callable[..., Any], client: str | None) -> None:
        answer = await self.lane.run(fn, client=client)
        self.answers[name] = answer.status_code, json.loads(bytes(answer.body))

    async def send(self, name: str, fn: Callable[..., Any], client: str | None) -> None:
        self.tg.start_soon(self._ask, name, fn, client)
        await wait_all_tasks_blocked()  # it is running, waiting, or answered


def test_the_limits_list_the_per_client_cap() -> None:
    assert LIMITS["max_game_waiting_per_client"] == MAX_GAME_WAITING_PER_CLIENT
    assert 0 < MAX_GAME_WAITING_PER_CLIENT < MAX_GAME_WAITING
    assert _lane().max_waiting_per_client == MAX_GAME_WAITING_PER_CLIENT


def test_every_game_route_tells_the_lane_its_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """The routes pass client_of(scope) to the lane (an IPv6 client by its /64), for games and
    replays alike, so that its turn and its cap are the client's own."""
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    seen: list[str | None] = []
    run = GameLane.run

    async def spy(self: GameLane, fn: Callable[..., Any], *args: Any,
                  client: str | None) -> Any:
        seen.append(client)
        return await run(self, fn, *args, client=client)

    monkeypatch.setattr(GameLane, "run", spy)
    http = TestClient(create_app(), client=("2001:db8::7", 5))
    gid = http.post("/v1/games", json={"rules": "rummy101(players=2)", "seed": 3}).json()["id"]
    # the game is not over: its record is refused (422), so the replay loads one made here
    from rummy101.game import new_game
    from rummy101.game import records as game_records

    record = json.loads(game_records.dumps(new_game("rummy101(players=2)", seed=3)))
    answers = [http.get(f"/v1/games/{gid}/record"), http.get(f"/v1/games/{gid}"), http.get(f"/v1/games/{gid}/hint"),
               http.post(f"/v1/games/{gid}/actions", json={"action": "draw"}),
               http.post(f"/v1/games/{gid}/play-hint", json={})]
    rid = http.post("/v1/replays", json={"record": record}).json()["id"]
    answers += [http.get(f"/v1/replays/{rid}"), http.get(f"/v1/replays/{rid}/turns/0"),
                http.delete(f"/v1/games/{gid}")]
    # the answers do not matter here (turn 0 of a record with no actions is a 404)
    assert all(a.status_code in (200, 404, 422) for a in answers), [a.text for a in answers]
    assert seen == ["2001:db8::/64"] * 10


def test_a_freed_thread_goes_round_the_clients_not_to_the_first_come() -> None:
    """Client a holds the thread and queues two more; b then queues two and c one. First come
    first served ran a's three before anybody else's; now each client gets a turn in each
    round: b and c (never served) before a's second, then a, b, a."""
    lane = _lane()
    holder = _Holder()
    order: list[str] = []

    def note(name: str) -> dict[str, str]:
        order.append(name)  # one thread: one request at a time
        return {"ran": name}

    async def main() -> _Asker:
        async with anyio.create_task_group() as tg:
            asker = _Asker(lane, tg)
            await asker.send("a1", holder, "a")
            await holder.wait_started()
            for name in ("a2", "a3", "b1", "b2", "c1"):
                await asker.send(name, partial(note, name), name[0])
            assert lane.waiting == 5 and lane.running == {"a": 1} and lane.free == 0
            assert {c: len(q) for c, q in lane.queues.items()} == {"a": 2, "b": 2, "c": 1}
            holder.release.set()
        return asker

    asker = anyio.run(main)
    assert order == ["b1", "c1", "a2", "b2", "a3"]
    assert all(status == 200 for status, _ in asker.answers.values()), asker.answers
    assert _idle(lane)


def test_a_client_with_a_request_running_waits_behind_one_with_none() -> None:
    """With two threads, a holds one and b the other; a's next request is queued before b's,
    but when b's thread frees, b (now none running) goes before a (one running)."""
    lane = GameLane(Service(threads=2), threads=2)
    hold_a, hold_b = _Holder(), _Holder()
    order: list[str] = []
    ran_first = threading.Event()

    def note(name: str) -> dict[str, str]:
        order.append(name)
        ran_first.set()
        return {"ran": name}

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            asker = _Asker(lane, tg)
            await asker.send("a1", hold_a, "a")
            await asker.send("b1", hold_b, "b")
            await hold_a.wait_started()
            await hold_b.wait_started()
            await asker.send("a2", partial(note, "a2"), "a")
            await asker.send("b2", partial(note, "b2"), "b")
            hold_b.release.set()  # one thread frees: a has one running, b none
            assert await anyio.to_thread.run_sync(ran_first.wait, 10)
            hold_a.release.set()

    anyio.run(main)
    assert order == ["b2", "a2"]
    assert _idle(lane)


def test_a_client_over_its_cap_is_refused_while_another_is_admitted() -> None:
    """One client may queue max_waiting_per_client requests; its next answers 429 at once,
    saying so, while another client's request is still queued, and the total cap still holds.
    Requests without a client (a Unix socket) are one client, held to the same cap."""
    lane = _lane(max_waiting_per_client=2, max_waiting=5)
    holder = _Holder()

    def ok() -> dict[str, bool]:
        return {"ok": True}

    async def main() -> _Asker:
        async with anyio.create_task_group() as tg:
            asker = _Asker(lane, tg)
            await asker.send("a1", holder, "a")
            await holder.wait_started()
            for name in ("a2", "a3", "a4"):
                await asker.send(name, ok, "a")
            assert asker.answers["a4"][0] == 429, asker.answers
            assert {c: len(q) for c, q in lane.queues.items()} == {"a": 2}
            await asker.send("b1", ok, "b")
            for name in ("n1", "n2", "n3"):
                await asker.send(name, ok, None)
            assert asker.answers["n3"][0] == 429, asker.answers
            await asker.send("c1", ok, "c")  # five wait: the total cap
            assert lane.waiting == 5 and set(asker.answers) == {"a4", "n3", "c1"}
            holder.release.set()
        return asker

    answers = anyio.run(main).answers
    assert answers["a4"][1]["error"] == ("this client has 2 game requests waiting for a "
                                         "thread, the most one client may queue; retry later")
    assert answers["n3"][1]["error"] == answers["a4"][1]["error"]
    assert answers["c1"] == (429, {"error": "5 game requests are waiting, the most this "
                                            "service queues; retry later"})
    for name in ("a1", "a2", "a3", "b1", "n1", "n2"):
        assert answers[name][0] == 200, (name, answers)
    assert _idle(lane)


def test_a_request_that_gives_up_waiting_leaves_no_count_and_never_runs() -> None:
    """A request cancelled by its caller while it waits (a client that disconnects, the server
    stopping) leaves the queue at once, never runs, and the request queued behind it runs when
    the thread frees; one whose wait runs out answers 429 and leaves no count either, and the
    next request runs. Every count comes back to zero."""
    lane = _lane(max_wait=0.2)
    ran: list[str] = []

    def note(name: str) -> dict[str, str]:
        ran.append(name)
        return {"ran": name}

    async def main() -> tuple[int, dict[str, int]]:
        scopes: dict[str, anyio.CancelScope] = {}
        answers: dict[str, int] = {}

        async def ask(name: str, fn: Callable[..., Any], client: str) -> None:
            with anyio.CancelScope() as scope:
                scopes[name] = scope
                answers[name] = (await lane.run(fn, client=client)).status_code

        holder = _Holder()
        async with anyio.create_task_group() as tg:
            tg.start_soon(ask, "a1", holder, "a")
            await holder.wait_started()
            for name in ("b1", "c1"):
                tg.start_soon(ask, name, partial(note, name), name[0])
                await wait_all_tasks_blocked()
            assert lane.waiting == 2 and list(lane.queues) == ["b", "c"]
            scopes["b1"].cancel()
            await wait_all_tasks_blocked()
            assert scopes["b1"].cancelled_caught and "b1" not in answers
            assert lane.waiting == 1 and list(lane.queues) == ["c"] and "b" not in lane.started
            holder.release.set()
        assert _idle(lane)
        holder = _Holder()
        async with anyio.create_task_group() as tg:
            tg.start_soon(ask, "a2", holder, "a")
            await holder.wait_started()
            timed_out = await lane.run(partial(note, "d1"), client="d")  # waits 0.2 s: 429
            lane.max_wait = 30.0  # e1 waits only for the holder's release: no race with it
            assert lane.waiting == 0 and not lane.queues and "d" not in lane.started
            tg.start_soon(ask, "e1", partial(note, "e1"), "e")
            await wait_all_tasks_blocked()
            assert list(lane.queues) == ["e"]
            holder.release.set()
        return timed_out.status_code, answers

    timed_out, answers = anyio.run(main)
    assert timed_out == 429
    assert answers == {"a1": 200, "c1": 200, "a2": 200, "e1": 200} and ran == ["c1", "e1"]
    assert _idle(lane)


@pytest.mark.parametrize("how", ["scope", "task"])
def test_a_waiting_request_cancelled_as_its_turn_comes_hands_the_thread_on(how: str) -> None:
    """b is given the thread as a's request ends, and its caller leaves in that same step,
    before b's task wakes: b never runs, and c, queued behind it, gets the thread. The caller
    leaves by an anyio cancel scope (delivered at b's next checkpoint, once b has woken with
    its thread) or by a bare ``Task.cancel()`` (the cancellation lands in b's wait itself)."""
    lane = _lane()
    holder = _Holder()
    ran: list[str] = []
    left: list[str] = []

    def note(name: str) -> dict[str, str]:
        ran.append(name)
        return {"ran": name}

    async def main() -> None:
        scopes: dict[str, anyio.CancelScope] = {}
        tasks: dict[str, asyncio.Task[Any]] = {}

        async def ask(name: str, fn: Callable[..., Any], client: str, then: str = "") -> None:
            task = asyncio.current_task()
            assert task is not None
            tasks[name] = task
            try:
                with anyio.CancelScope() as scope:
                    scopes[name] = scope
                    await lane.run(fn, client=client)
            except asyncio.CancelledError:
                task.uncancel()
                left.append(name)
            if scope.cancelled_caught:
                left.append(name)
            if then:  # the same step in which run() gave the thread to the next
                if how == "scope":
                    scopes[then].cancel()
                else:
                    tasks[then].cancel()

        async with anyio.create_task_group() as tg:
            tg.start_soon(ask, "a1", holder, "a", "b1")
            await holder.wait_started()
            for name in ("b1", "c1"):
                tg.start_soon(ask, name, partial(note, name), name[0])
                await wait_all_tasks_blocked()
            assert list(lane.queues) == ["b", "c"]
            holder.release.set()

    anyio.run(main)
    assert left == ["b1"] and ran == ["c1"]
    assert _idle(lane)


class _Boom(BaseException):
    """Escapes the lane's answer for every Exception: the thread must still be freed."""


def test_an_exception_in_the_work_frees_the_thread() -> None:
    """The work raising (an error answered 400, or one that escapes the answer altogether)
    still gives its thread to the request waiting behind it, and no count stays up."""
    lane = _lane()
    order: list[str] = []
    entered = threading.Event()
    go = threading.Event()

    def fails(exc: BaseException) -> None:
        entered.set()
        go.wait(30)
        order.append(type(exc).__name__)
        raise exc

    def note(name: str) -> dict[str, str]:
        order.append(name)
        return {"ran": name}

    async def main() -> tuple[int, int, int]:
        async def boom() -> None:
            with pytest.raises(_Boom):
                await lane.run(fails, _Boom(), client="a")

        async with anyio.create_task_group() as tg:
            asker = _Asker(lane, tg)
            await asker.send("a1", partial(fails, ValueError("x")), "a")
            assert await anyio.to_thread.run_sync(entered.wait, 10)
            await asker.send("b1", partial(note, "b1"), "b")
            go.set()
        entered.clear()
        go.clear()
        async with anyio.create_task_group() as tg:
            asker2 = _Asker(lane, tg)
            tg.start_soon(boom)
            assert await anyio.to_thread.run_sync(entered.wait, 10)
            await asker2.send("c1", partial(note, "c1"), "c")
            assert lane.waiting == 1
            go.set()
        return asker.answers["a1"][0], asker.answers["b1"][0], asker2.answers["c1"][0]

    assert anyio.run(main) == (400, 200, 200)
    assert order == ["ValueError", "b1", "_Boom", "c1"]
    assert _idle(lane)
