"""A hint's steps as engine actions (``rummy101.game``, docs/DESIGN.md "Game surface").

The engine builds a turn from small actions (``draw``, ``take``, ``button``, 3-tile ``run`` /
``set`` or a ``pair``, ``add T to M@start|@end``, ``retrieve M:I with T``, ``open``,
``discard T``); a longer meld of a hint is laid as a 3-tile window holding a numbered tile and
grown with ``add``. :func:`turn_actions` gives, for every step of a hint, the engine actions that
play it, so a client can apply the recommended turn to a live game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["meld_actions", "step_actions", "turn_actions"]


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

