"""An outsider's model of classic card Rummy, written from RULES.md CR-1..CR-6, seed 002 and the
notation of CONTRACT.md, with the choices docs/rules.md ("The classic card Rummy game") documents
where the rules leave room; not from the engine's code.

From what a seat sees (its observation) and the facts of the turn the model keeps itself (how the
card was drawn, the card taken from the pile, the hand size the turn began with), ``expected``
lists the moves the rules allow, by verb: ``draw``/``take`` (CR-3, CR-5), ``run``/``set`` (CR-2,
CR-3), ``add`` (CR-3 lay-offs), ``discard`` (CR-3, CR-4). :class:`Round` plays a whole round
itself (the hands, the pile, the stock count and, once turned over, the stock's order; the table;
who has melded) so that the test can compare the engine's state and its round results (CR-4,
CR-5, CR-6) with the model's after every action.

Readings the model follows (docs/rules.md where the rules leave room):

- CR-2: aces low only: A-2-3 is a run, Q-K-A and K-A-2 are not; an ace lays off only before a 2,
  nothing lays off after a king.
- CR-3: a meld is laid three cards at a time (``run X Y Z`` ascending, ``set X Y Z`` in suit order
  S H D C), a fourth card of a set or a longer run by lay-offs (docs/rules.md); a lay-off needs a
  meld of the player's own, laid this round (this turn counts); ``take`` is always allowed when
  the pile is not empty; the card taken may not be discarded in the same turn.
- CR-4: ``go_out=broad``: any play that empties the hand goes out; ``go_out=narrow``: only one
  ``run``/``set`` of three cards laid when the turn began with two cards (the seed's Q♣ Q♠ + Q♥);
  every other play that would empty the hand is refused.
- docs/rules.md (*engine*): a meld or lay-off that would leave only the card taken from the pile
  is refused unless that card can then be laid off to go out (under ``narrow``: always refused).
- CR-5: when the player who drew the last stock card ends the turn without going out, the whole
  pile (their discard on top) is turned over without shuffling (its bottom card is the new top of
  the stock), the pile is empty; the second time the round is drawn, no points.
- CR-6: only the winner scores, the values of all the cards left in the other hands (A 1, J Q K
  10, others face value); the match ends when a total reaches the target (200).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
VERBS = ("draw", "take", "run", "set", "add", "discard")


def rank(card: str) -> int:
    """A 1, 2..10, J 11, Q 12, K 13 (CR-2: aces low, kings high)."""
    return RANKS.index(card[:-1]) + 1


def suit(card: str) -> str:
    return card[-1]


def card(r: int, s: str) -> str:
    return f"{RANKS[r - 1]}{s}"


def value(c: str) -> int:
    """CR-2: ace 1, J Q K 10, others face value."""
    return min(rank(c), 10)


def hand_value(cards: Iterable[str]) -> int:
    return sum(value(c) for c in cards)


def is_run(cards: list[str]) -> bool:
    """CR-3 with CR-2: three or more cards of one suit, consecutive, ace low only (no wrap)."""
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1:
        return False
    rs = sorted(rank(c) for c in cards)
    return rs == list(range(rs[0], rs[0] + len(rs)))


def is_set(cards: list[str]) -> bool:
    """CR-3: three or four cards of one rank (one deck: the suits then differ)."""
    return (
        3 <= len(cards) <= 4
        and len({rank(c) for c in cards}) == 1
        and len(set(cards)) == len(cards)
    )


def run_text(cards: Iterable[str]) -> str:
    return "run " + " ".join(sorted(cards, key=rank))


def set_text(cards: Iterable[str]) -> str:
    return "set " + " ".join(sorted(cards, key=lambda c: SUITS.index(suit(c))))


def new_melds(hand: Iterable[str]) -> dict[str, tuple[str, list[str]]]:
    """Every three-card run and set in the hand, by action text."""
    cards = sorted(set(hand), key=lambda c: (SUITS.index(suit(c)), rank(c)))
    held = set(cards)
    out: dict[str, tuple[str, list[str]]] = {}
    for c in cards:
        r, s = rank(c), suit(c)
        if r + 2 <= 13 and card(r + 1, s) in held and card(r + 2, s) in held:
            three = [c, card(r + 1, s), card(r + 2, s)]
            out[run_text(three)] = ("run", three)
    by_rank: dict[int, list[str]] = {}
    for c in cards:
        by_rank.setdefault(rank(c), []).append(c)
    for same in by_rank.values():
        for k in range(len(same)):
            three = same[:k] + same[k + 1 :] if len(same) == 4 else same
            if len(three) == 3:
                out[set_text(three)] = ("set", three)
    return out


def lay_offs(c: str, table: list[dict]) -> dict[str, tuple[int, str]]:
    """CR-3: every place card ``c`` can be laid off on the table (anyone's melds), by action text:
    a set of its rank with fewer than four cards (``add c to M``); a run of its suit it extends
    at either end (``add c to M@start`` / ``@end``; CR-2: nothing below an ace or above a king)."""
    out: dict[str, tuple[int, str]] = {}
    for m in table:
        cards = m["tiles"]
        if m["kind"] == "set":
            if len(cards) < 4 and rank(cards[0]) == rank(c) and c not in cards:
                out[f"add {c} to {m['id']}"] = (m["id"], "")
        elif suit(cards[0]) == suit(c):
            rs = sorted(rank(x) for x in cards)
            if rank(c) == rs[0] - 1:
                out[f"add {c} to {m['id']}@start"] = (m["id"], "start")
            if rank(c) == rs[-1] + 1:
                out[f"add {c} to {m['id']}@end"] = (m["id"], "end")
    return out


@dataclass
class Turn:
    """What the model keeps about the turn in progress."""

    took: str = ""  # "", "draw", "take"
    taken: str | None = None  # the card taken from the pile (CR-3)
    start_size: int = 0  # the hand size the turn began with (CR-4 narrow)


def _table_after(
    table: list[dict], verb: str, cards: list[str], target: tuple[int, str] | None, owner: int
) -> list[dict]:
    out = [dict(m, tiles=list(m["tiles"])) for m in table]
    if verb in ("run", "set"):
        out.append({"id": len(out), "owner": owner, "kind": verb, "tiles": list(cards)})
    elif verb == "add" and target is not None:
        m = next(m for m in out if m["id"] == target[0])
        if target[1] == "start":
            m["tiles"].insert(0, cards[0])
        else:
            m["tiles"].append(cards[0])
    return out


def expected(
    obs: dict,
    turn: Turn,
    go_out: str,
    notes: Counter[str] | None = None,
    why: dict[str, str] | None = None,
) -> dict[str, set[str]]:
    """The moves the rules allow the current player, by verb; ``notes`` counts the plays the
    going-out readings decided (so a test can show they were met); ``why`` receives near misses,
    moves the rules refuse here, each with the rule that refuses it."""
    notes = Counter() if notes is None else notes
    why = {} if why is None else why
    out: dict[str, set[str]] = {v: set() for v in VERBS}
    p = obs["current_player"]
    hand = list(obs["rack"])
    table = obs["table"]
    if obs["phase"] == "take":
        if obs["stock"] > 0:
            out["draw"].add("draw")  # CR-3 (CR-5: a stock is always there at a turn's start)
        if obs["discard_pile"]:
            out["take"].add("take")  # CR-3: the top of the pile, no condition (docs/rules.md)
        else:
            why["take"] = "CR-5"  # the pile was just turned over
        why.update({f"discard {c}": "CR-3" for c in hand[:2]})  # draw first
        return out
    why["draw"] = why["take"] = "CR-3"  # one card a turn
    for c in hand:  # CR-2: no run round the king
        r, s_ = rank(c), suit(c)
        if r == 13 and card(12, s_) in hand and card(1, s_) in hand:
            why[f"run {card(12, s_)} {c} {card(1, s_)}"] = "CR-2"
        if r == 13 and card(1, s_) in hand and card(2, s_) in hand:
            why[f"run {c} {card(1, s_)} {card(2, s_)}"] = "CR-2"
        for m in table:
            if m["kind"] == "run" and r == 1 and m["tiles"][-1] == card(13, s_):
                # nothing after a king (CR-3 first when the player has no meld of their own)
                why[f"add {c} to {m['id']}@end"] = "CR-2" if obs["melded"][p] else "CR-3"
    melded = obs["melded"][p]
    plays: list[tuple[str, str, list[str], tuple[int, str] | None]] = []
    for text, (kind, three) in new_melds(hand).items():
        plays.append((text, kind, three, None))
    for c in set(hand):
        for text, target in lay_offs(c, table).items():
            plays.append((text, "add", [c], target))
    for text, verb, cards, target in plays:
        if verb == "add" and not melded:
            why[text] = "CR-3"  # lay-offs only once the player has a meld of their own
            continue
        left = list(hand)
        for c in cards:
            left.remove(c)
        if not left:  # CR-4
            if go_out == "broad" or (
                verb in ("run", "set") and turn.start_size == 2 and len(hand) == 3
            ):
                notes[f"{go_out} out by {verb}"] += 1
                out[verb].add(text)
            else:
                notes[f"{go_out} out by {verb} refused"] += 1
                why[text] = "CR-4"
            continue
        if left == [turn.taken]:  # docs/rules.md (engine): the taken card alone may not be kept
            after = _table_after(table, verb, cards, target, p)
            if go_out == "narrow" or not lay_offs(left[0], after):
                notes[f"{go_out} taken card alone refused"] += 1
                why[text] = "CR-3"
                continue
            notes[f"{go_out} taken card alone laid off"] += 1
        out[verb].add(text)
    out["discard"] = {f"discard {c}" for c in hand if c != turn.taken}  # CR-3
    if turn.taken in hand:
        why[f"discard {turn.taken}"] = "CR-3"
    return out


@dataclass
class Round:
    """A whole round as the model plays it: every hand, the pile (bottom first), the stock's size
    and, once turned over, its order (top last), the table, who has melded (CR-1..CR-6)."""

    n: int
    go_out: str
    hands: list[list[str]]
    pile: list[str]
    stock: int
    current: int
    table: list[dict] = field(default_factory=list)
    melded: list[bool] = field(default_factory=list)
    known_stock: list[str] | None = None  # CR-5: the turned-over pile, top last
    turnovers: int = 0
    turn: Turn = field(default_factory=Turn)
    end: str | None = None  # "out" or "exhausted"
    winner: int | None = None
    out_by: str | None = None  # "discard", "meld", "lay_off"

    def __post_init__(self) -> None:
        if not self.melded:
            self.melded = [False] * self.n

    def view(self) -> dict:
        """The current player's observation as the model sees it (the fields ``expected`` uses)."""
        p = self.current
        return {
            "current_player": p,
            "phase": "take" if not self.turn.took else "play",
            "rack": list(self.hands[p]),
            "table": self.table,
            "melded": list(self.melded),
            "stock": self.stock,
            "discard_pile": list(self.pile),
        }

    def expected(
        self, notes: Counter[str] | None = None, why: dict[str, str] | None = None
    ) -> dict[str, set[str]]:
        return expected(self.view(), self.turn, self.go_out, notes, why)

    def scores(self) -> list[int]:
        """CR-6: the winner scores the cards left in all the other hands; a drawn round nothing."""
        if self.winner is None:
            return [0] * self.n
        total = sum(hand_value(h) for q, h in enumerate(self.hands) if q != self.winner)
        return [total if q == self.winner else 0 for q in range(self.n)]

    def apply(self, text: str, drawn: str | None = None) -> None:
        """Play one action; ``drawn`` is the card a ``draw`` brought (the model cannot see the
        stock's order before a turnover; after one it checks the card itself)."""
        p = self.current
        words = text.split()
        verb = words[0]
        hand = self.hands[p]
        if verb == "draw":
            if self.known_stock is not None:
                top = self.known_stock.pop()
                assert drawn is None or drawn == top, f"CR-5: drew {drawn}, turned stock top {top}"
                drawn = top
            assert drawn is not None
            self.turn = Turn(took="draw", start_size=len(hand))
            hand.append(drawn)
            self.stock -= 1
            return
        if verb == "take":
            c = self.pile.pop()
            self.turn = Turn(took="take", taken=c, start_size=len(hand))
            hand.append(c)
            return
        if verb in ("run", "set"):
            cards = words[1:]
            for c in cards:
                hand.remove(c)
            self.table.append({"id": len(self.table), "owner": p, "kind": verb, "tiles": cards})
            self.melded[p] = True
            if not hand:
                self._out("meld")
            return
        if verb == "add":
            c, where = words[1], words[3]
            mid, _, end = where.partition("@")
            m = self.table[int(mid)]
            hand.remove(c)
            if end == "start":
                m["tiles"].insert(0, c)
            else:
                m["tiles"].append(c)
            if m["kind"] == "set":  # sets are written in suit order S H D C (docs/rules.md)
                m["tiles"].sort(key=lambda x: SUITS.index(suit(x)))
            if not hand:
                self._out("lay_off")
            return
        assert verb == "discard", text
        c = words[1]
        hand.remove(c)
        self.pile.append(c)
        if not hand:
            self._out("discard")
            return
        if self.stock == 0:  # CR-5: the drawer of the last card did not go out
            if self.turnovers == 1:
                self.end = "exhausted"
                return
            self.turnovers += 1
            # turned over: the pile's bottom card (first) becomes the stock's top (last)
            self.known_stock = list(reversed(self.pile))
            self.stock = len(self.pile)
            self.pile = []
        self.turn = Turn()
        self.current = (p + 1) % self.n

    def _out(self, how: str) -> None:
        self.end = "out"
        self.winner = self.current
        self.out_by = how
