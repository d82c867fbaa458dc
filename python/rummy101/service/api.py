"""The JSON operations behind the ``rummy101`` command line and the HTTP service.

Each operation takes a decoded JSON request (dicts, lists, strings, numbers), validates it once
(:mod:`rummy101._validate`) and returns a JSON-able answer; bad input raises a
:class:`~rummy101.errors.RummyError` subclass whose message names the problem. Nothing here needs
FastAPI, so the CLI works without the ``service`` extra.

>>> answer = opening({"rules": "rummy101", "rack": "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2"})
>>> answer["kind"], answer["value"], answer["rest"]
('melds', 129, ['R2'])
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import melds as _melds
from .. import solve as _solve
from .. import tabla as _tabla
from .._cancel import STOPS, check_stop, queued, time_limit, waited
from .._validate import (
    BadRequest,
    described,
    loads,
    read_bool,
    read_object,
    read_opt_int,
    read_piece,
    read_rack,
    read_rules,
    short,
    type_name,
)
from ..errors import RackError, RummyError, WorkBudgetExceeded
from ..rules import Rules
from .answer import encode, internal_error
from .fast import answers_json, batch_chunk, batch_threads, openings_json, rack_text, read_racks
from .limits import BATCH_SECONDS, HINT_SECONDS, MAX_BATCH, MAX_INT, MAX_MELD

__all__ = [
    "BATCH_FIELDS",
    "MELD_FIELDS",
    "OPENING_FIELDS",
    "PENALTY_FIELDS",
    "TABLA_FIELDS",
    "OpeningJob",
    "OutOfTime",
    "error_object",
    "hint",
    "opening",
    "opening_job",
    "openings",
    "penalty",
    "solve_jobs",
    "solve_opening_bodies",
    "solve_opening_body",
    "tabla",
    "validate_meld",
]

CHUNK = 256  # racks per batch-solver call natively (the time budget is checked between calls;
# one rack a call on the pure backend: fast.batch_chunk)

OPENING_FIELDS = ("rules", "rack", "threshold", "pairs_threshold", "must_use")
BATCH_FIELDS = ("rules", "racks", "threshold", "pairs_threshold", "must_use")
PENALTY_FIELDS = ("rules", "rack", "keep")
TABLA_FIELDS = ("rules", "rack")
MELD_FIELDS = ("rules", "meld", "kind")


def error_object(exc: BaseException) -> dict[str, str]:
    """The ``{"error": ...}`` object for an exception: a user mistake keeps its own message; any
    other failure is logged under a request id, and the answer says no more than that id."""
    if isinstance(exc, RummyError):
        return {"error": str(exc)}
    return internal_error(exc)


@dataclass(frozen=True)
class OpeningJob:
    """One validated opening request: what :func:`rummy101.solve_opening` needs."""

    rules: Rules
    rack: list[Any]
    threshold: int | None
    pairs_threshold: int | None
    must_use: Any

    @property
    def group(self) -> tuple[Rules, int | None, int | None, int | None]:
        """Jobs with the same group can share one batch-solver call."""
        return (self.rules, self.threshold, self.pairs_threshold,
                None if self.must_use is None else int(self.must_use))

    def solve(self) -> dict[str, Any]:
        return _solve.solve_opening(self.rules, self.rack, threshold=self.threshold,
                                    pairs_threshold=self.pairs_threshold,
                                    must_use=self.must_use).to_json()


def opening_job(body: Any, default_rules: str | Rules = "rummy101",
                defaults: Mapping[str, Any] | None = None,
                what: str = "opening request") -> OpeningJob:
    """Validate one opening request object (``defaults`` fill absent optional fields)."""
    obj = read_object(body, what, OPENING_FIELDS)
    if defaults:
        obj = {**{k: v for k, v in defaults.items() if v is not None},
               **{k: v for k, v in obj.items() if v is not None}}
    rules = read_rules(obj, default_rules)
    rack = read_rack(obj, rules)
    if not rack:
        raise RackError(f"field 'rack' is empty: give at least one {rules.piece_word}")
    threshold = read_opt_int(obj, "threshold", lo=0, hi=MAX_INT)
    pairs_threshold = read_opt_int(obj, "pairs_threshold", lo=0, hi=MAX_INT)
    if pairs_threshold is not None and not rules.pairs_allowed:
        raise BadRequest(f"field 'pairs_threshold': {rules.variant} has no pairs opening (only "
                         f"rummy101, R101-8)")
    must_use = read_piece(obj, "must_use", rules)
    if must_use is not None and must_use not in rack:
        raise RackError(f"field 'must_use': {must_use} is not on the rack: {rules.must_use_reason}")
    return OpeningJob(rules, rack, threshold, pairs_threshold, must_use)


def opening(body: Any, default_rules: str | Rules = "rummy101") -> dict[str, Any]:
    """Answer one opening request: CONTRACT.md's opening object."""
    return opening_job(body, default_rules).solve()


