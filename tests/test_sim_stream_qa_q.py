"""QA of ``rummy101 sim`` streaming its games (``simulate(..., keep_records=False)``): what
``on_records`` raises stops the run. Every chunk is played for real on a real executor; the
executor only remembers its futures, so that the sink can wait until a later chunk is done
before it raises (the case that once handed that chunk on after the failure)."""

from __future__ import annotations

import concurrent.futures as cf
from pathlib import Path
from typing import Any

import pytest
from rummy101 import sim
from rummy101.sim.resume import read_run

RULES, BOTS = "rummy101(players=2)", "random,random"


class _Remembering(cf.ThreadPoolExecutor):
    """A thread pool that keeps the futures it made, in the order of submission (chunk 0, 1...)."""

    def __init__(self) -> None:
        super().__init__(2)
        self.futures: list[cf.Future[Any]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        fut = super().submit(fn, *args, **kwargs)
        self.futures.append(fut)
        return fut


def _run(ex: _Remembering, keep: bool, sink: Any) -> sim.SimResult:
    """120 games on ``ex`` (chunks of 4 workers' size), each batch handed to ``sink``."""
    return sim.simulate(
        RULES,
        BOTS,
        120,
        seed=3,
        workers=2,
        executor=ex,
        progress=False,
        keep_records=keep,
        on_records=sink,
    )


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("error", [ValueError, KeyboardInterrupt])
def test_no_batch_is_handed_on_after_on_records_raised(keep: bool, error: type) -> None:
    """``on_records`` raising stops the run (docs/simulation.md): it is never called again.
    It was called with every chunk that had finished meanwhile, so that a ``--out`` write that
    failed (a full disk: the batch is cut back off the file) was followed by the next batch
    written after the gap, a file that ``--resume`` then refused ("line 4 ... holds game 6
    where game 3 belongs")."""
    calls: list[int] = []
    sizes: list[int] = []
    waited = [0]  # the games up to the end of the later chunks waited for

    def sink(batch: list[sim.GameRecord]) -> None:
        calls.append(batch[0].game)
        sizes.append(len(batch))
        if len(calls) == 2:
            for fut in ex.futures[2:6]:  # later chunks done before this one fails
                waited[0] = max(waited[0], fut.result()[0][-1].game + 1)
            raise error("the sink failed")

    with _Remembering() as ex, pytest.raises(error) as info:
        _run(ex, keep, sink)
    assert len(calls) == 2, calls
    if error is KeyboardInterrupt:  # the partial result: the games from 0 on, no gap, once
        part = info.value.partial
        assert isinstance(info.value, sim.SimInterrupted) and part is not None
        assert part.games >= waited[0] > sum(sizes)
        kept = sim.simulate(RULES, BOTS, part.games, seed=3, workers=1, progress=False)
        assert part.summary() == kept.summary()
        # without keep, the records not taken are the batch that raised and those after it
        taken = [] if keep else kept.records[: sizes[0]]
        assert part.records == [r for r in kept.records if r not in taken]


def test_cli_out_file_keeps_no_gap_when_a_write_fails(tmp_path: Path) -> None:
    """The writer of ``--out`` (``RecordWriter``) as ``rummy101 sim`` uses it: its second
    batch fails; the file then holds the first batch only, so ``read_run`` (``--resume``)
    accepts it and continues."""
    out = tmp_path / "run.jsonl"
    writer = sim.RecordWriter(out)
    calls: list[int] = []

    def write(batch: list[sim.GameRecord]) -> None:
        calls.append(len(batch))
        if len(calls) == 2:
            for fut in ex.futures[2:6]:
                fut.result()
            raise sim.SimError("cannot write: No space left on device")
        writer.write(batch)

    with _Remembering() as ex, pytest.raises(sim.SimError):
        _run(ex, False, write)
    writer.close()
    run = read_run(out, rules=RULES, bots=BOTS, seed=3, games=120)
    assert run.games == calls[0] == len(out.read_bytes().splitlines())
