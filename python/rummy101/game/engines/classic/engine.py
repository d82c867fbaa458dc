"""Classic card Rummy on the generic :class:`~rummy101.game.state.State` (RULES.md CR-1 .. CR-6,
seed 002).

A turn is built one small action at a time (see :mod:`rummy101.game.actions`; cards are written
as in CONTRACT.md, ``AS 10H QC``):

* **take** phase (CR-3): ``draw`` (the top card of the stock) or ``take`` (the top card of the
  discard pile).
* **play** phase: lay a 3-card ``run`` or ``set`` (``run 3S 4S 5S``, ``set QS QH QC``), grow any
  meld one card at a time with ``add`` (``add 6S to 0@end``, ``add QD to 1``), then ``discard``.

There is no ``out`` verb: the play that empties the hand goes out and ends the round at once
(CR-4), whether it is the last discard, a meld or a lay-off; nothing is left to decide then.

Rule readings (RULES.md wording; *engine* marks choices of this implementation, docs/rules.md):

* CR-1: seat ``round % players`` starts (the dealer sits to its right and rotates with it); 7
  cards each from the documented shuffle (:mod:`rummy101.game.deal`), then the next card (the
  top of what is left) is turned up to start the discard pile; the rest is the stock, whose size
  is public. The whole discard pile is public too (every card in it was seen when discarded).
* CR-3: a lay-off (``add``) needs a meld laid by the same player earlier in this round or this
  turn; lay-offs go onto anyone's melds, including one's own (a 4th card of one's own set, a
  longer run). The card taken from the pile may not be discarded this turn. Every seat saw it
  taken: until its taker lays it (meld or lay-off) or discards it, it is publicly known to be in
  that hand (``ClassicData.known``; the observation's ``known``, one list a seat, cleared at each
  deal; the samplers deal those cards to their holders, :mod:`.world`). *Engine*: a play is
  refused when it would leave the turn no way to end, i.e. the taken card alone in the hand and
  no way to lay it off (under ``go_out=narrow``, any play leaving only the taken card), so every
  position has a legal action.
* CR-4 ``go_out=broad`` (default): any play that empties the hand goes out. ``go_out=narrow`` (the
  seed's literal exception): the hand may be emptied without a discard only when the turn began
  with exactly two cards and the drawn (or taken) card makes a 3-card meld with them, laid in one
  ``run``/``set``; every other play that would empty the hand is refused (the last card must be
  discarded).
* CR-5: when the player who drew the last stock card ends the turn without going out, the whole
  discard pile (that player's discard included) is turned over without shuffling into the new
  stock (its bottom card becomes the top) and the pile is empty; the second time, the round ends
  drawn (``end == "exhausted"``, no points).
* CR-6: only the round's winner scores: the values of the cards left in all other hands (CR-2).
  The match goes on round after round until a player's total reaches the target (200 by default);
  ``match_rounds`` only caps the rounds (:data:`DEFAULT_MATCH_ROUNDS`).

``legal_actions()`` is exactly what ``apply`` accepts, one action per move: a run is written in
ascending order and a set in suit order S H D C (``set QS QH QC``; the text form normalises a set,
a run written otherwise is refused naming the canonical action); a set takes no position in
``add``, a run must say ``@start`` or ``@end``. At most 44 runs + 52 sets + 2 lay-offs per
table card + 8 discards are listed at a step.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ....errors import IllegalAction
from ...actions import Action
from ...deal import deal_tiles, seat_round
from ...phase import Phase
from ...state import observation_head
from .data import ClassicData
from .table import CS, RUN, SET, CardMeld, card_value

if TYPE_CHECKING:
    from ...state import State

#: The verbs of a classic Rummy turn (rummy101.game.actions; no new verb is needed, CR-4).
VERBS = frozenset({"draw", "take", "run", "set", "add", "discard"})
#: The match ends when a total reaches the target (CR-6); this only caps the rounds.
DEFAULT_MATCH_ROUNDS = 10_000

_KINDS = {RUN: "run", SET: "set"}

# ---- interned actions -----------------------------------------------------------------------

DRAW = Action("draw")
TAKE = Action("take")
DISCARD = tuple(Action("discard", (c,), cards=True) for c in range(52))
#: RUNS[c]: the run of the cards c, c+1, c+2 (None where it would pass the king).
RUNS = tuple(Action("run", (c, c + 1, c + 2), cards=True) if c % 13 <= 10 else None
             for c in range(52))
#: SETS[rank]: (suit-presence mask of the 3 cards, action) for every 3-card set of that rank.
SETS = tuple(tuple((sum(1 << k for k in ks), Action("set", tuple(k * 13 + r for k in ks), cards=True))
                   for ks in combinations(range(4), 3)) for r in range(13))
_ADDS: dict[tuple[int, int, int], Action] = {}


def add_action(code: int, meld: int, pos: int) -> Action:
    """The interned ``add`` action (pos 0 start, 1 end, -1 a set)."""
    a = _ADDS.get((code, meld, pos))
    if a is None:
        a = _ADDS[(code, meld, pos)] = Action("add", (code,), meld, pos, cards=True)
    return a


# ---- round set-up ---------------------------------------------------------------------------

def new_match(s: State) -> None:
    """The match record and the first deal (CR-1)."""
    s.x = ClassicData(s.n)
    start_round(s, 0)


def start_round(s: State, round_index: int) -> None:
    """Deal round ``round_index`` (CR-1): 7 cards each, the up-card, the stock."""
    r = s.rules
    stock, hands = deal_tiles(r, s.seed, round_index)
    x: ClassicData = s.x
    x.pile = [stock.pop()]  # the up-card: the next card after the deal (CR-1)
    seat_round(s, round_index, hands, stock)
    x.melded = [False] * s.n
    x.known = [[] for _ in range(s.n)]
    x.turnovers = 0
    _start_turn(s)


def _start_turn(s: State) -> None:
    x: ClassicData = s.x
    s.phase = Phase.TAKE
    x.took = ""
    x.taken = -1
    x.start_size = s.sizes[s.current]


def dealer(s: State) -> int:
    """The dealer of the round: the seat to the right of the starter (CR-1)."""
    return (s.starter - 1) % s.n


# ---- what a play leaves ---------------------------------------------------------------------

def _may_go_out(s: State, verb: str) -> bool:
    """CR-4: may a play of ``verb`` empty the hand (without a discard)?"""
    if s.rules.opts.go_out == "broad":
        return True
    return verb in ("run", "set") and s.x.start_size == 2


def _fits(table: Sequence[CardMeld], code: int) -> bool:
    return any(c == code for m in table for c, _ in m.adds)


def _leaves_way_out(s: State, p: int, verb: str, removed: Sequence[int],
                    table_after: Sequence[CardMeld] | None) -> str | None:
    """None when the hand left by a play (``removed`` taken out of it) can still end the turn,
    else why not (CR-3, CR-4). ``table_after`` (the table after the play) is built only when
    needed: pass None and it is asked for by the caller through the return value ``"table"``."""
    left = s.sizes[p] - len(removed)
    if left == 0:
        if _may_go_out(s, verb):
            return None
        return ("go_out=narrow: the hand may be emptied without a discard only by melding the two "
                "cards held at the start of the turn with the card drawn (CR-4); keep a card to "
                "discard")
    t = s.x.taken
    if left == 1 and t >= 0 and s.racks[p][t] and t not in removed:
        if s.rules.opts.go_out == "broad":
            if table_after is None:
                return "table"
            if _fits(table_after, t):
                return None
        return (f"it would leave only {CS[t]}, taken from the pile this turn, which may not be "
                "discarded (CR-3) and could not be laid off to go out (CR-4)")
    return None


# ---- legal actions --------------------------------------------------------------------------

def legal_actions(s: State) -> list[Action]:
    ph = s.phase
    if ph is Phase.OVER:
        return []
    x: ClassicData = s.x
    if ph is Phase.TAKE:
        out = [DRAW] if s.stock else []
        if x.pile:
            out.append(TAKE)
        return out
    p = s.current
    hand = s.racks[p]
    size = s.sizes[p]
    table: list[CardMeld] = s.table
    out = []
    t = x.taken
    tight = size <= 4  # only then may a play empty the hand or leave the taken card alone
    if size >= 3:
        for c in range(52):
            if hand[c]:
                a = RUNS[c]
                if a is not None and hand[c + 1] and hand[c + 2] and (
                        not tight or _play_ok(s, p, "run", (c, c + 1, c + 2), None)):
                    out.append(a)
        for r in range(13):
            mask = hand[r] | hand[13 + r] << 1 | hand[26 + r] << 2 | hand[39 + r] << 3
            if mask in (7, 11, 13, 14, 15):
                for need, a in SETS[r]:
                    if need & mask == need and (not tight or _play_ok(s, p, "set", a.tiles, None)):
                        out.append(a)
    if x.melded[p]:
        for i, m in enumerate(table):
            for code, pos in m.adds:
                if hand[code] and (not tight or _play_ok(s, p, "add", (code,), (i, pos))):
                    out.append(add_action(code, i, pos))
    d = DISCARD
    out.extend(d[c] for c in range(52) if hand[c] and c != t)
    return out


def _play_ok(s: State, p: int, verb: str, codes: Sequence[int], where: tuple[int, int] | None) -> bool:
    why = _leaves_way_out(s, p, verb, codes, None)
    if why == "table":
        why = _leaves_way_out(s, p, verb, codes, _table_after(s, p, verb, codes, where))
    return why is None


def _table_after(s: State, p: int, verb: str, codes: Sequence[int],
                 where: tuple[int, int] | None) -> list[CardMeld]:
    table = list(s.table)
    if verb == "add":
        assert where is not None
        i, pos = where
        table[i] = table[i].with_added(codes[0], pos)
    else:
        table.append(CardMeld.build(RUN if verb == "run" else SET, p, tuple(codes)))
    return table


# ---- applying actions -----------------------------------------------------------------------

def apply(s: State, a: Action) -> None:
    v = a.verb
    p = s.current
    x: ClassicData = s.x
    if a.tiles and not a.cards:
        raise IllegalAction(f"{a}: classic Rummy is played with cards such as AS, 10H, QC, not "
                            "tiles (CR-1: one 52-card deck; notation: CONTRACT.md)")
    if s.phase is Phase.TAKE:
        if v == "draw":
            if not s.stock:
                raise IllegalAction("draw: the stock is empty (CR-5)")
            c = s.stock.pop()
            x.took = "draw"
        elif v == "take":
            if not x.pile:
                raise IllegalAction("take: the discard pile is empty (CR-5: it was just turned over "
                                    "into the stock); draw from the stock")
            c = x.pile.pop()
            x.took = "take"
            x.taken = c
            insort(x.known[p], c)  # seen by every seat: in p's hand until laid or discarded (CR-3)
        else:
            raise IllegalAction(f"{a}: first draw from the stock ('draw') or take the top of the "
                                "discard pile ('take') (CR-3)")
        s.racks[p][c] += 1
        s.sizes[p] += 1
        s.phase = Phase.PLAY
        return
    if v in ("draw", "take"):
        raise IllegalAction(f"{a}: this turn has already drawn a card ({x.took}); meld, lay off or "
                            "discard (CR-3)")
    if v == "run" or v == "set":
        _lay(s, p, a)
    elif v == "add":
        _add(s, p, a)
    elif v == "discard":
        _discard(s, p, a)
    else:  # State.apply refuses verbs outside VERBS
        raise IllegalAction(f"{a}: not an action of classic Rummy")


def _unknown(x: ClassicData, p: int, codes: Sequence[int]) -> None:
    """Cards leaving seat ``p``'s hand (laid or discarded: in sight again) are no longer known
    to be in it (CR-3)."""
    known = x.known[p]
    if known:
        for c in codes:
            if c in known:
                known.remove(c)


def _need(s: State, p: int, codes: Sequence[int], what: str) -> None:
    hand = s.racks[p]
    missing = [CS[c] for c in codes if not hand[c]]
    if missing:
        held = " ".join(CS[c] for c in range(52) if hand[c])
        raise IllegalAction(f"{what}: {' '.join(missing)} not in the hand (hand: {held}) (CR-3)")


def _lay(s: State, p: int, a: Action) -> None:
    codes = tuple(int(c) for c in a.tiles)
    kind = RUN if a.verb == "run" else SET
    if kind == RUN and sorted(codes) != list(codes) and sorted(codes) == list(
            range(min(codes), min(codes) + 3)):
        canon = " ".join(CS[c] for c in sorted(codes))
        raise IllegalAction(f"{a}: a run is written in ascending order: write 'run {canon}' (CR-3)")
    try:
        m = CardMeld.build(kind, p, codes)
    except ValueError as exc:
        raise IllegalAction(f"{a}: {' '.join(CS[c] for c in codes)} is no {a.verb}: {exc}") from None
    _need(s, p, codes, str(a))
    why = _leaves_way_out(s, p, a.verb, codes, None)
    if why == "table":
        why = _leaves_way_out(s, p, a.verb, codes, s.table + [m])
    if why is not None:
        raise IllegalAction(f"{a}: {why}")
    hand = s.racks[p]
    for c in codes:
        hand[c] -= 1
    _unknown(s.x, p, codes)
    s.sizes[p] -= 3
    s.table.append(m)
    s.x.melded[p] = True
    if s.sizes[p] == 0:
        _end_round(s, p, "meld")


def _add(s: State, p: int, a: Action) -> None:
    code = int(a.tiles[0])
    if not s.x.melded[p]:
        raise IllegalAction(f"{a}: lay-offs are allowed only once you have laid a meld of your own "
                            "this round (the same turn counts) (CR-3)")
    if not 0 <= a.meld < len(s.table):
        raise IllegalAction(f"{a}: there is no table meld {a.meld} (melds are numbered 0.."
                            f"{len(s.table) - 1}) (CR-3)" if s.table else f"{a}: the table is empty (CR-3)")
    m: CardMeld = s.table[a.meld]
    if m.kind == SET and a.pos != -1:
        raise IllegalAction(f"{a}: a set takes no position: write 'add {CS[code]} to {a.meld}' (CR-3)")
    if m.kind == RUN and a.pos == -1:
        raise IllegalAction(f"{a}: say where the card goes on run {a.meld}: @start or @end (CR-3)")
    if (code, a.pos) not in m.adds:
        where = "" if a.pos < 0 else (" at the start" if a.pos == 0 else " at the end")
        raise IllegalAction(f"{a}: {CS[code]} does not fit {_KINDS[m.kind]} {m.text()}{where} "
                            "(CR-2, CR-3)")
    _need(s, p, (code,), str(a))
    why = _leaves_way_out(s, p, "add", (code,), None)
    if why == "table":
        why = _leaves_way_out(s, p, "add", (code,), _table_after(s, p, "add", (code,), (a.meld, a.pos)))
    if why is not None:
        raise IllegalAction(f"{a}: {why}")
    s.racks[p][code] -= 1
    _unknown(s.x, p, (code,))
    s.sizes[p] -= 1
    s.table[a.meld] = m.with_added(code, a.pos)
    if s.sizes[p] == 0:
        _end_round(s, p, "lay_off")


def _discard(s: State, p: int, a: Action) -> None:
    code = int(a.tiles[0])
    x: ClassicData = s.x
    _need(s, p, (code,), str(a))
    if code == x.taken:
        raise IllegalAction(f"{a}: {CS[code]} was taken from the discard pile this turn and may not "
                            "be discarded in the same turn (CR-3)")
    s.racks[p][code] -= 1
    _unknown(x, p, (code,))
    s.sizes[p] -= 1
    x.pile.append(code)
    if s.sizes[p] == 0:
        _end_round(s, p, "discard")
        return
    if not s.stock:  # this player drew the last stock card and did not go out (CR-5)
        if x.turnovers == 0:
            s.stock = x.pile[::-1]
            x.pile = []
            x.turnovers = 1
        else:
            _end_round(s, -1, "")
            return
    s.current = (p + 1) % s.n
    s.turn += 1
    _start_turn(s)


def hand_value(s: State, q: int) -> int:
    """CR-2/CR-6: the value of the cards in seat ``q``'s hand."""
    hand = s.racks[q]
    return sum(card_value(c) * hand[c] for c in range(52))


