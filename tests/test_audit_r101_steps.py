"""Rules audit: the Rummy 101 engine's legal moves at every step of seeded games and on random
hand-made positions, against an outsider's model written from RULES.md (tests/r101_model.py).

At each step the engine's legal set, restricted to a kind, must equal the model's for ``draw``,
``button`` (R101-3, R101-10), ``run``/``set``/``pair`` (R101-5/8/12), ``add`` (R101-11: only
after one's own opening; before it only to grow a staged meld of this turn), ``retrieve``
(R101-9: exactly the tile the joker stands for, after one's own opening), ``open`` (R101-7/8/14:
offered exactly when the staged melds reach the current threshold and hold the taken discard),
``reset`` and ``discard`` (R101-3/4/12: any rack tile once nothing is left staged and the taken
discard is used). ``take`` (R101-4): for an opened player the model searches the turn (runs
grown towards the tile, joker retrievals, then an addition, a release or a new meld); for an
unopened one an opening holding the tile must exist, decided by the model's pair count or the
independent integer program of tests/reference.py. The model keeps its own threshold ladders
(R101-14) and joker-button accounts (R101-10) and checks them against the observation.

It can fail: planted engine faults (an 'add' offered before opening to any table meld, 'add'
with one tile left, pairs for every opener, 'take' for every unopened player, 'open' needing
more than the threshold) each fail the fast tests.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from audit_helpers import steps
from r101_model import JOKER, MODELLED, Turn, expected, may_lay_pairs, meld_value, unopened_take
from reference import reference_best, reference_max_pairs
from rummy101 import Rules
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.tiles import parse_tiles

TAKES = {"draw", "take", "button"}


def _unopened_usable(t: str, rack: list[str], thr_points: int, thr_pairs: int) -> bool:
    """R101-4 for a player who has not opened: can an opening that holds the taken tile be laid
    this turn, keeping a tile (R101-7/8/12), against the current thresholds (R101-14)? The cheap
    bounds of the model first; otherwise the independent integer program of tests/reference.py
    (the best runs/sets value and the most pairs with that tile used)."""
    proved, possible = unopened_take(t, Counter(rack), thr_pairs)
    if proved or not possible:
        return proved
    counts = [0] * 53
    for x in [*rack, t]:
        counts[int(parse_tiles(x)[0])] += 1
    code = int(parse_tiles(t)[0])
    if reference_max_pairs(counts, must_use=code) >= thr_pairs:
        return True
    return reference_best(_RULES, counts, must_use=code) >= thr_points


_RULES = Rules.parse("rummy101")


def _play(
    rules: str, seed: int, bots: list[str], threshold: str, jokers: int, chaos: float = 0.0
) -> dict[str, int]:
    s = new_game(rules, seed)
    n = s.n
    rng = random.Random(f"r101-steps:{rules}:{seed}")
    players = [get_bot(b, random.Random(rng.random())) for b in bots]
    left = [jokers] * n
    used = [False] * n
    thr = [101, 5]
    turn = Turn()
    start_thr = list(thr)
    seen = {k: 0 for k in (*MODELLED, "take")}
    turn_steps = 0
    for _step, p, obs, legal, by_verb in steps(s):
        where = (
            f"{rules} seed {seed} step {_step} seat {p}: last discard {obs['last_discard']} "
            f"rack {obs['rack']} table {obs['table']}"
        )
        assert obs["thresholds"]["points"] == thr[0] and obs["thresholds"]["pairs"] == thr[1], where
        assert obs["button"]["jokers"] == left and obs["button"]["used"] == used, where
        exp = expected(obs, turn, left[p], used[p], thr[0], thr[1])
        for kind in MODELLED:
            got = by_verb.get(kind, set())
            assert got == exp[kind], (
                f"{kind}: engine {sorted(got)} model {sorted(exp[kind])}; {where}"
            )
            seen[kind] += bool(got)
        if obs["opened"][p] is not None:  # R101-4 for an opened player, searched by the model
            got = by_verb.get("take", set())
            assert got == exp["take"], f"take: engine {got} model {exp['take']}; {where}"
        elif obs["phase"] == "take" and obs["last_discard"] is not None:
            offered = "take" in legal
            usable = _unopened_usable(obs["last_discard"], obs["rack"], thr[0], thr[1])
            assert offered == usable, f"take {offered}; {where}"
        seen["take"] += "take" in legal
        if _step == 0:  # R101-2: the starter has 22 tiles and no take, nor the joker button
            assert obs["phase"] == "play" and obs["rack_sizes"] == [22] + [21] * (n - 1), where
        if obs["phase"] == "take":
            assert obs["stock"] > 0, (
                where
            )  # R101-13: the round ends with the last stock tile's turn
            assert set(by_verb) <= TAKES, where
        else:
            assert not set(by_verb) & TAKES, where
            if "pair" in by_verb:
                assert may_lay_pairs(obs["opened"], p) and not any(
                    m["staged"] and m["kind"] != "pair" for m in obs["table"]
                ), where
            size = len(obs["rack"])  # R101-12: every lay keeps a tile for the discard
            assert ("pair" not in by_verb or size >= 3) and ("add" not in by_verb or size >= 2), (
                where
            )
            if {"run", "set"} & set(by_verb):
                assert size >= 4, where
                assert obs["opened"][p] != "pairs" and not any(
                    m["staged"] and m["kind"] == "pair" for m in obs["table"]
                ), where
        if obs["phase"] == "play":  # the observation's turn state says the same (R101-4, R101-7)
            ts = obs["turn_state"]
            unused = None if turn.taken_used(Counter(obs["rack"])) else turn.taken
            assert ts["must_use"] == unused, where
            assert ts["staged"] == any(m["staged"] for m in obs["table"]), where
        bot = players[p]
        acts = list(legal.values())
        small = [a for a in acts if a.verb in ("add", "retrieve", "open")]
        lays = [a for a in acts if a.verb in ("run", "set", "pair", "take", "button", "reset")]
        r = rng.random()
        if small and r < 0.5:
            a = rng.choice(small)
        elif lays and r < 0.5 + chaos and turn_steps < 12:
            a = rng.choice(lays)  # explore: stagings, pairs, takes, resets the bots would skip
        else:
            a = bot.act(obs, acts)
        v = a.verb
        turn_steps += 1
        if v in ("run", "set", "pair", "add", "retrieve", "open"):
            turn.plays += 1
        if v == "take":
            turn.taken = obs["last_discard"]
            turn.taken_before = obs["rack"].count(turn.taken)
        elif v == "button":
            left[p] -= 1
            used[p] = True
        elif v in ("run", "set", "pair", "add") and turn.taken is not None:
            turn.jokers_laid += sum(1 for t in a.tiles if str(t) == JOKER)
        elif v == "open":
            staged = [m for m in obs["table"] if m["staged"]]
            if threshold == "increasing":  # R101-14: the next opening must exceed this one
                if staged[0]["kind"] == "pair":
                    thr[1] = len(staged) + 1
                else:
                    thr[0] = sum(meld_value(m) for m in staged) + 1
        elif v == "reset":
            thr = list(start_thr)
            turn = Turn()
        s.apply(a)
        if v == "discard":
            turn = Turn()
            start_thr = list(thr)
            turn_steps = 0
    assert s.is_terminal
    return seen


CASES = [
    (2, "fixed", 0, ["greedy", "greedy"]),
    (2, "increasing", 1, ["greedy", "random"]),
    (3, "fixed", 1, ["greedy", "random", "greedy"]),
    (3, "increasing", 0, ["greedy", "greedy", "greedy"]),
    (4, "fixed", 2, ["greedy", "greedy", "random", "greedy"]),
    (4, "increasing", 1, ["greedy", "greedy", "greedy", "greedy"]),
]


def _rules(players: int, threshold: str, jokers: int) -> str:
    return f"rummy101(players={players},threshold={threshold},button_jokers={jokers})"


@pytest.mark.parametrize(("players", "threshold", "jokers", "bots"), CASES)
def test_steps_match_the_model(players: int, threshold: str, jokers: int, bots: list[str]) -> None:
    seen = _play_seeds(range(3), players, threshold, jokers, bots)
    # the games reach the modelled kinds (else the comparison would be empty)
    assert seen["add"] and seen["discard"] and seen["open"] and seen["draw"], seen


@pytest.mark.slow
@pytest.mark.parametrize(("players", "threshold", "jokers", "bots"), CASES)
def test_steps_match_the_model_more_seeds(
    players: int, threshold: str, jokers: int, bots: list[str]
) -> None:
    _play_seeds(range(3, 40), players, threshold, jokers, bots)


def _play_seeds(
    seeds: range, players: int, threshold: str, jokers: int, bots: list[str]
) -> dict[str, int]:
    """Every seed's game against the model (chaos on odd seeds); how often each kind was seen."""
    seen: dict[str, int] = {}
    for seed in seeds:
        got = _play(
            _rules(players, threshold, jokers), seed, bots, threshold, jokers, chaos=0.3 * (seed % 2)
        )
        seen = {k: seen.get(k, 0) + v for k, v in got.items()}
    return seen


