"""The Remi greedy bot's doubles exchange (RO-3) and Joly retrieval (RO-9.5) (issue 9)."""

from __future__ import annotations

import random
from typing import Any

from rummy101.bots.greedy_remi import GreedyBot, PlainGreedyBot
from rummy101.game import Phase
from test_remi_engine import counts, position


def _act(bot: Any, s: Any) -> str:
    return str(bot.act(s.observation(s.current), s.legal_actions()))


def _exchange(rack: str, offer: int = -1) -> Any:
    s = position("remi", racks=["R5", rack, "B2", "B3"], phase="exchange")
    s.x.ex_announcer = offer
    s.x.ex_code = 0 if offer >= 0 else -1      # a big double (R1) on offer
    s.invalidate_legal()
    return s


def test_announces_a_double_that_adds_nothing_and_keeps_one_in_a_meld() -> None:
    useless = _exchange("K9 K9 R3 R4 R5 Y7 Y8 Y9 B11 B12 B13 K2 Y2 R12")
    assert _act(GreedyBot(random.Random(0)), useless) == "announce K9"
    assert _act(PlainGreedyBot(random.Random(0)), useless) == "decline"
    useful = _exchange("R4 R4 R3 R5 R6 Y7 Y8 Y9 B11 B12 B13 K2 Y2 R12")   # R3 R4 R5 / R4 R5 R6
    legal = {str(a) for a in useful.legal_actions()}
    assert "announce R4" in legal and _act(GreedyBot(random.Random(0)), useful) == "decline"


def test_accepts_only_with_a_double_that_adds_nothing() -> None:
    s = _exchange("K12 K12 R3 R4 R5 Y7 Y8 Y9 B11 B12 B13 K2 Y2 R9", offer=0)
    assert s.phase is Phase.EXCHANGE
    assert _act(GreedyBot(random.Random(0)), s) == "accept K12"
    t = _exchange("K12 K12 K11 K13 R5 Y7 Y8 Y9 B11 B12 B13 K2 Y2 R9", offer=0)   # K11 K12 K13
    assert _act(GreedyBot(random.Random(0)), t) == "decline"


def test_retrieves_a_joly_when_the_relay_lowers_the_deadwood() -> None:
    # Y5 releases the Joly of Y4 * Y6; the Joly then makes K12 K13 * a run: deadwood drops
    s = position(racks=["R5", "Y5 K12 K13 R9 B2", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("run", 0, "Y4 * Y6")])
    legal = {str(a) for a in s.legal_actions()}
    assert "retrieve 0:1 with Y5" in legal
    assert _act(GreedyBot(random.Random(0)), s) == "retrieve 0:1 with Y5"
    assert _act(PlainGreedyBot(random.Random(0)), s) != "retrieve 0:1 with Y5"
    bot = GreedyBot(random.Random(0))
    s.apply(_act(bot, s))
    a = _act(bot, s)
    assert a in ("run K12 K13 *", "run * K12 K13")
    s.apply(a)
    assert s.racks[1] == counts("R9 B2")


def test_no_retrieval_when_it_does_not_help() -> None:
    # R9 R10 R11 is already a meld on the rack: a re-lay takes two of them and leaves the third
    s = position(racks=["R5", "Y5 R9 R10 R11 B4", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("run", 0, "Y4 * Y6")])
    assert "retrieve 0:1 with Y5" in {str(a) for a in s.legal_actions()}
    assert not _act(GreedyBot(random.Random(0)), s).startswith("retrieve")


def test_retrieves_a_joly_for_a_bridged_relay_when_no_3_tile_relay_helps() -> None:
    # Y5 releases the Joly of Y4 * Y6. With the rack's Joly it bridges R1 * * R4 R5 R6, a run only
    # 'lay' builds (RO-6/RO-7); every 3-tile re-lay leaves R1, a Joly or both (deadwood >= 35,
    # as now: Y5 R1 K9 beside * R4 R5 R6), the bridged one only K9 (RO-9.5)
    s = position(racks=["R5", "Y5 R1 R4 R5 R6 * K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("run", 0, "Y4 * Y6")])
    assert "retrieve 0:1 with Y5" in {str(a) for a in s.legal_actions()}
    bot = GreedyBot(random.Random(0))
    assert _act(bot, s) == "retrieve 0:1 with Y5"
    s.apply("retrieve 0:1 with Y5")
    legal = {str(a) for a in s.legal_actions()}
    assert {"lay R1 * * R4 R5 R6", "lay R1 * * R4 R5 R6 @2"} <= legal
    a = _act(bot, s)
    assert a.startswith("lay R1 * * R4 R5 R6")
    s.apply(a)
    assert s.racks[1] == counts("K9")
