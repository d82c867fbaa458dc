"""What one simulated game produced: :class:`GameRecord` (one line of the JSONL output, one row
of the CSV output) and how a finished game's rounds are read into it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RECORD_KINDS", "GameRecord", "finish_type", "round_finishes"]

#: What one line of a simulation's JSONL output holds (``record`` in the line, ``--record``):
#: ``summary`` (the default: seeds, bots and results, no actions) or ``full`` (the same fields
#: plus a whole :mod:`rummy101.game.records` record that ``records.loads`` replays).
RECORD_KINDS = ("summary", "full")


# The fields of a rummy101.game.records record (kept apart when a full line is read back).
_RECORD_KEYS = ("format", "rules", "seed", "match_rounds", "actions", "terminal",
                "round_scores", "standings", "results")


@dataclass(frozen=True)
class GameRecord:
    """What one simulated game produced (one line of the JSONL output).

    ``scores`` are the final cumulative standings per seat; ``round_scores`` the per-round deltas;
    ``finishes`` one finish type per round (see :func:`finish_type`); ``finishers`` the finishing
    seat of each round (``None`` when nobody finished: an exhausted round has no winner, R101-13);
    ``best`` the seat with the strictly highest final standing (``None`` on a tie for first) —
    with the stock exhausted that is the seat that lost least, so it is no win; ``turns`` the
    turns each seat played (Remi's exchange of doubles before play, RO-3, is no turn); ``steps`` the actions applied in the whole game.
    ``rummy101_version`` is the version of rummy101 that played the game (``None`` for a line
    written before records held it): the same seeds replay the same game only with the same
    engines and bots.
    """

    game: int
    seed: int
    rules: str
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    best: int | None
    finishes: tuple[str, ...]
    finishers: tuple[int | None, ...]
    turns: tuple[int, ...]
    steps: int
    run_seed: int | None = None
    bot_seeds: tuple[int | None, ...] = ()
    game_record: Mapping[str, Any] | None = field(default=None, repr=False, hash=False)
    match_rounds: int | None = None
    rummy101_version: str | None = None

    def __post_init__(self) -> None:
        _check_match_rounds(self.match_rounds, len(self.round_scores))

    @property
    def rounds(self) -> int:
        return len(self.round_scores)

    @property
    def game_seed(self) -> int:
        """The deal seed (the same as ``seed``): ``new_game(rules, game_seed)``."""
        return self.seed

    def to_json(self) -> dict[str, Any]:
        """One line of the JSONL output. ``"record": "summary"`` without the actions; with
        ``"record": "full"`` (when the run kept the game) the line is also a whole
        :mod:`rummy101.game.records` record: ``records.loads(line)`` replays the game, ignoring
        the summary fields."""
        d: dict[str, Any] = {
            "record": "summary", "game": self.game, "seed": self.seed, "game_seed": self.seed,
            "run_seed": self.run_seed, "rules": self.rules, "bots": list(self.bots),
            "bot_seeds": list(self.bot_seeds), "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores], "best": self.best,
            "finishes": list(self.finishes), "finishers": list(self.finishers),
            "turns": list(self.turns), "steps": self.steps, "rounds": self.rounds,
        }
        if self.game_record is not None:
            d.update(self.game_record)   # format, rules, seed, match_rounds, actions, results...
            d["record"] = "full"
        d.setdefault("match_rounds", self.match_rounds)  # a full line has it from its record
        d["rummy101_version"] = self.rummy101_version
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameRecord:
        """A record back from one JSONL line (summary or full; lines written before the seeds
        were added read too). Raises ``KeyError`` / ``TypeError`` / ``ValueError`` on a line that
        is no simulation record. A line without ``match_rounds`` (written before records held
        it) reads with ``match_rounds=None``, one without ``rummy101_version`` with
        ``rummy101_version=None``."""
        scores = tuple(_int(v, "scores") for v in d["scores"])
        n = len(scores)
        full = d if d.get("record") == "full" else None
        return cls(
            game=_int(d["game"], "game"), seed=_int(d["seed"], "seed"), rules=str(d["rules"]),
            bots=tuple(str(b) for b in d["bots"]), scores=scores,
            round_scores=tuple(tuple(_int(v, "round_scores") for v in r) for r in d["round_scores"]),
            best=None if d.get("best") is None else _int(d["best"], "best"),
            finishes=tuple(str(f) for f in d["finishes"]),
            finishers=tuple(None if f is None else _int(f, "finishers") for f in d["finishers"]),
            turns=tuple(_int(t, "turns") for t in d.get("turns", (0,) * n)),
            steps=_int(d.get("steps", 0), "steps"),
            run_seed=None if d.get("run_seed") is None else _int(d["run_seed"], "run_seed"),
            bot_seeds=tuple(None if b is None else _int(b, "bot_seeds") for b in d.get("bot_seeds", ())),
            game_record=None if full is None else {k: full[k] for k in _RECORD_KEYS if k in full},
            match_rounds=_whole(d.get("match_rounds")),
            rummy101_version=_version(d.get("rummy101_version")))

    @classmethod
    def from_row(cls, row: Mapping[str, str]) -> GameRecord:
        """A record back from one CSV row (:meth:`to_row`; a row without a ``match_rounds``
        column, or with it empty, reads with ``match_rounds=None``; so does
        ``rummy101_version``)."""
        n = sum(1 for k in row if k.startswith("score_"))

        def opt(text: str | None) -> int | None:
            return None if text in (None, "") else int(text)

        rs = [tuple(int(v) for v in r.split()) for r in row["round_scores"].split(";") if r]
        return cls(
            game=int(row["game"]), seed=int(row["seed"]), rules=row["rules"],
            bots=tuple(row[f"bot_{s}"] for s in range(n)),
            scores=tuple(int(row[f"score_{s}"]) for s in range(n)),
            round_scores=tuple(rs), best=opt(row.get("best")),
            finishes=tuple(f for f in row["finishes"].split(";") if f),
            finishers=tuple(opt(f) for f in row["finishers"].split(";"))[:len(rs)],
            turns=tuple(int(row.get(f"turns_{s}") or 0) for s in range(n)),
            steps=int(row.get("steps") or 0), run_seed=opt(row.get("run_seed")),
            bot_seeds=tuple(opt(row.get(f"bot_seed_{s}")) for s in range(n))
            if "bot_seed_0" in row else (),
            match_rounds=_whole(opt(row.get("match_rounds"))),
            rummy101_version=row.get("rummy101_version") or None)

    def to_row(self) -> dict[str, Any]:
        """A flat CSV row: list fields become ``name_<seat>`` columns or ``;``-joined text."""
        row: dict[str, Any] = {"game": self.game, "seed": self.seed, "rules": self.rules,
                               "best": "" if self.best is None else self.best,
                               "rounds": self.rounds, "steps": self.steps}
        seeds = self.bot_seeds or (None,) * len(self.bots)
        for s, (b, sc, t, bs) in enumerate(zip(self.bots, self.scores, self.turns, seeds)):
            row[f"bot_{s}"] = b
            row[f"score_{s}"] = sc
            row[f"turns_{s}"] = t
            row[f"bot_seed_{s}"] = "" if bs is None else bs
        row["finishes"] = ";".join(self.finishes)
        row["finishers"] = ";".join("" if f is None else str(f) for f in self.finishers)
        row["round_scores"] = ";".join(" ".join(str(v) for v in r) for r in self.round_scores)
        row["run_seed"] = "" if self.run_seed is None else self.run_seed
        row["game_seed"] = self.seed   # = seed; named as in the JSONL lines (new columns go last)
        row["match_rounds"] = "" if self.match_rounds is None else self.match_rounds
        row["rummy101_version"] = self.rummy101_version or ""
        return row


def _int(value: Any, field: str) -> int:
    """A whole number of a JSON line's ``field``: an int, or a float without a fraction (2.0).
    ``int()`` alone cut a score of 1.5 to 1 and read ``true`` as 1, so a hand-edited line
    changed the statistics without a word; an infinite or NaN float (JSON ``1e400``, ``NaN``)
    fails in ``int()`` itself."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or (isinstance(value, float) and math.isfinite(value)
                                   and not value.is_integer()):
        raise ValueError(f"{field} holds {value!r}, no whole number")
    return int(value)


