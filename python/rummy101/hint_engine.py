"""Hints and the Rummy 101 game engine: views from engine states and observations, and a hint's
steps as engine actions (``rummy101.game``, docs/DESIGN.md "Game surface").

The engine builds a turn from small actions (``draw``, ``take``, ``button``, 3-tile ``run`` /
``set`` or a ``pair``, ``add T to M@start|@end``, ``retrieve M:I with T``, ``open``,
``discard T``); a longer meld of a hint is laid as a 3-tile window holding a numbered tile and
grown with ``add``. :func:`turn_actions` gives, for every step of a hint, the engine actions that
play it, so a client can apply the recommended turn to a live game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import RummyError
from .rules import Rules
from .service.validate import BadRequest, short, type_name

if TYPE_CHECKING:
    from .hint import SeatView

__all__ = [
    "meld_actions",
    "step_actions",
    "turn_actions",
    "view_from_observation",
    "view_from_state",
]


def view_from_observation(obs: Any, seat: int | None = None) -> SeatView:
    """A :class:`~rummy101.hint.SeatView` from ``State.observation(seat)`` (a JSON object).

    The observation must be the seat's own, at its turn, before any play of the turn (no staged
    opening).
    """
    from .hint import SeatView

    if not isinstance(obs, dict):
        raise BadRequest(f"field 'observation' must be a game observation object, got "
                         f"{type_name(obs)} {short(obs)}")
    need = ("rules", "seat", "phase", "current_player", "rack", "table", "opened", "thresholds",
            "button", "turn_state")
    missing = [k for k in need if k not in obs]
    if missing:
        raise BadRequest(f"field 'observation' lacks {', '.join(missing)}: send "
                         f"State.observation(seat) as it is")
    if seat is not None and seat != obs["seat"]:
        raise BadRequest(f"field 'seat' is {seat} but the observation is seat {obs['seat']}'s: "
                         f"a hint needs the seat's own rack")
    if obs["phase"] not in ("take", "play"):
        raise BadRequest(f"the observed game is in phase {short(obs['phase'])}: a hint needs a "
                         f"turn in phase take or play")
    if obs["current_player"] != obs["seat"]:
        raise BadRequest(f"it is seat {short(obs['current_player'])}'s turn, not seat "
                         f"{short(obs['seat'])}'s")
    turn_state = obs["turn_state"] if isinstance(obs["turn_state"], dict) else {}
    if turn_state.get("staged"):
        raise BadRequest("the observed turn has a staged opening: 'open' or 'reset' it first")
    table = obs["table"] if isinstance(obs["table"], list) else []
    thresholds = obs["thresholds"] if isinstance(obs["thresholds"], dict) else {}
    opened = obs["opened"] if isinstance(obs["opened"], list) else []
    button = obs["button"] if isinstance(obs["button"], dict) else {}
    body = {
        "rules": obs["rules"], "seat": obs["seat"], "rack": obs["rack"],
        "table": [{"owner": m.get("owner"), "tiles": m.get("tiles"), "kind": m.get("kind")}
                  if isinstance(m, dict) else m for m in table],
        "last_discard": obs.get("last_discard") if obs["phase"] == "take" else None,
        "players": [{"seat": i, "opened": o} for i, o in enumerate(opened)],
        "button_available": bool(button.get("available")),
        "stage": obs["phase"],
        "taken_discard": turn_state.get("must_use") if obs["phase"] == "play" else None,
    }
    rules = Rules.parse(obs["rules"]) if isinstance(obs["rules"], str) else None
    if rules is not None and rules.threshold == "increasing":
        body["threshold"] = thresholds.get("points")
        body["pairs_threshold"] = thresholds.get("pairs")
    try:
        return SeatView.from_json(body)
    except RummyError as exc:
        raise type(exc)(f"field 'observation': {exc}") from None


def view_from_state(state: Any, seat: int | None = None) -> SeatView:
    """The view of ``seat`` (default: the player to move) from an engine ``State``."""
    who = state.current_player if seat is None else seat
    return view_from_observation(state.observation(who), who)


# ---- steps -> engine actions ------------------------------------------------------------------
def _window(tiles: Sequence[str]) -> int:
    """Start of the first 3-tile window that holds a numbered tile."""
    for start in range(len(tiles) - 2):
        if any(t != "*" for t in tiles[start:start + 3]):
            return start
    raise ValueError(f"no 3-tile window with a numbered tile in {' '.join(tiles)}")


def meld_actions(kind: str, tiles: Sequence[str], index: int) -> list[str]:
    """Engine actions that lay a meld of any length as table meld ``index``.

    >>> meld_actions("run", ["R3", "R4", "*", "R6", "R7"], 2)
    ['run R3 R4 *', 'add R6 to 2@end', 'add R7 to 2@end']
    >>> meld_actions("set", ["R8", "Y8", "B8", "K8"], 0)
    ['set R8 Y8 B8', 'add K8 to 0']
    """
    if kind == "pair":
        return ["pair " + " ".join(tiles)]
    if kind == "set":
        reals = [t for t in tiles if t != "*"]
        first = reals[:1] + [t for t in tiles if t != reals[0]][:2]
        rest = list(tiles)
        for t in first:
            rest.remove(t)
        return ["set " + " ".join(first)] + [f"add {t} to {index}" for t in rest]
    s = _window(tiles)
    out = ["run " + " ".join(tiles[s:s + 3])]
    out += [f"add {t} to {index}@start" for t in reversed(tiles[:s])]
    out += [f"add {t} to {index}@end" for t in tiles[s + 3:]]
    return out


def step_actions(step: Mapping[str, Any], table_kinds: list[str]) -> list[str]:
    """Engine actions for one hint step; ``table_kinds`` (kind per table meld) grows with laid
    melds."""
    kind = step["step"]
    if kind == "draw":
        return ["draw"]
    if kind == "take_discard":
        return ["take"]
    if kind == "button":
        return ["button"]
    if kind in ("open", "lay"):
        out: list[str] = []
        for m in step["melds"]:
            out += meld_actions(m["kind"], m["tiles"], m["meld"])
            table_kinds.append(m["kind"])
        if kind == "open":
            out.append("open")
        return out
    if kind == "add":
        where = ""
        if table_kinds[step["meld"]] == "run":
            where = "@start" if step["position"] == 0 else "@end"
        return [f"add {step['tile']} to {step['meld']}{where}"]
    if kind == "retrieve":
        return [f"retrieve {step['meld']}:{step['index']} with {step['tile']}"]
    if kind == "discard":
        return [f"discard {step['tile']}"]
    raise ValueError(f"unknown hint step {kind!r}")


def turn_actions(steps: Sequence[Mapping[str, Any]], table_kinds: Sequence[str]) -> list[list[str]]:
    """Engine actions for every step of a turn, in order (one list per step)."""
    kinds = list(table_kinds)
    return [step_actions(s, kinds) for s in steps]

