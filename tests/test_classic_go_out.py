"""CR-4 in the solver: ``go_out=narrow`` keeps a card to discard except in the seed's case (two
cards held and the one drawn melded at once); ``go_out=broad`` may meld the whole hand. On both
backends (the ``backend`` fixture), single and batch."""

from __future__ import annotations

import pytest

import rummy101
from rummy101.solve import keeps_card

BROAD = "classic"
NARROW = "classic(go_out=narrow)"


def rest(o: rummy101.solve.Opening) -> list[str]:
    return [str(c) for c in o.rest]


def test_seed_case_goes_out_in_both_readings(backend: str) -> None:
    for rules in (BROAD, NARROW):
        o = rummy101.solve_opening(rules, "QC QS QH")
        assert o.kind == "melds" and o.value == 30 and rest(o) == []


def test_narrow_keeps_a_card_otherwise(backend: str) -> None:
    assert rest(rummy101.solve_opening(BROAD, "AS 2S 3S QH QD QC")) == []
    o = rummy101.solve_opening(NARROW, "AS 2S 3S QH QD QC")
    assert o.value == 30 and rest(o) == ["AS", "2S", "3S"]
    o = rummy101.solve_opening(NARROW, "AS 2S 3S 4S")      # four cards: not the seed's case
    assert o.value == 9 and rest(o) == ["AS"]
    assert rest(rummy101.solve_opening(BROAD, "AS 2S 3S 4S")) == []
    o = rummy101.solve_opening(NARROW, "5H 6H 7H 8H 9H 10H JH")
    assert len(o.rest) == 1


def test_batch_mixes_hand_sizes(backend: str) -> None:
    racks = ["QC QS QH", "AS 2S 3S QH QD QC", "AS 2S 3S 4S"]
    narrow = rummy101.solve_openings(NARROW, racks)
    assert [rest(o) for o in narrow] == [[], ["AS", "2S", "3S"], ["AS"]]
    assert [o.to_json() for o in narrow] == [rummy101.solve_opening(NARROW, r).to_json() for r in racks]
    assert all(rest(o) == [] for o in rummy101.solve_openings(BROAD, racks))


@pytest.mark.parametrize("rules,pieces,keep", [
    ("classic", 7, False), ("classic", 3, False), ("classic(go_out=narrow)", 3, False),
    ("classic(go_out=narrow)", 8, True), ("classic(go_out=narrow)", 4, True),
    ("rummy101", 3, True), ("remi", 15, True)])
def test_keeps_card(rules: str, pieces: int, keep: bool) -> None:
    assert keeps_card(rummy101.Rules.parse(rules), pieces) is keep
