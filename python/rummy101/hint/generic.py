"""Hints for every variant without a planner of its own (Remi, classic card Rummy): the turn the
variant's ``greedy`` bot plays from the seat's position, its reasons, and the next-best turns.

The greedy bots decide from the seat's observation only and on the exact core solvers
(:mod:`rummy101.bots.greedy_remi`, :mod:`rummy101.bots.greedy_classic`). A hint plays that bot on
a position consistent with what the seat knows — the game itself (from a record) or a world the
engine samples from an observation (``sample_state``: hidden racks and stock dealt at random) —
for the seat's steps of the current turn. It stops before a draw from the stock, whose tile the
seat cannot know yet (``"complete": false``: ask again after drawing), so the plan never depends
on the sampled hidden pieces. Alternatives change the take (draw instead of the discard, or the
discard instead of the draw) or the final discard (the others that leave the least deadwood),
each finished by the same bot; every turn is evaluated on the same position: a finish scores
1000 plus its round points, otherwise minus the deadwood left on the rack (the exact penalty
solver under the variant's end values, RO-12 / CR-2).

>>> from rummy101.game import new_game
>>> s = new_game("classic(players=2)", 3)
>>> h = plan(s, s.current_player, alternatives=1)
>>> h["turn"]["steps"][0]["step"] in ("draw", "take"), h["planner"]
(True, 'greedy')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .._cancel import check_stop
from ..bots import get_bot
from ..bots.strategy import deadwood, kit_for
from ..game import Action, Phase, State, engine_for
from ..tiles import NUM_CODES

__all__ = ["REASONS", "STAGED_RESET_STEP", "hint_for_observation", "hint_from_turn_start", "hint_state",
           "plan", "sample_observation"]

#: Per variant and verb: the reason shown for a step (rule IDs of RULES.md).
REASONS: dict[str, dict[str, str]] = {
    "remi": {
        "draw": "RO-5: draws from the stock — the discards do not help this turn",
        "take": "RO-9/RO-10: takes the last discard, which goes into a meld this turn",
        "break": "RO-9.4: breaks the train — takes that discard and every later one, and lays its meld at once",
        "atu": "RO-4: takes the Atu to finish",
        "run": "RO-6/RO-8: lays a run",
        "set": "RO-6/RO-8: lays a set",
        "lay": "RO-6/RO-7: lays a whole run whose two Jolys bridge gaps (no single additions build it)",
        "add": "RO-9: adds a tile to a table meld",
        "retrieve": "RO-9.5: takes back a Joly and plays it again at once",
        "open": "RO-8: commits the first lay-down (at least 45 points with a run)",
        "reset": "undoes the turn's plays",
        "discard": "RO-5/RO-13: the discard",
        "announce": "RO-3: announces a double",
        "accept": "RO-3: accepts the exchange of doubles",
        "decline": "RO-3: declines the exchange",
        "tabla": "RO-11: declares tabla — the rack will close without laying down",
        "close": "RO-11: closes on the rack",
    },
    "classic": {
        "draw": "CR-3: draws from the stock — the pile's top card goes into no meld",
        "take": "CR-3: takes the pile's top card, which goes into a meld",
        "run": "CR-3: lays a run",
        "set": "CR-3: lays a set",
        "add": "CR-3: lays off a card on a table meld",
        "discard": "CR-3/CR-4: the discard",
    },
}

_TAKES = ("draw", "take", "break", "atu")

#: The reason of a decline that is the seat's only action in Remi's exchange.
_PASS = ("RO-3: holds no double to announce or to swap for the one on offer, so passes (every "
         "seat is asked, so the order tells nobody who holds one)")


def _greedy(seed: int) -> Any:
    return get_bot("greedy", random.Random(seed))


def _follow(state: State, seat: int, first: Action | None, discard: Action | None,
            seed: int) -> tuple[list[Action], bool, State]:
    """The seat's steps of this turn on a copy of ``state``: ``first`` forced as the first step
    and ``discard`` as the turn's discard when given, the greedy bot for the rest. A draw from
    the stock ends the plan unapplied (complete = False): it is listed when it is the first step;
    the position returned is the one before it. So does an ``accept`` of Remi's exchange (RO-3:
    the announced double it brings is unknown to the seat), and any other step of the exchange
    is the plan's last (the exchange's next decision, or the seat's first turn, is asked anew)."""
    w = state.copy()
    bot = _greedy(seed)
    steps: list[Action] = []
    rounds, turn = len(state.scores), state.turn
    # this turn only: a finish ends the round, and the next may well start with the same seat
    while (not w.is_terminal and w.current_player == seat and len(w.scores) == rounds
           and w.turn == turn):
        check_stop()  # a server may stop the plan (its time up, shutting down: rummy101._cancel)
        legal = w.legal_actions()
        if first is not None and not steps:
            a = first
        else:
            a = bot.act(w.observation(seat), legal)
            if discard is not None and a.verb == "discard":
                a = discard
        if a.verb in ("draw", "accept"):  # the tiles it brings are unknown (a draw; RO-3's
            if not steps:                   # swap brings the announced double): the plan ends
                steps.append(a)             # here, not applied
            return steps, False, w
        steps.append(a)
        exchange = w.phase is Phase.EXCHANGE
        w.apply(a)
        if exchange or len(steps) > 200:  # RO-3: one decision of the exchange a hint (the next
            break                         # one is the seat's again, or its first turn's)
    return steps, True, w