def _solve_group(jobs: list[OpeningJob]) -> list[dict[str, Any]]:
    """Jobs that share rules, thresholds and ``must_use``, through the batch solver at once
    (:mod:`.fast`; identical to :func:`rummy101.solve_opening`, tests/test_service_fast.py)."""
    first = jobs[0]
    return openings_json(first.rules, [[int(t) for t in job.rack] for job in jobs],
                         first.threshold, first.pairs_threshold,
                         -1 if first.must_use is None else int(first.must_use))


class OutOfTime(RummyError):
    """A batch item left unsolved because the request used up its time budget."""


def solve_jobs(jobs: list[OpeningJob],
               budget: float | None = None) -> list[dict[str, Any] | Exception]:
    """Solve validated jobs: those sharing rules and thresholds go through the batch solver
    together, :data:`CHUNK` racks per call; a job the solver refuses gets its exception in place
    of an answer. Once ``budget`` seconds (default :data:`BATCH_SECONDS`) have passed, the jobs
    not yet solved get :class:`OutOfTime` (a few dense racks with jokers cost far more than
    usual racks, so a batch's cost is bounded by time, not only by its size)."""
    deadline = time.monotonic() + (BATCH_SECONDS - waited() if budget is None else budget)
    out: list[dict[str, Any] | Exception | None] = [None] * len(jobs)
    groups: dict[Any, list[int]] = {}
    for i, job in enumerate(jobs):
        groups.setdefault(job.group, []).append(i)
    chunk = batch_chunk(CHUNK)
    for group in groups.values():
        for start in range(0, len(group), chunk):
            members = group[start:start + chunk]
            late = _chunk_check(deadline)
            if late is not None:
                for i in members:
                    out[i] = late
                continue
            try:
                answers: list[dict[str, Any] | Exception] = list(
                    _solve_group([jobs[i] for i in members]))
            except Exception:  # noqa: BLE001 - one bad rack in a group: answer one by one
                answers = []
                for i in members:
                    try:
                        answers.append(jobs[i].solve())
                    except Exception as exc:  # noqa: BLE001 - reported on that item
                        answers.append(exc)
            for i, answer in zip(members, answers, strict=True):
                out[i] = _spent(answer)
    return [a if a is not None else RuntimeError("not answered") for a in out]


def _chunk_check(deadline: float) -> Exception | None:
    """Before each chunk of a batch: the exception its racks get instead of answers, if any
    (out of the quick lane's time: they go on in the slow lane; past the request's time budget:
    :class:`OutOfTime`). A server shutting down ends the request (:func:`check_stop`)."""
    try:
        check_stop()
    except WorkBudgetExceeded as exc:
        return exc
    if time.monotonic() > deadline:
        wait = queued()
        before = f", {wait:.0f} s of it waiting for a solver thread" if wait >= 1 else ""
        return OutOfTime(f"not solved: the request used up its {BATCH_SECONDS:g} s time "
                         f"budget{before}; send fewer racks per request")
    return None


