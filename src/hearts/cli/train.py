"""``hearts train``: train the learned evaluation by self-play, with a progress bar and a learning curve."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("train")
    def train_command(
        out: Annotated[Path, typer.Option("--out", "-o", help="Write the weights to this .npz file.")],
        hands: int = typer.Option(200_000, "--hands", "--games", "-n", min=1, help="Self-play hands per round."),
        rounds: int = typer.Option(4, "--rounds", min=1, help="Rounds of policy iteration."),
        seed: int = typer.Option(1, "--seed", min=0, help="Seed of every deal: the same seed gives the same weights."),
        eps: float = typer.Option(0.3, "--eps", min=0.0, max=1.0, help="Chance of a random legal card in self-play."),
        ridge: float = typer.Option(1.0, "--ridge", help="Ridge penalty of the regression (above 0)."),
        keep: float = typer.Option(
            1.0,
            "--keep",
            min=0.0,
            max=1.0,
            help="Weight of earlier rounds' hands in each fit (0: the last round only).",
        ),
        margin: float = typer.Option(
            3.0,
            "--margin",
            min=0.0,
            help="Points by which a card must beat the medium player's card to be played instead.",
        ),
        targets: str = typer.Option(
            "outcome",
            "--targets",
            help="What a card is worth in the regression: rollout (every legal card played out by medium on the same "
            "deal) or outcome (the hand's outcome after the card chosen).",
        ),
        eval_deals: int = typer.Option(
            1_000,
            "--eval-deals",
            min=0,
            help="Deals of the duplicate measure against medium and random after each round.",
        ),
        preset: str = typer.Option(
            "standard", "--preset", help="Rule preset to train under (see 'hearts rules list')."
        ),
        backend: str = typer.Option("local", "--backend", help="local (this machine's processes) or ray."),
        jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (local) or Ray CPUs."),
        address: str | None = typer.Option(
            None, "--address", help="Ray cluster address (ray backend; default: a local Ray)."
        ),
        curve: Annotated[
            Path | None, typer.Option("--curve", help="Write the learning curve as a PNG to this file.")
        ] = None,
        version: str = typer.Option("learned-v1", "--version", help="The model's name, stored in the file."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    ) -> None:
        """Train the learned evaluation by self-play on the compiled core and write its weights.

        Round 0's hands are played by the medium player, each later round's by the previous round's model (in every other chair, medium in the rest); a ridge regression over the decisions' features gives each round's weights, measured by duplicate play against medium and random on fixed deals (the learning curve). The same options and seed give the same weights, on either backend and any --jobs. The shipped model's command is in docs/training.md.
        """
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from hearts.core import RulesError
        from hearts.players.weights import save_model
        from hearts.sim.train import TrainConfig, TrainError, local_backend, plot_curve, ray_backend, train

        for path, hint in ((out, "--out"), (curve, "--curve")):
            if path is not None and not path.parent.is_dir():
                raise typer.BadParameter(f"no directory {path.parent} to write {path.name} in", param_hint=hint)
        config = TrainConfig(
            hands=hands,
            rounds=rounds,
            seed=seed,
            eps=eps,
            ridge=ridge,
            keep=keep,
            margin=margin,
            targets=targets,
            eval_deals=eval_deals,
            preset=preset,
        )
        try:
            config.check()
        except RulesError as exc:
            raise typer.BadParameter(str(exc), param_hint="--preset") from None
        except TrainError as exc:
            raise typer.BadParameter(str(exc)) from None
        kind = backend.strip().lower()
        if kind == "local":
            run = local_backend(jobs)
        elif kind == "ray":
            run = ray_backend(jobs, address)
        else:
            raise typer.BadParameter(f"unknown backend {backend!r}: choose local or ray", param_hint="--backend")
        console = Console(stderr=True)
        bar = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), console=console, disable=quiet,
        )  # fmt: skip
        with bar:
            row = bar.add_task("training", total=config.rounds * (config.hands + config.eval_deals))

            def progress(done: int, total: int, note: str) -> None:
                bar.update(row, completed=done, total=total, description=note)

            try:
                model = train(config, run, progress, command=config.command(str(out)), version=version)
            except TrainError as exc:
                raise typer.BadParameter(str(exc)) from None
        save_model(out, model)
        for i, r in enumerate(model.curve["round"]):
            typer.echo(
                f"round {int(r)}: vs medium {model.curve['medium'][i]:+.2f} ± {model.curve['medium_half'][i]:.2f}, "
                f"vs random {model.curve['random'][i]:+.2f} ± {model.curve['random_half'][i]:.2f} points per seat-deal"
            )
        typer.echo(f"wrote {out}")
        if curve is not None:
            typer.echo(f"wrote {plot_curve(model, curve)}")
