"""Simulation runner: many seeded games between bots, in parallel, with reproducible results.

:func:`simulate` plays ``games`` games of a rule set with one bot per seat and returns a
:class:`SimResult` (per-game :class:`GameRecord` list plus per-seat statistics). Everything a game
does is a pure function of ``(rules, bots, seed, game index)``:

* the game's seed is :func:`game_seed` ``(seed, index)``;
* the seat ``s`` bot's ``random.Random`` is seeded with :func:`bot_seed` ``(seed, index, s)``;

so the results are identical whatever the number of workers or the executor (process pool, thread
pool, Dask), and records are aggregated in game order.

>>> game_seed(7, 0), game_seed(7, 1) != game_seed(7, 0)
(2564258699000977781, True)
>>> lo, hi = wilson_interval(60, 100)
>>> f"{lo:.4f} {hi:.4f}"
'0.5020 0.6906'
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import hashlib
import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from . import _backend
from .bots import Bot, bot_names, get_bot
from .errors import RulesError, RummyError
from .rules import VARIANTS, Rules

__all__ = [
    "MAX_STEPS",
    "OUTPUT_FORMATS",
    "GameRecord",
    "SeatStats",
    "SimError",
    "SimResult",
    "bot_seed",
    "game_seed",
    "play_game",
    "simulate",
    "wilson_interval",
    "write_records",
]

#: A game that takes more steps than this is a bug in a bot or the engine: play_game raises.
MAX_STEPS = 200_000

#: Output formats accepted by :func:`write_records`, chosen by the file extension.
OUTPUT_FORMATS = (".jsonl", ".csv")

_Z95 = 1.959963984540054  # two-sided 95% normal quantile


class SimError(RummyError):
    """Bad simulation arguments (bot names, game or worker counts, output file)."""


# ---- seeds ---------------------------------------------------------------------------------------

def _derive(*parts: int | str) -> int:
    """A stable 63-bit integer from ``parts`` (SHA-256, independent of Python's hash seed)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The deal seed of game ``index`` of a run started with ``seed``.

    Defined as the first 8 bytes (big-endian, shifted right by one to stay below 2**63) of
    ``sha256(f"rummy101-game:{seed}:{index}")``. Stable across Python versions, platforms and
    processes; part of the reproducibility contract of :func:`simulate`.

    >>> game_seed(0, 0) == game_seed(0, 0), game_seed(0, 0) != game_seed(0, 1)
    (True, True)
    """
    return _derive("rummy101-game", seed, index)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the ``random.Random`` handed to the bot in ``seat`` in game ``index``:
    ``sha256(f"rummy101-bot:{seed}:{index}:{seat}")`` reduced as in :func:`game_seed`."""
    return _derive("rummy101-bot", seed, index, seat)


# ---- statistics ----------------------------------------------------------------------------------

def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 4)
    (0.0, 0.2775)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# ---- records ------------------------------------------------------------------------------------

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


@dataclass(frozen=True)
class SeatStats:
    """Aggregates for one seat over a run. Finishing and scoring best are counted apart: a round
    ends either with a finish (R101-12, the finisher is its only winner) or with the stock
    exhausted (R101-13: no winner, everyone loses a penalty), so "best score" is no win rate.

    ``finished`` rounds this seat finished, of ``rounds`` played (``finish_rate`` and its 95%
    Wilson interval ``finish_ci95``); ``best`` games in which the seat had the strictly highest
    final standing, of ``games`` (``best_rate``, ``best_ci95``); ``finishes`` the finished
    rounds by finish type."""

    seat: int
    bot: str
    games: int
    rounds: int
    finished: int
    finish_rate: float
    finish_ci95: tuple[float, float]
    best: int
    best_rate: float
    best_ci95: tuple[float, float]
    mean_score: float
    sd_score: float
    min_score: int
    max_score: int
    finishes: dict[str, int]       # rounds this seat finished, by finish type
    mean_turns_per_round: float