def _end_round(s: State, winner: int, how: str) -> None:
    """CR-6: the winner scores the cards left in all other hands; a drawn round scores nothing
    (CR-5). The match ends when a total reaches the target, or at the rounds cap."""
    left = [hand_value(s, q) for q in range(s.n)]
    deltas = [0] * s.n
    if winner >= 0:
        deltas[winner] = sum(left)
    s.scores.append(deltas)
    for q in range(s.n):
        s.totals[q] += deltas[q]
    s.results.append({
        "round": s.round, "end": "finish" if winner >= 0 else "exhausted",
        "winner": winner if winner >= 0 else None, "out": how or None,
        "joker_finish": False, "one_turn": False, "penalties": left, "scores": deltas,
        "opened": ["melds" if m else None for m in s.x.melded], "turns": s.turn + 1,
        "turnovers": s.x.turnovers,
    })
    if max(s.totals) >= s.rules.opts.target or s.round + 1 >= s.match_rounds:
        s.phase = Phase.OVER
        s.x.took = ""
        s.x.taken = -1
    else:
        start_round(s, s.round + 1)


# ---- a solver meld as actions ---------------------------------------------------------------

def meld_actions(kind: str, tiles: Sequence[int], index: int) -> list[Action]:
    """The actions that lay a meld of any length (``tiles``: card codes in table order) as table
    meld ``index``: its first three cards, then one ``add`` per further card (runs ``@end``,
    sets no position). The one place that says how a solver meld is played.

    >>> [str(a) for a in meld_actions("run", [2, 3, 4, 5], 1)]
    ['run 3S 4S 5S', 'add 6S to 1@end']
    >>> [str(a) for a in meld_actions("set", [11, 50, 24, 37], 0)]
    ['set QS QH QD', 'add QC to 0']
    """
    t = [int(c) for c in tiles]
    if kind == "set":
        t = sorted(t)
        return [Action("set", tuple(t[:3]), cards=True)] + [add_action(c, index, -1) for c in t[3:]]
    if kind != "run":
        raise ValueError(f"unknown meld kind {kind!r}: classic melds are runs and sets")
    return [Action("run", tuple(t[:3]), cards=True)] + [add_action(c, index, 1) for c in t[3:]]


