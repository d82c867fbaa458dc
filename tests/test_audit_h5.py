"""Rules audit h5: legal actions of the classic and Remi engines checked against an independent
reading of the rules on random hand-made positions (CR-2/CR-3/CR-4 for classic; RO-6/RO-7/RO-9.4/
RO-9.5/RO-9.6/RO-13 for Remi). The expected sets are computed here from the rule text alone
(3-tile melds, lay-offs, the discard, the turn's way out), not from the engines' tables."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from rummy101.game.engines.classic.table import CS, RUN, SET, CardMeld
from rummy101.tiles import Tile, parse_tiles
from test_audit_classic import pos as classic_pos
from test_audit_remi import pos as remi_pos

J = 52


def ts(c: int) -> str:
    return str(Tile(c))


# ---- classic: CR-2 (aces low), CR-3 (melds of 3, lay-offs after an own meld, the taken card is
# not discarded), CR-4 (going out broad/narrow) --------------------------------------------------

def _fits(table: list[Any], c: int) -> list[tuple[int, int]]:
    out = []
    for i, m in enumerate(table):
        if m.kind == RUN:
            suit, lo, hi = m.cards[0] // 13, m.cards[0] % 13, m.cards[-1] % 13
            if c // 13 == suit and c % 13 == lo - 1:
                out.append((i, 0))
            if c // 13 == suit and c % 13 == hi + 1:
                out.append((i, 1))
        elif len(m.cards) == 3 and c % 13 == m.cards[0] % 13 and c not in m.cards:
            out.append((i, -1))
    return out


def _classic_expected(s: Any, broad: bool) -> set[str]:
    p = s.current
    hand = [c for c in range(52) if s.racks[p][c]]
    t = s.x.taken

    def way_out(removed: tuple[int, ...], table_after: list[Any], verb: str) -> bool:
        left = [c for c in hand if c not in removed]
        if not left:
            return broad or (verb in ("run", "set") and s.x.start_size == 2)
        if left == [t]:
            return broad and bool(_fits(table_after, t))
        return True

    out = set()
    for c in hand:
        if c % 13 <= 10 and c + 1 in hand and c + 2 in hand:
            cs = (c, c + 1, c + 2)
            if way_out(cs, list(s.table) + [CardMeld.build(RUN, p, cs)], "run"):
                out.add("run " + " ".join(CS[x] for x in cs))
    for r in range(13):
        suits = [k for k in range(4) if k * 13 + r in hand]
        for ks in combinations(suits, 3):
            cs = tuple(k * 13 + r for k in ks)
            if way_out(cs, list(s.table) + [CardMeld.build(SET, p, cs)], "set"):
                out.add("set " + " ".join(CS[x] for x in cs))
    if s.x.melded[p]:
        for c in hand:
            for i, where in _fits(s.table, c):
                after = list(s.table)
                after[i] = after[i].with_added(c, where)
                if way_out((c,), after, "add"):
                    out.add(f"add {CS[c]} to {i}" + ("" if where < 0 else ("@start" if where == 0 else "@end")))
    out.update(f"discard {CS[c]}" for c in hand if c != t)
    return out


@pytest.mark.parametrize("go_out", ["broad", "narrow"])
@pytest.mark.backend_free
def test_cr3_cr4_legal_plays_match_an_independent_reading(go_out: str) -> None:
    rng = random.Random(f"h5-classic-{go_out}")
    rules = f"classic(players=2,go_out={go_out})"
    for _ in range(1500):
        deck = list(range(52))
        rng.shuffle(deck)
        n = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6])
        h, rest = deck[:n + 1], deck[n + 1:]
        table = []
        for _k in range(rng.randint(0, 3)):
            if rng.random() < 0.5:
                c = rng.randrange(52)
                if c % 13 <= 10 and all(x in rest for x in (c, c + 1, c + 2)):
                    for x in (c, c + 1, c + 2):
                        rest.remove(x)
                    table.append(("run", rng.randint(0, 1), " ".join(CS[x] for x in (c, c + 1, c + 2))))
            else:
                r = rng.randrange(13)
                cs = [k * 13 + r for k in range(4) if k * 13 + r in rest][:3]
                if len(cs) == 3:
                    for x in cs:
                        rest.remove(x)
                    table.append(("set", rng.randint(0, 1), " ".join(CS[x] for x in cs)))
        taken = CS[h[-1]] if rng.random() < 0.5 else None
        s = classic_pos(rules, hands=[" ".join(CS[c] for c in h), "KD"], table=table,
                        melded=[rng.random() < 0.5, False], phase="play", taken=taken)
        assert {str(a) for a in s.legal_actions()} == _classic_expected(s, go_out == "broad"), (
            [CS[c] for c in h], taken, table)


# ---- Remi: RO-6/RO-7 3-tile melds, RO-9.4 breaking the train, RO-9.5/9.6 Joly retrieval -------

def _is_set(t: list[int]) -> bool:
    reals = [c for c in t if c != J]
    return t.count(J) <= 1 and len({c % 13 for c in reals}) == 1 and len({c // 13 for c in reals}) == len(reals)


def _run_orders(t: list[int]) -> set[tuple[int, ...]]:
    """Table orders of a 3-tile run of these tiles: one colour, 1 low (1-2-3) or high (12-13-1),
    never 13-1-2, at most one Joly (RO-6, RO-7)."""
    reals = [c for c in t if c != J]
    if t.count(J) > 1 or len({c // 13 for c in reals}) != 1:
        return set()
    col = reals[0] // 13
    out = set()
    for start in range(1, 13):
        need = [r if r <= 13 else 1 for r in (start, start + 1, start + 2)]
        pool = list(need)
        for r in sorted(c % 13 + 1 for c in reals):
            if r not in pool:
                break
            pool.remove(r)
        else:
            if len(pool) == t.count(J):
                jr = pool[0] if pool else None
                out.add(tuple(J if r == jr else col * 13 + r - 1 for r in need))
    return out


def _meld3(t: list[int]) -> bool:
    return _is_set(t) or bool(_run_orders(t))


def _tiles() -> list[int]:
    return [c for c in range(52) for _ in range(2)] + [J, J]


def test_ro9_4_breaks_match_an_independent_reading() -> None:
    """RO-9.4/RO-10: laid down, not tabla, >= 3 tiles; train tiles 1..len-2; two rack tiles."""
    rng = random.Random("h5-break")
    for _ in range(1500):
        codes = _tiles()
        rng.shuffle(codes)
        size = rng.choice([1, 2, 3, 4, 5, 7])
        rack, train = codes[:size], codes[size:size + rng.randint(2, 6)]
        laid = rng.random() < 0.7
        tabla = not laid and rng.random() < 0.3
        s = remi_pos(racks=["K13", " ".join(ts(c) for c in rack)], train=" ".join(ts(c) for c in train),
                     laid=[False, laid], tabla=[False, tabla], atu=None)
        got = {str(a) for a in s.legal_actions() if a.verb == "break"}
        exp = set()
        if laid and size >= 3:
            for n in range(1, len(train) - 1):
                if any(_meld3([train[n], a, b]) for a, b in combinations(rack, 2)):
                    exp.add(f"break {n}")
        assert got == exp, ([ts(c) for c in rack], [ts(c) for c in train], laid, tabla)


@pytest.mark.backend_free
def test_ro6_ro7_new_three_tile_melds_match_an_independent_reading() -> None:
    """RO-6/RO-7/RO-13: every 3-tile run/set of the rack, keeping a tile to discard."""
    rng = random.Random("h5-melds")
    for _ in range(1500):
        codes = _tiles()
        rng.shuffle(codes)
        size = rng.choice([2, 3, 4, 5, 6, 8])
        rack = codes[:size]
        s = remi_pos(racks=["K13", " ".join(ts(c) for c in rack)], laid=[False, True], phase="play", atu=None)
        got = {str(a) for a in s.legal_actions() if a.verb in ("run", "set")}
        exp = set()
        if size >= 4:
            for comb in {tuple(sorted(x)) for x in combinations(rack, 3)}:
                if _is_set(list(comb)):
                    reals = sorted(c for c in comb if c != J)
                    cols = [c // 13 for c in reals]
                    order, jk = [], comb.count(J)
                    for k in range(4):
                        if k in cols:
                            order.append(reals[cols.index(k)])
                        elif jk:
                            order.append(J)
                            jk -= 1
                    exp.add("set " + " ".join(ts(c) for c in order))
                exp.update("run " + " ".join(ts(c) for c in o) for o in _run_orders(list(comb)))
        assert got == exp, [ts(c) for c in rack]


@pytest.mark.parametrize(("meld", "stands"), [
    (("run", "R4 * R6"), "R5"), (("set", "R9 Y9 B9 *"), "K9"), (("run", "Y11 Y12 *"), "Y13"),
    (("set", "* Y3 B3"), None), (("run", "* K2 K3 K4"), "K1")])
def test_ro9_5_ro9_6_retrievals_match_an_independent_reading(meld: tuple[str, str], stands: str | None) -> None:
    """RO-9.5: exactly the tile the Joly stands for, the Joly re-laid at once with two real rack
    tiles, a tile kept to discard; RO-9.6: a 3-tile set gives its Joly to no single tile."""
    rng = random.Random(f"h5-retrieve-{meld}")
    st = int(parse_tiles(stands)[0]) if stands else None
    idx = meld[1].split().index("*")
    for _ in range(600):
        codes = [c for c in range(52) for _ in range(2)] + [J]
        rng.shuffle(codes)
        size = rng.choice([3, 4, 4, 5, 6])
        rack = codes[:size]
        if st is not None and st not in rack and rng.random() < 0.7:
            rack[0] = st
        s = remi_pos(racks=["K13", " ".join(ts(c) for c in rack)], laid=[True, True], phase="play",
                     atu=None, table=[(meld[0], 0, meld[1])])
        got = {str(a) for a in s.legal_actions() if a.verb == "retrieve"}
        exp = set()
        if st is not None and st in rack and size >= 4:
            rest = list(rack)
            rest.remove(st)
            if any(_meld3([J, a, b]) for a, b in combinations(rest, 2) if J not in (a, b)):
                exp.add(f"retrieve 0:{idx} with {ts(st)}")
        assert got == exp, [ts(c) for c in rack]


# ---- refusal messages: the reason given is the real one ------------------------------------------

@pytest.mark.parametrize(("laid", "action", "reason"), [
    (False, "add R4 to 0@end", r"R4 is not on the rack \(RO-8\)"),
    (False, "add R9 to 0@end", r"R9 does not fit R1 R2 R3 there \(RO-6, RO-7"),
    (True, "add R4 to 0@end", r"R4 is not on the rack \(RO-9\.2\)"),
])
def test_ro8_ro9_2_refused_add_names_the_real_reason(laid: bool, action: str, reason: str) -> None:
    """RO-8: before the lay-down the staged melds grow, so an add to a staged meld that is refused
    is refused for the tile (not on the rack, or not fitting), not with "only the staged melds
    grow"; RO-9.2: a laid-down player's add of a tile that would fit but is not on the rack says
    so (it was refused as "does not fit")."""
    from audit_helpers import refused

    s = remi_pos(racks=["K13", "R1 R2 R3 Y10 B10 K10 K7 Y9"], phase="play", atu=None,
                 laid=[False, laid], table=[("run", 0, "R1 R2 R3")] if laid else [])
    if not laid:
        s.apply("run R1 R2 R3")
        s.apply("set Y10 B10 K10")
    refused(s, action, "RO-")
    with pytest.raises(Exception, match=reason):
        s.apply(action)


def test_ro9_5_refused_retrieval_with_a_tile_not_on_the_rack_says_so() -> None:
    """RO-9.5: the retrieval with the exact tile the Joly stands for, which the rack does not
    hold, is refused for that reason (it said the Joly "must be laid at once" instead)."""
    from audit_helpers import refused

    s = remi_pos(racks=["K13", "Y7 Y8 B2 K4 K9"], phase="play", atu=None, laid=[True, True],
                 table=[("run", 0, "R4 * R6")])
    refused(s, "retrieve 0:1 with R5", "RO-9.5")
    with pytest.raises(Exception, match=r"R5 is not on the rack \(RO-9\.5\)"):
        s.apply("retrieve 0:1 with R5")