def _text_jobs(items: list[Any], rules: Rules, defaults: Mapping[str, Any] | None,
               deadline: float) -> dict[int, bytes | Exception]:
    """The fast path of a batch (issue 11): the items that are text racks the token table reads
    (:func:`.fast.read_racks`) and that hold ``must_use`` when one is given, solved and written
    as JSON by the core, :data:`CHUNK` racks per call with the same time and stop checks as
    :func:`solve_jobs`, each chunk split over :func:`.fast.batch_threads` threads. Their answers
    (or exceptions) by item index; every other item is left to :func:`opening_job`, which
    answers it or names its mistake as before. Nothing when the shared fields are not valid
    (every item then gets that mistake from :func:`opening_job`)."""
    shared = {k: v for k, v in (defaults or {}).items() if v is not None}
    if "rules" in shared or not any(isinstance(x, str) for x in items):
        return {}
    try:  # the shared fields, read as opening_job reads them on each item
        threshold = read_opt_int(shared, "threshold", lo=0, hi=MAX_INT)
        pairs_threshold = read_opt_int(shared, "pairs_threshold", lo=0, hi=MAX_INT)
        if pairs_threshold is not None and not rules.pairs_allowed:
            return {}
        must_use = read_piece(shared, "must_use", rules)
    except RummyError:
        return {}
    counts, codes, offsets, ok = read_racks(rules, items)
    if must_use is not None:
        ok &= counts[:, int(must_use)] > 0  # not on the rack: opening_job says so
    rows = np.flatnonzero(ok)
    if not rows.size:
        return {}
    lengths = offsets[1:] - offsets[:-1]
    codes = codes[np.repeat(ok, lengths)]
    offsets = np.concatenate(([0], np.cumsum(lengths[rows])))
    counts = counts[rows]
    mu = -1 if must_use is None else int(must_use)
    threads = batch_threads()
    out: dict[int, bytes | Exception] = {}
    chunk = batch_chunk(CHUNK)
    for start in range(0, rows.size, chunk):
        stop = min(rows.size, start + chunk)
        members = rows[start:stop].tolist()
        late = _chunk_check(deadline)
        if late is not None:
            for i in members:
                out[i] = late
            continue
        answers = answers_json(rules, counts[start:stop], codes[offsets[start]:offsets[stop]],
                               offsets[start:stop + 1], threshold, pairs_threshold, mu, threads)
        for k, (i, answer) in enumerate(zip(members, answers, strict=True)):
            if answer is None:  # this rack spent the work budget
                rack = codes[offsets[start + k]:offsets[start + k + 1]].tolist()
                out[i] = WorkBudgetExceeded(f"rack {rack_text(rules, rack)}: "
                                            f"{_solve.budget_message(_solve.current_budget())}")
            else:
                out[i] = answer
    return out


def _spent(answer: dict[str, Any] | Exception) -> dict[str, Any] | Exception:
    """The batch solver answers ``{"error"}`` for a rack that spent its work budget: that is
    a :class:`~rummy101.errors.WorkBudgetExceeded` for the request."""
    if isinstance(answer, dict) and "error" in answer:
        return WorkBudgetExceeded(str(answer["error"]))
    return answer


def openings(items: list[Any], default_rules: str | Rules = "rummy101",
             defaults: Mapping[str, Any] | None = None,
             labels: list[str] | None = None, *, raw: bool = False) -> list[Any]:
    """Answer a batch: one answer per item, in order; a bad item gets ``{"error": ...}``.

    An item is a rack (string or list of tokens) or an opening request object. Valid items that
    share rules and thresholds go through the batch solver together; text racks of the batch's
    rules that the token table reads are solved and written as JSON by the core (issue 11).
    Errors name the item as ``labels[i]`` (default ``"item i"``, counting from 0). ``raw``: the
    answers of that fast path stay JSON bytes (the service sends them as they are).
    """
    def label(i: int) -> str:
        return labels[i] if labels is not None else f"item {i}"

    # (in the service the budget counts from the request's arrival: a batch that waited for the
    # slow lane has less of it left, so no batch holds the lane past its own 20 s)
    deadline = time.monotonic() + BATCH_SECONDS - waited()
    out: list[Any] = [None] * len(items)
    rules = default_rules if isinstance(default_rules, Rules) else read_rules({}, default_rules)
    for i, done in _text_jobs(items, rules, defaults, deadline).items():
        out[i] = (done if isinstance(done, bytes)
                  else {"error": f"{label(i)}: {error_object(done)['error']}"})
    valid: list[tuple[int, OpeningJob]] = []
    for i, item in enumerate(items):
        if out[i] is not None:
            continue
        try:
            if not isinstance(item, (str, list, dict)):  # (a number is no rack: no 'rack' field
                # to name, the item itself is wrong)
                raise BadRequest(f"must be a rack such as \"R1 R2 R3\" or an object such as "
                                 f"{{\"rack\": \"R1 R2 R3\"}}, got {described(item)}")
            body = item if isinstance(item, dict) else {"rack": item}
            # (the label goes first: "item 3: unknown field 'x' in this item", not twice)
            what = "this " + label(i).split(" ", 1)[0]
            valid.append((i, opening_job(body, default_rules, defaults, what=what)))
        except RummyError as exc:
            out[i] = {"error": f"{label(i)}: {exc}"}
    for (i, _), answer in zip(valid, solve_jobs([job for _, job in valid],
                                                deadline - time.monotonic()), strict=True):
        out[i] = ({"error": f"{label(i)}: {error_object(answer)['error']}"}
                  if isinstance(answer, Exception) else answer)
    out = [a if a is not None else {"error": f"{label(i)}: not answered"} for i, a in enumerate(out)]
    if not raw:
        fast = [i for i, a in enumerate(out) if isinstance(a, bytes)]
        if fast:
            for i, a in zip(fast, json.loads(b"[" + b",".join(out[i] for i in fast) + b"]"),
                            strict=True):
                out[i] = a
    return out


