"""Finish kinds of the simulator (issue 9): Remi's tabla closes (RO-11) and Atu finishes (RO-4)
are their own kinds, in the records, the per-seat table, the round endings and the JSONL lines."""

from __future__ import annotations

import json
from pathlib import Path

from rummy101 import sim
from rummy101.game import records
from rummy101.sim.stats import SimResult, _stats
from test_remi_engine import position

REMI_KINDS = {"normal", "joker", "tabla", "tabla_joker", "atu", "atu_joker", "atu_tabla",
              "atu_tabla_joker", "exhausted"}


def _play(s, actions: list[str]) -> None:
    for a in actions:
        s.apply(a)


def _atu_etalat():
    rack = "R1 R2 R3 R4 Y5 Y6 Y7 Y8 Y9 B9 B10 B11 K12 K13"
    s = position(racks=["R5 R6 R7", rack, "B2", "B3"], atu="K1")
    _play(s, ["atu", "run R1 R2 R3", "add R4 to 0@end", "run Y5 Y6 Y7", "add Y8 to 1@end",
              "run B9 B10 B11", "run K12 K13 K1", "open", "discard Y9"])
    return s


def _atu_tabla():
    s = position(racks=["R5", "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 Y7 B2", "B2", "B3"],
                 atu="K13", tabla=[False, True, False, False])
    _play(s, ["atu", "close", "discard B2"])
    return s


def _tabla_joly():
    s = position(racks=["R5", "R1 R2 R3 Y4 Y5 Y6 Y7 B7 B8 B9 K10 K11 K12 K13 *", "B2", "B3"],
                 tabla=[False, True, False, False], took="draw", phase="play")
    _play(s, ["close", "discard *"])
    return s


def test_remi_results_name_the_finish_kind() -> None:
    a = _atu_etalat()
    assert a.round_results()[0]["atu_finish"] is True
    assert sim.round_finishes(a) == (("atu",), (1,))
    t = _atu_tabla()
    r = t.round_results()[0]
    assert r["atu_finish"] is True and r["finish"] == "tabla"
    assert sim.round_finishes(t) == (("atu_tabla",), (1,))
    j = _tabla_joly()
    assert j.round_results()[0]["joker_finish"] and not j.round_results()[0]["atu_finish"]
    assert sim.round_finishes(j) == (("tabla_joker",), (1,))


def test_remi_plain_etalat_is_normal_and_exhausted_has_no_atu() -> None:
    s = position(racks=["R5", "R1 R2 R3 Y9 K5", "B2", "B3"], laid=[True, True, False, False],
                 took="draw", phase="play", table=[("run", 0, "Y6 Y7 Y8")])
    _play(s, ["run R1 R2 R3", "add Y9 to 0@end", "discard K5"])
    r = s.round_results()[0]
    assert r["finish"] == "etalat" and r["atu_finish"] is False
    assert sim.finish_type(r) == "normal"
    assert sim.finish_type({"end": "exhausted", "winner": None, "atu_finish": False}) == "exhausted"


def test_summary_and_jsonl_keep_the_kinds_apart(tmp_path: Path) -> None:
    recs = []
    for i, s in enumerate([_atu_etalat(), _atu_tabla(), _tabla_joly()]):
        fin, who = sim.round_finishes(s)
        recs.append(sim.GameRecord(game=i, seed=0, rules="remi", bots=("a", "b", "c", "d"),
                                   scores=tuple(s.standings()), round_scores=tuple(
                                       tuple(r) for r in s.round_scores()),
                                   best=who[0], finishes=fin, finishers=who, turns=(1, 1, 1, 1),
                                   steps=1))
    seats, ties, counts = _stats(recs, ("a", "b", "c", "d"))
    assert counts == {"atu": 1, "atu_tabla": 1, "tabla_joker": 1}
    assert seats[1].finishes == {"atu": 1, "atu_tabla": 1, "tabla_joker": 1}
    res = SimResult(rules="remi", bots=("a", "b", "c", "d"), seed=0, records=recs,
                    seats=seats, ties=ties, finish_counts=counts)
    text = sim.format_summary(res)
    assert "round endings: atu 1, atu_tabla 1, tabla_joker 1" in text
    assert "tabla = tabla close on the rack (RO-11)" in text and "atu = took the Atu" in text
    out = tmp_path / "g.jsonl"
    sim.write_records(recs, out)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["finishes"] for x in lines] == [["atu"], ["atu_tabla"], ["tabla_joker"]]
    assert [r.finishes for r in sim.read_records(out)] == [("atu",), ("atu_tabla",), ("tabla_joker",)]


def test_simulated_remi_kinds_match_the_replayed_results() -> None:
    res = sim.simulate("remi", "greedy,random,random,random", 12, seed=0, workers=1,
                       progress=False, record="full")
    for r in res.records:
        assert set(r.finishes) <= REMI_KINDS
        s = records.from_dict(r.game_record)
        assert r.finishes == tuple(sim.finish_type(x) for x in s.round_results())
    assert sum(res.finish_counts.values()) == 12