def _evaluate(state: State, w: State, seat: int, complete: bool) -> dict[str, Any]:
    """Finish: 1000 + the round points; else minus the deadwood left (penalty valuation; for a
    plan that stops at a draw, the rack before the draw)."""
    if len(w.scores) > len(state.scores):
        # the round the plan finished: the first result past the start's (a position sampled
        # from an observation has the earlier rounds' scores but not their results)
        res = w.round_results()[len(state.results)]
        won = res.get("winner") == seat
        points = w.round_scores()[len(state.scores)][seat]
        return {"finishes": won, "round_points": points,
                "score": float(1000 + points if won else points)}
    counts = [0] * NUM_CODES
    for c in range(NUM_CODES):
        counts[c] = w.racks[seat][c]
    left = deadwood(kit_for(w.rules), counts, keep=False)
    return {"finishes": False, "pieces_left": w.sizes[seat], "deadwood": left,
            "score": float(-left)}


def _turn_json(state: State, seat: int, steps: Sequence[Action], complete: bool,
               w: State) -> dict[str, Any]:
    reasons = REASONS.get(state.rules.variant, {})
    evaluation = _evaluate(state, w, seat, complete)
    out = []
    for k, a in enumerate(steps):
        reason = reasons.get(a.verb, a.verb)
        if k == 0 and a.verb == "decline" and state.legal_actions() == [a]:
            reason = _PASS  # RO-3: asked like every seat, with nothing to offer
        if a.verb == "discard" and "deadwood" in evaluation:
            reason = f"{reason.split(':')[0]}: discards {a.tiles[0]}, leaving {evaluation['deadwood']} points of deadwood"
        out.append({"step": a.verb, "action": str(a), "reason": reason, "actions": [str(a)]})
    turn: dict[str, Any] = {"steps": out, "actions": [str(a) for a in steps], "complete": complete,
                            "evaluation": evaluation}
    if not complete:
        turn["next"] = (f"draw, then ask again: the drawn {state.rules.piece_word} decides the rest "
                        "of the turn")
    return turn


def plan(state: State, seat: int, alternatives: int = 3, seed: int = 0) -> dict[str, Any]:
    """The hint for ``seat`` in ``state`` (its turn): the greedy bot's turn and up to
    ``alternatives`` genuinely different ones (another take or another discard), best first."""
    if state.is_terminal:
        raise ValueError("the game is over: there is no turn to hint")
    if state.current_player != seat:
        raise ValueError(f"it is seat {state.current_player}'s turn, not seat {seat}'s")
    steps, complete, w = _follow(state, seat, None, None, seed)
    turns = [(steps, complete, w)]
    seen = {tuple(map(str, steps))}
    legal = state.legal_actions()
    # another take: every other legal first step of the take phase
    if steps and steps[0].verb in _TAKES:
        for a in legal:
            if a.verb in _TAKES and a != steps[0]:
                alt = _follow(state, seat, a, None, seed)
                key = tuple(map(str, alt[0]))
                if key not in seen:
                    seen.add(key)
                    turns.append(alt)
    # another discard: the others that leave the least deadwood, after the same plays
    if complete and steps and steps[-1].verb == "discard":
        before = state.copy()
        for a in steps[:-1]:
            before.apply(a)
        kit = kit_for(state.rules)
        counts = list(before.racks[seat])
        ranked = []
        for d in before.legal_actions():
            if d.verb != "discard" or d == steps[-1]:
                continue
            c = int(d.tiles[0])
            counts[c] -= 1
            ranked.append((deadwood(kit, counts, keep=False), c, d))
            counts[c] += 1
        ranked.sort(key=lambda r: (r[0], r[1]))
        for _, _, d in ranked[:max(0, alternatives)]:
            alt = _follow(state, seat, steps[0] if steps[0].verb in _TAKES else None, d, seed)
            key = tuple(map(str, alt[0]))
            if key not in seen:
                seen.add(key)
                turns.append(alt)
    best = turns[0]
    others = sorted(turns[1:], key=lambda t: -_evaluate(state, t[2], seat, t[1])["score"])
    obs = state.observation(seat)
    return {
        "rules": str(state.rules),
        "seat": seat,
        "stage": state.phase.value,
        "rack": " ".join(obs["rack"]),
        "planner": "greedy",
        "turn": _turn_json(state, seat, best[0], best[1], best[2]),
        "alternatives": [_turn_json(state, seat, *t) for t in others[:max(0, alternatives)]],
    }