# ---- hand-made random positions: tables full of jokers the games rarely make ----------------


def _random_meld(rng: random.Random) -> tuple[str, str]:
    """A valid table meld (R101-5) with jokers in random places."""
    kind = rng.choice(("run", "run", "set", "pair"))
    c = rng.choice("RYBK")
    if kind == "run":
        length = rng.randint(3, 6)
        a = rng.randint(1, 14 - length)
        tiles = [f"{c}{a + k}" for k in range(length)]
    elif kind == "set":
        n = rng.randint(1, 13)
        tiles = [f"{o}{n}" for o in rng.sample("RYBK", rng.randint(3, 4))]
        tiles.sort(key=lambda t: "RYBK".index(t[0]))
    else:
        tiles = [f"{c}{rng.randint(1, 13)}"] * 2
    keep = rng.randrange(len(tiles))  # a meld keeps a numbered tile
    tiles = [t if k == keep or rng.random() > 0.35 else JOKER for k, t in enumerate(tiles)]
    if kind == "set":  # the k-th joker stands for the k-th missing colour
        real = [t for t in tiles if t != JOKER]
        missing = [o for o in "RYBK" if o not in {t[0] for t in real}][: len(tiles) - len(real)]
        n = int(real[0][1:])
        tiles = [
            JOKER if o in missing else f"{o}{n}"
            for o in "RYBK"
            if o in missing or f"{o}{n}" in real
        ]
    return kind, " ".join(tiles)


