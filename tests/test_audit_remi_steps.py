"""Rules audit: the Remi engine's legal moves at every step of seeded games, against an outsider's
model written from RULES.md RO-1..RO-13 and seed 004 (tests/remi_model.py).

At each step the engine's legal set, restricted to a kind, must equal the model's for
``announce``/``accept``/``decline`` (RO-3: every seat is asked, in seat order from the starter;
every seat after the announcer answers until one accepts, a seat without a double of the same
size only declining; big is 10-13 and 1), ``draw`` (RO-5), ``take`` (RO-9.3 freely for laid-down and tabla players, RO-10 for
the others exactly when a lay-down of >= 45 with a run holding the tile exists, decided by the
independent integer program of tests/reference.py), ``break N`` (RO-9.4 with RO-10),
``tabla`` (RO-11: own first three turns, before anything else in the turn), ``close`` and
``discard`` (RO-5, RO-8, RO-10, RO-11, RO-13; the tabla patterns by the model's own search).
``atu`` (RO-4) is decided exactly for tabla players (a close of the 15 tiles whose discard is
not the Atu) and for players not laid down (the whole rack but a discard in runs/sets with a
run, the Atu in them); for laid-down players it is bounded (offered only with the Atu in the
stock; offered whenever new melds alone finish: the table may add more ways). The model also keeps who is asked in the exchange and each seat's own turns.

Hand-made positions add what the games rarely make: laid-down racks of one to six tiles before
long trains (RO-9.4, RO-10), tabla racks at every own turn, and tabla racks built as rows
(Monocolor, Bicolor, Mozaic, with Jolys) or as runs/sets, whose close, closing discards and
score (RO-11, RO-12) must match the model's own pattern search.

It can fail: planted engine faults ('break' with one or two tiles, 'tabla' in a fourth own turn,
'take' of the last discard for every unlaid player, 9 counted as a big double, 'close' offered
on long trains, no Joly closing discard, the Atu finishing an unlaid player without a run, no
close on the starter's tabla opening turn) each fail the fast tests.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from audit_helpers import steps
from reference import reference_best
from remi_model import (
    EXACT,
    Turn,
    closing_discards,
    expected,
    finishes_from_rack,
)
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.tiles import parse_tiles


def _counts(tiles: list[str]) -> list[int]:
    out = [0] * 53
    for t in tiles:
        out[int(parse_tiles(t)[0])] += 1
    return out


def _unlaid_take(rules: Any, t: str, rack: list[str]) -> bool:
    """RO-10: a lay-down holding ``t`` this turn: runs/sets (with a run) worth >= 45 at RO-8's
    values, keeping a tile for the discard (RO-13); the integer program of tests/reference.py."""
    code = int(parse_tiles(t)[0])
    best = reference_best(rules, _counts([*rack, t]), must_use=code, require_run=True)
    return best >= 45


class Exchange:
    """RO-3 as docs/rules.md reads it: one pass over every seat from the starter, each asked once
    to announce; after an announcement every other seat in order from the announcer answers until
    one accepts. A seat without a double is asked too (its only action, decline, is checked by
    the model's legal set): whose turn it is must not tell the table who holds a double."""

    def __init__(self, n: int, starter: int, on: bool) -> None:
        self.queue = [(starter + k) % n for k in range(n)] if on else []
        self.responders: list[int] = []
        self.current: int | None = None
        self.announced = False
        self.n = n
        self.next_announcer()

    def next_announcer(self) -> None:
        self.responders = []
        self.announced = False
        self.current = self.queue.pop(0) if self.queue else None

    def act(self, verb: str) -> None:
        p = self.current
        assert p is not None
        if verb == "announce":
            self.responders = [(p + k) % self.n for k in range(1, self.n)]
            self.announced = True
        if verb == "accept" or not self.announced or not self.responders:
            self.next_announcer()
        else:
            self.current = self.responders.pop(0)


def _play(rules_text: str, seed: int, bots: list[str], chaos: float) -> dict[str, int]:
    s = new_game(rules_text, seed)
    n = s.n
    opts = s.rules.opts
    rng = random.Random(f"remi-steps:{rules_text}:{seed}")
    players = [get_bot(b, random.Random(rng.random())) for b in bots]
    ex = Exchange(n, s.starter, opts.doubles)
    own = [0] * n
    turn = Turn()
    started = False
    seen: dict[str, int] = {k: 0 for k in (*EXACT, "take", "atu")}
    turn_steps = 0
    for step, p, obs, legal, by_verb in steps(s):
        where = (
            f"{rules_text} seed {seed} step {step} seat {p} phase {obs['phase']}: rack "
            f"{obs['rack']} train {obs['train']} laid {obs['laid']} tabla {obs['tabla']} "
            f"turn {turn}"
        )
        if obs["phase"] == "exchange":
            assert p == ex.current, f"asked seat {p}, model {ex.current}; {where}"
        else:
            assert ex.current is None, where  # every seat was asked (RO-3)
            if not started:  # RO-5: the starter begins by discarding, with 15 tiles
                started = True
                assert p == s.starter, where
                # RO-2: 15 to the starter, 14 to the others; a Joly Atu and joly_atu_deal more
                first = 15 if obs["atu"] != "*" else 1 + opts.joly_atu_deal
                assert obs["rack_sizes"] == [first if q == p else 14 for q in range(n)], where
                own[p] = 1
                turn = Turn(took="start")
            assert obs["own_turns"] == own, where
        exp = expected(obs, turn, own[p], opts.tabla)
        for kind in EXACT:
            got = by_verb.get(kind, set())
            assert got == exp[kind], (
                f"{kind}: engine {sorted(got)} model {sorted(exp[kind])}; {where}"
            )
            seen[kind] += bool(got)
        if obs["phase"] == "take":
            offered = "take" in legal
            if obs["laid"][p] or obs["tabla"][p] or len(obs["train"]) < 2:
                assert offered == bool(exp["take"]), f"take {offered}; {where}"
            else:
                usable = _unlaid_take(s.rules, obs["train"][-1], obs["rack"])
                assert offered == usable, f"take {offered}; {where}"
            seen["take"] += offered
            atu = "atu" in legal
            if atu:  # RO-4 bound: the Atu is in the stock
                assert obs["atu_available"], where
            if obs["atu_available"] and not obs["tabla"][p]:
                # RO-4 + RO-8: not laid down, the whole rack but a discard is the lay-down
                # (exact); laid down, new melds alone finishing prove it (the table may help)
                fin = finishes_from_rack(Counter(obs["rack"]), obs["atu"], not obs["laid"][p])
                if not obs["laid"][p]:
                    assert atu == fin, f"atu {atu}; {where}"
                elif fin:
                    assert atu, f"atu {atu}; {where}"
            if obs["tabla"][p] and obs["atu_available"]:  # RO-4 + RO-11, exact
                after = Counter(obs["rack"]) + Counter([obs["atu"]])
                ok = any(d != obs["atu"] or after[d] >= 2 for d in closing_discards(after))
                assert atu == ok, f"atu {atu}; {where}"
            seen["atu"] += atu
        if obs["phase"] == "play":  # the observation's turn state says the same (RO-8, RO-10)
            ts = obs["turn_state"]
            rack = Counter(obs["rack"])
            assert ts["must_use"] == (None if turn.taken_used(rack) else turn.taken), where
            assert ts["staged"] == any(m["staged"] for m in obs["table"]), where
            assert ts["closing"] == turn.closing and ts["atu_turn"] == turn.atu, where
        bot = players[p]
        acts = list(legal.values())
        odd = [
            a for a in acts if a.verb in ("tabla", "take", "break", "close", "announce", "accept")
        ]
        if odd and rng.random() < chaos and turn_steps < 10:
            a = rng.choice(odd)  # explore: tabla players, takes, breaks the bots would skip
        else:
            a = bot.act(obs, acts)
        v = a.verb
        turn_steps += 1
        if v in ("announce", "accept", "decline"):
            ex.act(v)
            s.apply(a)
            continue
        if v in ("draw", "take", "break", "atu"):
            turn.took = v
            if v == "take" and not obs["laid"][p] and not obs["tabla"][p]:
                turn.taken = obs["train"][-1]
                turn.taken_base = obs["rack"].count(turn.taken)
            if v == "atu":
                turn.atu = True
        if v in ("run", "set", "lay", "add", "retrieve", "open", "close", "break", "take", "atu"):
            turn.plays += 1
        if v in ("run", "set", "lay") and turn.atu and obs["atu"] in {str(t) for t in a.tiles}:
            turn.atu_laid = True
        if v == "open":
            turn.taken = None
        if v == "close":
            turn.closing = True
        if v == "reset":
            took = turn.took if turn.took in ("draw", "start") else ""
            turn = Turn(took=took)
        s.apply(a)
        if v == "reset" and not took:
            assert s.observation(p)["phase"] == "take", where
        if v == "discard":
            turn = Turn()
            turn_steps = 0
            if not s.is_terminal:
                q = s.current_player
                assert q == (p + 1) % n, where  # RO-2: seat by seat in one direction
                own[q] += 1
    assert s.is_terminal
    return seen


CASES = [
    ("remi(players=2)", ["greedy", "greedy"]),
    ("remi(players=2,atu=off,doubles=off,tabla=off)", ["greedy", "random"]),
    ("remi(players=3)", ["greedy", "random", "greedy"]),
    ("remi(players=3,doubles=off,tabla=off)", ["greedy", "greedy", "greedy"]),
    ("remi(players=4)", ["greedy", "greedy", "random", "greedy"]),
    ("remi(players=4,atu=off)", ["greedy", "greedy", "greedy", "greedy"]),
]


@pytest.mark.parametrize(("rules", "bots"), CASES)
def test_steps_match_the_model(rules: str, bots: list[str]) -> None:
    seen: dict[str, int] = {}
    for seed in range(2):
        got = _play(rules, seed, bots, chaos=0.3 * (seed % 2))
        seen = {k: seen.get(k, 0) + v for k, v in got.items()}
    assert seen["discard"] and seen["draw"], seen


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "bots"), CASES)
def test_steps_match_the_model_more_seeds(rules: str, bots: list[str]) -> None:
    for seed in range(2, 30):
        _play(rules, seed, bots, chaos=0.3 * (seed % 2))


