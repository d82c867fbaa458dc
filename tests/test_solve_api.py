"""The thin API of issue 11: text racks read through the token table give the same pieces,
answers and errors as the full parser; Opening builds melds/rest lazily but behaves like the
frozen record it was (equality, hash, repr, pickling, immutability)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from rummy101 import Rules, solve_opening, solve_openings
from rummy101.errors import NotationError, RackError
from rummy101.solve import Opening, _rack_counts, _token_table
from rummy101.tiles import Card, Tile, counts_of, format_tiles


def _random_text(rng: random.Random, rules: Rules, max_tiles: int = 24) -> str:
    counts = [0] * 53
    for _ in range(rng.randint(1, max_tiles)):
        code = rng.randrange(52)
        if counts[code] < rules.copies:
            counts[code] += 1
    if rules.family == "tiles":
        counts[52] = rng.randint(0, rules.max_rack_jokers)
    codes = [c for c in range(53) for _ in range(counts[c])]
    rng.shuffle(codes)
    return format_tiles(rules.piece(c) for c in codes) or str(rules.piece(0))


@pytest.mark.parametrize("name", ["rummy101", "remi", "classic", "classic(go_out=narrow)"])
def test_token_table_reads_like_the_parser(name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(11)
    for i in range(200):
        text = _random_text(rng, rules)
        if rng.random() < 0.3:
            text = text.lower()
        pieces, counts = _rack_counts(rules, text)
        slow = rules.parse_rack(text)
        assert pieces == slow and [type(p) for p in pieces] == [type(p) for p in slow]
        assert counts == counts_of(int(p) for p in slow)
        if i % 10 == 0:  # the same rack as a list of pieces (the full parser's path) answers the same
            assert solve_opening(rules, text) == solve_opening(rules, slow)


def test_table_entries_are_what_the_parser_reads() -> None:
    for family, kind in (("tiles", Tile), ("cards", Card)):
        table, pieces = _token_table(family)
        for word, code in table.items():
            assert kind(word) == code == pieces[code] and type(pieces[code]) is kind


@pytest.mark.parametrize("rack", ["R1 R1 R1", "R1 X5", "", "   ", "R05 R6 R7", "* * * * * * *", "R1,R2 R3",
                                  "[\"R1\", \"R2\"]", "Jk R1 r2", "R1 R2 R\u0665"])
def test_errors_and_odd_forms_are_the_parser_s(rack: str) -> None:
    rules = Rules.parse("rummy101")
    try:
        want = rules.parse_rack(rack)
    except (NotationError, RackError) as exc:
        with pytest.raises(type(exc)) as got:
            solve_opening(rules, rack)
        assert str(got.value) == str(exc)
        return
    if not want:
        with pytest.raises(RackError, match="is empty"):
            solve_opening(rules, rack)
        return
    assert solve_opening(rules, rack) == solve_opening(rules, want)


def test_opening_is_a_frozen_record_with_lazy_parts() -> None:
    o = solve_opening("rummy101", "R10 * R12 B11 Y11 K11 R1 R2 R3 K7 K8 K9 Y5")
    again = solve_opening("rummy101", "R10 * R12 B11 Y11 K11 R1 R2 R3 K7 K8 K9 Y5")
    assert o == again and hash(o) == hash(again)
    assert [str(m) for m in o.melds] == [str(m) for m in again.melds]
    assert [str(t) for t in o.rest] == ["Y5"]
    assert pickle.loads(pickle.dumps(o)) == o
    assert eval(repr(o.rack)) == o.rack
    assert repr(o).startswith("Opening(rules=Rules.parse('rummy101'), rack=(Tile('R10'),")
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.value = 3  # type: ignore[misc]
    eager = Opening(o.rules, o.rack, o.kind, o.value, o.melds, o.rest, o.threshold, o.pairs_threshold)
    assert eager == o and eager.to_json() == o.to_json()
    pairs = solve_opening("rummy101", "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13")
    assert pairs.kind == "pairs" and len(pairs.melds) == 5 and len(pairs.rest) == 1


def test_batch_equals_single_on_text_racks() -> None:
    rules = Rules.parse("rummy101")
    rng = random.Random(5)
    texts = [_random_text(rng, rules, 14) for _ in range(60)]
    assert solve_openings(rules, texts) == [solve_opening(rules, t) for t in texts]
