"""``legal_actions()`` is exact (issues 8 and 17), checked against brute force:

* R101-4: ``take`` is listed iff some continuation of the turn puts the taken tile on the table
  and ends with a legal discard — an exhaustive search of the turn (DFS over the actions
  ``apply`` accepts, memoised by position) on many seeded positions, hand-made and from games;
* DESIGN.md "Game surface": ``legal_actions()`` is exactly the set of actions ``apply`` accepts,
  over a wide universe of candidates (every verb with every tile code, meld index and position)
  in seeded random positions of every rules option.

The helpers are independent of ``legal_actions``: candidates come from the rack, the table and
the action grammar only, and ``apply`` on copies judges them."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from rummy101 import IllegalAction
from rummy101.game import Action, Phase, new_game
from rummy101.game.engines.rummy101 import engine as E
from rummy101.game.table import PAIR, RUN, SET, TableMeld
from rummy101.tiles import parse_tiles
from test_game_random import slow_share
from test_game_rules import OPEN_NAMES, counts

J = 52
def position(rules: str = "rummy101(players=2)", *, racks: list[str], stock: str = "K1 K2 K3 K4 K5",
             current: int = 0, phase: str = "take", table: list[tuple[str, int, str]] = (),
             opened: list[Any] | None = None, last_discard: str | None = None,
             thresholds: tuple[int, int] | None = None) -> Any:
    """A hand-made position (tile conservation is not the point here)."""
    s = new_game(rules, 0)
    n = s.n
    s.racks = [counts(r) for r in racks]
    s.sizes = [sum(r) for r in s.racks]
    s.stock = [int(t) for t in parse_tiles(stock)]
    s.current = current
    s.turn = 5
    s.phase = Phase(phase)
    s.x.took = "draw" if phase == "play" else ""
    kinds = {"run": RUN, "set": SET, "pair": PAIR}
    s.table = [TableMeld.build(kinds[k], o, tuple(int(t) for t in parse_tiles(ts))) for k, o, ts in table]
    s.x.turn_table_start = len(s.table)
    s.x.opened = [OPEN_NAMES[o] for o in (opened or [None] * n)]
    s.x.opened_turn = [0 if o else -1 for o in s.x.opened]
    s.x.discards = [[] for _ in range(n)]
    if thresholds:
        s.x.thr_melds, s.x.thr_pairs = thresholds
    if last_discard:
        prev = (current - 1) % n
        s.x.last_discard = int(parse_tiles(last_discard)[0])
        s.x.discards[prev].append(s.x.last_discard)
    else:
        s.x.last_discard = -1
    s._legal = None
    return s


# ---- candidate actions ---------------------------------------------------------------------------

_ACTIONS: dict[tuple[Any, ...], Action] = {}


def act(verb: str, tiles: tuple[int, ...] = (), meld: int = -1, pos: int = -1) -> Action:
    """``Action(...)``, cached (the universes build the same records over and over)."""
    k = (verb, tiles, meld, pos)
    a = _ACTIONS.get(k)
    if a is None:
        a = _ACTIONS[k] = Action(verb, tiles, meld, pos)
    return a


def _set_candidates(items: list[int]) -> set[tuple[int, ...]]:
    return {c for c in combinations(sorted(items), 3)}


def play_candidates(s: Any, *, wide: bool) -> list[Action]:
    """Play-phase candidate actions of the current player. ``wide``: every verb with every tile code
    (legal or not), every meld index (one past the end too) and every position; otherwise only
    those whose tiles are on the rack (the others are refused for a missing tile anyway)."""
    p = s.current
    rack = s.racks[p]
    codes = list(range(53)) if wide else [c for c in range(53) if rack[c]]
    out: list[Action] = [act("open")]
    if wide:
        out += [act(v) for v in ("draw", "take", "button", "reset")]
    out += [act("discard", (c,)) for c in codes]
    # runs: every 3-window of every colour, each position its tile or a joker (and all jokers)
    for col in range(4):
        for first in range(11):
            w = [col * 13 + first + i for i in range(3)]
            for mask in range(8):
                tiles = tuple(w[i] if mask >> i & 1 else J for i in range(3))
                if wide or all(rack[c] >= tiles.count(c) for c in tiles):
                    out.append(act("run", tiles))
    if wide:  # a few shapes that are no runs: wrapping, gaps, mixed colours
        out += [act("run", (11, 12, 0)), act("run", (0, 2, 4)), act("run", (0, 14, 2))]
    # sets: 3 of the 4 colours + up to 2 jokers, per number; with wide also repeated colours
    for n in range(13):
        items = [k * 13 + n for k in range(4) for _ in range(2 if wide else rack[k * 13 + n])]
        items += [J] * (2 if wide else min(2, rack[J]))
        for combo in _set_candidates(items):
            if wide or all(rack[c] >= combo.count(c) for c in combo):
                out.append(act("set", combo))
    # pairs
    for c in codes:
        if c == J:
            out.append(act("pair", (J, J)))
            continue
        out.append(act("pair", (c, c)))
        out.append(act("pair", (c, J)))
    if wide:
        out.append(act("pair", (0, 13)))
    # add / retrieve on every meld (and one index past the end)
    for i in range(len(s.table) + (1 if wide else 0)):
        size = len(s.table[i].tiles) if i < len(s.table) else 3
        for c in codes:
            for pos in (-1, 0, 1):
                out.append(act("add", (c,), i, pos))
            for idx in range(size + (1 if wide else 0)):
                out.append(act("retrieve", (c,), i, idx))
    return list(dict.fromkeys(out))


def take_candidates() -> list[Action]:
    return [Action(v) for v in ("draw", "take", "button", "open", "reset")] + [
        Action("discard", (c,)) for c in range(53)] + [Action("run", (0, 1, 2)), Action("add", (0,), 0, 1)]


def accepted(s: Any, a: Action) -> bool:
    t = s.copy()
    try:
        t.apply(a)
    except IllegalAction:
        return False
    return True


# ---- exhaustive search of a turn ------------------------------------------------------------------

def _key(s: Any) -> tuple[Any, ...]:
    p = s.current
    return (tuple(s.racks[p]), tuple(s.table), s.x.opened[p], s.x.staged_from, s.x.staged_kind)


def turn_can_end(s: Any, *, limit: int = 200_000) -> bool:
    """Is there a sequence of play actions (each accepted by ``apply``) after which a discard is
    accepted? Explores every continuation (DFS, memoised by position). ``reset`` is not followed:
    it leaves the turn's plays rather than continuing them."""
    seen: set[tuple[Any, ...]] = set()

    def ends(t: Any) -> bool:
        p = t.current
        return any(accepted(t, Action("discard", (c,))) for c in range(53) if t.racks[p][c])

    def dfs(t: Any) -> bool:
        if ends(t):
            return True
        k = _key(t)
        if k in seen:
            return False
        seen.add(k)
        assert len(seen) < limit, "position too large for the brute force"
        for a in play_candidates(t, wide=False):
            if a.verb in ("discard", "reset"):
                continue
            u = t.copy()
            try:
                u.apply(a)
            except IllegalAction:
                continue
            if dfs(u):
                return True
        return False

    return dfs(s)