def _results(answers: list[Any]) -> bytes:
    """``{"results": [...]}`` as JSON bytes, the answers already written by the core kept as
    they are (the bytes :func:`.answer.encode` gives for the same object)."""
    return b'{"results":[' + b",".join(a if isinstance(a, bytes) else encode(a) for a in answers) + b"]}"


def solve_opening_bodies(bodies: list[Any]) -> list[dict[str, Any] | bytes | Exception]:
    """Answer many ``POST /v1/solve/opening`` bodies at once (the service coalesces concurrent
    requests this way): single requests share batch-solver calls; each body gets its answer or
    the exception that :func:`solve_opening_body` would raise. A batch's answer comes as JSON
    bytes (the same bytes :func:`.answer.encode` gives for :func:`solve_opening_body`'s
    answer)."""
    out: list[dict[str, Any] | bytes | Exception | None] = [None] * len(bodies)
    singles: list[tuple[int, OpeningJob]] = []
    for i, body in enumerate(bodies):
        try:
            if isinstance(body, list) or (isinstance(body, dict) and "racks" in body):
                out[i] = _opening_body(body, raw=True)
            else:
                singles.append((i, opening_job(body)))
        except Exception as exc:  # noqa: BLE001 - returned to that request
            out[i] = exc
    for (i, _), answer in zip(singles, solve_jobs([job for _, job in singles]), strict=True):
        # a single rack left unsolved when the shared call ran out of time is the service's
        # load, not the request's mistake: 429 (retry), not 422 "send fewer racks per request"
        out[i] = _busy_single(answer) if isinstance(answer, OutOfTime) else answer
    return [a if a is not None else RuntimeError("not answered") for a in out]


def _busy_single(late: OutOfTime) -> Exception:
    from .batching import Busy  # (batching does not import this module: no cycle)

    wait = queued()
    before = f", {wait:.0f} s of it waiting for a solver thread" if wait >= 1 else ""
    return Busy(f"the service is busy: the rack was not reached within the request's "
                f"{BATCH_SECONDS:g} s time budget{before} (dense racks of other requests "
                f"shared its solver call); retry later")


def solve_opening_body(body: Any) -> dict[str, Any]:
    """The body of ``POST /v1/solve/opening``: one request, or a batch.

    A batch is ``{"rules": ..., "racks": [...]}`` (optional shared ``threshold``,
    ``pairs_threshold``, ``must_use``) or a JSON list of request objects; it answers
    ``{"results": [...]}`` with one answer or ``{"error": ...}`` per item, in order.
    """
    answer: dict[str, Any] = _opening_body(body, raw=False)
    return answer