@dataclass
class SimResult:
    """The outcome of :func:`simulate`: the per-game records in game order and per-seat stats."""

    rules: str
    bots: tuple[str, ...]
    seed: int
    records: list[GameRecord]
    seats: list[SeatStats] = field(default_factory=list)
    ties: int = 0                                   # games without a unique best standing
    finish_counts: dict[str, int] = field(default_factory=dict)  # round endings, over all rounds

    @property
    def rounds(self) -> int:
        """Rounds played over all games."""
        return sum(self.finish_counts.values())

    @property
    def exhausted(self) -> int:
        """Rounds that ended with the stock exhausted and no winner (R101-13)."""
        return self.finish_counts.get("exhausted", 0)

    @property
    def games(self) -> int:
        return len(self.records)

    def summary(self) -> str:
        """A fixed-width summary table (what the CLI prints at the end)."""
        return format_summary(self)


def _stats(records: Sequence[GameRecord], bots: Sequence[str]) -> tuple[list[SeatStats], int, dict[str, int]]:
    n = len(records)
    seats: list[SeatStats] = []
    for s, name in enumerate(bots):
        scores = [r.scores[s] for r in records]
        best = sum(1 for r in records if r.best == s)
        mean = sum(scores) / n if n else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
        fin: dict[str, int] = {}
        turns = rounds = 0
        for r in records:
            turns += r.turns[s]
            rounds += r.rounds
            for kind, who in zip(r.finishes, r.finishers):
                if who == s:
                    fin[kind] = fin.get(kind, 0) + 1
        finished = sum(fin.values())
        seats.append(SeatStats(
            seat=s, bot=name, games=n, rounds=rounds, finished=finished,
            finish_rate=finished / rounds if rounds else 0.0,
            finish_ci95=wilson_interval(finished, rounds), best=best,
            best_rate=best / n if n else 0.0, best_ci95=wilson_interval(best, n),
            mean_score=mean, sd_score=sd,
            min_score=min(scores) if scores else 0, max_score=max(scores) if scores else 0,
            finishes=dict(sorted(fin.items())),
            mean_turns_per_round=turns / rounds if rounds else 0.0))
    ties = sum(1 for r in records if r.best is None)
    counts: dict[str, int] = {}
    for r in records:
        for kind in r.finishes:
            counts[kind] = counts.get(kind, 0) + 1
    return seats, ties, dict(sorted(counts.items()))


