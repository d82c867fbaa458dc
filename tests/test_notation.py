"""Notation (CONTRACT.md): parsing, formatting, round trips and errors that name token and position."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rummy101 import (
    Card,
    NotationError,
    RackError,
    Rules,
    Tile,
    format_tiles,
    parse_cards,
    parse_tiles,
    solve_opening,
)
from rummy101.tiles import codes_of, counts_of

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize("text,code", [("R5", 4), ("r5", 4), ("y13", 25), ("B1", 26), ("K7", 45),
                                       ("*", 52), ("JK", 52), ("joker", 52), ("Joker", 52), ("jk", 52)])
def test_tile_tokens(text: str, code: int) -> None:
    assert int(Tile.parse(text)) == code


@pytest.mark.parametrize("text", ["R0", "R14", "G5", "R", "5R", "R05", "", "**", "R5.0", "R-1"])
def test_bad_tile_tokens(text: str) -> None:
    with pytest.raises(NotationError, match="is not a tile"):
        Tile.parse(text)


@pytest.mark.parametrize("text,canon", [("AS", "AS"), ("7h", "7H"), ("10D", "10D"), ("TD", "10D"),
                                        ("QC", "QC"), ("k♠", "KS"), ("A♥", "AH"), ("9♦", "9D"),
                                        ("j♣", "JC")])
def test_card_tokens(text: str, canon: str) -> None:
    assert str(Card.parse(text)) == canon


@pytest.mark.parametrize("text", ["1S", "11H", "ZS", "A", "AX", "10", "*", "R5"])
def test_bad_card_tokens(text: str) -> None:
    with pytest.raises(NotationError, match="is not a card"):
        Card.parse(text)


def test_rack_separators_and_json_list() -> None:
    expect = [Tile("R1"), Tile("R2"), Tile("*"), Tile("K13")]
    assert parse_tiles("R1 R2 * K13") == expect
    assert parse_tiles("R1,R2, *  ,k13") == expect
    assert parse_tiles('["R1","R2","*","K13"]') == expect
    assert parse_tiles(["R1", "r2", "JOKER", Tile("K13")]) == expect


def test_error_names_token_and_position() -> None:
    with pytest.raises(NotationError) as exc:
        parse_tiles("R1 R2 X9 K4")
    assert "token 3 of 4" in str(exc.value) and "'X9'" in str(exc.value)
    with pytest.raises(NotationError) as exc:
        parse_cards("AS KH 1C")
    assert "token 3 of 3" in str(exc.value) and "'1C'" in str(exc.value)


def test_bad_json_rack() -> None:
    with pytest.raises(NotationError, match="not a JSON list"):
        parse_tiles("[R1, R2")
    with pytest.raises(NotationError, match="list of strings"):
        parse_tiles("[1, 2]")


def test_wrong_types() -> None:
    with pytest.raises(NotationError):
        parse_tiles(42)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Tile(True)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="out of range"):
        Tile(53)
    with pytest.raises(NotationError):
        parse_tiles([Card("AS")])


def test_repr_reads_back_as_code() -> None:
    t = Tile("B11")
    assert eval(repr(t)) == t and repr(t) == "Tile('B11')"
    c = Card("10C")
    assert eval(repr(c)) == c and repr(c) == "Card('10C')"


@given(st.lists(st.integers(0, 52), max_size=30))
def test_tiles_round_trip(codes: list[int]) -> None:
    tiles = [Tile(c) for c in codes]
    text = format_tiles(tiles)
    assert parse_tiles(text) == tiles
    assert parse_tiles(json.dumps([str(t) for t in tiles])) == tiles
    assert codes_of(counts_of(tiles)) == sorted(tiles)


@given(st.lists(st.integers(0, 51), max_size=30))
def test_cards_round_trip(codes: list[int]) -> None:
    cards = [Card(c) for c in codes]
    assert parse_cards(format_tiles(cards)) == cards


def test_supply_limits() -> None:
    """CONTRACT.md: more copies than the variant's set holds is an error (three R5s, three jokers in remi)."""
    with pytest.raises(RackError, match=r"3 copies of R5, but rummy101 has only 2 of each tile \(R101-1\)"):
        Rules.parse("rummy101").parse_rack("R5 R5 R5")
    with pytest.raises(RackError, match=r"3 jokers, but a remi rack holds at most 2 \(RO-1\)"):
        Rules.parse("remi").parse_rack("* * *")
    # R101-10: joker-button jokers are extra to the 106 tiles.
    assert len(Rules.parse("rummy101").parse_rack("* * * R1")) == 4
    with pytest.raises(RackError, match=r"2 copies of AS, but classic has only 1 of each card \(CR-1\)"):
        Rules.parse("classic").parse_rack("AS AS")
    with pytest.raises(NotationError, match="is not a card"):
        Rules.parse("classic").parse_rack("R5")