def _opening_body(body: Any, *, raw: bool) -> Any:
    """:func:`solve_opening_body`; ``raw``: a batch's answer as JSON bytes (the service's)."""
    if isinstance(body, list):
        _check_batch_size(body, "the batch")
        answers = openings(body, raw=raw)
        return _results(answers) if raw else {"results": answers}
    if isinstance(body, dict) and "racks" in body:
        obj = read_object(body, "batch request", BATCH_FIELDS)
        racks = obj["racks"]
        if not isinstance(racks, list):
            raise BadRequest(f"field 'racks' must be a list of racks, got {described(racks)}")
        _check_batch_size(racks, "field 'racks'")
        rules = read_rules(obj, "rummy101")
        read_opt_int(obj, "threshold", lo=0, hi=MAX_INT)  # shared fields: their types here,
        read_opt_int(obj, "pairs_threshold", lo=0, hi=MAX_INT)  # their meaning per item
        if obj.get("must_use") is not None and not isinstance(obj["must_use"], str):
            raise BadRequest(f"field 'must_use' must be one token such as \"R5\", got "
                             f"{described(obj['must_use'])}")
        shared = {k: obj.get(k) for k in ("threshold", "pairs_threshold", "must_use")}
        answers = openings(racks, rules, shared, raw=raw)
        return _results(answers) if raw else {"results": answers}
    return opening(body)


def _check_batch_size(items: list[Any], what: str) -> None:
    if not items:
        raise BadRequest(f"{what} is empty: give 1 to {MAX_BATCH} racks")
    if len(items) > MAX_BATCH:
        raise BadRequest(f"{what} holds {len(items)} racks; at most {MAX_BATCH} are accepted per "
                         f"request (split the batch)")


def penalty(body: Any, default_rules: str | Rules = "rummy101") -> dict[str, Any]:
    """Answer a penalty request: the lay-down that leaves the least penalty on the rack."""
    obj = read_object(body, "penalty request", PENALTY_FIELDS)
    rules = read_rules(obj, default_rules)
    rack = read_rack(obj, rules)
    # absent or null: as the variant finishes (a piece kept to discard, but not in classic,
    # CR-4); true or false as asked
    keep = None if obj.get("keep") is None else read_bool(obj, "keep", True)
    return _solve.solve_penalty(rules, rack, keep=keep).to_json()


def tabla(body: Any, default_rules: str | Rules = "remi") -> dict[str, Any]:
    """Answer a tabla request: the best close on the rack of a Remi rack (RO-11)."""
    obj = read_object(body, "tabla request", TABLA_FIELDS)
    rules = read_rules(obj, default_rules)
    rack = read_rack(obj, rules)
    # named by its field; rules without tabla are refused first, by solve_tabla (RO-11)
    if getattr(rules.opts, "tabla", False) and len(rack) not in (_tabla.TABLA_TILES,
                                                                 _tabla.TABLA_TILES + 1):
        raise RackError(f"field 'rack' holds {len(rack)} tile{'s' if len(rack) != 1 else ''}: "
                        f"{_tabla.TABLA_SIZE}")
    return _tabla.solve_tabla(rules, rack).to_json()


def validate_meld(body: Any, default_rules: str | Rules = "rummy101") -> dict[str, Any]:
    """Answer a meld check: legal or not (and why), kind, value, jokers, possible additions.

    ``kind`` (optional) asks for one reading, so that a solver's meld object reads back as it
    was laid: ``{"kind": "set", "tiles": ["*", "*", "K13"]}`` is the set of 13s, which the
    tiles alone read as the run K11-K13 (CONTRACT.md, meld notation; docs/service.md)."""
    obj = read_object(body, "meld request", MELD_FIELDS)
    rules = read_rules(obj, default_rules)
    kind = obj.get("kind")
    if kind is not None and kind not in ("run", "set", "pair"):
        raise BadRequest(f"field 'kind' is {short(kind)}; accepted: run, set, pair (or null: "
                         "the reading of the tiles alone)")
    tiles = read_rack(obj, rules, field="meld", max_size=MAX_MELD)
    if not tiles:
        raise BadRequest("field 'meld' is empty: give the tiles of one meld in table order")
    return {"rules": str(rules), **_melds.check_meld(rules, tiles, kind=kind).to_json()}


