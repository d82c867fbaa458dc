"""Determinization: a full Rummy 101 position consistent with one seat's observation.

A search bot sees only ``state.observation(seat)``. :func:`sample_state` deals the pieces that
seat cannot see — the other racks and the stock — at random from what is left of the set (106
tiles plus this round's joker-button jokers, R101-1/R101-10, minus the seat's rack, the table
and the discard piles), with the public sizes, and rebuilds everything else from the
observation. The sampled position's observation for that seat equals the one given
(``tests/test_search.py``), so the world is consistent with everything public.

Positions are sampled at any point of a turn. In the middle of a turn the observation of the
seat to move holds ``own_turn`` (:func:`own_turn`: its rack, the table and the thresholds before
the turn's take or first play, and the jokers retrieved since a joker was taken), which only
that seat knows; the sample rebuilds the turn's undo snapshot from it, with a staged opening
(R101-7/8) and the duty to use a discard taken this turn (R101-4: ``turn_state.must_use``,
which the engine reads from that snapshot), so that it offers the same moves as the real
position, ``reset`` included (``tests/test_midturn_samples.py``). Without the duty, greedy's own
turn, finished by greedy inside a sample after a take (the search bot's whole-turn search),
could leave the taken tile unused, a turn the real game refuses
(tests/test_observation_fields.py). Another seat's observation has no ``own_turn``: a staged
opening or a discard taken and not yet used there is refused (the taker's rack is hidden).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...._validate import short
from ....errors import IllegalAction
from ....tiles import JOKER_CODE as J
from ....tiles import MELD_KINDS, Tile, counts_of
from ...phase import Phase
from ...state import State, held
from ...table import PAIR, TableMeld
from ...world import check_counts, check_turn_moves, check_whole, deal_hidden, from_observation
from .data import NOT_OPENED, OPEN_MELDS, OPEN_PAIRS, R101Data

__all__ = ["own_turn", "sample_state"]

_CODE = {str(Tile(c)): c for c in range(53)}
_TS = tuple(str(Tile(c)) for c in range(53))
_KIND = {name: code for code, name in MELD_KINDS.items()}
_OPENED = {None: NOT_OPENED, "melds": OPEN_MELDS, "pairs": OPEN_PAIRS}
_TOOK = (None, "start", "draw", "take", "button")  # turn_state's "took" (None: not begun)


def own_turn(s: State, seat: int) -> dict[str, Any] | None:
    """The observation's ``own_turn``: what the seat to move knows of its own turn and no
    other field shows, once the turn has something to undo (None before, and for the other
    seats): ``start``, the position ``reset`` restores (R101-3) — the rack, the table and the
    thresholds (R101-14: an opening this turn raises them) before the turn's take of a discard
    or first play; ``jokers_retrieved``, after taking a joker from the discards, the jokers
    retrieved since (R101-4 with R101-9: the taken joker is used once as many jokers went to
    the table), else 0. :func:`sample_state` rebuilds the turn's undo snapshot from it."""
    x: R101Data = s.x
    if seat != s.current or x.snap is None or s.phase is not Phase.PLAY:
        return None
    snap = x.snap
    rack, table = snap[1], snap[3]
    return {"start": {"rack": held(_TS, rack),
                      "table": [m.to_json(i) for i, m in enumerate(table)],
                      "thresholds": {"points": snap[9], "pairs": snap[10]}},
            "jokers_retrieved": x.taken_base - rack[J] if x.taken == J else 0}



def _melds(melds: Sequence[Mapping[str, Any]]) -> list[TableMeld]:
    return [TableMeld.build(_KIND[m["kind"]], m["owner"], tuple(_CODE[t] for t in m["tiles"]))
            for m in melds]


