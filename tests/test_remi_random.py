"""Random play of the Remi engine (issue 9): invariants at every step over seeded games.

* tile conservation: racks + stock + train + table + the Atu (while apart) + a tile waiting to be
  laid (RO-9.4/9.5) + the later discards of a broken train = the 106 tiles (RO-1), none twice;
* rack sizes agree with the racks; ``copy()`` equals the state;
* observations hide the other racks and the stock order (changing them changes no observation);
* RO-12 scores recomputed here, independently of the engine;
* every game terminates; its record replays to the identical state (``rummy101.game.records``);
* ``legal_actions`` is exactly what ``apply`` accepts, on sampled positions, over every verb with
  every tile code, meld index and position.

The CI-fast share plays :data:`FAST_GAMES` games; ``-m slow`` plays :data:`SLOW_GAMES` more
(>= 2,000 games in all).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101 import IllegalAction, backend_name
from rummy101.bots import get_bot
from rummy101.game import Action, new_game
from rummy101.game.engines.remi.table import lay_melds, three_melds
from rummy101.game.records import dumps, loads
from rummy101.tiles import JOKER_CODE

J = JOKER_CODE
FULL = [2] * 53
RULES = ["remi", "remi(players=2)", "remi(players=3,joly_retrievals=2)", "remi(atu=off)",
         "remi(tabla=off,doubles=off)", "remi(joly_atu_deal=14)"]
# The fast share is smaller on the pure backend (CI runs the suite there too; the core's answers
# are the same on both backends, tests/test_*parity*.py).
FAST_GAMES = 120 if backend_name() == "native" else 12
SLOW_GAMES = 1900
MAX_STEPS = 50_000

from oracles.remi import census, expected_scores


def check_hidden(s: Any, rng: random.Random) -> None:
    """Swapping a tile between another rack and the stock, and reversing the stock, changes no
    observation of the seat (sizes and counts stay)."""
    seat = rng.randrange(s.n)
    before = s.observation(seat)
    t = s.copy()
    others = [q for q in range(s.n) if q != seat and t.sizes[q]]
    if others and t.stock:
        q = rng.choice(others)
        c = rng.choice([c for c in range(53) if t.racks[q][c]])
        i = rng.randrange(len(t.stock))
        t.racks[q][c] -= 1
        t.racks[q][t.stock[i]] += 1
        t.stock[i] = c
    t.stock.reverse()
    assert t.observation(seat) == before


def play(rules: str, seed: int, mode: str, checks: bool = True) -> Any:
    s = new_game(rules, seed)
    rng = random.Random(seed)
    bots = ([get_bot("greedy" if k == 0 else "random", random.Random(seed * 7 + k)) for k in range(s.n)]
            if mode == "bots" else None)
    steps = 0
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal, "a live position always has an action"
        if bots is not None:
            p = s.current_player
            a = bots[p].act(s.observation(p), legal)
        else:
            a = rng.choice(legal)
        rounds = len(s.results)
        s.apply(a)
        steps += 1
        assert steps < MAX_STEPS, "the game must terminate"
        if len(s.results) > rounds:
            r = s.results[-1]
            assert r["scores"] == expected_scores(s, r), (rules, seed, r)
            assert s.totals == [sum(x[q] for x in s.scores) for q in range(s.n)]
        if checks:
            assert census(s) == FULL, (rules, seed, steps, str(a))
            assert s.sizes == [sum(r) for r in s.racks]
            assert s.copy() == s
            if steps % 7 == 0:
                check_hidden(s, rng)
    t = loads(dumps(s))
    assert t == s and [str(a) for a in t.history] == [str(a) for a in s.history]
    return s


def _games(start: int, count: int) -> list[tuple[str, int, str]]:
    return [(RULES[k % len(RULES)], k, "bots" if k % 2 else "uniform") for k in range(start, start + count)]


@pytest.mark.parametrize("chunk", range(6))
def test_random_games_fast(chunk: int) -> None:
    per = FAST_GAMES // 6
    for rules, seed, mode in _games(chunk * per, per):
        play(rules, seed, mode)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(19))
def test_random_games_slow(chunk: int) -> None:
    per = SLOW_GAMES // 19
    for rules, seed, mode in _games(FAST_GAMES + chunk * per, per):
        play(rules, seed, mode, checks=seed % 4 == 0)


# ---- legal <=> apply ------------------------------------------------------------------------

def every_action(s: Any, rng: random.Random) -> list[Action]:
    out = [Action(v) for v in ("draw", "take", "open", "reset", "decline", "atu", "tabla", "close")]
    for v in ("discard", "announce", "accept"):
        out += [Action(v, (c,)) for c in range(53)]
    out += [Action(v, t) for v, t, _n in three_melds(s.rules)]
    for _ in range(40):
        t = tuple(rng.randrange(53) for _ in range(3))
        out += [Action("run", t), Action("set", t)]
    n = len(s.table) + 1
    for i in range(n):
        for c in range(53):
            out += [Action("add", (c,), i, pos) for pos in (-1, 0, 1)]
            width = len(s.table[i].tiles) if i < len(s.table) else 3
            out += [Action("retrieve", (c,), i, k) for k in range(width + 1)]
    out += [Action("break", (), k) for k in range(len(s.x.train) + 1)]
    lays = [t for t, _n in lay_melds(s.rules)]
    out += [Action("lay", t) for t in lays]
    out += [Action("lay", t, -1, k) for t in lays for k in range(len(t))]  # '@I': RO-9.5's place
    for _ in range(40):                  # runs that 'run' and 'add' build, and no runs at all
        t = list(rng.choice(lays))
        k = rng.randrange(len(t))
        t[k] = J if t[k] != J else rng.randrange(52)
        out.append(Action("lay", tuple(t)))
        out.append(Action("lay", tuple(rng.randrange(53) for _ in range(rng.randrange(1, 9)))))
    return out


def with_bridge(s: Any, rng: random.Random, jolys: int = 2, also: tuple[int, ...] = ()) -> Any:
    """A copy of ``s`` whose current rack holds a run that only ``lay`` builds (two Jolys
    bridging gaps, RO-7), or with ``jolys=1`` its real tiles and one Joly, the tiles swapped in
    from the stock and the other racks (so the 106 tiles stay in place), else None."""
    p = s.current
    for tiles, needs in rng.sample(lay_melds(s.rules), 30):
        want = list(needs[:len(needs) - 2 + jolys]) + list(also)
        t = s.copy()
        rack = t.racks[p]
        need = [c for c in set(want) if rack[c] < want.count(c)]
        # a tile given away leaves the rack of the turn's snapshot too ('reset' restores it)
        snap = list(t.x.snap[1]) if t.x.snap is not None else rack
        spare = [c for c in range(53) if c not in want for _ in range(min(rack[c], snap[c]))]
        ok = True
        for c in need:
            for _ in range(want.count(c) - rack[c]):
                if not spare:
                    ok = False
                    break
                give = spare.pop(rng.randrange(len(spare)))
                if c in t.stock:
                    t.stock[t.stock.index(c)] = give
                else:
                    q = next((q for q in range(t.n) if q != p and t.racks[q][c]), None)
                    if q is None:
                        ok = False
                        break
                    t.racks[q][c] -= 1
                    t.racks[q][give] += 1
                rack[c] += 1
                rack[give] -= 1
                if snap is not rack:
                    snap[c] += 1
                    snap[give] -= 1
        if ok:
            if snap is not rack:
                t.x.snap = (t.x.snap[0], tuple(snap)) + t.x.snap[2:]
            t.invalidate_legal()
            return t
    return None


CATEGORIES = {
    "exchange": lambda s: s.phase.value == "exchange",
    "first turn": lambda s: s.x.took == "start",
    "take": lambda s: s.phase.value == "take",
    "break offered": lambda s: any(a.verb == "break" for a in s.legal_actions()),
    "take offered, not laid": lambda s: (s.phase.value == "take" and not s.x.laid[s.current]
                                         and not s.x.tabla[s.current] and any(a.verb == "take" for a in s.legal_actions())),
    "pending": lambda s: s.x.pending >= 0,
    "staged": lambda s: s.x.staged_from >= 0,
    "taken, must use": lambda s: s.x.taken >= 0,
    "laid, play": lambda s: s.phase.value == "play" and s.x.laid[s.current] and bool(s.table),
    "retrieve offered": lambda s: any(a.verb == "retrieve" for a in s.legal_actions()),
    "tabla play": lambda s: s.phase.value == "play" and s.x.tabla[s.current],
    "closing": lambda s: s.x.closing,
    "atu turn": lambda s: s.x.atu_turn,
    "lay offered": lambda s: any(a.verb == "lay" for a in s.legal_actions()),
    "lay after a retrieval": lambda s: (s.x.pending_kind == "joly"
                                        and any(a.verb == "lay" for a in s.legal_actions())),
}


def _relay_lay(t: Any, rng: random.Random, found: dict[str, list[Any]], cap: int) -> None:
    """A retrieval (RO-9.5) whose re-lay may be a bridged run: the release tile, four real tiles
    and a Joly swapped onto the rack, the retrieval applied; kept when 'lay' is then offered."""
    name = "lay after a retrieval"
    p = t.current
    if len(found[name]) >= cap or t.phase.value != "play" or not t.x.laid[p] or t.x.pending >= 0:
        return
    if t.x.tabla[p] or t.x.took == "start" or t.sizes[p] < 8 or t.x.laid_turn[p] == t.turn:
        return
    rel = [(c, i, k) for i, m in enumerate(t.table) for c, k in m.releases
           if m.jr[k] < t.rules.opts.joly_retrievals]
    if not rel:
        return
    c, i, k = rng.choice(rel)
    u = with_bridge(t, rng, 1, also=(c,))
    r = Action("retrieve", (c,), i, k)
    if u is not None and r in u.legal_actions():
        u.apply(r)
        if CATEGORIES[name](u):
            found[name].append(u)


def _positions(per: int) -> list[Any]:
    """Positions of every kind (a few per category of CATEGORIES), from seeded games of greedy and
    random play over every rules option."""
    found: dict[str, list[Any]] = {k: [] for k in CATEGORIES}
    for k in range(60 if backend_name() == "native" else 8):
        rules = RULES[k % len(RULES)]
        s = new_game(rules, 500 + k)
        rng = random.Random(k)
        bots = [get_bot("greedy", random.Random(k + q)) for q in range(s.n)]
        greedy_share = (k % 3) / 2
        while not s.is_terminal:
            for name, test in CATEGORIES.items():
                if len(found[name]) < per and test(s) and rng.random() < 0.3:
                    found[name].append(s.copy())
            _relay_lay(s, rng, found, per)
            p = s.current_player
            legal = s.legal_actions()
            s.apply(bots[p].act(s.observation(p), legal) if rng.random() < greedy_share
                    else rng.choice(legal))
        if all(len(v) >= per for v in found.values()):
            break
    # racks holding a run that only 'lay' builds: in the play phase before and after the
    # lay-down, staged, in the Atu turn, and with a retrieved Joly waiting (RO-9.5)
    rng = random.Random(9)
    base = [t for v in found.values() for t in v]
    for t in base:
        if t.phase.value == "play" and not t.x.tabla[t.current] and t.x.took != "start":
            u = with_bridge(t, rng, 1 if t.x.pending_kind == "joly" else 2)
            if u is not None:
                for name in ("lay offered", "lay after a retrieval"):
                    if len(found[name]) < 4 * per and CATEGORIES[name](u):
                        found[name].append(u)
        _relay_lay(t, rng, found, 4 * per)
    return [t for v in found.values() for t in v]


_POSITIONS = _positions(2)


@pytest.mark.parametrize("s", _POSITIONS, ids=lambda s: f"{s.rules}-{s.seed}-{len(s.history)}")
def test_legal_actions_are_exactly_what_apply_accepts(s: Any) -> None:
    rng = random.Random(len(s.history))
    legal = set(s.legal_actions())
    assert len(legal) == len(s.legal_actions()), "one action per move: no duplicates"
    for a in legal:
        t = s.copy()
        t.apply(a)
        assert census(t) == FULL
    before = s.copy()
    seen = 0
    for a in set(every_action(s, rng)):
        if a in legal:
            seen += 1
            continue
        with pytest.raises(IllegalAction, match=r"RO-\d+"):
            s.apply(a)
    assert s == before
    assert seen == len(legal), "every legal action is among the ones tried"


@pytest.mark.skipif(backend_name() != "native", reason="fewer positions on the pure backend")
def test_positions_cover_every_kind() -> None:
    kinds = {name for name, test in CATEGORIES.items() for s in _POSITIONS if test(s)}
    assert kinds == set(CATEGORIES)


def test_take_before_the_laydown_always_leads_to_a_laydown() -> None:
    """RO-10: ``take`` is offered to a player not laid down exactly when a lay-down holding the
    tile exists this turn; every offered take is followed here by that lay-down (the exact solver's
    melds, laid through ``meld_actions``), ``open`` and a discard."""
    from rummy101 import _backend
    from rummy101.game.engines.remi import meld_actions

    kinds = {1: "run", 2: "set"}
    tried = 0
    for s in _POSITIONS:
        p = s.current
        if s.phase.value != "take" or s.x.laid[p] or s.x.tabla[p] or "take" not in s.legal_actions():
            continue
        t = s.copy()
        t.apply("take")
        cr = _backend.core_rules(t.rules, "open")
        v, melds = _backend.core().solve_melds(cr, t.racks[p], True, t.x.taken, True)
        assert v >= 45
        base = len(t.table)
        for k, (kind, tiles, _sf) in enumerate(melds):
            for a in meld_actions(kinds[kind], tiles, base + k):
                t.apply(a)
        t.apply("open")
        assert any(a.verb == "discard" for a in t.legal_actions())
        tried += 1
    assert tried >= 1


def test_pending_tiles_always_have_a_meld() -> None:
    for s in _POSITIONS:
        if s.x.pending >= 0:
            assert any(a.verb in ("run", "set") for a in s.legal_actions())