@pytest.mark.parametrize("rules, rack, token", [
    ("rummy101", "R5 K1 r5 R5", "token 4 of 4 ('R5')"),
    ("remi", ["*", "R1", "JK", "R2", "*"], "token 5 of 5 ('*')"),
    ("classic", "AS 2S as", "token 3 of 3 ('AS')"),
])
def test_supply_errors_name_the_token_past_the_supply(rules: str, rack: object, token: str) -> None:
    """CONTRACT.md (Notation): a bad token is an error naming the token and its position, "so is
    a rack that holds more copies of a tile than the variant's set contains". The supply error
    named the tile but not where the extra copy stands; now the first one past the supply, on
    every path a rack is read (the parser, the service's token table, the solvers)."""
    from rummy101.service import api

    with pytest.raises(RackError, match=re.escape(token + ": the rack holds ")):
        Rules.parse(rules).parse_rack(rack)  # type: ignore[arg-type]
    with pytest.raises(RackError, match=re.escape(f"field 'rack': {token}: the rack holds ")):
        api.penalty({"rules": rules, "rack": rack})


# ---- non-ASCII look-alikes (issue 8): refused, naming the token and the character -------------
@pytest.mark.parametrize("token,char", [
    ("R５", "U+FF15"), ("R٥", "U+0665"), ("R۵", "U+06F5"), ("Ｒ5", "U+FF32"), ("R1٣", "U+0663"),
    ("K¹", "U+00B9"), ("ＪＫ", "U+FF2A"),
])
def test_non_ascii_tile_tokens_are_refused(token: str, char: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_tiles(f"R1 {token}")
    msg = str(exc.value)
    assert f"token 2 of 2 ({token!r})" in msg and char in msg and "ASCII" in msg


@pytest.mark.parametrize("token", ["５S", "AＳ", "Aſ", "1٠H"])
def test_non_ascii_card_tokens_are_refused(token: str) -> None:
    with pytest.raises(NotationError, match="ASCII"):
        parse_cards(token)


@pytest.mark.parametrize("token,char", [
    ("A\u2665\ufe0f", "U+FE0F"), ("AS\u200b", "U+200B"), ("\ufeffR1", "U+FEFF"), ("R\u00a05", "U+00A0"),
])
def test_a_character_that_is_no_digit_or_letter_is_not_called_one(token: str, char: str) -> None:
    """An emoji selector after a suit symbol (phones send A♥️), a zero-width space or a byte order
    mark was explained as 'digits and letters must be ASCII', which they are not; the note now
    says the character is no digit, letter or suit symbol."""
    parse = parse_cards if token.startswith("A") else parse_tiles
    with pytest.raises(NotationError) as exc:
        parse([token])
    msg = str(exc.value)
    assert f"token 1 of 1 ({token!r})" in msg and char in msg, msg
    assert "no digit, letter or suit symbol" in msg and "must be ASCII" not in msg, msg


def test_suit_symbols_stay_accepted() -> None:
    assert [str(c) for c in parse_cards("A♠ 10♥ Q♦ 2♣")] == ["AS", "10H", "QD", "2C"]


# ---- bytes are no rack: decoded text is ---------------------------------------------------------
@pytest.mark.parametrize("rack", [b"R1 R2", bytearray(b"R1 R2"), b"\x00\x01\x02"])
def test_a_bytes_rack_is_refused_saying_decode_it(rack: bytes) -> None:
    """`solve_opening("rummy101", sock.recv(...))` said "token 1 of 5 (82) is not a tile" (bytes
    iterate as ints), and b"\\x00\\x01\\x02" parsed silently as R1 R2 R3 (ints are tile codes)."""
    for parse in (parse_tiles, parse_cards):
        with pytest.raises(NotationError, match=r"got byte(s|array) b.*decode it") as exc:
            parse(rack)
        assert "token 1" not in str(exc.value)
    with pytest.raises(NotationError, match="decode"):
        solve_opening("rummy101", rack)