# ---- hand-made positions: short racks, long trains, tabla racks the games rarely make --------

_TILES = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + ["*", "*"]


def _check(s: Any, turn: Turn) -> None:
    """The position's legal set against the model, kind by kind."""
    p = s.current_player
    obs = s.observation(p)
    legal: dict[str, set[str]] = {}
    for a in s.legal_actions():
        legal.setdefault(a.verb, set()).add(str(a))
    exp = expected(obs, turn, obs["own_turns"][p], s.rules.opts.tabla)
    where = (
        f"rack {obs['rack']} train {obs['train']} laid {obs['laid'][p]} tabla {obs['tabla'][p]} "
        f"own {obs['own_turns'][p]} phase {obs['phase']} {turn}"
    )
    for kind in EXACT:
        got = legal.get(kind, set())
        assert got == exp[kind], f"{kind}: engine {sorted(got)} model {sorted(exp[kind])}; {where}"
    if obs["phase"] == "take":
        offered = "take" in legal
        if obs["laid"][p] or obs["tabla"][p]:
            assert offered == bool(exp["take"]), f"take {offered}; {where}"
        else:
            assert offered == _unlaid_take(s.rules, obs["train"][-1], obs["rack"]), where
        if obs["tabla"][p]:
            after = Counter(obs["rack"]) + Counter([obs["atu"]])
            ok = any(d != obs["atu"] or after[d] >= 2 for d in closing_discards(after))
            assert ("atu" in legal) == ok, f"atu; {where}"
        elif not obs["laid"][p]:
            fin = finishes_from_rack(Counter(obs["rack"]), obs["atu"], True)
            assert ("atu" in legal) == fin, f"atu; {where}"
        elif finishes_from_rack(Counter(obs["rack"]), obs["atu"], False):
            assert "atu" in legal, f"atu; {where}"


