"""The live progress of ``hearts tournament``: a row for the deals, one for the games, one for the whole run.

A deal (or game) counts as played when all its tables are; until then its row moves with the share of its
tables played so far, reported by the workers (:data:`hearts.sim.tournament.ProgressFn`), so the bars and
their ETAs move from the first decisions. With deals and games both asked for, a ``total`` row weighs a
game as :func:`hands_per_game` deals, so that its ETA is the whole run's.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from hearts.core import Rules


def hands_per_game(rules: Rules) -> float:
    """A prior for the hands a game lasts: the leading total grows about 1.6 times as fast as the mean
    (the moon's points shared out), until it reaches the target. Only the total's ETA depends on it.

    >>> round(hands_per_game(Rules()), 1)
    9.6
    """
    return max(1.0, rules.target / (1.6 * rules.moon_points / rules.players))


class TournamentProgress:
    """Rows ``deals``, ``games`` and ``total``; :meth:`show` is the ``progress`` callback of a run."""

    def __init__(self, console: Console, rules: Rules, deals: int, games: int, quiet: bool = False) -> None:
        self.bar = Progress(
            TextColumn("[bold]{task.description:>6}"), BarColumn(), TextColumn("{task.fields[count]:>11}"),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console, disable=quiet,
        )  # fmt: skip
        self.sizes = {"deal": deals, "game": games}
        self.weight = {"deal": 1.0, "game": hands_per_game(rules)}
        self.rows: dict[str, TaskID] = {}
        for kind, size in self.sizes.items():
            if size:
                self.rows[kind] = self.bar.add_task(f"{kind}s", total=size, count=f"0/{size} {kind}s")
        self.total = None
        if deals and games:
            self.total = self.bar.add_task("total", total=deals + games * self.weight["game"], count="0%")
        self.done = {"deal": 0, "game": 0}
        self.playing: dict[tuple[str, int], float] = {}

    def __enter__(self) -> TournamentProgress:
        self.bar.__enter__()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.bar.__exit__(kind, error, trace)

    def played(self, kind: str) -> float:
        """The deals (or games) played, the share of those in play included."""
        return self.done[kind] + sum(v for u, v in self.playing.items() if u[0] == kind)

    def show(self, unit: tuple[str, int], share: float) -> None:
        kind = unit[0]
        if share >= 1.0:
            self.done[kind] += 1
            self.playing.pop(unit, None)
        else:
            self.playing[unit] = share
        size = self.sizes[kind]
        self.bar.update(self.rows[kind], completed=self.played(kind), count=f"{self.done[kind]}/{size} {kind}s")
        if self.total is not None:
            work = sum(self.weight[k] * self.played(k) for k in self.sizes)
            if self.done["deal"] == self.sizes["deal"] and self.done["game"] == self.sizes["game"]:
                work = self.bar.tasks[self.total].total or work  # the prior may be off: end at 100%
            whole = self.bar.tasks[self.total].total or 1.0
            self.bar.update(self.total, completed=work, count=f"{100 * work / whole:.0f}%")
