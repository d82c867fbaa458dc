"""Rules audit: a Remi player's meld moves against an outsider's model written from RULES.md
RO-6, RO-7, RO-9.1/9.2/9.5/9.6, RO-10 and RO-13 and docs/rules.md's game surface, not from the
engine; plus RO-12's scores recomputed from what the table shows under every rule option.

tests/remi_model.py lists the take, exchange, tabla and discard moves exactly but not ``run``,
``set``, ``add``, ``retrieve`` and ``lay``; this file does, for a player who may lay (laid down
before this turn, in the lay-down turn, or staging the lay-down):

* ``run A B C`` / ``set A B C``: every 3-tile run/set of the rack with at most one Joly (RO-6,
  RO-7), keeping a tile to discard (RO-13); a set in colour order R Y B K, its Joly at the first
  missing colour;
* ``lay ...``: every run of 6 or more tiles with two Jolys that no 3-tile run grown one end tile
  at a time builds with the ratio holding at every step (RO-7), keeping a tile;
* ``add T to M@start|@end`` / ``add T to M``: every tile that leaves the meld a run/set (a Joly
  keeps its place; a set of four is complete), keeping a tile; in the lay-down turn only melds
  laid that turn (RO-10), before ``open`` only the staged ones;
* ``retrieve M:I with T``: T exactly the tile the Joly stands for (a run's place; a four-tile
  set's missing colour; never a three-tile set's, RO-9.6), the Joly's retrievals below the
  option's limit (RO-9.5), and a 3-tile run/set of the Joly with two real rack tiles left to lay
  at once, keeping a tile; only after the lay-down is committed.

Hand-made positions rich in Jolys (two on the rack, Jolys in runs and sets on the table) make
the moves seeded games rarely reach (``lay``, retrievals); seeded games add real positions.

It can fail: with Remi's ``set3_release_both`` off (a 3-tile set giving its Joly to one tile,
RO-9.6) or with ``lay`` offered for every two-Joly run of 6+ tiles (``remi.table.lay_melds``
without its ``step_buildable`` check), the hand-made positions fail at once.

The RO-12 recomputation at the end plays seeded games under every Remi option and recomputes
each seat's score from the final observation alone (``laid_by`` per table tile, the racks, the
Atu twin read from the dealt racks, a Joly finish, an Atu 1), not from the engine's state; a
failed tabla's -200 or a twin's +50 changed in the engine fails it (the bots seldom finish with a
Joly: tests/test_audit_remi.py builds those by hand).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache, lru_cache
from typing import Any

from audit_helpers import games_to_play
from rummy101.bots import get_bot
from rummy101.game import new_game
from test_audit_remi import pos

COLOURS = "RYBK"
JOLY = "*"
VERBS = ("run", "set", "add", "retrieve", "lay")


def num(t: str) -> int:
    return int(t[1:])


def place(colour: str, p: int) -> str:
    """The tile at run place p (1..14; 14 is the high 1 of RO-6)."""
    return f"{colour}{p if p <= 13 else 1}"


def run_start(tiles: list[str] | tuple[str, ...]) -> int | None:
    """The place of the first tile when ``tiles`` in table order are a Remi run (RO-6: 1 low at
    the start or high after 13, never inside; RO-7: real tiles >= 2 x Jolys), else None."""
    if len(tiles) < 3:
        return None
    real = [(i, t) for i, t in enumerate(tiles) if t != JOLY]
    if not real or len(real) < 2 * (len(tiles) - len(real)) or len({t[0] for _, t in real}) != 1:
        return None
    k, first = real[0]
    for s in [num(first) - k] + ([14 - k] if num(first) == 1 else []):
        if (
            s >= 1
            and s + len(tiles) - 1 <= 14
            and all(num(t) == num(place("R", s + i)) for i, t in real)
        ):
            return s
    return None


def is_set(tiles: list[str]) -> bool:
    """RO-6/RO-7: 3 or 4 tiles of one number in different colours, at most one Joly."""
    real = [t for t in tiles if t != JOLY]
    return (
        3 <= len(tiles) <= 4
        and len(real) >= 2 * (len(tiles) - len(real))
        and len({num(t) for t in real}) == 1
        and len({t[0] for t in real}) == len(real)
    )


def set_text(real: list[str], jolys: int) -> list[str]:
    by_colour = {t[0]: t for t in real}
    out = []
    for c in COLOURS:
        if c in by_colour:
            out.append(by_colour[c])
        elif jolys:
            out.append(JOLY)
            jolys -= 1
    return out


def three_melds(rack: Counter[str]) -> dict[str, list[str]]:
    """Every 3-tile run/set the rack can lay, by action text."""
    out: dict[str, list[str]] = {}
    for c in COLOURS:
        for s in range(1, 13):
            need = [place(c, p) for p in range(s, s + 3)]
            for j in (None, 0, 1, 2):
                tiles = [JOLY if i == j else t for i, t in enumerate(need)]
                if run_start(tiles) is not None and not Counter(tiles) - rack:
                    out["run " + " ".join(tiles)] = tiles
    for n in range(1, 14):
        for k in range(4):
            tiles = set_text([f"{c}{n}" for c in COLOURS if c != COLOURS[k]], 0)
            if not Counter(tiles) - rack:
                out["set " + " ".join(tiles)] = tiles
            for m in range(k + 1, 4):
                tiles = set_text([f"{COLOURS[k]}{n}", f"{COLOURS[m]}{n}"], 1)
                if not Counter(tiles) - rack:
                    out["set " + " ".join(tiles)] = tiles
    return out


@cache
def _grows(tiles: tuple[str, ...]) -> bool:
    """Can a 3-tile run grow into ``tiles`` one end tile at a time, a run at every step?"""
    if run_start(tiles) is None:
        return False
    return len(tiles) == 3 or _grows(tiles[1:]) or _grows(tiles[:-1])


@lru_cache(maxsize=1)
def bridged_runs() -> tuple[tuple[str, ...], ...]:
    """Every run with two Jolys that no sequence of 3-tile lay and single adds builds (RO-7)."""
    out = []
    for c in COLOURS:
        for s in range(1, 15):
            for length in range(6, 16 - s):
                need = [place(c, p) for p in range(s, s + length)]
                for i in range(length):
                    for k in range(i + 1, length):
                        tiles = tuple(JOLY if q in (i, k) else t for q, t in enumerate(need))
                        if run_start(tiles) is not None and not _grows(tiles):
                            out.append(tiles)
    return tuple(out)


def stands_for(m: dict[str, Any], i: int) -> set[str]:
    """The tiles that release the Joly at index i of table meld m (RO-9.5, RO-9.6)."""
    tiles = m["tiles"]
    if m["kind"] == "run":
        s = run_start(tiles)
        assert s is not None, m
        return {place(next(t for t in tiles if t != JOLY)[0], s + i)}
    if len(tiles) == 3:
        return set()  # RO-9.6: only both missing colours together, by an add first
    real = [t for t in tiles if t != JOLY]
    return {f"{c}{num(real[0])}" for c in COLOURS if c not in {t[0] for t in real}}


def expected(obs: dict[str, Any], limit: int, targets: set[int] | None, retrieve: bool) -> set[str]:
    """The run/set/lay/add/retrieve moves the rules allow; ``targets``: the table melds that may
    take an add or give a Joly (None: all); ``retrieve``: the lay-down is committed."""
    rack = Counter(obs["rack"])
    size = sum(rack.values())
    out: set[str] = set()
    if size >= 4:
        out |= set(three_melds(rack))
    for tiles in bridged_runs():
        if size > len(tiles) and not Counter(tiles) - rack:
            out.add("lay " + " ".join(tiles))
    melds = [m for m in obs["table"] if targets is None or m["id"] in targets]
    if size >= 2:
        for m in melds:
            for t in rack:
                if m["kind"] == "run":
                    if run_start([t, *m["tiles"]]) is not None:
                        out.add(f"add {t} to {m['id']}@start")
                    if run_start([*m["tiles"], t]) is not None:
                        out.add(f"add {t} to {m['id']}@end")
                elif is_set([*m["tiles"], t]):
                    out.add(f"add {t} to {m['id']}")
    if not retrieve:
        return out
    for m in melds:
        for i, t in enumerate(m["tiles"]):
            if t != JOLY or m["joly_retrievals"].get(str(i), 0) >= limit:
                continue
            for want in stands_for(m, i):
                after = rack - Counter([want]) + Counter([JOLY])
                if (
                    rack[want]
                    and size >= 4
                    and any(tiles.count(JOLY) == 1 for tiles in three_melds(after).values())
                ):
                    out.add(f"retrieve {m['id']}:{i} with {want}")
    return out


def engine_moves(s: Any) -> set[str]:
    return {str(a) for a in s.legal_actions() if a.verb in VERBS}


# ---- hand-made positions ------------------------------------------------------------------------
def _table(rng: random.Random) -> list[tuple[str, int, str]]:
    table = []
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.6:
            c, length = rng.choice(COLOURS), rng.randint(3, 6)
            s = rng.randint(1, 15 - length)
            tiles = [place(c, p) for p in range(s, s + length)]
            if rng.random() < 0.6:
                tiles[rng.randrange(length)] = JOLY
            if run_start(tiles) is not None:
                table.append(("run", 0, " ".join(tiles)))
        else:
            n, k = rng.randint(1, 13), rng.choice([3, 4])
            colours = rng.sample(COLOURS, k)
            tiles = [f"{c}{n}" for c in COLOURS if c in colours]
            if rng.random() < 0.6:
                tiles[rng.randrange(k)] = JOLY
            if is_set(tiles):
                table.append(("set", 0, " ".join(tiles)))
    return table


def _rack(rng: random.Random) -> list[str]:
    colours = rng.sample(COLOURS, rng.choice([1, 1, 2]))
    rack = [JOLY] * rng.choice([1, 2, 2])
    size = rng.randint(4, 14)
    while len(rack) < size:
        t = f"{rng.choice(colours)}{rng.randint(1, 13)}"
        if rack.count(t) < 2:
            rack.append(t)
    return rack


def test_hand_made_joly_positions_match_the_model(backend: str) -> None:
    """Laid-down racks with one or two Jolys of one or two colours before tables with Jolys in
    runs and sets: every run/set/lay/add/retrieve the rules allow is offered, nothing else."""
    rng = random.Random("audit-remi-melds")
    seen: Counter[str] = Counter()
    for i in range(games_to_play(240)):
        rules = "remi(players=2,doubles=off)" if i % 3 else "remi(players=2,joly_retrievals=2)"
        s = pos(
            rules,
            racks=["B1", " ".join(_rack(rng))],
            current=1,
            phase="play",
            table=_table(rng),
            laid=[True, True],
        )
        obs = s.observation(1)
        want = expected(obs, 2 if "joly_retrievals=2" in rules else 1, None, True)
        got = engine_moves(s)
        assert got == want, (
            rules,
            obs["rack"],
            [m["tiles"] for m in obs["table"]],
            sorted(got - want),
            sorted(want - got),
        )
        seen.update(m.split()[0] for m in want)
    if games_to_play(240) == 240:
        assert min(seen[v] for v in VERBS) >= 20, seen


def test_bridged_runs_are_the_85_per_colour_of_docs() -> None:
    """docs/rules.md: the runs laid whole with `lay` are 6 to 8 tiles, 85 per colour."""
    colours = Counter(next(t for t in run if t != JOLY)[0] for run in bridged_runs())
    assert colours == {c: 85 for c in COLOURS}
    assert {len(run) for run in bridged_runs()} == {6, 7, 8}


# ---- seeded games -------------------------------------------------------------------------------
GAMES = [
    "remi(players=2)",
    "remi(players=3,joly_retrievals=2)",
    "remi(players=4,tabla=off)",
    "remi(players=2,atu=off,doubles=off,joly_retrievals=2)",
]


def _play(rules: str, seed: int) -> Counter[str]:
    """One seeded game (greedy bots, a quarter of the moves random); every position where the
    player may lay is checked against the model."""
    limit = 2 if "joly_retrievals=2" in rules else 1
    s = new_game(rules, seed)
    rng = random.Random(seed)
    bots = [get_bot("greedy", random.Random(seed * 3 + q)) for q in range(s.n)]
    laid_before: dict[int, bool] = {}
    ids_before: set[int] = set()
    seen: Counter[str] = Counter()
    while not s.is_terminal:
        p = s.current_player
        obs = s.observation(p)
        ts = obs["turn_state"]
        if obs["phase"] == "take" or ts["took"] == "start":
            laid_before[p] = obs["laid"][p]
            ids_before = {m["id"] for m in obs["table"]}
        elif (
            obs["phase"] == "play"
            and not obs["tabla"][p]
            and ts["pending"] is None
            and not ts["atu_turn"]
            and not ts["closing"]
            and ts["took"] != "start"
        ):
            ids = {m["id"] for m in obs["table"]}
            if not obs["laid"][p]:  # staging the lay-down: adds to the staged melds only
                targets = {m["id"] for m in obs["table"] if m["staged"]}
                want, kind = expected(obs, limit, targets, False), "staged"
            elif laid_before.get(p):
                want, kind = expected(obs, limit, None, True), "laid"
            else:  # RO-10: in the lay-down turn only the melds laid this turn
                want, kind = expected(obs, limit, ids - ids_before, True), "lay-down turn"
            got = engine_moves(s)
            assert got == want, (
                rules,
                seed,
                obs["turn"],
                kind,
                obs["rack"],
                [m["tiles"] for m in obs["table"]],
                sorted(got - want),
                sorted(want - got),
            )
            seen[kind] += 1
        acts = s.legal_actions()
        a = rng.choice(acts) if rng.random() < 0.25 else bots[p].act(obs, acts)
        if a.verb == "reset":
            a = next((b for b in acts if b.verb != "reset"), a)
        s.apply(a)
    return seen


def test_seeded_games_match_the_model(backend: str) -> None:
    seen: Counter[str] = Counter()
    for i in range(games_to_play(8)):
        seen += _play(GAMES[i % len(GAMES)], 7100 + i)
    assert seen["laid"] and seen["staged"], seen


# ---- RO-12 from what the table shows --------------------------------------------------------------
PATTERNS = {"simple": 400, "mozaic": 800, "bicolor": 1600, "monocolor": 3200}  # RO-11
OPTIONS = [
    "remi(players=2)",
    "remi(players=4)",
    "remi(players=3,atu=off)",
    "remi(players=2,doubles=off)",
    "remi(players=3,tabla=off)",
    "remi(players=2,joly_atu_deal=14)",
    "remi(players=4,joly_retrievals=2)",
    "remi(players=2,atu=off,doubles=off,tabla=off,joly_retrievals=2)",
]


def end_value(t: str) -> int:
    """RO-12: 2-9 -> 5, 10-13 -> 10, 1 -> 25, Joly -> 50."""
    if t == JOLY:
        return 50
    return 25 if num(t) == 1 else 5 if num(t) <= 9 else 10


def _scored_game(rules: str, seed: int) -> str:
    s = new_game(rules, seed)
    n = s.n
    rng = random.Random(seed)
    bots = [get_bot("greedy", random.Random(seed * 7 + q)) for q in range(n)]
    dealt = [s.observation(q) for q in range(n)]
    atu = dealt[0]["atu"]
    # RO-2: the twin from the dealt racks (before any exchange); a Joly Atu goes to the starter
    twin = (
        dealt[0]["starter"]
        if atu == JOLY
        else next((q for q in range(n) if atu is not None and atu in dealt[q]["rack"]), None)
    )
    atu_1 = atu not in (None, JOLY) and num(atu) == 1
    before: list[tuple[tuple[str, int], ...]] = []
    last = ""
    while not s.is_terminal:
        p = s.current_player
        obs = s.observation(p)
        acts = s.legal_actions()
        a = rng.choice(acts) if rng.random() < 0.15 else bots[p].act(obs, acts)
        if a.verb == "reset":
            a = next((b for b in acts if b.verb != "reset"), a)
        s.apply(a)
        last = str(a)
        table = s.observation(p)["table"]
        for i, m in enumerate(table):  # each tile put down is credited to who put it (RO-12)
            assert run_start(m["tiles"]) is not None if m["kind"] == "run" else is_set(m["tiles"])
            now = Counter(zip(m["tiles"], m["laid_by"]))
            old = Counter(before[i]) if i < len(before) else Counter()
            assert all(by == p for _, by in now - old), (rules, seed, last, m)
        before = [tuple(zip(m["tiles"], m["laid_by"])) for m in table]
    r = s.round_results()[-1]
    end = s.observation(0)
    laid = [0] * n
    for m in end["table"]:
        for t, by in zip(m["tiles"], m["laid_by"]):
            laid[by] += end_value(t)
    w = r["winner"]
    joly = w is not None and last == f"discard {JOLY}"
    want = []
    for q in range(n):
        if q == w:
            won = PATTERNS[r["pattern"]] if r["pattern"] else 100 + laid[q]
            d = won * (2 if joly else 1)
        elif end["tabla"][q]:
            d = -200
        elif not end["laid"][q]:
            d = -100
        else:
            d = laid[q] - sum(end_value(str(t)) for t in s.rack(q))
        d += 50 if q == twin else 0
        want.append(2 * d if atu_1 else d)
    assert r["scores"] == want, (rules, seed, r, want, twin, atu)
    return r["pattern"] or ("exhausted" if w is None else "etalat")


def test_ro12_scores_from_the_table_under_every_option(backend: str) -> None:
    """RO-12 (with RO-2, RO-11, RO-13): 100 + laid for the finisher (x2 for a Joly finish), the
    pattern's score for a tabla close, laid - rack for the others, -100 never laid down, -200 a
    failed tabla, +50 to the twin, x2 when the Atu is a 1; under every rule option."""
    seen = Counter(
        _scored_game(OPTIONS[i % len(OPTIONS)], 9300 + i) for i in range(games_to_play(16))
    )
    assert seen["etalat"], seen