def _random_position(rng: random.Random) -> Any:
    from test_audit_r101 import pos

    tiles = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + [JOKER] * 3
    rack = " ".join(rng.sample(tiles, rng.randint(1, 9)))
    table = [
        (k, rng.randrange(2), ts) for k, ts in (_random_meld(rng) for _ in range(rng.randint(1, 6)))
    ]
    opened = [rng.choice((None, "melds", "melds", "pairs")), "melds"]
    phase = rng.choice(("play", "take"))
    last = rng.choice(tiles) if phase == "take" else None
    return pos(
        "rummy101(players=2)",
        racks=[rack, "K1 K2"],
        table=table,
        opened=opened,
        phase=phase,
        last_discard=last,
    )


def _check_position(s: Any) -> None:
    p = s.current_player
    obs = s.observation(p)
    legal: dict[str, set[str]] = {}
    for a in s.legal_actions():
        legal.setdefault(a.verb, set()).add(str(a))
    exp = expected(obs, Turn(), 0, False, 101, 5)
    where = (
        f"rack {obs['rack']} opened {obs['opened']} last {obs['last_discard']} table {obs['table']}"
    )
    for kind in MODELLED:
        got = legal.get(kind, set())
        assert got == exp[kind], f"{kind}: engine {sorted(got)} model {sorted(exp[kind])}; {where}"
    if obs["phase"] == "take" and obs["opened"][p] is not None:
        assert legal.get("take", set()) == exp["take"], f"take: {where}"
    elif obs["phase"] == "take":
        offered = "take" in legal
        usable = _unopened_usable(obs["last_discard"], obs["rack"], 101, 5)
        assert offered == usable, f"take {offered}; {where}"


def test_random_positions_match_the_model() -> None:
    rng = random.Random("r101-steps-positions")
    for _ in range(400):
        _check_position(_random_position(rng))


@pytest.mark.slow
def test_random_positions_match_the_model_more() -> None:
    rng = random.Random("r101-steps-positions-more")
    for _ in range(20_000):
        _check_position(_random_position(rng))