def sample_state(obs: Mapping[str, Any], rng: random.Random) -> State:
    """A position consistent with ``obs`` (one seat's observation), hidden pieces dealt with
    ``rng``. Raises IllegalAction when the observation cannot come from a game."""
    s = from_observation(obs)
    rules = s.rules
    ts = obs["turn_state"]
    mine = obs.get("own_turn")
    seat = obs["seat"]
    if mine is None and ts.get("staged"):
        raise IllegalAction("a Rummy 101 position with a staged opening is sampled from the "
                            "observation of the seat to move (its 'own_turn'), not from another "
                            "seat's")
    if mine is None and ts.get("must_use") is not None:
        raise IllegalAction("a Rummy 101 position with a discard taken and not yet used (R101-4) "
                            "is sampled from the observation of the seat to move (its "
                            "'own_turn'), not from another seat's")
    if mine is not None and seat != s.current:
        raise IllegalAction("the observation's 'own_turn' belongs to the seat to move")
    n = s.n
    s.table = _melds(obs["table"])
    x = R101Data(n, rules.opts.button_jokers)
    x.discards = [[_CODE[t] for t in pile] for pile in obs["discards"]]
    x.last_discard = _CODE[obs["last_discard"]] if obs["last_discard"] is not None else -1
    prev = (s.current - 1) % n  # the seat before: it made the last discard
    if x.last_discard >= 0 and x.discards[prev][-1:] != [x.last_discard]:
        raise IllegalAction(f"the observation's 'last_discard' {short(obs['last_discard'])} is "
                            f"not the last of seat {prev}'s 'discards' "
                            f"{short(obs['discards'][prev])}: it is the previous seat's "
                            f"latest discard, or null once taken (R101-4)")
    x.taken_log = [(d["seat"], d["from"], _CODE[d["tile"]], d["turn"]) for d in obs["taken_discards"]]
    x.opened = [_OPENED[o] for o in obs["opened"]]
    # the fields no later check reads: a sample holds what they say, and its observation shows
    # them back, so a value no game makes is refused here (the hint request's check reads
    # them through this sample; "opened_turn": [5, 5, 5, 5] in turn 0 got a hint)
    x.opened_turn = check_counts(obs, "opened_turn", n, -1, s.turn)
    for q in range(n):
        if (x.opened[q] == NOT_OPENED) != (x.opened_turn[q] == -1):
            raise IllegalAction(f"the observation's 'opened_turn' {short(x.opened_turn)} does "
                                f"not fit its 'opened' {short(obs['opened'])}: -1 for a seat "
                                f"not opened, else the turn of its opening (R101-7)")
    if ts["took"] not in _TOOK:
        raise IllegalAction(f"the observation's turn_state 'took' must be how the turn began: "
                            f"null, \"start\", \"draw\", \"take\" or \"button\" "
                            f"(R101-3), got {short(ts['took'])}")
    x.thr_melds = obs["thresholds"]["points"]
    x.thr_pairs = obs["thresholds"]["pairs"]
    x.button_left = list(obs["button"]["jokers"])
    x.button_used = list(obs["button"]["used"])
    x.button_issued = sum(rules.opts.button_jokers - k for k in x.button_left)
    x.took = ts["took"] or ""
    x.turn_table_start = len(s.table)
    staged = [i for i, m in enumerate(obs["table"]) if m.get("staged")]
    if staged != list(range(len(s.table) - len(staged), len(s.table))):
        raise IllegalAction("the observation's staged melds are not the last of the table "
                            "(R101-7, R101-8)")
    if staged:
        x.staged_from = staged[0]
        x.staged_kind = OPEN_PAIRS if s.table[-1].kind == PAIR else OPEN_MELDS
    s.x = x
    # the pieces seat cannot see: the set, less its rack, the table and the discard piles
    left = [rules.copies] * 52 + [rules.jokers + sum(x.button_used)]
    own = counts_of(_CODE[t] for t in obs["rack"])
    seen = [c for m in s.table for c in m.tiles] + [c for pile in x.discards for c in pile]
    for c in range(53):
        left[c] -= own[c]
    for c in seen:
        left[c] -= 1
    must = ts.get("must_use")
    if x.took == "take":
        got = [e for e in x.taken_log if e[0] == s.current and e[3] == s.turn]
        if len(got) != 1 or x.taken_log[-1] != got[0] or got[0][1] != prev:
            raise IllegalAction("the observation's 'taken_discards' do not end with this turn's "
                                "take (R101-4)")
    if must is not None and (x.took != "take" or _CODE[must] != x.taken_log[-1][2]
                             or own[_CODE[must]] < 1):
        raise IllegalAction(f"the observation's 'must_use' {must!r} is no discard taken "
                            f"this turn and still on the rack (R101-4)")
    if mine is not None:
        # the turn's undo snapshot (engine.py, _snapshot): taken at the take of a discard, in the
        # take phase, or else at the turn's first play
        start = mine["start"]
        before = counts_of(_CODE[t] for t in start["rack"])
        begun = _melds(start["table"])
        thr = start["thresholds"]
        x.turn_table_start = len(begun)
        check_turn_moves(
            [_CODE[t] for t in start["rack"]] + [c for m in begun for c in m.tiles]
            + ([x.taken_log[-1][2]] if x.took == "take" else []),
            [_CODE[t] for t in obs["rack"]] + [c for m in s.table for c in m.tiles])
        if x.took == "take":
            t = x.taken = x.taken_log[-1][2]
            x.taken_base = before[t]
            if t == J:  # R101-9: a joker retrieved after the take may stay on the rack
                x.taken_base += check_whole(mine, "jokers_retrieved", 0)
            x.snap = (Phase.TAKE, tuple(before), sum(before), tuple(begun), "", -1, 0, t,
                      (*x.discards[prev], t), thr["points"], thr["pairs"], len(x.taken_log) - 1)
        else:
            x.snap = (Phase.PLAY, tuple(before), sum(before), tuple(begun), x.took, -1, 0,
                      x.last_discard, tuple(x.discards[prev]), thr["points"], thr["pairs"],
                      len(x.taken_log))
    sizes = check_counts(obs, "rack_sizes", n, 0)
    deal_hidden(s, seat, own, left, sizes, check_whole(obs, "stock", 0), rng)
    return s
