"""What one simulated game produced: :class:`GameRecord` (one line of the JSONL output, one row
of the CSV output) and how a finished game's rounds are read into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["GameRecord", "finish_type", "round_finishes"]


@dataclass(frozen=True)
class GameRecord:
    """What one simulated game produced (one line of the JSONL output).

    ``scores`` are the final cumulative standings per seat; ``round_scores`` the per-round deltas;
    ``finishes`` one finish type per round (see :func:`finish_type`); ``finishers`` the finishing
    seat of each round (``None`` when nobody finished: an exhausted round has no winner, R101-13);
    ``best`` the seat with the strictly highest final standing (``None`` on a tie for first) —
    with the stock exhausted that is the seat that lost least, so it is no win; ``turns`` the
    turns each seat played; ``steps`` the actions applied in the whole game.
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

    @property
    def rounds(self) -> int:
        return len(self.round_scores)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["rounds"] = self.rounds
        for k in ("bots", "scores", "finishes", "finishers", "turns"):
            d[k] = list(d[k])
        d["round_scores"] = [list(r) for r in self.round_scores]
        return d

    def to_row(self) -> dict[str, Any]:
        """A flat CSV row: list fields become ``name_<seat>`` columns or ``;``-joined text."""
        row: dict[str, Any] = {"game": self.game, "seed": self.seed, "rules": self.rules,
                               "best": "" if self.best is None else self.best,
                               "rounds": self.rounds, "steps": self.steps}
        for s, (b, sc, t) in enumerate(zip(self.bots, self.scores, self.turns)):
            row[f"bot_{s}"] = b
            row[f"score_{s}"] = sc
            row[f"turns_{s}"] = t
        row["finishes"] = ";".join(self.finishes)
        row["finishers"] = ";".join("" if f is None else str(f) for f in self.finishers)
        row["round_scores"] = ";".join(" ".join(str(v) for v in r) for r in self.round_scores)
        return row


def finish_type(result: Mapping[str, Any]) -> str:
    """The finish type of one entry of ``state.round_results()`` (R101-12/13): ``exhausted``
    (stock ran out, nobody finished), ``normal``, ``joker`` (joker finish), ``one_turn`` (finish in
    one turn) or ``one_turn_joker``.

    >>> finish_type({"end": "finish", "winner": 2, "joker_finish": True, "one_turn": False})
    'joker'
    """
    if result.get("end") == "exhausted" or result.get("winner") is None:
        return "exhausted"
    one, joker = bool(result.get("one_turn")), bool(result.get("joker_finish"))
    return ("one_turn_joker" if one and joker else "one_turn" if one
            else "joker" if joker else "normal")


def round_finishes(state: Any) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Finish type and finishing seat (``None`` if nobody finished) of each round played."""
    results = state.round_results()
    return (tuple(finish_type(r) for r in results),
            tuple(None if r.get("winner") is None else int(r["winner"]) for r in results))
