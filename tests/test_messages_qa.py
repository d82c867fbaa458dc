"""Messages a careless user met in the QA round of 2026-12-04 (each said something wrong or
twice): a batch item's label given once, a null batch item named as such, a bot option without
its value, one game counted as "1 game", a rule set named once when its text is the variant."""

from __future__ import annotations

import pytest
from rummy101 import RulesError, solve_tabla
from rummy101.bots import get_bot
from rummy101.bots.base import BotError
from rummy101.service import api
from rummy101.sim import simulate
from rummy101.sim.stats import format_summary


def test_a_batch_item_is_named_once() -> None:
    out = api.openings([{"rack": "R1 R2 R3", "foo": 1}], "rummy101")
    msg = out[0]["error"]
    assert msg.startswith("item 0: unknown field") and msg.count("item 0") == 1
    labelled = api.openings([{"rack": "R1", "foo": 1}], "rummy101", labels=["line 7"])
    assert labelled[0]["error"].count("line 7") == 1


def test_a_null_batch_item_is_called_null() -> None:
    out = api.openings([None, "R1 R2 R3"], "rummy101")
    assert "got null" in out[0]["error"] and "'rack' is missing" not in out[0]["error"]
    assert out[1]["rack"] == "R1 R2 R3"


def test_a_bot_option_without_its_value() -> None:
    with pytest.raises(BotError, match=r"option 'playouts' of bot 'search' needs a value.*"
                                       r"search:playouts=<a whole number>"):
        get_bot("search:playouts")
    assert get_bot("search:playouts=3").name  # with its value it is a bot
    with pytest.raises(BotError, match=r"registered bot 'search', write options as "
                                       r"search:option=value \(its options: .*playouts"):
        get_bot("search:foo")  # (a module path to the parser: no '=' and no option named so)


def test_one_game_is_one_game() -> None:
    text = format_summary(simulate("rummy101(players=2)", "random,random", 1, seed=1))
    assert text.startswith("1 game of ")


def test_the_rule_set_is_named_once() -> None:
    with pytest.raises(RulesError) as e:
        solve_tabla("rummy101", "R1 R2 R3")
    assert "('rummy101')" not in str(e.value) and "not in 'rummy101'" in str(e.value)
    with pytest.raises(RulesError, match=r"\('rummy101\(players=2\)'\)"):
        solve_tabla("rummy101(players=2)", "R1 R2 R3")
