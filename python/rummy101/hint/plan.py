"""Planning a whole Rummy 101 turn for a :class:`~.view.SeatView`: the candidate turns, best
first, and :func:`hint`.

A turn (R101-3) is one take — draw, take the previous player's discard (R101-4) or press the joker
button (R101-10) — then an opening (R101-7 melds, R101-8 pairs) or, once opened, new melds, joker
retrievals (R101-9) and additions (R101-11), then exactly one discard (R101-12). The planner builds
candidate turns on the exact solvers of the core (``solve_melds``, ``max_pairs``,
``meld_additions``, ``joker_releases``), ranks them with :func:`~.evaluate.evaluate` and gives each
step its engine actions (:mod:`.actions`). Planning stops after
:data:`~rummy101._limits.HINT_SECONDS` and at the cooperative checks of :mod:`rummy101._cancel`.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import _backend
from .._cancel import check_stop
from .._limits import HINT_SECONDS
from ..bots.strategy import choose_discard, feeding_tiles, kit_for
from ..errors import IllegalAction
from ..solve import current_budget
from ..tiles import JOKER_CODE, MELD_KINDS, NUM_NUMBERS, Tile, counts_of
from .actions import step_actions
from .evaluate import evaluate
from .view import BadView, Opened, SeatView, set_with_jokers

__all__ = ["Hint", "Turn", "hint"]


# ---- working state of a planned turn ---------------------------------------------------------
@dataclass
class _Work:
    rack: list[int]
    table: list[list[int]]
    owners: list[int]
    kinds: list[str]
    steps: list[dict[str, Any]] = field(default_factory=list)
    opened: Opened = None
    opened_now: bool = False
    laid_value: int = 0

    def copy(self) -> _Work:
        return _Work(list(self.rack), [list(m) for m in self.table], list(self.owners),
                     list(self.kinds), [dict(s) for s in self.steps], self.opened,
                     self.opened_now, self.laid_value)


@dataclass(frozen=True)
class Turn:
    """One candidate turn: its steps (each with a reason and the engine actions that play it)
    and its evaluation."""

    steps: tuple[dict[str, Any], ...]
    evaluation: dict[str, Any]

    @property
    def score(self) -> float:
        return float(self.evaluation["score"])

    @property
    def actions(self) -> list[str]:
        """The whole turn as engine actions (``rummy101.game.Action`` text forms)."""
        return [a for s in self.steps for a in s["actions"]]

    @property
    def play(self) -> tuple[Any, ...]:
        """What makes two turns genuinely different: the take and what the turn puts on the
        table (melds and pairs laid, tiles added, jokers retrieved), in any order — everything
        but the final discard. Turns with the same ``play`` differ only in the discard;
        :func:`hint` lists one of them (the best)."""
        take = [a for s in self.steps if s["step"] in _TAKES for a in s["actions"]]
        table = sorted(a for s in self.steps if s["step"] not in _TAKES and s["step"] != "discard"
                       for a in s["actions"])
        return (tuple(take), tuple(table))

    def to_json(self) -> dict[str, Any]:
        return {"steps": [dict(s) for s in self.steps], "actions": self.actions,
                "evaluation": dict(self.evaluation)}


@dataclass(frozen=True)
class Hint:
    """The recommended turn and the next-best alternatives, best first."""

    view: SeatView
    turn: Turn
    alternatives: tuple[Turn, ...]

    def to_json(self) -> dict[str, Any]:
        return {"rules": str(self.view.rules), "seat": self.view.seat, "stage": self.view.stage,
                "rack": " ".join(str(t) for t in self.view.rack),
                "turn": self.turn.to_json(),
                "alternatives": [t.to_json() for t in self.alternatives]}


_TAKES = ("draw", "take_discard", "button")


def _set_number(tiles: Sequence[int]) -> int:
    return next(t for t in tiles if t != JOKER_CODE) % NUM_NUMBERS


class _Planner:
    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.rules = view.rules
        self.core = _backend.core()
        self.cr_open = _backend.core_rules(view.rules, "open")
        self.cr_pen = _backend.core_rules(view.rules, "penalty")
        self._cache: dict[Any, Any] = {}
        self.seconds: float = HINT_SECONDS  # the limit the message names
        self.deadline = time.monotonic() + HINT_SECONDS

    def _check_time(self) -> None:
        check_stop()
        if time.monotonic() > self.deadline:
            raise IllegalAction(f"the hint needs more than {self.seconds:g} s for this position "
                                f"(a rack dense in pairs and jokers); no turn is recommended")

    # -- values and meld facts --------------------------------------------------------------------
    def tile_penalty(self, code: int) -> int:
        if code == JOKER_CODE:
            return self.rules.joker_penalty
        return self.rules.penalty_params.set_value[code % NUM_NUMBERS + 1]

    def rack_penalty(self, rack: Sequence[int]) -> int:
        return sum(self.tile_penalty(c) for c in rack)

    def _is_forced_set(self, tiles: Sequence[int], kind: str) -> bool:
        """A set such as ``R5 * *`` that the core would read as a run (kind given by the table)."""
        return kind == "set" and set_with_jokers(tiles)

    def stand_for(self, tiles: Sequence[int], kind: str) -> list[int]:
        if self._is_forced_set(tiles, kind):
            n = _set_number(tiles)
            present = {t // NUM_NUMBERS for t in tiles if t != JOKER_CODE}
            missing = iter(c for c in range(4) if c not in present)
            return [t if t != JOKER_CODE else next(missing) * NUM_NUMBERS + n for t in tiles]
        return list(self.core.classify_meld(self.cr_open, list(tiles))[1])

    def meld_value(self, tiles: Sequence[int], kind: str) -> int:
        if self._is_forced_set(tiles, kind):
            return (_set_number(tiles) + 1) * len(tiles)
        return int(self.core.meld_value(self.cr_open, list(tiles)))

    def additions(self, tiles: Sequence[int], kind: str) -> list[tuple[int, int]]:
        if kind == "pair":
            return []
        if self._is_forced_set(tiles, kind):
            if len(tiles) != 3:
                return []  # a set of four is complete (R101-5)
            n = _set_number(tiles)
            real = {t // NUM_NUMBERS for t in tiles if t != JOKER_CODE}
            return [(3, c * NUM_NUMBERS + n) for c in range(4) if c not in real] + [(3, JOKER_CODE)]
        return list(self.core.meld_additions(self.cr_open, list(tiles)))

    def releases(self, tiles: Sequence[int], kind: str) -> list[tuple[int, int]]:
        """(joker index, single tile that releases it) (R101-9)."""
        if self._is_forced_set(tiles, kind):
            n = _set_number(tiles)
            present = {t // NUM_NUMBERS for t in tiles if t != JOKER_CODE}
            first = list(tiles).index(JOKER_CODE)
            return [(first, c * NUM_NUMBERS + n) for c in range(4) if c not in present]
        out = []
        for ji, alts in self.core.joker_releases(self.cr_open, list(tiles), False):
            for alt in alts:
                if len(alt) == 1:
                    out.append((ji, alt[0]))
        return out

    def meld_json(self, tiles: Sequence[int], kind: str) -> dict[str, Any]:
        sf = self.stand_for(tiles, kind)
        return {"kind": kind, "tiles": [str(Tile(t)) for t in tiles],
                "value": self.meld_value(tiles, kind),
                "jokers": {str(i): str(Tile(sf[i])) for i, t in enumerate(tiles)
                           if t == JOKER_CODE}}

    # -- solvers ----------------------------------------------------------------------------------
    def solve(self, cr: Any, rack: Sequence[int], keep: bool, must_use: int = -1,
              require_run: bool = False) -> tuple[int, list[tuple[str, list[int]]]]:
        key = (id(cr), tuple(sorted(rack)), keep, must_use, require_run)
        if key not in self._cache:
            self._check_time()
            value, melds = self.core.solve_melds(cr, counts_of(rack), keep, must_use, require_run,
                                                 current_budget())
            self._cache[key] = (value, [(MELD_KINDS[m[0]], list(m[1])) for m in melds])
        found: tuple[int, list[tuple[str, list[int]]]] = self._cache[key]
        return found

    def pairs(self, rack: Sequence[int], keep: bool,
              must_use: int = -1) -> tuple[int, list[tuple[str, list[int]]]]:
        key = ("pairs", tuple(sorted(rack)), keep, must_use)
        if key not in self._cache:
            self._check_time()
            n, pairs = self.core.max_pairs(counts_of(rack), keep, must_use, current_budget())
            self._cache[key] = (n, [("pair", [a, b]) for a, b in pairs])
        found: tuple[int, list[tuple[str, list[int]]]] = self._cache[key]
        return found

    def best_open_value(self, rack: Sequence[int]) -> int:
        value, _ = self.solve(self.cr_open, rack, False, -1, self.rules.opening_needs_run)
        return max(value, 0)

    # -- the pieces of a turn ---------------------------------------------------------------------
    def lay(self, w: _Work, melds: list[tuple[str, list[int]]], step: str, reason: str,
            **extra: Any) -> None:
        first = len(w.table)
        for kind, m in melds:
            for t in m:
                w.rack.remove(t)
            w.table.append(list(m))
            w.owners.append(self.view.seat)
            w.kinds.append(kind)
        w.steps.append({"step": step, **extra,
                        "melds": [{**self.meld_json(m, k), "meld": first + i}
                                  for i, (k, m) in enumerate(melds)],
                        "reason": reason})

    def may_add_to(self, w: _Work, index: int) -> bool:
        return w.kinds[index] != "pair"  # pairs never grow (R101-5)

    def add_tiles(self, w: _Work, must: int | None = None, hold_joker: bool = False) -> None:
        """Greedy additions (R101-11): the most expensive addable tile first, one tile kept
        (``hold_joker``: never a joker, which is kept for a joker finish)."""
        while len(w.rack) > 1:
            best: tuple[int, int, int] | None = None
            for code in sorted(set(w.rack), key=lambda c: (c != must, -self.tile_penalty(c), c)):
                if hold_joker and code == JOKER_CODE:
                    continue
                for mi, meld in enumerate(w.table):
                    if not self.may_add_to(w, mi):
                        continue
                    hit = [pos for pos, add in self.additions(meld, w.kinds[mi]) if add == code]
                    if hit:
                        best = (code, mi, hit[0])
                        break
                if best:
                    break
            if best is None:
                return
            code, mi, pos = best
            w.rack.remove(code)
            if w.kinds[mi] == "set" and self._is_forced_set(w.table[mi], "set"):
                w.table[mi].append(code)
                w.table[mi] = self._sorted_set(w.table[mi])
            else:
                w.table[mi].insert(pos, code)
            gain = self.tile_penalty(code)
            why = ("the taken discard must be used this turn (R101-4)" if code == must else
                   f"R101-11: takes {gain} penalty point{'s' if gain != 1 else ''} off the rack")
            w.steps.append({"step": "add", "tile": str(Tile(code)), "meld": mi, "position": pos,
                            "reason": why})

    @staticmethod
    def _sorted_set(tiles: list[int]) -> list[int]:
        reals = sorted(t for t in tiles if t != JOKER_CODE)
        n = reals[0] % NUM_NUMBERS
        colours = {t // NUM_NUMBERS for t in reals}
        jokers = len(tiles) - len(reals)
        out = []
        for c in range(4):
            if c in colours:
                out.append(c * NUM_NUMBERS + n)
            elif jokers:
                out.append(JOKER_CODE)
                jokers -= 1
        return out

    def retrievals(self, w: _Work) -> list[tuple[int, int, int]]:
        """Jokers this rack can release from the table (R101-9): (meld, joker index, tile)."""
        out = []
        for mi, meld in enumerate(w.table):
            if JOKER_CODE not in meld:
                continue
            for ji, tile in self.releases(meld, w.kinds[mi]):
                if tile in w.rack:
                    out.append((mi, ji, tile))
        return out

    def retrieve(self, w: _Work, mi: int, ji: int, tile: int) -> None:
        w.rack.remove(tile)
        w.table[mi][ji] = tile
        if w.kinds[mi] == "set":
            w.table[mi] = self._sorted_set(w.table[mi])
        w.rack.append(JOKER_CODE)
        w.steps.append({"step": "retrieve", "meld": mi, "index": ji, "tile": str(Tile(tile)),
                        "reason": f"R101-9: {Tile(tile)} replaces the joker, which comes back to "
                                  f"the rack to be played again"})

    # -- after the opening (or when already opened) -----------------------------------------------
    def play_opened(self, w: _Work, must: int | None, may_lay_melds: bool,
                    may_lay_pairs: bool, hold_joker: bool = False, may_add: bool = True,
                    skip: int | None = None) -> _Work | None:
        """Best of: retrieve jokers (any subset of up to 3), lay melds/pairs, add tiles.
        None when the taken discard ``must`` cannot be used (R101-4). With ``hold_joker`` only
        plays that leave a single joker on the rack count (a joker finish, R101-13). For the
        alternatives: ``may_add=False`` adds no tile to the table (R101-11 is optional);
        ``skip`` holds back the meld of that index of the best melds."""
        options = self.retrievals(w)
        best: _Work | None = None
        subsets = itertools.chain.from_iterable(
            itertools.combinations(options, k) for k in range(min(3, len(options)) + 1))
        base_count = w.rack.count(must) if must is not None else 0
        for n, subset in enumerate(subsets):
            if n > 16:
                break
            trial = w.copy()
            used: set[tuple[int, int]] = set()
            ok = True
            for mi, ji, tile in subset:
                if ((mi, ji) in used or tile not in trial.rack or len(trial.rack) < 2
                        or trial.table[mi][ji] != JOKER_CODE):
                    ok = False
                    break
                used.add((mi, ji))
                self.retrieve(trial, mi, ji, tile)
            if not ok:
                continue
            self._lay_and_add(trial, must, may_lay_melds, may_lay_pairs, hold_joker, may_add, skip)
            if must is not None and trial.rack.count(must) >= base_count:
                continue  # the taken discard was not used (R101-4)
            if hold_joker and trial.rack != [JOKER_CODE]:
                continue
            if best is None or self.rack_penalty(trial.rack) < self.rack_penalty(best.rack):
                best = trial
        return best

    def _lay_and_add(self, w: _Work, must: int | None, may_lay_melds: bool,
                     may_lay_pairs: bool, hold_joker: bool = False, may_add: bool = True,
                     skip: int | None = None) -> None:
        if hold_joker:
            if JOKER_CODE not in w.rack:
                return
            w.rack.remove(JOKER_CODE)  # held back for the final discard
        keep = not hold_joker
        if may_lay_melds and len(w.rack) >= (4 if keep else 3):
            mu = must if must is not None and must in w.rack else -1
            value, melds = self.solve(self.cr_pen, w.rack, keep, mu)
            if value < 0 and mu >= 0:
                value, melds = self.solve(self.cr_pen, w.rack, keep, -1)
            if skip is not None:
                melds = [m for i, m in enumerate(melds) if i != skip] if skip < len(melds) else []
            if value > 0 and melds:
                self.lay(w, melds, "lay", "lays the melds that leave the least penalty on the rack "
                                          "(R101-11 allows new melds after the opening)"
                         if skip is None else "lays these melds and holds one back (R101-11)")
        if may_lay_pairs and len(w.rack) >= (3 if keep else 2):
            mu = must if must is not None and must in w.rack else -1
            n, pairs = self.pairs(w.rack, keep, mu)
            if n <= 0 and mu >= 0:
                n, pairs = self.pairs(w.rack, keep, -1)
            if n > 0:
                self.lay(w, pairs, "lay", "lays further pairs (R101-8)")
        if hold_joker:
            w.rack.append(JOKER_CODE)
        if may_add:
            self.add_tiles(w, must, hold_joker)

    # -- discards -------------------------------------------------------------------------------
    def discard_options(self, w: _Work) -> list[tuple[float, int, str]]:
        """Candidate discards, best first: (key, tile, reason). The first is the greedy bot's
        choice (:func:`rummy101.bots.strategy.choose_discard`): a loose tile outside the rack's
        best melds, keeping the least penalty and not feeding an opened next player."""
        rack = w.rack
        if len(rack) == 1:
            tile = rack[0]
            why = ("joker finish: the last tile is a joker (R101-12, R101-13 doubles)"
                   if tile == JOKER_CODE else "the last tile: discarding it finishes (R101-12)")
            return [(0.0, tile, why)]
        opened = w.opened is not None
        view = self.view
        next_seat = (view.seat + 1) % view.rules.players
        next_opened = view.opened.get(next_seat) is not None
        kit = kit_for(self.rules)
        feeding = feeding_tiles(kit, list(zip(w.kinds, w.table, strict=True)))
        primary = choose_discard(kit, counts_of(rack), opened, feeding, next_opened)
        out = []
        for tile in sorted(set(rack)):
            if tile == JOKER_CODE:
                continue  # a joker is worth keeping unless it finishes
            rest = list(rack)
            rest.remove(tile)
            feeds = next_opened and tile in feeding
            links = self._links(rest, tile)
            if opened:
                key = -self.tile_penalty(tile) + 3.0 * links + (15.0 if feeds else 0.0)
                why = f"{Tile(tile)} would cost {self.tile_penalty(tile)} if kept"
            else:
                potential = self.best_open_value(rest)
                key = (-potential + 3.0 * links + (15.0 if feeds else 0.0)
                       - 0.1 * self.tile_penalty(tile))
                why = f"keeps {potential} points of melds on the rack towards the opening"
            why += (f"; it connects to {links} other tile{'s' if links != 1 else ''}" if links
                    else "; it connects to no other tile")
            if feeds:
                why += "; note: the next player has opened and could add it to a table meld"
            if tile == primary:
                key = float("-inf")
                why = "a loose tile outside the rack's best melds; " + why
            out.append((key, tile, why))
        if not out:  # only jokers left (two or more)
            out.append((0.0, JOKER_CODE, "only jokers are left"))
        out.sort()
        return out

    @staticmethod
    def _links(rest: Sequence[int], tile: int) -> int:
        c, n = divmod(tile, NUM_NUMBERS)
        links = 0
        for t in set(rest):
            if t == JOKER_CODE:
                continue
            c2, n2 = divmod(t, NUM_NUMBERS)
            if (c2 == c and 0 < abs(n2 - n) <= 2) or (n2 == n and c2 != c) or t == tile:
                links += 1
        return links

    def finish(self, w: _Work, discard: tuple[float, int, str], take: dict[str, Any]) -> Turn:
        _, tile, why = discard
        w = w.copy()
        w.rack.remove(tile)
        w.steps.append({"step": "discard", "tile": str(Tile(tile)), "reason": why})
        steps = ([dict(take)] if take else []) + w.steps
        kinds = [m.kind for m in self.view.table]
        for s in steps:
            s["actions"] = step_actions(s, kinds)
        return Turn(tuple(steps), evaluate(self, w, tile, take))

    # -- whole turns ----------------------------------------------------------------------------
    def _start(self, rack: list[int]) -> _Work:
        """The turn's starting work: ``rack`` and the table as the view shows it."""
        view = self.view
        return _Work(list(rack), [list(m.tiles) for m in view.table],
                     [m.owner for m in view.table], [m.kind for m in view.table],
                     opened=view.my_opening)

    def plans_after_take(self, rack: list[int], must: int | None) -> list[_Work]:
        """Candidate plays with ``rack`` (the take done); ``must``: the taken discard."""
        view = self.view
        w0 = self._start(rack)
        out: list[_Work] = []
        if view.my_opening is None:
            mu = -1 if must is None else must
            if len(rack) >= 4:
                value, melds = self.solve(self.cr_open, rack, True, mu,
                                          self.rules.opening_needs_run)
                pen_value, pen_melds = self.solve(self.cr_pen, rack, True, mu)
                if pen_value > 0:
                    pen_open = sum(self.meld_value(m, k) for k, m in pen_melds)
                    if pen_open >= view.threshold and pen_open > 0:
                        value, melds = pen_open, pen_melds
                if value >= view.threshold and melds:
                    w, done = self._open_with(
                        w0, melds, "melds", value,
                        f"opens with {value} points of runs and sets (R101-7: at least "
                        f"{view.threshold})")
                    out.append(done if done is not None else w)
            if JOKER_CODE in rack and len(rack) >= 4:
                out += self._open_for_joker_finish(w0, rack, mu)
            if self.rules.pairs_allowed and len(rack) >= 2 * view.pairs_threshold + 1:
                n, pairs = self.pairs(rack, True, mu)
                if n >= view.pairs_threshold:
                    w, done = self._open_with(
                        w0, pairs, "pairs", n,
                        f"opens with {n} pairs (R101-8: at least {view.pairs_threshold}); "
                        "penalties double later")
                    out.append(done if done is not None else w)
            if must is None:
                out.append(w0.copy())  # not opening this turn
        else:
            lay_melds = view.my_opening == "melds"
            lay_pairs = self.rules.pairs_allowed and (view.my_opening == "pairs" or any(
                v == "pairs" for s, v in view.opened.items() if s != view.seat))
            best = self.play_opened(w0.copy(), must, lay_melds, lay_pairs)
            if best is not None:
                out.append(best)
            jf = self.play_opened(w0.copy(), must, lay_melds, lay_pairs, hold_joker=True)
            if jf is not None:
                out.append(jf)
            if must is None and (best is None or best.steps):
                out.append(w0.copy())  # holding back, for the alternatives
        return out

    def variant_plans(self, rack: list[int], must: int | None) -> list[_Work]:
        """More candidate plays with ``rack`` for the alternatives, beside
        :meth:`plans_after_take`'s: every pairs opening that uses a given tile (each distinct tile
        and the joker as ``must_use``), the best pairs or melds opening holding one pair or meld
        back while still opening, each opening without its additions; once opened, the best
        melds holding one back, laying without adding, and adding without laying."""
        view = self.view
        w0 = self._start(rack)
        out: list[_Work] = []
        if view.my_opening is None:
            mu = -1 if must is None else must
            openings: list[tuple[Literal["melds", "pairs"], int, list[tuple[str, list[int]]],
                                 str]] = []
            if self.rules.pairs_allowed and len(rack) >= 2 * view.pairs_threshold + 1:
                seen: set[tuple[tuple[int, ...], ...]] = set()
                for u in [mu, *sorted(set(rack))]:
                    n, pairs = self.pairs(rack, True, u)
                    if n < view.pairs_threshold or n <= 0:
                        continue
                    key = tuple(sorted(tuple(m) for _, m in pairs))
                    if key in seen:
                        continue
                    seen.add(key)
                    openings.append(("pairs", n, pairs,
                                     (f"opens with {n} pairs (R101-8: at least "
                                     f"{view.pairs_threshold}); penalties double later")))
                    if u == mu and n - 1 >= view.pairs_threshold:
                        for i in range(len(pairs)):
                            fewer = pairs[:i] + pairs[i + 1:]
                            openings.append(("pairs", n - 1, fewer,
                                             (f"opens with {n - 1} pairs (R101-8: at least "
                                             f"{view.pairs_threshold}), holding a pair back; "
                                             "penalties double later")))
            if len(rack) >= 4:
                for cr in (self.cr_open, self.cr_pen):
                    value, melds = self.solve(cr, rack, True, mu,
                                              self.rules.opening_needs_run and cr is self.cr_open)
                    if value <= 0 or len(melds) < 2:
                        continue
                    for i in range(len(melds)):
                        fewer = melds[:i] + melds[i + 1:]
                        total = sum(self.meld_value(m, k) for k, m in fewer)
                        if total < view.threshold or (self.rules.opening_needs_run and
                                                      all(k != "run" for k, _ in fewer)):
                            continue
                        openings.append(("melds", total, fewer,
                                         (f"opens with {total} points of runs and sets (R101-7: "
                                         f"at least {view.threshold}), holding a meld back")))
            best_melds = self.solve(self.cr_open, rack, True, mu, self.rules.opening_needs_run)
            if best_melds[0] >= view.threshold and best_melds[1]:
                openings.append(("melds", best_melds[0], best_melds[1],
                                 (f"opens with {best_melds[0]} points of runs and sets (R101-7: "
                                 f"at least {view.threshold})")))
            for kind, value, melds, why in openings:
                if must is not None and all(must not in m for _, m in melds):
                    continue  # the taken discard must be in the opening itself (R101-4)
                w, done = self._open_with(w0, melds, kind, value, why)
                out.append(w)  # the opening alone: additions are optional (R101-11)
                if done is not None:
                    out.append(done)
        else:
            lay_melds = view.my_opening == "melds"
            lay_pairs = self.rules.pairs_allowed and (view.my_opening == "pairs" or any(
                v == "pairs" for s, v in view.opened.items() if s != view.seat))
            tried = [self.play_opened(w0.copy(), must, lay_melds, lay_pairs, may_add=False),
                     self.play_opened(w0.copy(), must, False, False)]
            if lay_melds:
                tried += [self.play_opened(w0.copy(), must, lay_melds, False, skip=skip)
                          for skip in range(4)]
            out += [w for w in tried if w is not None]
        return out

    def _open_for_joker_finish(self, w0: _Work, rack: list[int], mu: int) -> list[_Work]:
        """R101-12/13: open with everything but one joker (then add), and discard the joker."""
        rest = list(rack)
        rest.remove(JOKER_CODE)
        value, melds = self.solve(self.cr_open, rest, False, mu, self.rules.opening_needs_run)
        if value < self.view.threshold or not melds:
            return []
        _, done = self._open_with(
            w0, melds, "melds", value,
            f"opens with {value} points of runs and sets (R101-7: at least "
            f"{self.view.threshold}), holding a joker back to finish with", hold_joker=True)
        return [done] if done is not None else []

    def _open_with(self, w0: _Work, melds: list[tuple[str, list[int]]],
                   kind: Literal["melds", "pairs"], value: int, reason: str,
                   hold_joker: bool = False) -> tuple[_Work, _Work | None]:
        """Lay an opening of ``kind`` ("melds" or "pairs") on a copy of ``w0``, then play the
        rest of the turn as an opened player: (the turn after the opening, the finished turn or
        None when nothing more could be played)."""
        w = w0.copy()
        self.lay(w, melds, "open", reason, kind=kind, value=value)
        w.opened, w.opened_now, w.laid_value = kind, True, value
        return w, self.play_opened(w, None, False, False, hold_joker=hold_joker)

    def turns(self) -> list[Turn]:
        """Candidate turns, best first, one per play (:attr:`Turn.play`: turns that differ only
        in the discard count once, with their best discard): the usual plays and
        :meth:`variant_plans`' variants, always both, so the best turn does not depend on how
        many turns the caller will use. A variant can be the best turn: once opened, adding
        without laying may keep less on the rack than the best melds laid first. (Variants were
        weighed only when the usual plays gave fewer turns than asked for, and ``hint(view, 0)``
        could recommend a worse turn than ``hint(view, 3)``.)"""
        view = self.view
        rack = [int(t) for t in view.rack]
        takes: list[tuple[dict[str, Any], list[int], int | None]] = []
        if view.stage == "play":
            taken = None if view.taken_discard is None else int(view.taken_discard)
            takes.append(({}, rack, taken))
        else:
            takes.append(({"step": "draw",
                           "reason": "draw the top stock tile (R101-3); ask again with the drawn "
                                     "tile for the rest of the turn"},
                          rack, None))
            if view.last_discard is not None:
                d = int(view.last_discard)
                takes.append(({"step": "take_discard", "tile": str(Tile(d)),
                               "reason": "R101-4: the previous player's discard, used this turn"},
                              rack + [d], d))
            if view.button_available:
                takes.append(({"step": "button", "tile": "*",
                               "reason": "R101-10: a joker from the button instead of the draw"},
                              rack + [JOKER_CODE], None))
        unique: dict[tuple[Any, ...], Turn] = {}

        def collect(plan: Any) -> None:
            for take, r, must in takes:
                for w in plan(r, must):
                    if must is not None and w.rack.count(must) >= r.count(must):
                        continue  # illegal: the taken discard is not used (R101-4)
                    for discard in self.discard_options(w)[:2]:
                        t = self.finish(w, discard, take)
                        if t.play not in unique or unique[t.play].score < t.score:
                            unique[t.play] = t

        collect(self.plans_after_take)
        collect(self.variant_plans)
        return sorted(unique.values(), key=lambda t: -t.score)