def _random_take_position(rng: random.Random) -> Any:
    from test_audit_remi import pos

    laid = rng.random() < 0.6
    tabla = not laid and rng.random() < 0.5
    size = rng.randint(1, 6) if laid else 14
    deck = list(_TILES)
    rng.shuffle(deck)
    rack, train = deck[:size], deck[size : size + rng.randint(2, 9)]
    atu = next(t for t in reversed(deck) if t != "*")  # a tile neither on the rack nor in the train
    if not laid and rng.random() < 0.4:  # a rack the Atu may finish (RO-4): melds/row, one out
        full = (_row(rng) if tabla and rng.random() < 0.5 else _melds(rng)) + [rng.choice(_TILES)]
        k = rng.randrange(15)
        if full[k] != "*" and max(Counter(full).values()) <= 2 and Counter(full)["*"] <= 2:
            atu, rack = full[k], full[:k] + full[k + 1 :]
            rest = Counter(_TILES) - Counter([*rack, atu])  # the train from the other tiles
            train = rng.sample(sorted(rest.elements()), len(train))
    return pos(
        "remi(players=2,doubles=off)",
        racks=["K1 K2 K3", " ".join(rack)],
        train=" ".join(train),
        laid=[True, laid],
        tabla=[False, tabla],
        own_turns=rng.randint(1, 5),
        atu=atu,
    )


