"""Games and replays belong to the client that started them (rummy101.service.games.GameStore).

Before, the store evicted the least recently used game of anybody: one client that created 64
games in a loop evicted every other person's game mid-play. Now a client holds at most
MAX_GAMES_PER_CLIENT games (its next evicts its own least recently used), and a full store evicts
the least recently used game of the client holding the most. Unit tests on the store with an
injected clock, then one through the HTTP app with two client addresses."""

from __future__ import annotations

import pytest
from rummy101.service import games as g

RULES = "rummy101(players=2)"  # seat 0 moves first: creating a game plays no bot move


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 1.0) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def _quick_bot_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' registry reads the installed entry points on every new game (about 15 ms):
    skipped here, where hundreds of games are started and only the store is under test."""
    monkeypatch.setattr(g, "_bot_names", lambda: list(g.BOTS))


def store(clock: Clock, **limits: int) -> g.GameStore:
    return g.GameStore(clock=clock, **limits)


def new(s: g.GameStore, client: str | None, clock: Clock) -> str:
    clock.tick()
    return str(s.create({"rules": RULES, "bots": ["random"], "seed": 1}, client)["id"])


def use(s: g.GameStore, gid: str, clock: Clock) -> None:
    clock.tick()
    s.view(gid)


def holders(s: g.GameStore) -> dict[str | None, int]:
    return {c: len(ids) for c, ids in s._games.clients.items()}


def gone(s: g.GameStore, gid: str) -> str:
    with pytest.raises(g.NotFound) as err:
        s.view(gid)
    return str(err.value)


def test_a_flooder_does_not_evict_another_clients_game() -> None:
    clock = Clock()
    s = store(clock)
    mine = new(s, "198.51.100.7", clock)
    flood = [new(s, "203.0.113.9", clock) for _ in range(200)]
    assert s.view(mine)["id"] == mine
    assert holders(s) == {"198.51.100.7": 1, "203.0.113.9": g.MAX_GAMES_PER_CLIENT}
    assert list(s._games.clients["203.0.113.9"]) == flood[-g.MAX_GAMES_PER_CLIENT:]
    message = gone(s, flood[0])
    assert message.startswith(f"no game {flood[0]}: it was evicted: its client started "
                              f"another game while holding {g.MAX_GAMES_PER_CLIENT}"), message


def test_a_flooder_at_the_whole_table_evicts_its_own_games() -> None:
    """Without the per-client cap (set to the table's size) the flooder fills the whole table;
    the next game, its own or another client's, evicts one of the flooder's."""
    clock = Clock()
    s = store(clock, max_games=8, max_games_per_client=8)
    mine = new(s, "a", clock)
    flood = [new(s, "flood", clock) for _ in range(50)]
    assert holders(s) == {"a": 1, "flood": 7}
    assert s.view(mine)["id"] == mine
    assert "the service held its 8 games and the client that started it held the most" \
        in gone(s, flood[0])
    theirs = new(s, "b", clock)  # the table is full: the flooder's least recently used goes
    assert holders(s) == {"a": 1, "flood": 6, "b": 1}
    assert flood[-7] not in s.games and theirs in s.games and mine in s.games


def test_the_flooders_own_least_recently_used_goes() -> None:
    clock = Clock()
    s = store(clock, max_games_per_client=3)
    first, second, third = (new(s, "c", clock) for _ in range(3))
    use(s, first, clock)  # the second is now c's least recently used
    fourth = new(s, "c", clock)
    assert list(s.games) == [third, first, fourth]
    assert "its client started another game while holding 3" in gone(s, second)
    use(s, third, clock)
    fifth = new(s, "c", clock)
    assert set(s.games) == {third, fourth, fifth}


def test_the_cap_per_client() -> None:
    clock = Clock()
    s = store(clock, max_games=20, max_games_per_client=4)
    for _ in range(10):
        for client in ("a", "b", "c"):
            new(s, client, clock)
    assert holders(s) == {"a": 4, "b": 4, "c": 4} and len(s.games) == 12
    assert g.LIMITS["max_games_per_client"] == g.MAX_GAMES_PER_CLIENT < g.MAX_GAMES
    assert g.LIMITS["max_replays_per_client"] == g.MAX_REPLAYS_PER_CLIENT < g.MAX_REPLAYS


def test_an_unknown_client_is_not_capped() -> None:
    """No address (a Unix socket): nobody can be told apart, and the store behaves as before
    clients were known: the least recently used of the whole table goes."""
    clock = Clock()
    s = store(clock, max_games=10, max_games_per_client=2)
    ids = [new(s, None, clock) for _ in range(12)]
    assert list(s.games) == ids[2:]


def test_a_full_table_of_many_small_clients() -> None:
    clock = Clock()
    s = store(clock, max_games=8, max_games_per_client=8)
    big = [new(s, "big", clock) for _ in range(3)]
    two = [new(s, "two", clock) for _ in range(2)]
    ones = {c: new(s, c, clock) for c in ("p", "q", "r")}
    for gid in big:
        use(s, gid, clock)  # the big client's games are the most recently used: still its go
    new(s, "s", clock)
    assert big[0] not in s.games and all(gid in s.games for gid in two + list(ones.values()))
    new(s, "t", clock)  # big and two both hold 2: the one whose oldest is the oldest (two's)
    assert two[0] not in s.games and big[1] in s.games
    # now every client holds 1 or 2; after two more, all hold one: the least recently used goes
    new(s, "u", clock)
    new(s, "v", clock)
    assert set(holders(s).values()) == {1} and len(s.games) == 8
    use(s, ones["p"], clock)
    oldest = next(iter(s.games))
    assert oldest == ones["q"]
    new(s, "w", clock)
    assert ones["q"] not in s.games and ones["p"] in s.games and len(holders(s)) == 8


def test_the_creator_counts_the_game_it_asks_for() -> None:
    """Two clients hold half the table each: the one asking for another evicts its own."""
    clock = Clock()
    s = store(clock, max_games=4, max_games_per_client=4)
    a = [new(s, "a", clock) for _ in range(2)]
    b = [new(s, "b", clock) for _ in range(2)]
    new(s, "b", clock)
    assert b[0] not in s.games and all(gid in s.games for gid in a)


def test_the_idle_sweep_still_works_and_clients_leave_no_trace() -> None:
    clock = Clock()
    s = store(clock, idle_seconds=60)
    old = [new(s, f"10.0.0.{i}", clock) for i in range(5)]
    clock.tick(30)
    kept = new(s, "10.0.0.99", clock)
    clock.tick(35)  # the first five are idle for more than 60 s now; the last one is not
    use(s, kept, clock)
    assert list(s.games) == [kept] and holders(s) == {"10.0.0.99": 1}
    assert set(s._games.owner) == {kept}
    assert "it was idle for more than 60 s" in gone(s, old[0])
    assert s.delete(kept) == {"deleted": kept}
    assert holders(s) == {} and s._games.owner == {}
    assert gone(s, kept) == f"no game {kept}: it was deleted"


def test_what_is_kept_is_bounded() -> None:
    """A flood from ever new addresses: the table holds its count, the clients map no more
    clients than games, and the memory of evictions its own count."""
    clock = Clock()
    s = store(clock, max_games=8, max_games_per_client=2)
    for i in range(g.EVICTIONS_REMEMBERED + 50):
        new(s, f"client-{i}", clock)
    assert len(s.games) == 8 and len(s._games.clients) == 8 and len(s._games.owner) == 8
    assert len(s._games.gone) == g.EVICTIONS_REMEMBERED
    first = "0" * 16
    assert "never existed" in gone(s, first) and "client holding the most" in gone(s, first)


def test_replays_likewise() -> None:
    clock = Clock()
    s = store(clock, max_replays=4, max_replays_per_client=2)
    from rummy101.game import new_game
    from rummy101.game import records as game_records

    record = game_records.to_dict(new_game("rummy101(players=2)", 1))  # a game's, once over
    def load(client: str) -> str:
        clock.tick()
        return str(s.load_replay({"record": record}, client)["id"])
    mine = load("person")
    flood = [load("flood") for _ in range(30)]
    assert s.replay(mine)["id"] == mine
    assert set(s.replays) == {mine, *flood[-2:]}
    with pytest.raises(g.NotFound, match="its client started another replay while holding 2"):
        s.replay(flood[0])
    others = [load(c) for c in ("p", "q")]  # the table is full: the flooder's go first
    assert set(s.replays) == {mine, *others, flood[-1]}


# ---- through the HTTP app -----------------------------------------------------------------------
def test_two_client_addresses_through_the_app() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    app = create_app()
    person = TestClient(app, client=("198.51.100.7", 50001))
    flooder = TestClient(app, client=("203.0.113.9", 50002))
    body = {"rules": RULES, "bots": ["random"], "seed": 3}
    mine = person.post("/v1/games", json=body).json()["id"]
    flood = []
    for _ in range(g.MAX_GAMES + 4):
        r = flooder.post("/v1/games", json=body)
        assert r.status_code == 200, r.text
        flood.append(r.json()["id"])
    assert person.get(f"/v1/games/{mine}").status_code == 200
    r = flooder.get(f"/v1/games/{flood[0]}")
    assert r.status_code == 404
    assert r.json()["error"].startswith(f"no game {flood[0]}: it was evicted: its client "
                                        f"started another game while holding "
                                        f"{g.MAX_GAMES_PER_CLIENT}")
    s = app.state.games
    assert s._games.owner[mine] == "198.51.100.7"
    assert holders(s) == {"198.51.100.7": 1, "203.0.113.9": g.MAX_GAMES_PER_CLIENT}
    # another address of the same IPv6 /64 is the same client
    v6a = TestClient(app, client=("2001:db8:5:6::1", 1))
    v6b = TestClient(app, client=("2001:db8:5:6:ffff::2", 2))
    for _ in range(g.MAX_GAMES_PER_CLIENT):
        assert v6a.post("/v1/games", json=body).status_code == 200
    last = v6b.post("/v1/games", json=body).json()["id"]
    assert s._games.owner[last] == "2001:db8:5:6::/64"
    assert holders(s)["2001:db8:5:6::/64"] == g.MAX_GAMES_PER_CLIENT
    limits = person.get("/v1/info").json()["limits"]
    assert limits["max_games_per_client"] == g.MAX_GAMES_PER_CLIENT


def test_client_of_reads_the_scope_only() -> None:
    pytest.importorskip("fastapi")
    from rummy101.service.web_routes import client_of

    assert client_of({"client": ("192.0.2.1", 5)}) == "192.0.2.1"
    assert client_of({"client": ("::ffff:192.0.2.1", 5)}) == "192.0.2.1"
    assert client_of({"client": ("2001:db8::1", 5)}) == client_of({"client": ("2001:db8::2", 6)})
    assert client_of({"client": None}) is None and client_of({}) is None
    headers = [(b"x-forwarded-for", b"192.0.2.77")]  # uvicorn's business, not ours
    assert client_of({"client": ("192.0.2.1", 5), "headers": headers}) == "192.0.2.1"


def test_a_bot_of_ones_own_is_refused_saying_where_it_plays() -> None:
    """docs/bots.md: get_bot, sim and play take package.module:BotClass and entry points; the
    service takes the shipped bots only. Its refusal listed them and no more, so a bot author
    sending their bot's path could not tell a typo from a bot the service never loads."""
    for name in ("mybots.open:OpenAsap", "search:playouts=5", "alphazero"):
        with pytest.raises(g.BadRequest, match=r"accepted bots: random, greedy, search \(the "
                                               r"service plays the shipped bots only: .*rummy101 "
                                               r"play --bots package.module:BotClass"):
            g._read_bots([name], 2, 0)
    assert g._read_bots(["search"], 2, 1) == ["search", "you"]