def planned_turns(view: SeatView, wanted: int = 1, *,
                  seconds: float | None = HINT_SECONDS) -> list[Turn]:
    """The planner's genuinely different turns for ``view``, best first (as :func:`hint` lists
    them: the usual plays and :meth:`_Planner.variant_plans`' variants, whatever ``wanted``).
    ``seconds`` is the wall-clock limit (the service's ``HINT_SECONDS``); ``None`` sets none, for
    a bot whose decisions must not depend on the machine's load: the core's work budget still
    bounds every search the planner makes."""
    # (wanted="2" was "'<' not supported between instances of 'int' and 'str'", seconds="5"
    # "unsupported operand type(s) for +: 'float' and 'str'", and seconds=nan never stopped)
    if isinstance(wanted, bool) or not isinstance(wanted, int):
        raise BadView(f"wanted must be an int (how many different turns), got "
                      f"{type(wanted).__name__} {wanted!r:.40}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or math.isnan(seconds) or seconds < 0):
        raise BadView(f"seconds must be a number of seconds >= 0 or None (no limit), got "
                      f"{type(seconds).__name__} {seconds!r:.40}")
    planner = _Planner(view)
    planner.deadline = math.inf if seconds is None else time.monotonic() + seconds
    planner.seconds = math.inf if seconds is None else seconds
    return planner.turns()


def hint(view: SeatView, alternatives: int = 3) -> Hint:
    """The recommended turn for ``view`` and up to ``alternatives`` next-best turns, best first
    and genuinely different: no two have the same :attr:`Turn.play` (the same take and the same
    melds, pairs, additions and retrievals — a turn that differs from another only in its
    discard is not listed). Fewer come back only when the planner finds no more distinct
    plays."""
    if not isinstance(view, SeatView):
        # an observation dict or a State gave AttributeError: 'dict' object has no attribute 'rules'
        raise BadView(f"hint() takes a SeatView, got {type(view).__name__}; build one with "
                      "view_from_state(state), view_from_observation(state.observation(seat)) "
                      "or SeatView.from_json(request)")
    if isinstance(alternatives, bool) or not isinstance(alternatives, int):
        raise BadView(f"alternatives must be an int (how many next-best turns), got "
                      f"{type(alternatives).__name__} {alternatives!r:.40}")
    turns = _Planner(view).turns()
    if not turns:
        rack = " ".join(map(str, view.rack))
        if view.stage == "play" and view.taken_discard is not None:  # (said only 'no legal turn')
            raise IllegalAction(f"no legal turn found for seat {view.seat}: the taken discard "
                                f"{view.taken_discard} must be used this turn, and rack {rack!r} "
                                f"with this table cannot lay it (before the opening, in an "
                                f"opening that reaches the threshold; after, in a meld or an "
                                f"addition); a discard that cannot be used is not taken: draw "
                                f"instead (R101-4)")
        raise IllegalAction(f"no legal turn found for seat {view.seat} with rack {rack!r} "
                            f"(R101-3)")
    return Hint(view, turns[0], tuple(turns[1:1 + alternatives]))
