"""``hearts simulate``: many hands between computer players, with speed and points per seat."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_command(
        hands: int = typer.Option(1000, "--hands", "-n", min=1, help="Hands to play."),
        seats: int = typer.Option(4, "--seats", min=3, max=6, help="Seats at the table (3 to 6)."),
        preset: str = typer.Option("standard", "--preset", help="Rule preset (see 'hearts rules list')."),
        seed: int = typer.Option(
            0,
            "--seed",
            help="Seed of the deals and the players: the same seed and engine give the same hands (the python and "
            "fast engines draw from different generators, so they deal different hands from one seed).",
        ),
        players: str = typer.Option(
            "random", "--players", help="Player level for every seat, or comma-separated levels one per seat."
        ),
        json_path: Annotated[Path | None, typer.Option("--json", help="Write the figures to this JSON file.")] = None,
        records_dir: Annotated[
            Path | None,
            typer.Option(
                "--records",
                help="Write every game played as a record: DIR/game-000001.json, ... (hearts replay reads them).",
            ),
        ] = None,
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
        engine: str = typer.Option(
            "auto",
            "--engine",
            help="python (the rules engine), fast (compiled with numba; random level only, no records) or "
            "auto: fast when numba is installed, every seat is random and no --records are asked for.",
        ),
    ) -> None:
        """Play many hands through the rules engine; print hands per second and each seat's points.

        The hands are those of successive games, each played to the target before the next one starts; the last game stops when the hands are done. With --records every game is written as one record in the engine's format (a game cut short is a record of a game in progress).
        """
        import json

        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.table import Table

        from hearts.sim.simulate import SimulationConfig, SimulationError, records_writer, simulate

        console = Console()
        try:
            if records_dir is not None and engine.strip().lower() == "auto":
                engine = "python"  # records are the engine's: only its path writes them
            config = SimulationConfig(
                hands=hands, seats=seats, preset=preset, seed=seed, players=tuple(players.split(",")), engine=engine
            )
        except SimulationError as exc:
            raise typer.BadParameter(str(exc), param_hint=exc.option) from None
        if json_path is not None and not json_path.parent.is_dir():
            raise typer.BadParameter(
                f"no directory {json_path.parent} to write {json_path.name} in", param_hint="--json"
            )
        sink = None
        if records_dir is not None:
            if config.engine == "fast":
                raise typer.BadParameter("the fast engine keeps no records: use --engine python", param_hint="--records")
            if records_dir.exists() and not records_dir.is_dir():
                raise typer.BadParameter(f"{records_dir} exists and is not a directory", param_hint="--records")
            sink = records_writer(records_dir)

        with Progress(
            TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TextColumn("hands"),
            TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=quiet, transient=True,
        ) as bar:  # fmt: skip
            task = bar.add_task("simulate", total=hands)
            result = simulate(config, progress=lambda done, total: bar.update(task, completed=done), records=sink)

        rules_name = f"{config.preset}, {config.seats} seats, {config.engine} engine, seed {config.seed}"
        console.print(
            f"{result.hands:,} hands ({rules_name}) in {result.seconds:.2f} s: "
            f"[bold]{result.hands_per_second:,.0f} hands/s[/bold] ({result.hands_per_cpu_second:,.0f} per CPU second); "
            f"{result.games} game(s), "
            f"{result.games_finished} finished; {result.moons} moon(s)"
        )
        table = Table("seat", "player", "points/hand (95% CI)", "total", "moons", "games won", title="Points per seat")
        for s in result.seats:
            table.add_row(
                s.name, s.player, s.points.text(2), f"{s.total:,}", str(s.moons), f"{s.wins:g}",
            )  # fmt: skip
        console.print(table)
        if json_path is not None:
            json_path.write_text(json.dumps(result.to_dict(), indent=2), encoding="utf-8")
            console.print(f"figures written to {json_path}")
        if records_dir is not None:
            console.print(f"{result.games} record(s) written to {records_dir} in {result.record_seconds:.2f} s")