def hint(body: Any) -> dict[str, Any]:
    """Answer a hint request (``POST /v1/hint``): the recommended Rummy 101 turn and up to
    ``alternatives`` (default 3) next-best turns for the seat's view (see :mod:`rummy101.hint`)."""
    from .. import hint as _hint  # imported on first use: the planner is not needed to start

    _no_sim_row(body)
    _no_rules_beside_the_game(body)
    other = _other_variant_game(body)
    if other is not None:
        return other
    staged = _staged_opening(body)
    if staged is not None:
        return staged
    if isinstance(body, Mapping) and body.get("record") is not None:
        # the game itself: a Rummy 101 staged opening is planned from the turn's start
        from ..hint import generic

        obj = read_object(body, "hint request", _hint.HINT_FIELDS)
        state, seat = _hint.state_from_record(obj)
        alternatives = read_opt_int(obj, "alternatives", lo=0, hi=10)
        return generic.hint_state(state, seat, 3 if alternatives is None else alternatives)
    view = _hint.SeatView.from_json(body)
    if isinstance(body, Mapping) and body.get("observation") is not None:
        _check_unread_fields(body["observation"])
    alternatives = read_opt_int(body, "alternatives", lo=0, hi=10)
    return _hint.hint(view, 3 if alternatives is None else alternatives).to_json()


def _check_unread_fields(obs: Any) -> None:
    """A Rummy 101 observation's fields that its hint does not read (stock, rack_sizes,
    standings, discards, round, turn, ...) checked as Remi's and classic's are: the engine
    rebuilds a position from the observation (:func:`rummy101.hint.generic.sample_observation`),
    which must show that same observation; a field of the wrong kind or range is named with what
    it must be. (They were not checked at all: `"stock": "lots"` or `"round": -5` got a hint.)"""
    from ..hint import generic

    with _engine_reads("observation", obs, "rummy101"):
        generic.sample_observation(obs)


def _no_rules_beside_the_game(body: Any) -> None:
    """A hint request's ``rules`` beside a ``record`` or ``observation``, which carries its
    own: refused (422), and named as a conflict when it says another game than the record's or
    observation's (``{"rules": "remi", "record": <a rummy101 game>}`` was told "remove rules",
    or, for a Remi record, that 'rules' is an unknown field)."""
    if not isinstance(body, Mapping) or body.get("rules") is None:
        return
    source = "record" if body.get("record") is not None else "observation"
    value = body.get(source)
    if value is None:
        return  # the view fields: 'rules' is theirs
    if isinstance(value, str):
        value = loads(value, what=f"field {source!r}")
    theirs = value.get("rules") if isinstance(value, Mapping) else None
    asked = body["rules"]
    what = "game record" if source == "record" else "observation"
    if isinstance(theirs, str) and isinstance(asked, str):
        try:
            differ = Rules.parse(asked) != Rules.parse(theirs)
        except RummyError:
            differ = asked != theirs
    else:
        differ = False
    if differ:
        raise BadRequest(f"field 'rules' says {short(asked)} but the {what} in field {source!r} "
                         f"is of {short(theirs)}: the {what} carries its own rules, and "
                         f"'rules' is not read beside it; remove 'rules' (or send "
                         f"{'a' if source == 'record' else 'an'} {what} of those rules)")
    raise BadRequest(f"field 'rules' is not read beside field {source!r}: the {what} carries "
                     f"its own rules; remove 'rules'")


def _no_sim_row(body: Any) -> None:
    """A line of `rummy101 sim --out` sent as the request: its "record" field says which kind
    of line it is ("summary" or "full"), not a game record, so it is named as what it is
    instead of "field 'record' is not valid JSON"."""
    if not isinstance(body, Mapping) or "scores" not in body:
        return
    if body.get("record") == "summary":
        raise BadRequest("this is a summary row of `rummy101 sim --out` (seeds and scores, no "
                         "actions), not a hint request: a game to hint is a game record, such "
                         "as `rummy101 play --save` writes, sent as the request's \"record\"")
    if body.get("record") == "full":
        raise BadRequest("this is a line of `rummy101 sim --record full`, a finished game: "
                         "there is no turn to hint; a game record goes in the request's "
                         "\"record\" field")