def take_is_usable_brute(s: Any) -> bool:
    """R101-4 by brute force: after moving the last discard to the rack (unchecked), can the
    turn be played on to a legal discard (which needs the taken tile on the table)?"""
    if s.phase is not Phase.TAKE or s.x.last_discard < 0:
        return False
    t = s.copy()
    E.do_take(t)
    return turn_can_end(t)


# ---- random positions ------------------------------------------------------------------------------

RULE_SETS = ["rummy101", "rummy101(players=2)", "rummy101(players=3,threshold=increasing)",
             "rummy101(button_jokers=2)", "rummy101(players=2,threshold=increasing,button_jokers=5)"]


def _random_meld(rng: random.Random) -> tuple[int, tuple[int, ...]]:
    kind = rng.choice((RUN, RUN, RUN, SET, SET, PAIR))
    if kind == RUN:
        n = rng.randint(3, 6)
        first = rng.randint(0, 13 - n)
        col = rng.randrange(4)
        tiles = [col * 13 + first + i for i in range(n)]
    elif kind == SET:
        num = rng.randrange(13)
        cols = sorted(rng.sample(range(4), rng.choice((3, 3, 4))))
        tiles = [k * 13 + num for k in cols]
    else:
        c = rng.randrange(52)
        tiles = [c, c]
    for i in range(len(tiles)):
        if rng.random() < 0.22:
            tiles[i] = J
    if all(x == J for x in tiles):
        tiles[0] = next(x for x in range(52))
    if kind == PAIR and tiles[0] == J:
        tiles = [tiles[1], J]
    return kind, tuple(tiles)


