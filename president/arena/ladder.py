"""`president tournament --ladder easy,medium,hard`: AI levels in mixed seatings, rated.

Seatings: every multiset of `players` levels that mixes at least two of them, in a fixed order;
game g plays seating g mod (number of seatings), and `play_game` rotates its entries over the
seats, so a game is still fully determined by (seed, game) and the results are the same for any
--jobs or cluster. After the games, each level is rated with OpenSkill (Plackett-Luce), one
update per deal in game order from its places; a level that holds several seats of one deal gets
the mean of their updates. The table shows mu ± 2 sigma next to the President rate (95% CI) and
the mean points per deal; `plot()` draws the President rate against games played with its band.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Callable, Sequence

from ..errors import PresidentError
from .tournament import GameResult, wald95


def seatings(levels: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every mixed seating of `players` seats from these levels, in a fixed order."""
    return [s for s in combinations_with_replacement(levels, players) if len(set(s)) > 1]


def ladder_seating(levels: Sequence[str], players: int) -> Callable[[int], tuple[str, ...]]:
    """Game g plays seating g mod (number of mixed seatings); a picklable function of g."""
    return partial(_nth, tuple(seatings(levels, players)))


def _nth(table: tuple[tuple[str, ...], ...], game: int) -> tuple[str, ...]:
    return table[game % len(table)]


@dataclass
class LevelStats:
    level: str
    deals: int = 0
    presidents: int = 0
    points: int = 0
    mu: float = 0.0
    sigma: float = 0.0
    #: (games played, President rate so far, its 95% half-width, mu, sigma) after each game the level played
    curve: list[tuple[int, float, float, float, float]] = field(default_factory=list)

    @property
    def president_rate(self) -> float:
        return self.presidents / self.deals if self.deals else 0.0

    @property
    def ci95(self) -> float:
        return wald95(self.presidents, self.deals)


def rate(seating_of: Callable[[int], Sequence[str]], results: Sequence[GameResult]) -> list[LevelStats]:
    """Per level (in order of first appearance): rating, President rate and their curves, from the
    results of games 0.. in order; `seating_of(g)` gives the entries of game g."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    levels = list(dict.fromkeys(lv for g in range(len(results)) for lv in seating_of(g)))
    ratings = {lv: model.rating(name=lv) for lv in levels}
    stats = {lv: LevelStats(lv) for lv in levels}
    for g, res in enumerate(results):
        seating = seating_of(g)
        players = len(seating)
        for d in range(len(res.places[0])):
            teams = [[ratings[lv]] for lv in seating]
            new = model.rate(teams, ranks=[res.places[e][d] for e in range(players)])
            moved: dict[str, list[tuple[float, float]]] = {}
            for e, lv in enumerate(seating):
                moved.setdefault(lv, []).append((new[e][0].mu, new[e][0].sigma))
                st = stats[lv]
                st.deals += 1
                st.presidents += res.places[e][d] == 1
            for lv, vals in moved.items():
                r = ratings[lv]
                r.mu = sum(v[0] for v in vals) / len(vals)
                r.sigma = sum(v[1] for v in vals) / len(vals)
        for e, lv in enumerate(seating):
            stats[lv].points += res.points[e]
        for lv in set(seating):
            st = stats[lv]
            st.curve.append((g + 1, st.president_rate, st.ci95, ratings[lv].mu, ratings[lv].sigma))
    for lv in levels:
        stats[lv].mu, stats[lv].sigma = ratings[lv].mu, ratings[lv].sigma
    return [stats[lv] for lv in levels]


def summary(stats: Sequence[LevelStats]) -> list[dict]:
    return [{"level": st.level, "mu": round(st.mu, 3), "sigma": round(st.sigma, 3), "deals": st.deals,
             "president_rate": round(st.president_rate, 4), "president_ci95": round(st.ci95, 4),
             "mean_points": round(st.points / st.deals, 4) if st.deals else 0.0} for st in stats]


def plot(stats: Sequence[LevelStats], path: Path, title: str) -> None:
    """President rate against games played, one line per level with its 95% band (PNG or SVG by suffix)."""
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - the [plot] extra is not installed
        raise PresidentError("--plot needs matplotlib: pip install 'president[plot]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, bx) = plt.subplots(2, 1, figsize=(7, 6.5), sharex=True)
    for st in stats:
        if not st.curve:
            continue
        xs = [c[0] for c in st.curve]
        line, = ax.plot(xs, [c[1] for c in st.curve], label=f"{st.level}: {st.president_rate:.1%} ± {st.ci95:.1%}")
        color = line.get_color()
        ax.fill_between(xs, [max(0.0, c[1] - c[2]) for c in st.curve], [min(1.0, c[1] + c[2]) for c in st.curve],
                        color=color, alpha=0.2, linewidth=0)
        bx.plot(xs, [c[3] for c in st.curve], color=color, label=f"{st.level}: {st.mu:.1f} ± {2 * st.sigma:.1f}")
        bx.fill_between(xs, [c[3] - 2 * c[4] for c in st.curve], [c[3] + 2 * c[4] for c in st.curve],
                        color=color, alpha=0.2, linewidth=0)
    ax.set_ylabel("President rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    bx.set_ylabel("OpenSkill mu (± 2 sigma)")
    bx.set_xlabel("games played")
    for a in (ax, bx):
        a.grid(alpha=0.3)
        a.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    import io
    from ..atomic import StagingError, replace_all
    buffer = io.BytesIO()
    fig.savefig(buffer, format=path.suffix.lstrip(".").lower() or "png")
    plt.close(fig)
    try:  # whole or not at all; a device or a FIFO is written through, never replaced
        replace_all({Path(path): buffer.getvalue()}, through=True)
    except StagingError as exc:
        raise exc.error from None
