"""A figure of simulation results (``rummy101 report --plot out.png``), with matplotlib: the
optional extra ``plot`` (``pip install 'rummy101[plot]'``).

One row of two panels per rule set and line-up of bots: the per-seat distribution of points per
game (box plot over the games, each game a dot, the mean with its 95% interval), and the
per-seat rates of rounds finished and of games with the best final standing, each with its 95%
Wilson interval as an error bar.
"""

from __future__ import annotations

import os
import random
import textwrap
from collections.abc import Sequence
from typing import Any

from ..errors import RummyError, pip_extra
from .report import ReportGroup

__all__ = ["PANELS", "plot_report"]

#: The panel titles of one group's row (the figure's axes carry them, tests read them back).
PANELS = ("points per game by seat", "finish and best-score rates by seat")


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RummyError(f"--plot needs matplotlib, the optional extra 'plot': "
                         f"{pip_extra('plot')}") from None
    matplotlib.use("Agg")          # files only: no display needed
    import matplotlib.pyplot as plt
    return plt


def plot_report(groups: Sequence[ReportGroup], path: str | os.PathLike[str]) -> Any:
    """Draw ``groups`` (from :func:`~rummy101.sim.report.group_records`) into an image file
    (format by extension: .png, .svg, .pdf) and return the matplotlib figure (closed)."""
    plt = _pyplot()
    n = len(groups)
    fig, axes = plt.subplots(n, 2, figsize=(12, 4.2 * n), squeeze=False)
    for row, g in zip(axes, groups):
        _scores(row[0], g)
        _rates(row[1], g)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except (OSError, ValueError) as exc:
        raise RummyError(f"cannot write the plot {str(path)!r}: {exc}") from None
    finally:
        plt.close(fig)
    return fig


#: Characters a title line holds at fontsize 10 within its panel's width (two panels to a
#: 12-inch row): a classic group's label ("..., matches to the target score, capped at 10,000
#: rounds") made one line wider than the panel, and the row's two titles overlapped.
_TITLE_WIDTH = 64


def _title(ax: Any, panel: str, g: ReportGroup) -> None:
    text = f"{panel}: {g.label}, {g.games:,} game{'' if g.games == 1 else 's'}"
    ax.set_title(textwrap.fill(text, _TITLE_WIDTH), fontsize=10)


def _labels(g: ReportGroup) -> list[str]:
    return [f"seat {s}\n{b}" for s, b in enumerate(g.bots)]


#: the most games drawn as dots per seat: a figure of millions of dots takes minutes and shows
#: no more (the box plot and the mean use every game)
MAX_DOTS = 20_000


def _spread(values: Sequence[int]) -> Sequence[int]:
    """At most :data:`MAX_DOTS` of ``values``, evenly spaced in game order.

    >>> len(_spread(range(50_001))), _spread(range(50_001))[:3]
    (20000, [0, 2, 5])
    """
    n = len(values)
    if n <= MAX_DOTS:
        return values
    return [values[i * n // MAX_DOTS] for i in range(MAX_DOTS)]


def _dot_alpha(n: int) -> float:
    """How opaque each of ``n`` dots is drawn: 0.35 up to 400 dots, fainter beyond (to 0.06),
    so that a seat's thousands of dots show where its scores lie densest instead of one block.

    >>> _dot_alpha(100), _dot_alpha(4_000), _dot_alpha(20_000)
    (0.35, 0.06, 0.06)
    """
    return max(0.06, min(0.35, 140 / max(n, 1)))


def _scores(ax: Any, g: ReportGroup) -> None:
    seats = range(len(g.bots))
    data = g.seat_scores()
    # the boxes over the dots, not under them: thousands of dots hid the boxes they summarise
    ax.boxplot(data, positions=list(seats), widths=0.5, showfliers=False, zorder=3,
               medianprops={"color": "black"})
    jitter = random.Random(0)   # fixed: the same file for the same records
    for s, values in zip(seats, data):
        dots = _spread(values)
        xs = [s + jitter.uniform(-0.18, 0.18) for _ in dots]
        ax.scatter(xs, dots, s=8, alpha=_dot_alpha(len(dots)), color=f"C{s}", zorder=2,
                   linewidths=0)
    if g.games > MAX_DOTS:
        ax.text(0.01, 0.01, f"dots: {MAX_DOTS:,} evenly spaced games of {g.games:,} a seat "
                f"(the boxes and means: all)", transform=ax.transAxes, fontsize=7,
                color="dimgrey")
    means = [p[0] for p in g.points]
    err = [[m - p[1] for m, p in zip(means, g.points)], [p[2] - m for m, p in zip(means, g.points)]]
    if g.games > 1:
        ax.errorbar([s + 0.32 for s in seats], means, yerr=err, fmt="D", color="black",
                    capsize=4, markersize=5, label="mean, 95% interval (Hall)", zorder=4)
        ax.legend(loc="best", fontsize=8)
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xticks(list(seats), _labels(g))
    ax.set_ylabel("points per game (final standing)")
    _title(ax, PANELS[0], g)


def _rates(ax: Any, g: ReportGroup) -> None:
    seats = list(range(len(g.bots)))
    width = 0.38
    for k, (what, rate, ci, color) in enumerate((
            ("rounds finished", "finish_rate", "finish_ci95", "C0"),
            ("best final standing", "best_rate", "best_ci95", "C1"))):
        xs = [s + (k - 0.5) * width for s in seats]
        vals = [getattr(st, rate) for st in g.seats]
        # clamped: at a rate of 0 or 1 a Wilson bound may miss it by a rounding error
        lo = [max(0.0, v - getattr(st, ci)[0]) for v, st in zip(vals, g.seats)]
        hi = [max(0.0, getattr(st, ci)[1] - v) for v, st in zip(vals, g.seats)]
        ax.bar(xs, vals, width=width, color=color, alpha=0.75, label=what)
        ax.errorbar(xs, vals, yerr=[lo, hi], fmt="none", ecolor="black", capsize=4)
    ax.set_ylim(0, 1.17)                 # room above 1 for the legend
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.axhline(1, color="grey", linewidth=0.6)
    ax.set_xticks(seats, _labels(g))
    ax.set_ylabel("rate (95% Wilson interval)")
    ax.legend(loc="upper center", ncol=2, fontsize=8, frameon=False)
    _title(ax, PANELS[1], g)