def random_take_position(rng: random.Random, *, max_rack: int = 8, rules: str | None = None) -> Any:
    """A random take-phase position: a table of runs/sets/pairs with jokers, a small rack biased
    towards tiles near the table and the discard, random opening states and thresholds."""
    s = new_game(rules or rng.choice(RULE_SETS), rng.randrange(1000))
    n = s.n
    table: list[TableMeld] = []
    for _ in range(rng.randint(0, 5)):
        kind, tiles = _random_meld(rng)
        try:
            table.append(TableMeld.build(kind, rng.randrange(n), tiles))
        except ValueError:
            continue
    near: list[int] = []
    for m in table:
        for c in m.tiles:
            if c != J:
                col, num = divmod(c, 13)
                near += [col * 13 + x for x in range(max(0, num - 3), min(13, num + 4))]
                near += [k * 13 + num for k in range(4)]
        for c, _p in m.adds + m.releases:
            near.append(c)
    if rng.random() < 0.1:
        disc = J
    elif near and rng.random() < 0.7:
        disc = rng.choice(near)
    else:
        disc = rng.randrange(52)
    if disc != J:
        col, num = divmod(disc, 13)
        near += [col * 13 + x for x in range(max(0, num - 2), min(13, num + 3)) if x != num] * 2
        near += [k * 13 + num for k in range(4) if k != col] * 2
    size = rng.randint(1, max_rack)
    rack = [0] * 53
    for _ in range(size):
        r = rng.random()
        c = J if r < 0.12 else (rng.choice(near) if near and r < 0.75 else rng.randrange(52))
        if rack[c] < 2:
            rack[c] += 1
    if disc != J:
        rack[disc] = min(rack[disc], 1)  # two copies of a tile in the game
    if not sum(rack):
        rack[rng.randrange(52)] = 1
    p = rng.randrange(n)
    s.current = p
    s.racks = [rack if q == p else [0] * 52 + [0] for q in range(n)]
    for q in range(n):
        if q != p:
            s.racks[q][rng.randrange(52)] += 1
    s.sizes = [sum(r) for r in s.racks]
    s.table = table
    s.x.turn_table_start = len(table)
    s.turn = 7
    s.x.opened = [rng.choice((0, 1, 1, 1, 2)) for _ in range(n)]
    s.x.opened_turn = [0 if o else -1 for o in s.x.opened]
    if s.x.opened[p] == 0:
        s.x.thr_melds = rng.randint(9, 45)
        s.x.thr_pairs = rng.randint(2, 3)
    s.phase = Phase.TAKE
    s.x.took = ""
    s.x.discards = [[] for _ in range(n)]
    s.x.discards[(p - 1) % n].append(disc)
    s.x.last_discard = disc
    s.stock = [0, 1, 2, 3]
    s._legal = None
    return s


