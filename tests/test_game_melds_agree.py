"""The engine's table melds agree with the public meld logic (rummy101.melds, R101-5/6/9/11):
values, single-tile additions and joker releases, over every 3-tile meld the engine can lay and
random growths of them."""

from __future__ import annotations

import random

from rummy101.game.engines.rummy101 import _precomputed as P
from rummy101.game.table import PAIR, RUN, SET, TableMeld
from rummy101.melds import Meld, joker_releases, meld_additions

KIND = {RUN: "run", SET: "set", PAIR: "pair"}


def public(m: TableMeld) -> Meld:
    return Meld.parse("rummy101", [int(c) for c in m.tiles], kind=KIND[m.kind])  # type: ignore[arg-type]


def check(m: TableMeld) -> None:
    pm = public(m)
    assert m.value == pm.value(), m
    adds = meld_additions("rummy101", pm)
    if m.kind == RUN:
        want = {(0 if pos == 0 else 1, int(t)) for pos, t in adds}
        assert {(pos, code) for code, pos in m.adds} == want, m
    else:
        assert {code for code, _ in m.adds} == {int(t) for _, t in adds}, m
    rel = joker_releases("rummy101", pm)
    if m.kind == SET:
        want_codes = {int(alt[0]) for _, alts in rel for alt in alts}
        assert {code for code, _ in m.releases} == want_codes, m
        assert all(m.tiles[i] == 52 for _, i in m.releases)
    else:
        want = {(i, int(alt[0])) for i, alts in rel for alt in alts}
        assert {(i, code) for code, i in m.releases} == want, m


def test_every_layable_meld_agrees() -> None:
    acts = [a for _, opts in P.RUN_WINDOWS for _, _, a in opts]
    acts += [a for opts in P.SET_OPTIONS for _, _, a in opts]
    acts += list(P.PAIR_SAME) + list(P.PAIR_JOKER)
    kinds = {"run": RUN, "set": SET, "pair": PAIR}
    for a in acts:
        check(TableMeld.build(kinds[a.verb], 0, tuple(int(t) for t in a.tiles)))


def test_grown_melds_agree() -> None:
    rng = random.Random(5)
    kinds = {"run": RUN, "set": SET}
    acts = [a for _, opts in P.RUN_WINDOWS for _, _, a in opts]
    acts += [a for opts in P.SET_OPTIONS for _, _, a in opts]
    for _ in range(1500):
        a = rng.choice(acts)
        m = TableMeld.build(kinds[a.verb], 0, tuple(int(t) for t in a.tiles))
        for _step in range(rng.randrange(1, 12)):
            if m.releases and rng.random() < 0.3:
                code, idx = rng.choice(m.releases)
                m = m.with_released(code, idx)
            elif m.adds:
                code, pos = rng.choice(m.adds)
                if code == 52 and m.jokers >= 4:  # at most 2 + button jokers exist
                    continue
                m = m.with_added(code, pos)
            check(m)