def test_random_take_positions_match_the_model() -> None:
    rng = random.Random("remi-steps-take-positions")
    atu = 0
    for _ in range(300):
        s = _random_take_position(rng)
        _check(s, Turn())
        atu += "atu" in {a.verb for a in s.legal_actions()}
    assert atu > 10, atu


@pytest.mark.slow
def test_random_take_positions_match_the_model_more() -> None:
    rng = random.Random("remi-steps-take-positions-more")
    for _ in range(5000):
        _check(_random_take_position(rng), Turn())


def _row(rng: random.Random) -> list[str]:
    """A 1-2-...-13-1 row in one, two alternating or several colours, some places Jolys."""
    kind = rng.choice(("mono", "bi", "mozaic", "any"))
    if kind == "mono":
        colours = [rng.choice("RYBK")] * 14
    elif kind == "bi":
        a, b = rng.sample("RYBK", 2)
        colours = [a if k % 2 == 0 else b for k in range(14)]
    else:
        colours = list(rng.sample("RYBK", 4))
        while len(colours) < 14:
            colours.append(rng.choice([c for c in "RYBK" if c != colours[-1]]))
        if kind == "any":
            colours = [rng.choice("RYBK") for _ in range(14)]
    row = [f"{c}{k + 1 if k < 13 else 1}" for k, c in enumerate(colours)]
    for _ in range(rng.randint(0, 2)):
        row[rng.randrange(14)] = "*"
    return row


def _melds(rng: random.Random) -> list[str]:
    """14 tiles in runs and sets (RO-6/RO-7), perhaps with Jolys, perhaps spoilt by one tile."""
    out: list[str] = []
    while len(out) < 14:
        left = 14 - len(out)
        if left < 3:
            out += rng.sample(_TILES, left)
            break
        if rng.random() < 0.5:
            c, k = rng.choice("RYBK"), rng.randint(3, min(left, 6))
            a = rng.randint(1, 15 - k)
            out += [f"{c}{n if n <= 13 else 1}" for n in range(a, a + k)]
        else:
            n, k = rng.randint(1, 13), rng.randint(3, min(left, 4))
            out += [f"{c}{n}" for c in rng.sample("RYBK", k)]
    if rng.random() < 0.5:
        out[rng.randrange(14)] = "*"
    return out


def _tabla_position(rng: random.Random) -> Any:
    from test_audit_remi import pos

    tiles = _row(rng) if rng.random() < 0.5 else _melds(rng)
    tiles.append(rng.choice(_TILES))
    if Counter(tiles)["*"] > 2 or max(Counter(tiles).values()) > 2:
        return None
    return pos(
        "remi(players=2,doubles=off)",
        racks=["K1 K2 K3", " ".join(tiles)],
        phase="play",
        tabla=[False, True],
        own_turns=rng.randint(2, 9),
    )