def random_play_position(rng: random.Random, rules: str | None = None) -> Any:
    """A random play-phase position like :func:`random_take_position`'s (jokers in table runs,
    sets and pairs), after a draw or, when R101-4 allows it, after taking the discard."""
    s = random_take_position(rng, max_rack=10, rules=rules)
    if "take" in {str(a) for a in s.legal_actions()} and rng.random() < 0.5:
        s.apply("take")
    else:
        s.apply("draw")
    return s


# ---- checks -----------------------------------------------------------------------------------------

def check_legal_is_accepted(s: Any) -> int:
    """``legal_actions()`` == the candidates ``apply`` accepts (every legal action applies on a
    copy; every other candidate raises and leaves the state unchanged). Returns the number of
    candidates tried."""
    legal = s.legal_actions()
    assert len(legal) == len(set(legal)), "duplicate legal actions"
    legal_set = set(legal)
    for a in legal:
        assert accepted(s, a), f"{a} is listed but apply refuses it"
    cands = play_candidates(s, wide=True) if s.phase is Phase.PLAY else take_candidates()
    w = s.copy()
    for a in cands:
        if a in legal_set:
            continue
        try:
            w.apply(a)
        except IllegalAction:
            continue
        raise AssertionError(f"apply accepts {a}, which legal_actions() does not list; "
                             f"legal: {sorted(map(str, legal))}")
    assert w == s, "a refused action changed the state"
    return len(cands)


def random_game_positions(rules: str, seed: int, every: int) -> Any:
    """Yield positions of a seeded game between 'eager' random players (they open and lay when
    they can, so that opened players, staged openings, takes and retrievals all occur)."""
    s = new_game(rules, seed, match_rounds=1)
    rng = random.Random(seed * 31 + 7)
    k = 0
    while not s.is_terminal:
        acts = s.legal_actions()
        if k % every == 0 or s.phase is Phase.TAKE and s.x.last_discard >= 0 and k % 3 == 0:
            yield s
        plays = [a for a in acts if a.verb in ("open", "run", "set", "pair", "add", "retrieve")]
        opens = [a for a in acts if a.verb == "open"]
        if opens:
            a = opens[0]
        elif plays and rng.random() < 0.8:
            a = rng.choice(plays)
        elif any(a.verb == "take" for a in acts) and rng.random() < 0.6:
            a = act("take")
        else:
            a = rng.choice(acts)
        s.apply(a)
        k += 1