def _whole(value: Any) -> int | None:
    """A record's ``match_rounds`` as read: None (not recorded) or a whole number (no bool or
    float: ``2.5`` or ``true`` is no match length)."""
    if value is None:
        return None
    if isinstance(value, (bool, float)):
        raise TypeError(f"match_rounds is a whole number, got {value!r}")
    return int(value)


def _version(value: Any) -> str | None:
    """A record's ``rummy101_version`` as read: None (not recorded) or non-empty text."""
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise TypeError(f"rummy101_version is the version text that wrote the line, got {value!r}")
    return value


def _check_match_rounds(match_rounds: int | None, played: int) -> None:
    """A match length of at least 1 and at least the rounds the game played (a classic match
    stops at its cap, CR-6; the others play exactly their length)."""
    if match_rounds is None:
        return
    if match_rounds < 1 or match_rounds < played:
        raise ValueError(f"match_rounds {match_rounds} is no length of a match that played "
                         f"{played} round{'' if played == 1 else 's'}")


def finish_type(result: Mapping[str, Any]) -> str:
    """The finish type of one entry of ``state.round_results()``: ``exhausted`` (stock ran out,
    nobody finished, R101-13 / RO-10), else the finish's features joined by ``_`` in this order,
    ``normal`` when it has none:

    * ``atu``: Remi, the winner took the Atu to finish (RO-4, result field ``atu_finish``);
    * ``tabla``: Remi, a tabla close on the rack (RO-11, result field ``finish == "tabla"``);
    * ``one_turn``: Rummy 101, the whole hand laid in one turn (R101-12);
    * ``joker``: the last discard was a joker / Joly (R101-12, RO-12).

    Rummy 101 gives ``normal``, ``joker``, ``one_turn``, ``one_turn_joker``; Remi gives
    ``normal`` (etalat), ``joker``, ``tabla``, ``tabla_joker``, ``atu``, ``atu_joker``,
    ``atu_tabla``, ``atu_tabla_joker``.

    >>> finish_type({"end": "finish", "winner": 2, "joker_finish": True, "one_turn": False})
    'joker'
    >>> finish_type({"end": "finish", "winner": 0, "finish": "tabla", "joker_finish": False})
    'tabla'
    >>> finish_type({"end": "finish", "winner": 1, "finish": "etalat", "atu_finish": True,
    ...              "joker_finish": True})
    'atu_joker'
    """
    if result.get("end") == "exhausted" or result.get("winner") is None:
        return "exhausted"
    parts = [name for name, on in (("atu", result.get("atu_finish")),
                                   ("tabla", result.get("finish") == "tabla"),
                                   ("one_turn", result.get("one_turn")),
                                   ("joker", result.get("joker_finish"))) if on]
    return "_".join(parts) or "normal"


def round_finishes(state: Any) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Finish type and finishing seat (``None`` if nobody finished) of each round played."""
    results = state.round_results()
    return (tuple(finish_type(r) for r in results),
            tuple(None if r.get("winner") is None else int(r["winner"]) for r in results))