def format_summary(result: SimResult) -> str:
    """Render the per-seat table of a :class:`SimResult`: finishes (the round's winner, R101-12)
    and best final standings in separate columns, and the round endings below."""
    head = (f"{result.games} games of {result.rules}, seed {result.seed}; "
            f"bots {','.join(result.bots)}")
    cols = ("seat", "bot", "finished", "finish rate", "95% CI (Wilson)", "best score",
            "best rate", "95% CI (Wilson)", "mean score", "sd", "min", "max", "turns/round",
            "finishes")
    rows = []
    for st in result.seats:
        fin = ", ".join(f"{k} {v}" for k, v in st.finishes.items()) or "-"
        rows.append((str(st.seat), st.bot, f"{st.finished}/{st.rounds}", f"{st.finish_rate:.3f}",
                     f"[{st.finish_ci95[0]:.3f}, {st.finish_ci95[1]:.3f}]",
                     f"{st.best}/{st.games}", f"{st.best_rate:.3f}",
                     f"[{st.best_ci95[0]:.3f}, {st.best_ci95[1]:.3f}]", f"{st.mean_score:.1f}",
                     f"{st.sd_score:.1f}", str(st.min_score), str(st.max_score),
                     f"{st.mean_turns_per_round:.1f}", fin))
    left = (1, len(cols) - 1)
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    out = [head, line(cols), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    rounds = result.rounds
    ex = result.exhausted
    out.append(f"rounds: {rounds}; finished {rounds - ex}, stock exhausted with no winner {ex} "
               f"(R101-13); round endings: "
               + (", ".join(f"{k} {v}" for k, v in result.finish_counts.items()) or "-"))
    out.append("finished = rounds won by finishing (R101-12); best score = games with the "
               f"strictly highest final standing, which after an exhausted round means losing "
               f"least, not winning; no unique best score: {result.ties} "
               f"game{'' if result.ties == 1 else 's'}")
    return "\n".join(out)


# ---- one game -----------------------------------------------------------------------------------

class LazyObservation(Mapping[str, Any]):
    """``state.observation(seat)``, built on first access: a bot that decides without looking
    (one legal action, or the random bot) costs no observation. Read-only."""

    __slots__ = ("_build", "_data")

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._build()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def _new_game(rules: Rules, seed: int, match_rounds: int) -> Any:
    from .game import new_game  # the engine; imported late so that sim imports without it
    return new_game(rules, seed, match_rounds=match_rounds)


def play_game(rules: str | Rules, bots: Sequence[str | Bot], seed: int, index: int = 0,
              *, match_rounds: int = 1, max_steps: int = MAX_STEPS) -> GameRecord:
    """Play game ``index`` of a run started with ``seed`` and return its record.

    ``bots`` holds bot names (a fresh bot is made per seat, with the seat's derived
    ``random.Random``) or ready bot objects. The deal uses :func:`game_seed` ``(seed, index)``.
    """
    r = Rules.parse(rules)
    names = [b if isinstance(b, str) else getattr(b, "name", type(b).__name__) for b in bots]
    players = [get_bot(b, random.Random(bot_seed(seed, index, s))) if isinstance(b, str) else b
               for s, b in enumerate(bots)]
    gseed = game_seed(seed, index)
    state = _new_game(r, gseed, match_rounds)
    turns = [0] * len(players)
    last = -1
    steps = 0
    acts = [p.act for p in players]
    observe, legal_actions, apply = state.observation, state.legal_actions, state.apply
    while not state.is_terminal:
        seat = state.current_player
        apply(acts[seat](LazyObservation(partial(observe, seat)), legal_actions()))
        if seat != last:
            turns[seat] += 1
            last = seat
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game {index} (seed {gseed}) of {r} did not end within {max_steps} "
                               f"steps with bots {names}: a bot or the engine loops")
    round_scores = tuple(tuple(int(v) for v in rs) for rs in state.round_scores())
    standings = tuple(int(v) for v in state.standings())
    top = max(standings)
    best = standings.index(top) if standings.count(top) == 1 else None
    finishes, finishers = round_finishes(state)
    return GameRecord(game=index, seed=gseed, rules=str(r), bots=tuple(names), scores=standings,
                      round_scores=round_scores, best=best, finishes=finishes,
                      finishers=finishers, turns=tuple(turns), steps=steps)


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


# ---- many games ---------------------------------------------------------------------------------

def _play_chunk(rules: str, bots: tuple[str, ...], seed: int, start: int, stop: int,
                match_rounds: int, backend: str) -> list[GameRecord]:
    """Worker task: play games ``start..stop-1`` on ``backend`` (runs in any executor)."""
    if _backend.backend_name() != backend:
        _backend.set_backend(backend)
    return [play_game(rules, bots, seed, i, match_rounds=match_rounds) for i in range(start, stop)]