ISSUE_POSITIONS = [
    # issue 8: both opened with melds, table B3 * B5, rack R5 Y9 K11 K2, last discard R7: the
    # joker of B3 * B5 cannot be retrieved (no B4), so R7 fits nothing: draw alone.
    ({"racks": ["R5 Y9 K11 K2", "Y1 Y2"], "table": [("run", 1, "B3 * B5")],
          "opened": ["melds", "melds"], "last_discard": "R7"}, {"draw"}),
    # the same with B4 on the rack: retrieve the joker, lay R5 * R7 (4 tiles -> 1 kept)
    ({"racks": ["R5 Y9 B4 K2", "Y1 Y2"], "table": [("run", 1, "B3 * B5")],
          "opened": ["melds", "melds"], "last_discard": "R7"}, {"draw", "take"}),
    # ... but not with two tiles: R5 * R7 would leave no tile to discard (R101-12)
    ({"racks": ["R5 B4", "Y1 Y2"], "table": [("run", 1, "B3 * B5")],
          "opened": ["melds", "melds"], "last_discard": "R7"}, {"draw"}),
    # R101-4 seed example: R6 onto R3-R4-R5
    ({"racks": ["K9 K11 B2", "Y1"], "table": [("run", 1, "R3 R4 R5")], "opened": ["melds", "melds"],
          "last_discard": "R6"}, {"draw", "take"}),
    # R8 reaches R3-R4-R5 through R6 (rack) and R7 (a joker retrieved from B3 * B5 with B4)
    ({"racks": ["R6 B4 K1 K2", "Y1"], "table": [("run", 1, "R3 R4 R5"), ("run", 1, "B3 * B5")],
          "opened": ["melds", "melds"], "last_discard": "R8"}, {"draw", "take"}),
    # R6, * and R8 added keep K1; with R6 B4 alone the gap would take the last tile
    ({"racks": ["R6 B4 K1", "Y1"], "table": [("run", 1, "R3 R4 R5"), ("run", 1, "B3 * B5")],
          "opened": ["melds", "melds"], "last_discard": "R8"}, {"draw", "take"}),
    ({"racks": ["R6 B4", "Y1"], "table": [("run", 1, "R3 R4 R5"), ("run", 1, "B3 * B5")],
          "opened": ["melds", "melds"], "last_discard": "R8"}, {"draw"}),
    # reading (a): swapping the taken tile for a table joker uses it
    ({"racks": ["K9 K11", "Y1"], "table": [("run", 1, "R10 * R12")], "opened": ["melds", "melds"],
          "last_discard": "R11"}, {"draw", "take"}),
    # a set's two jokers need two different missing colours to come back
    ({"racks": ["Y8 Y8 K1 K2 R13", "Y1"], "table": [("set", 1, "R8 * *")], "opened": ["melds", "melds"],
          "last_discard": "K12"}, {"draw"}),
    ({"racks": ["Y8 B8 K1 K2 R13", "Y1"], "table": [("set", 1, "R8 * *")], "opened": ["melds", "melds"],
          "last_discard": "K12"}, {"draw", "take"}),
    # a pairs opener lays pairs, not runs: R7 with R7 on the rack, not with R5 R6
    ({"racks": ["R5 R6 K1", "Y1"], "opened": ["pairs", "melds"], "last_discard": "R7"}, {"draw"}),
    ({"racks": ["R7 R6 K1", "Y1"], "opened": ["pairs", "melds"], "last_discard": "R7"}, {"draw", "take"}),
    # a melds opener lays pairs only after someone opened with pairs (R101-8)
    ({"racks": ["R7 K1 K3", "Y1"], "opened": ["melds", "melds"], "last_discard": "R7"}, {"draw"}),
    ({"racks": ["R7 K1 K3", "Y1"], "opened": ["melds", "pairs"], "last_discard": "R7"}, {"draw", "take"}),
    # a taken joker must stay on the table on balance: adding it anywhere does
    ({"racks": ["K1 B5", "Y1"], "table": [("set", 1, "R8 Y8 B8 K8")], "opened": ["melds", "melds"],
          "last_discard": "*"}, {"draw"}),
    ({"racks": ["K1 B5 B7", "Y1"], "table": [("set", 1, "R8 Y8 B8 K8")], "opened": ["melds", "melds"],
          "last_discard": "*"}, {"draw", "take"}),
]


@pytest.mark.parametrize("case", range(len(ISSUE_POSITIONS)))
def test_take_exact_hand_made_positions(case: int) -> None:
    """R101-4 on hand-made positions (issue 8's among them), engine and brute force agreeing."""
    kw, want = ISSUE_POSITIONS[case]
    s = position(**kw)
    assert {str(a) for a in s.legal_actions()} == want
    assert take_is_usable_brute(s) == ("take" in want)
    check_legal_is_accepted(s)


def _take_agrees(s: Any) -> bool:
    return ("take" in {str(a) for a in s.legal_actions()}) == take_is_usable_brute(s)


@pytest.mark.parametrize("seed", range(4))
def test_take_exact_random_positions(seed: int) -> None:
    """R101-4: engine == brute force on 400 seeded random positions per seed (tables with joker
    runs, sets and pairs; small racks near the table; every opening state; thresholds)."""
    rng = random.Random(8000 + seed)
    takes = 0
    for i in range(400):
        s = random_take_position(rng, max_rack=8 if i % 4 else 11)
        usable = take_is_usable_brute(s)
        takes += usable
        assert ("take" in {str(a) for a in s.legal_actions()}) == usable, (
            f"position {i}: brute force says take is {'' if usable else 'not '}usable; "
            f"opened {s.x.opened} seat {s.current} rack {[str(x) for x in s.rack(s.current)]} "
            f"table {[m.text() for m in s.table]} discard {s.x.last_discard}")
    assert 80 < takes < 360  # both answers occur often