def _staged_opening(body: Any) -> dict[str, Any] | None:
    """A Rummy 101 hint from the observation of the seat to move with a staged opening (melds
    laid this turn that do not open yet, R101-7/8): planned from the turn's start
    (:func:`rummy101.hint.generic.hint_from_turn_start`, every turn beginning with ``reset``).
    None for any other request."""
    if not isinstance(body, Mapping):
        return None
    obs = body.get("observation")
    if not isinstance(obs, Mapping) or _variant_of(obs) != "rummy101":
        return None
    ts = obs.get("turn_state")
    if not isinstance(ts, Mapping) or not ts.get("staged") or obs.get("own_turn") is None:
        return None
    from ..hint import generic

    obj = read_object(body, "hint request", ("observation", "seat", "alternatives"))
    alternatives = read_opt_int(obj, "alternatives", lo=0, hi=10)
    seat = obj.get("seat")
    if seat is not None and seat != obs.get("seat"):
        raise BadRequest(f"field 'seat' is {short(seat)} but the observation is seat "
                         f"{short(obs.get('seat'))}'s: a hint needs the seat's own view")
    with _engine_reads("observation", obs, "rummy101"):
        return generic.hint_from_turn_start(obs, 3 if alternatives is None else alternatives)


#: Actions a game record may hold in a hint request (a classic match to 200 takes a few hundred).
MAX_HINT_RECORD_ACTIONS = 5000


def _variant_of(obj: Any) -> str | None:
    if isinstance(obj, str):
        obj = loads(obj, what="field 'record'")
    if isinstance(obj, dict) and isinstance(obj.get("rules"), str):
        try:
            return Rules.parse(obj["rules"]).variant
        except RummyError:
            return None  # the Rummy 101 reader names the problem
    return None


def _other_variant_game(body: Any) -> dict[str, Any] | None:
    """Hints for the variants without a planner of their own (Remi, classic): from an
    observation or a game record, through :mod:`rummy101.hint.generic`. None when the request
    is for Rummy 101 (or is no such request: the Rummy 101 reader then names the problem)."""
    if not isinstance(body, Mapping):
        return None
    source = "observation" if body.get("observation") is not None else "record"
    value: Any = body.get(source)
    variant = _variant_of(value)
    if variant is None or variant == "rummy101":
        return None
    from ..hint import generic

    obj = read_object(body, "hint request", ("observation", "record", "seat", "alternatives"))
    if obj.get("observation") is not None and obj.get("record") is not None:
        raise BadRequest("fields 'record' and 'observation' replace each other: send one")
    alternatives = read_opt_int(obj, "alternatives", lo=0, hi=10)
    alternatives = 3 if alternatives is None else alternatives
    seat = obj.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadRequest(f"field 'seat' must be a seat number, got {described(seat)}")
    # the slow lane bounds each search, not the replay and the plan: a 60-tile Remi record held
    # the pure backend's one slow thread for 67 s
    with _engine_reads(source, value, variant), time_limit(HINT_SECONDS, (
            f"the hint needs more than {HINT_SECONDS:g} s for this {source} (replaying it and "
            f"planning the turn); no turn is recommended")):
        if source == "observation":
            obs = value
            if seat is not None and seat != obs.get("seat"):
                raise BadRequest(f"field 'seat' is {seat} but the observation is seat "
                                 f"{short(obs.get('seat'))}'s: a hint needs the seat's own view")
            if obs.get("phase") == "over":
                raise BadRequest("the observed game is over (phase \"over\"): there is no turn "
                                 "to hint")
            if obs.get("current_player") != obs.get("seat"):
                raise BadRequest("the observation is not at its seat's turn: a hint is for the "
                                 "seat to move")
            return generic.hint_for_observation(obs, alternatives)
        from ..hint.view import read_game_record

        state, mover = read_game_record(value, seat)
        return generic.plan(state, mover, alternatives)


#: what :func:`_engine_reads` lets through unchanged: its own answers and the stops of _cancel
_ANSWERED_AS_THEY_ARE: tuple[type[Exception], ...] = (BadRequest, *STOPS)


