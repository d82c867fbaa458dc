"""The classic greedy bot (rummy101.bots.greedy_classic): its decisions in hand-made positions
(CR-3 take only into a meld, the solver's melds and discard, lay-offs, CR-4 going out) and its
play against random bots through the simulator."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101.bots import get_bot
from rummy101.sim import play_game, simulate
from test_classic_engine import position


def turn(s: Any, seed: int = 0) -> list[str]:
    """Let the greedy bot play the current seat's turn; the actions it chose, as text."""
    bot = get_bot("greedy", random.Random(seed))
    seat, rounds = s.current_player, len(s.round_scores())
    out = []
    while not s.is_terminal and s.current_player == seat and len(s.round_scores()) == rounds:
        a = bot.act(s.observation(seat), s.legal_actions())
        out.append(str(a))
        s.apply(a)
    return out


def test_takes_the_pile_card_only_into_a_meld() -> None:
    s = position(hands=["QS QH 2D 9C", "KD 2S"], stock="3H 4H", pile="5C QC")
    assert turn(s) == ["take", "set QS QH QC", "discard 9C"]
    s = position(hands=["QS 2D 9C 8D", "KD 2S"], stock="3H 4H", pile="5C QC")
    assert turn(s)[0] == "draw"                       # QC would only make a pair


def test_melds_then_discards_the_costliest_loose_card() -> None:
    s = position(hands=["5S 6S 7S KD 2C 3D", "KD 2S"], stock="3H AH")
    assert turn(s) == ["draw", "run 5S 6S 7S", "discard KD"]


def test_lays_off_when_it_cuts_deadwood() -> None:
    s = position(hands=["9H KD 2C", "QD 2S"], stock="3H 4C", melded=[True, False],
                 table=[("run", 1, "6H 7H 8H")])
    assert turn(s) == ["draw", "add 9H to 0@end", "discard KD"]


def test_goes_out_without_a_discard() -> None:
    s = position(hands=["QS QH", "KD 2S"], stock="3H QC")
    assert turn(s) == ["draw", "set QS QH QC"]
    assert s.round_results()[0]["winner"] == 0
    s = position(hands=["9H", "KD 2S"], stock="3H 10H", melded=[True, False],
                 table=[("run", 1, "6H 7H 8H")])
    assert turn(s) == ["draw", "add 9H to 0@end", "add 10H to 0@end"]


def test_narrow_keeps_a_card_to_discard() -> None:
    s = position("classic(players=2,go_out=narrow)", hands=["9H", "KD 2S"], stock="3H 10H",
                 melded=[True, False], table=[("run", 1, "6H 7H 8H")])
    acts = turn(s)
    assert acts[-1].startswith("discard") and len(acts) == 3


def test_never_discards_the_taken_card() -> None:
    s = position(hands=["QS QH 4S 5S", "KD 2S"], stock="3H 4H", pile="QC")
    acts = turn(s)
    assert acts[0] == "take" and "discard QC" not in acts


@pytest.mark.parametrize("rules", ["classic", "classic(players=2,go_out=narrow)",
                                   "classic(players=3,target=100)"])
def test_greedy_matches_end_and_beat_random(rules: str) -> None:
    n = int(rules.split("players=")[1][0]) if "players=" in rules else 4
    bots = ["greedy"] + ["random"] * (n - 1)
    wins = 0
    for i in range(4):
        rec = play_game(rules, bots, 7, i, match_rounds=10_000)
        wins += rec.best == 0
    assert wins >= 3


def test_sim_plays_classic_matches() -> None:
    res = simulate("classic", "greedy,random,random,random", 2, 1, workers=1, progress=False,
                   match_rounds=10_000)
    assert res.games == 2 and all(max(r.scores) >= 200 for r in res.records)
    again = simulate("classic", "greedy,random,random,random", 2, 1, workers=1, progress=False,
                     match_rounds=10_000)
    assert [r.to_json() for r in again.records] == [r.to_json() for r in res.records]
