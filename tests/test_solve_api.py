"""The thin API of issue 11: text racks read through the token table give the same pieces,
answers and errors as the full parser; Opening builds melds/rest lazily but behaves like the
frozen record it was (equality, hash, repr, pickling, immutability)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
import rummy101
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


# ---- the batch front end: tokenize_racks / opening_answers_json (both backends) --------------
ODD = ["R1 R1 R1", "R1 X5", "", "   ", "R05 R6 R7", "* * * * * * *", "R1,R2 R3", "R1, R2,,R3",
       "[\"R1\", \"R2\"]", " [R1]", "Jk R1 r2", "joker JOKER r13", "R1 R2 R\u0665", "R1\x1cR2\x1fR3",
       "R1\u00a0R2", "R1\tR2\nR3\x0bR4\x0cR5\rR6", "JOKERS R1", "r1 y1 b1 k1 * *", "K13 " * 29]


def _mixed_racks(rules: Rules, n: int, seed: int) -> list[object]:
    """Text racks in canonical and lower case, odd forms and mistakes, and lists of tokens."""
    rng = random.Random(seed)
    out: list[object] = []
    for _ in range(n):
        text = _random_text(rng, rules)
        roll = rng.random()
        if roll < 0.15:
            text = text.lower()
        elif roll < 0.2:
            out.append(text.split())
            continue
        elif roll < 0.3 and rules.family == "tiles":
            text = rng.choice(ODD)
        out.append(text)
    return out


def test_tokenize_racks_native_and_pure_agree(both: tuple[object, object]) -> None:
    native, pure = both
    for name in ("rummy101", "remi", "classic"):
        rules = Rules.parse(name)
        table, _ = _token_table(rules.family)
        racks = _mixed_racks(rules, 150, seed=len(name)) + ODD + [None, 5, ["R1"], b"R1 R2"]
        for commas, max_tokens, max_chars in ((False, 1 << 62, 1 << 62), (True, 28, 200), (True, 3, 9)):
            args = (racks, table, rules.copies, rules.max_rack_jokers, commas, max_tokens, max_chars)
            got = native.tokenize_racks(*args)  # type: ignore[attr-defined]
            want = pure.tokenize_racks(*args)  # type: ignore[attr-defined]
            for a, b in zip(got, want, strict=True):
                assert a.dtype == b.dtype and a.tolist() == b.tolist()
            counts, codes, offsets, ok = got
            for i, rack in enumerate(racks):  # an ok rack reads as the parser reads it
                if ok[i]:
                    text = rack.replace(",", " ") if commas else rack  # type: ignore[union-attr]
                    pieces = rules.parse_rack(text)
                    assert codes[offsets[i]:offsets[i + 1]].tolist() == [int(p) for p in pieces]
                    assert counts[i].tolist() == counts_of(int(p) for p in pieces)
                else:
                    assert offsets[i] == offsets[i + 1] and not counts[i].any()
        assert not got[3][len(racks) - 4:].any()  # not str: never read here


def test_token_table_reads_one_rack_as_tokenize_racks_does(both: tuple[object, object]) -> None:
    """TokenTable.counts (solve_opening's single-rack read) gives, on both backends, the counts
    tokenize_racks gives an ok rack (commas off, no limits) and None for every rack it leaves to
    the parser; and a bad table is refused alike."""
    native, pure = both
    for name in ("rummy101", "remi", "classic"):
        rules = Rules.parse(name)
        table, _ = _token_table(rules.family)
        racks = _mixed_racks(rules, 150, seed=len(name) + 7) + ODD + [None, 5, ["R1"], b"R1 R2"]
        counts, _, _, ok = native.tokenize_racks(  # type: ignore[attr-defined]
            racks, table, rules.copies, rules.max_rack_jokers, False, 1 << 62, 1 << 62)
        readers = [native.TokenTable(table), pure.TokenTable(table)]  # type: ignore[attr-defined]
        for i, rack in enumerate(racks):
            want = counts[i].tolist() if ok[i] else None
            for reader in readers:
                got = reader.counts(rack, rules.copies, rules.max_rack_jokers)
                assert got == want, (name, rack)
        assert ok.any() and not ok.all()
    for bad in ({"": 1}, {"R1": 53}, {"TOOLONGX": 0}, {"R1": -1}):
        messages = []
        for core in (native, pure):
            with pytest.raises(ValueError) as exc:
                core.TokenTable(bad)  # type: ignore[attr-defined]
            messages.append(str(exc.value))
        assert messages[0] == messages[1]


def _outcome(call: object) -> object:
    try:
        return call()  # type: ignore[operator]
    except (NotationError, RackError) as exc:
        return (type(exc), str(exc))


@pytest.mark.parametrize("name", ["rummy101", "remi", "classic", "classic(go_out=narrow)"])
def test_batch_equals_the_parser_path_on_mixed_racks(backend: str, name: str) -> None:
    """solve_openings on text racks (the token table) answers what solve_opening answers on the
    parser's pieces, and with a bad rack it raises the first bad rack's error, message and all,
    with the rack's place in the batch before it."""
    rules = Rules.parse(name)
    racks = _mixed_racks(rules, 80 if backend == "native" else 20, seed=3)
    singles = [_outcome(lambda r=r: solve_opening(rules, r)) for r in racks]
    parsed = [_outcome(lambda r=r: solve_opening(rules, rules.parse_rack(r))) for r in racks]
    for s, p in zip(singles, parsed, strict=True):
        if isinstance(s, Opening):
            assert s == p and s.to_json() == p.to_json()  # type: ignore[union-attr]
    errors = [(i, s) for i, s in enumerate(singles) if not isinstance(s, Opening)]
    got = _outcome(lambda: solve_openings(rules, racks))
    if errors:
        i, (kind, message) = errors[0]  # type: ignore[misc]
        assert got == (kind, f"racks[{i}]: {message}")
    else:
        assert got == singles
    good = [r for r, s in zip(racks, singles, strict=True) if isinstance(s, Opening)]
    batch = solve_openings(rules, iter(good))  # any iterable
    assert batch == [s for s in singles if isinstance(s, Opening)]
    assert [o.to_json() for o in batch] == [s.to_json() for s in singles if isinstance(s, Opening)]


def test_batch_must_use_errors_are_the_single_solver_s() -> None:
    rules = Rules.parse("rummy101")
    racks = ["R5 R6 R7 K1", "r5 R8 R9 R10 * K2", "Y5 Y6 Y7 Y8", "R5 K3"]
    for must_use in ("R5", "r5", "R6", "X9", "R5 R6", "*"):
        singles = [_outcome(lambda r=r, m=must_use: solve_opening(rules, r, must_use=m)) for r in racks]
        errors = [s for s in singles if not isinstance(s, Opening)]
        got = _outcome(lambda m=must_use: solve_openings(rules, racks, must_use=m))
        assert got == (errors[0] if errors else singles)


def _shared_texts() -> list[str]:
    import os

    from rummy101.tiles import parse_tiles

    here = os.path.dirname(os.path.abspath(__file__))
    bases = [os.path.join(b, "bench") for b in (os.environ.get("RUMMY101_SHARED", ""),
                                                os.path.join(here, "..", "..", "shared")) if b]
    base = next((b for b in bases if os.path.isdir(b)), None)
    if base is None:  # README: ../shared/bench beside the checkout, or RUMMY101_SHARED/bench
        pytest.skip("the shared racks are not here (../shared/bench, or set RUMMY101_SHARED)")
    texts = []
    for name in ("racks_14.txt", "racks_22.txt", "racks_20_plus_2_jokers.txt"):
        with open(os.path.join(base, name)) as f:
            texts += [format_tiles(parse_tiles(line)) for line in f if line.strip()]
    return texts


@pytest.mark.parametrize("name", ["rummy101", "remi"])
def test_batch_on_the_shared_racks_equals_the_parser_path(name: str) -> None:
    rules = Rules.parse(name)
    texts = [t for t in _shared_texts() if t.count("*") <= rules.max_rack_jokers]
    if rummy101.backend_name() == "pure":  # every 8th rack there (the whole files take ~45 s)
        texts = texts[::8]
    batch = solve_openings(rules, texts)
    assert [o.to_json() for o in batch] == [
        solve_opening(rules, rules.parse_rack(t)).to_json() for t in texts]


@pytest.mark.parametrize("spec,kw", [
    ("rummy101", {}),
    ("rummy101(threshold=increasing)", {"threshold": 130, "pairs_threshold": 6}),
    ("rummy101", {"must_use": "*"}),
    ("remi", {}),
    ("remi", {"must_use": "R5"}),
    ("classic", {}),
    ("classic(go_out=narrow)", {}),
])
def test_opening_answers_json_is_the_public_answer_encoded(both: tuple[object, object], spec: str,
                                                           kw: dict[str, object]) -> None:
    """The JSON the core writes for the service's batch is solve_opening(...).to_json() encoded
    as the service encodes it, byte for byte, on both backends."""
    import json

    import numpy as np
    from rummy101 import _backend
    from rummy101.service.answer import encode
    from rummy101.service.fast import _tokens
    from rummy101.solve import current_budget, keeps_card

    rules = Rules.parse(spec)
    rng = random.Random(len(spec))
    racks = [rules.parse_rack(_random_text(rng, rules, 22)) for _ in range(40)]
    mu = kw.get("must_use")
    if mu is not None:
        code = int(rules.parse_rack(str(mu))[0])
        racks = [r for r in racks if code in (int(p) for p in r)]
    want = [encode(solve_opening(rules, r, **kw).to_json()) for r in racks]  # type: ignore[arg-type]
    counts = np.array([counts_of(int(p) for p in r) for r in racks], dtype=np.uint8)
    codes = np.array([int(p) for r in racks for p in r], dtype=np.uint8)
    offsets = np.cumsum([0] + [len(r) for r in racks]).astype(np.int64)
    keeps = np.array([keeps_card(rules, len(r)) for r in racks], dtype=np.uint8)
    tokens = [json.dumps(t, ensure_ascii=False)[1:-1] for t in _tokens(rules.family)]
    t = kw.get("threshold", rules.opening_points)
    p = kw.get("pairs_threshold", rules.pairs_opening)
    for name, mod in zip(("native", "pure"), both, strict=True):
        got = mod.opening_answers_json(  # type: ignore[attr-defined]
            _backend.core_rules(rules, "open", name), counts, codes, offsets, keeps,
            -1 if mu is None else code, rules.opening_needs_run, current_budget(), t, p,
            rules.pairs_allowed, tokens, json.dumps(str(rules)))
        assert got == want, name


def test_opening_answers_json_marks_a_spent_budget_and_checks_its_input(both: tuple[object, object]) -> None:
    import numpy as np
    from rummy101 import _backend

    rules = Rules.parse("rummy101")
    dense = rules.parse_rack("R1 B2 K2 R3 K3 Y2 Y3 K1 R1 R2 K3 Y1 B1 Y2 B3 B2 Y3 K2 Y1 R3 R2 * * * * * *")
    easy = rules.parse_rack("R1 R2 R3 K9")
    racks = [easy, dense, easy]
    counts = np.array([counts_of(int(p) for p in r) for r in racks], dtype=np.uint8)
    codes = np.array([int(p) for r in racks for p in r], dtype=np.uint8)
    offsets = np.cumsum([0] + [len(r) for r in racks]).astype(np.int64)
    keeps = np.ones(3, dtype=np.uint8)
    tokens = [str(Tile(c)) for c in range(53)]
    for name, mod in zip(("native", "pure"), both, strict=True):
        cr = _backend.core_rules(rules, "open", name)
        got = mod.opening_answers_json(cr, counts, codes, offsets, keeps, -1, False, 50, 101, 5,  # type: ignore[attr-defined]
                                       True, tokens, '"rummy101"')
        assert got[1] is None and got[0] == got[2] and got[0] is not None, name
        with pytest.raises(ValueError, match="codes and counts differ"):
            mod.opening_answers_json(cr, counts[[1, 0, 2]], codes, offsets, keeps, -1, False,  # type: ignore[attr-defined]
                                     50, 101, 5, True, tokens, '"rummy101"')
        with pytest.raises(ValueError, match="offsets"):
            mod.opening_answers_json(cr, counts, codes, offsets[:-1], keeps, -1, False,  # type: ignore[attr-defined]
                                     50, 101, 5, True, tokens, '"rummy101"')