def test_tabla_closes_match_the_model() -> None:
    """RO-11: 'close' is offered exactly when a discard leaves a pattern, and after it exactly
    those discards; the round's score is the best pattern's (x2 for a Joly discard). Some racks
    are the starter's first turn (RO-5: a discard alone, or 'tabla' and then, as docs/rules.md
    reads RO-11, 'close' with that discard)."""
    rng = random.Random("remi-steps-tabla")
    closes = starts = 0
    for _ in range(400):
        s = _tabla_position(rng)
        if s is None:
            continue
        if rng.random() < 0.3:  # the starter's opening turn, tabla not yet declared
            s.x.took = "start"
            s.x.tabla[1] = False
            s.x.own_turns[1] = 1
            s.invalidate_legal()
            _check(s, Turn(took="start"))
            s.apply(next(a for a in s.legal_actions() if a.verb == "tabla"))
            _check(s, Turn(took="start"))
        else:
            _check(s, Turn(took="draw"))
        if "close" not in {a.verb for a in s.legal_actions()}:
            continue
        closes += 1
        starts += s.x.took == "start"
        rack = Counter(s.observation(1)["rack"])
        want = closing_discards(rack)
        s.apply(next(a for a in s.legal_actions() if a.verb == "close"))
        _check(s, Turn(took=s.x.took, closing=True, plays=1))
        d = rng.choice(sorted(want))
        s.apply(next(a for a in s.legal_actions() if str(a) == f"discard {d}"))
        assert s.is_terminal
        got = s.observation(1)["round_scores"][-1][1]
        assert got == want[d], f"score {got} model {want[d]} for {sorted(rack.elements())} - {d}"
    assert closes > 50 and starts > 10, (closes, starts)


@pytest.mark.parametrize("deal", [13, 14])
def test_joly_atu_deals_match_the_model(deal: int) -> None:
    """RO-2: a Joly Atu goes to the starter with 13 (the seed) or 14 (the option) more tiles;
    seeds 46 and 55 deal one for two players. The starter's 14-tile tabla rack closes only as a
    simple close (RO-11, docs/rules.md); the model's pattern search agrees on its own."""
    for seed in (46, 55):
        for chaos in (0.0, 0.5):
            _play(f"remi(players=2,joly_atu_deal={deal})", seed, ["greedy", "random"], chaos)


# ---- the model's own patterns, on the rules' examples ------------------------------------------


def _c(text: str) -> Counter[str]:
    return Counter(text.split())


def test_model_patterns_follow_the_rules() -> None:
    """RO-6, RO-7 and RO-11 as the model reads them, on examples written from RULES.md."""
    from remi_model import is_three_meld, pattern_score

    assert is_three_meld(["R12", "R13", "R1"]) and is_three_meld(["R1", "R2", "R3"])
    assert not is_three_meld(["R13", "R1", "R2"])  # RO-6: never 13-1-2
    assert is_three_meld(["R9", "R10", "*"]) and not is_three_meld(["R9", "*", "*"])  # RO-7
    assert is_three_meld(["R5", "Y5", "*"]) and not is_three_meld(["R5", "R5", "Y5"])
    mono = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    assert pattern_score(_c(mono)) == 3200
    bi = "R1 K2 R3 K4 R5 K6 R7 K8 R9 K10 R11 K12 R13 K1"
    assert pattern_score(_c(bi)) == 1600
    assert pattern_score(_c(bi.replace("K1", "R1"))) == 0  # R13 R1 side by side (docs)
    moz = "R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 Y1"
    assert pattern_score(_c(moz)) == 800
    assert pattern_score(_c(moz.replace("Y1", "R1"))) == 0  # 13 and the final 1 (docs)
    assert pattern_score(_c(moz.replace("K4", "R4"))) == 0  # 1-2-3-4 in four colours
    assert pattern_score(_c(moz.replace("K4", "*"))) == 800  # a Joly stands in a row
    # simple: runs and sets with a run; sets alone do not close; RO-7 ratio
    assert pattern_score(_c("R1 R2 R3 Y5 B5 K5 B7 B8 B9 B10 K11 K12 K13 K1")) == 400
    assert pattern_score(_c("R5 Y5 B5 R6 Y6 B6 R7 Y7 B7 R8 Y8 B8 K9 Y9")) == 0
    assert pattern_score(_c("R5 Y5 B5 K5 R6 Y6 B6 K6 R7 Y7 B7 K7 R8 Y8")) == 400  # runs too
    assert pattern_score(_c("R5 Y5 B5 K5 R7 Y7 B7 K7 R9 Y9 B9 R11 Y11 B11")) == 0  # sets only
    assert pattern_score(_c("R1 R2 R3 Y5 B5 K5 B7 B8 B9 B10 K11 * * K1")) == 0