@contextmanager
def _engine_reads(source: str, value: Any, variant: str | None) -> Iterator[None]:
    """The engine reads a hint request's ``observation`` or ``record`` (``source``, its
    ``value``, of ``variant``) inside: what it cannot read becomes a BadRequest naming the
    field and what to send, never Python's words."""
    try:
        yield
    except _ANSWERED_AS_THEY_ARE:  # a spent budget: the slow lane takes it on; over the
        raise                      # hint's own time, or stopping: answered as such
    except KeyError as exc:
        key = exc.args[0] if exc.args else ""
        if source == "observation" and not isinstance(key, str):  # (a list used as a mapping)
            raise BadRequest(_observation_kind_problem(value, variant, exc)) from None
        if isinstance(key, str) and not (key.isidentifier() and key.islower()):
            # a piece the engine looked up, not a field ('atu': 'K99' was called a missing
            # field 'K99')
            raise BadRequest(f"field {source!r} holds {key[:40]!r}, which is no piece of its "
                             f"rules' set (a tile such as R5 or *, a card such as QS, as "
                             f"State.observation(seat) writes them): send it as it is") from None
        raise BadRequest(f"field {source!r} lacks the field {exc}: send State.observation(seat) or "
                         "a game record as it is") from None
    except IndexError:  # a per-seat list (rack_sizes, melded, own_turns...) shorter than the seats
        raise BadRequest(f"field {source!r} does not hold together: a list in it is shorter than "
                         f"the seats or items it describes; send State.observation(seat) or a game "
                         f"record as it is") from None
    except (TypeError, AttributeError) as exc:  # Python's words ("'int' object is not
        # subscriptable"), which name no field: the field whose value is of the wrong kind
        if source == "observation":
            raise BadRequest(_observation_kind_problem(value, variant, exc)) from None
        raise BadRequest(f"field {source!r}: {exc}") from None
    except (RummyError, ValueError) as exc:
        if source == "observation" and type(exc) is ValueError:
            # "fields opened_turn do not fit together": a value of the wrong kind is named
            found = _kind_problem(value, variant)
            if found:
                raise BadRequest(found) from None
        raise BadRequest(f"field {source!r}: {exc}") from None


@functools.cache
def _sample_observation(variant: str) -> dict[str, Any]:
    """An observation of ``variant`` as the engine writes it, with melds on the table and a
    discard (a fixed game of greedy bots, a few turns in): the JSON kinds of its fields."""
    import random

    from ..bots import get_bot
    from ..game import new_game

    state = new_game(variant, 0)
    bots = [get_bot("greedy", random.Random(seat)) for seat in range(state.n)]
    for _ in range(200):
        obs = state.observation(state.current_player)
        if state.is_terminal or (obs["table"] and obs.get("last_discard")):
            break
        state.apply(bots[state.current_player].act(obs, state.legal_actions()))
    return state.observation(state.current_player)


def _kind(value: Any) -> str:
    """A JSON value's kind as the observation messages name it (a boolean: "true or false")."""
    return "true or false" if isinstance(value, bool) else type_name(value)


def _kind_mismatch(want: Any, got: Any, where: str) -> str | None:
    """Where ``got`` first holds a value of another JSON kind than ``want`` (lists: each item
    against ``want``'s first; objects: their common keys; null fits anything), or None."""
    if want is None or got is None:
        return None
    if _kind(want) != _kind(got):
        return f"{where} must be {_kind(want)}, as State.observation(seat) writes it, got " \
               f"{described(got)}"
    if isinstance(want, list) and want:
        for i, item in enumerate(got):
            found = _kind_mismatch(want[0], item, f"{where} item {i}")
            if found:
                return found
    if isinstance(want, dict):
        for key in want.keys() & got.keys():
            found = _kind_mismatch(want[key], got[key], f"{where}[{short(key)}]")
            if found:
                return found
    return None


def _kind_problem(obs: Any, variant: str | None) -> str | None:
    """The message naming the first value of ``obs`` (an observation of ``variant``) of another
    JSON kind than the engine writes there (its field and item), or None."""
    if isinstance(obs, Mapping) and variant is not None:
        sample = _sample_observation(variant)
        for key in sample:
            if key in obs:
                found = _kind_mismatch(sample[key], obs[key], f"its {key!r}")
                if found:
                    return f"field 'observation': {found}"
    return None


def _observation_kind_problem(obs: Any, variant: str | None, exc: Exception) -> str:
    """The message for an observation the engine could not read because a value is of the wrong
    kind: that value named (its field and item), else Python's words with what to send."""
    found = _kind_problem(obs, variant)
    if found:
        return found
    return (f"field 'observation' holds a value of the wrong kind ({exc}): send "
            f"State.observation(seat) as it is")