def sample_observation(obs: Mapping[str, Any], seed: int = 0) -> State:
    """A position the engine samples from one seat's observation, checked to show exactly that
    observation. ValueError when it is not one the engine makes (or the variant has no
    sampler)."""
    from ..rules import Rules

    rules = Rules.parse(obs["rules"])
    sampler = getattr(engine_for(rules), "sample_state", None)
    if sampler is None:
        raise ValueError(f"hints from an observation are not available for {rules.variant} yet; "
                         "send the game record instead")
    state: State = sampler(obs, random.Random(seed))
    got = state.observation(obs["seat"])
    if got != dict(obs):
        diff = sorted(k for k in set(got) | set(obs) if got.get(k) != obs.get(k))
        raise ValueError(f"the observation is not one the {rules.variant} engine makes (fields "
                         f"{', '.join(diff)} do not fit together): send State.observation(seat) "
                         "as it is")
    return state


def hint_for_observation(obs: Mapping[str, Any], alternatives: int = 3, seed: int = 0) -> dict[str, Any]:
    """The hint from one seat's observation: the engine samples a position consistent with it
    (:func:`sample_observation`; the plan does not depend on the sample: it stops before any
    draw). ValueError when the observation is not one the engine makes."""
    return plan(sample_observation(obs, seed), obs["seat"], alternatives, seed)


#: The step put before every turn of a hint planned from the start of a half-built opening.
STAGED_RESET_STEP = {
    "step": "reset", "actions": ["reset"],
    "reason": "the melds laid this turn do not open yet; the hint plans the whole turn from its "
              "start, so they are taken back first (R101-7, R101-8)"}


def hint_state(state: State, seat: int | None = None, alternatives: int = 3) -> dict[str, Any]:
    """The hint for ``seat`` (default: the seat to move) in ``state``, as JSON: Rummy 101's
    planner, or the variant's greedy turn (:func:`plan`) for Remi and classic. A Rummy 101
    turn with a staged opening (melds laid this turn that do not open yet, R101-7/8) is planned
    from its start: the planner plans whole turns and takes no half-built opening, so the
    position is reset and every turn of the answer begins with ``reset``, which the real game
    plays (the web page's games, a game record, an observation through
    :func:`hint_from_turn_start`)."""
    who = state.current_player if seat is None else seat
    if state.rules.variant != "rummy101":
        return plan(state, who, alternatives)
    from .plan import hint
    from .view import view_from_state

    staged = (who == state.current_player and not state.is_terminal
              and (state.observation(who).get("turn_state") or {}).get("staged")
              and any(a.verb == "reset" for a in state.legal_actions()))
    if not staged:
        return hint(view_from_state(state, who), alternatives).to_json()
    start = state.copy()
    start.apply("reset")
    answer = hint(view_from_state(start, who), alternatives).to_json()
    for turn in (answer["turn"], *answer.get("alternatives", ())):
        turn["steps"] = [dict(STAGED_RESET_STEP), *turn["steps"]]
        turn["actions"] = ["reset", *turn["actions"]]
    return answer


def hint_from_turn_start(obs: Mapping[str, Any], alternatives: int = 3) -> dict[str, Any]:
    """A Rummy 101 hint from the observation of the seat to move with a staged opening (melds
    laid this turn that do not open yet, R101-7/8), planned from the turn's start, which the
    observation's ``own_turn`` gives (the engine samples the position, :func:`hint_state`
    resets it: the seat's view there holds nothing the seat cannot see). ValueError when the
    observation is not one the engine makes."""
    return hint_state(sample_observation(obs), obs["seat"], alternatives)