def _check_args(rules: str | Rules, bots: str | Sequence[str], games: int, workers: int | None,
                match_rounds: int) -> tuple[Rules, tuple[str, ...]]:
    try:
        r = Rules.parse(rules)
    except RulesError as exc:
        raise RulesError(f"unknown rules for simulation: {exc} (accepted variants: "
                         f"{', '.join(VARIANTS)})") from None
    _new_game(r, 0, 1)  # a variant the engine does not play yet fails here, naming those it plays
    if isinstance(bots, str):
        bots = list(bots.split(","))
    names = tuple(b.strip().lower() for b in bots)
    known = bot_names()
    bad = [b for b in names if b not in known]
    if bad:
        raise SimError(f"unknown bot name{'s' if len(bad) > 1 else ''} {', '.join(map(repr, bad))} "
                       f"in {','.join(names)!r}; accepted bots: {', '.join(known)}")
    if len(names) != r.players:
        raise SimError(f"{len(names)} bots given ({','.join(names)}) but {r} has {r.players} "
                       f"players: give one bot per seat (or set players=N in the rules)")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimError(f"games must be a whole number >= 1, got {games!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise SimError(f"workers must be a whole number >= 1, got {workers!r}")
    if isinstance(match_rounds, bool) or not isinstance(match_rounds, int) or match_rounds < 1:
        raise SimError(f"match_rounds must be a whole number >= 1, got {match_rounds!r}")
    return r, names


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(64, games // (workers * 8) or 1))
    return [(i, min(games, i + size)) for i in range(0, games, size)]


def _progress(total: int, enabled: bool) -> Any:
    if not enabled or not sys.stderr.isatty():
        return None
    from tqdm import tqdm  # type: ignore[import-untyped]
    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


def simulate(rules: str | Rules, bots: str | Sequence[str], games: int, seed: int = 0, *,
             workers: int | None = None, executor: cf.Executor | None = None,
             progress: bool = True, match_rounds: int = 1) -> SimResult:
    """Play ``games`` seeded games of ``rules`` between ``bots`` (one name per seat).

    * ``workers``: processes of the default pool (default: the CPU count); ``1`` plays in this
      process without a pool.
    * ``executor``: any :class:`concurrent.futures.Executor` to run on instead (a
      ``ThreadPoolExecutor``, a ``ProcessPoolExecutor``, or Dask's ``client.get_executor()``);
      it is not shut down. ``workers`` then only sizes the chunks.
    * ``progress``: a tqdm bar on standard error, shown only when it is a terminal.
    * ``match_rounds``: rounds per game (a match; ``best`` is the best cumulative standing).

    The result is identical for a given ``seed`` whatever ``workers`` and ``executor`` are.

    Raises :class:`SimError` for bad bot names, ``games < 1`` or ``workers < 1``, and
    :class:`~rummy101.errors.RulesError` (listing the variants) for unknown rules.
    """
    r, names = _check_args(rules, bots, games, workers, match_rounds)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimError(f"seed must be a whole number, got {seed!r}")
    nworkers = workers if workers is not None else (os.cpu_count() or 1)
    chunks = _chunks(games, nworkers if executor is None else max(nworkers, 4))
    backend = _backend.backend_name()
    args = (str(r), names, seed)
    bar = _progress(games, progress)
    results: dict[int, list[GameRecord]] = {}
    try:
        if executor is None and nworkers == 1:
            for k, (a, b) in enumerate(chunks):
                results[k] = _play_chunk(*args, a, b, match_rounds, backend)
                if bar is not None:
                    bar.update(b - a)
        else:
            own = executor is None
            ex = cf.ProcessPoolExecutor(max_workers=nworkers) if executor is None else executor
            futures: dict[cf.Future[list[GameRecord]], int] = {}
            try:
                for k, (a, b) in enumerate(chunks):
                    futures[ex.submit(_play_chunk, *args, a, b, match_rounds, backend)] = k
                for fut in cf.as_completed(futures):
                    k = futures[fut]
                    results[k] = fut.result()
                    if bar is not None:
                        bar.update(chunks[k][1] - chunks[k][0])
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
            finally:
                if own:
                    ex.shutdown(wait=True, cancel_futures=True)
    finally:
        if bar is not None:
            bar.close()
    records = [rec for k in range(len(chunks)) for rec in results[k]]
    seats, ties, counts = _stats(records, names)
    return SimResult(rules=str(r), bots=names, seed=seed, records=records, seats=seats, ties=ties,
                     finish_counts=counts)


# ---- output -------------------------------------------------------------------------------------

def write_records(records: Iterable[GameRecord], path: str | os.PathLike[str]) -> str:
    """Write per-game records to ``path``: JSON Lines for ``.jsonl``, CSV for ``.csv``.
    Returns the format used. Other extensions raise :class:`SimError`."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext not in OUTPUT_FORMATS:
        raise SimError(f"cannot tell the output format of {str(path)!r} from its extension "
                       f"{ext or '(none)'!r}; accepted: {', '.join(OUTPUT_FORMATS)}")
    with open(p, "w", newline="", encoding="utf-8") as fh:
        if ext == ".jsonl":
            _write_jsonl(records, fh)
        else:
            _write_csv(records, fh)
    return ext[1:]


def _write_jsonl(records: Iterable[GameRecord], fh: TextIO) -> None:
    fh.writelines(json.dumps(rec.to_json(), separators=(",", ":")) + "\n" for rec in records)


def _write_csv(records: Iterable[GameRecord], fh: TextIO) -> None:
    rows = [rec.to_row() for rec in records]
    fields = list(rows[0]) if rows else ["game"]
    w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