# ---- for a person and for a seat ------------------------------------------------------------

def describe(s: State) -> list[str]:
    """Classic Rummy's lines of ``str(state)``: the discard pile, the stock turnovers, who has
    melded, the target, the card taken this turn and those taken earlier still held (CR-3)."""
    x: ClassicData = s.x
    pile = " ".join(CS[c] for c in x.pile) or "-"
    melded = ", ".join(f"seat {q} {'yes' if m else 'no'}" for q, m in enumerate(x.melded))
    out = [f"discard pile (top last): {pile}",
           (f"stock turned over: {x.turnovers} of 1 (CR-5); dealer seat {dealer(s)}; "
            f"target {s.rules.opts.target}; go_out {s.rules.opts.go_out}"),
           f"melded this round: {melded}"]
    if x.taken >= 0 and s.phase is Phase.PLAY:
        out.append(f"taken from the pile this turn (not to be discarded): {CS[x.taken]}")
    held = "; ".join(f"seat {q} {' '.join(CS[c] for c in k)}" for q, k in enumerate(x.known) if k)
    if held:
        out.append(f"taken from the pile and still held (CR-3): {held}")
    return out


def observation(s: State, seat: int) -> dict[str, Any]:
    return _observation(s, seat, True)


def encoder_observation(s: State, seat: int) -> dict[str, Any]:
    """The part of ``observation(s, seat)`` that the RL encoder reads (``rummy101.rl.observe``),
    the same values: without ``match_rounds``, ``round_scores`` (a match to a target runs 100+
    rounds) and ``go_out``. For the RL session's arrays only; tests/test_rl_encoder_view.py checks it
    against the whole observation at every step."""
    return _observation(s, seat, False)


def _observation(s: State, seat: int, full: bool) -> dict[str, Any]:
    x: ClassicData = s.x
    over = s.phase is Phase.OVER
    obs = observation_head(s, seat, full)
    obs.update({
        "dealer": dealer(s),
        "stock_turnovers": x.turnovers,
        "discard_pile": [CS[c] for c in x.pile],
        "last_discard": CS[x.pile[-1]] if x.pile and not over else None,
        "table": [m.to_json(i) for i, m in enumerate(s.table)],
        "melded": list(x.melded),
        "known": [[CS[c] for c in k] for k in x.known],
        "turn_state": {"took": x.took or None,
                       "taken": CS[x.taken] if x.taken >= 0 else None,
                       "start_size": x.start_size},
        "target": s.rules.opts.target,
    })
    if full:
        obs["go_out"] = s.rules.opts.go_out
    return obs