def test_take_exact_in_games() -> None:
    """R101-4 in seeded games of every rules option: at every take with a rack small enough for
    the brute force (opened players late in a round), engine == brute force."""
    checked = 0
    for k, rules in enumerate(RULE_SETS):
        for seed in range(6):
            for s in random_game_positions(rules, 100 * k + seed, every=10_000):
                if (s.phase is Phase.TAKE and s.x.last_discard >= 0
                        and s.sizes[s.current] <= (10 if s.x.opened[s.current] else 8)):
                    assert _take_agrees(s), f"{rules} seed {100 * k + seed}: {s.history[-3:]}"
                    checked += 1
    assert checked >= 30


@pytest.mark.parametrize("rules", RULE_SETS)
def test_legal_actions_equal_accepted_actions(rules: str) -> None:
    """DESIGN.md "Game surface": legal_actions() is exactly what apply accepts, over a universe
    of every verb with every tile code / meld index / position, in positions of seeded games."""
    positions = 0
    for seed in range(3):
        for s in random_game_positions(rules, 500 + seed, every=23):
            check_legal_is_accepted(s)
            positions += 1
    assert positions >= 30
    rng = random.Random(rules)
    for _ in range(40):  # hand-made tables: more jokers in sets, runs and pairs than games show
        check_legal_is_accepted(random_play_position(rng, rules))


def test_set_joker_retrieval_has_one_form() -> None:
    """Issue 17 (seed 1180): in the set * Y11 * the jokers are interchangeable; only the first
    joker's index is an action, the other form is refused with the canonical one named."""
    s = position(racks=["R8 Y3 K11 K1", "Y1"], phase="play", table=[("set", 1, "* Y11 *")],
                 opened=["melds", "melds"])
    names = {str(a) for a in s.legal_actions()}
    assert "retrieve 0:0 with K11" in names and "retrieve 0:2 with K11" not in names
    with pytest.raises(IllegalAction, match=r"write 'retrieve 0:0 with K11'"):
        s.copy().apply("retrieve 0:2 with K11")
    check_legal_is_accepted(s)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_exactness_many_positions_slow(rules: str) -> None:
    """The same over many more games and random positions (a seeded share in CI, see
    ``slow_share``)."""
    for seed in slow_share(range(20), rules):
        for s in random_game_positions(rules, 9000 + seed, every=11):
            check_legal_is_accepted(s)
            if (s.phase is Phase.TAKE and s.x.last_discard >= 0
                    and s.sizes[s.current] <= (10 if s.x.opened[s.current] else 8)):
                assert _take_agrees(s)
    for seed in slow_share(range(30), "positions:" + rules):
        rng = random.Random(f"{rules}:{seed}")
        for _ in range(10):
            check_legal_is_accepted(random_play_position(rng, rules))
        for _ in range(50):
            assert _take_agrees(random_take_position(rng, max_rack=9, rules=rules))


def test_must_use_in_the_observation_is_public_and_agrees_with_the_rack() -> None:
    """R101-4: the observation's ``must_use`` is derived from the table (public) and always
    agrees with the rack count the engine checks before a discard."""
    import random as _random

    from oracles.rummy101 import eager

    seen = 0
    for seed in range(30):
        s = new_game("rummy101(players=2,button_jokers=2)", seed)
        rng = _random.Random(seed)
        while not s.is_terminal:
            x = s.x
            if x.taken >= 0:
                by_rack = s.racks[s.current][x.taken] > x.taken_base
                assert E._taken_unused(s) == by_rack
                seen += by_rack
            s.apply(eager(rng, s, s.legal_actions()))
    assert seen > 0
