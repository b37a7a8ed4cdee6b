"""``hearts tournament``: a fair duplicate tournament between computer players, with figures and ratings."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("tournament")
    def tournament_command(
        players: str = typer.Option(
            None,
            "--players",
            "-p",
            help="Comma-separated players: levels (random, easy, medium, hard, expert), cmd:./mybot, "
            "py:MODULE:FACTORY, each optionally NAME=... .",
        ),
        player: list[str] = typer.Option(  # noqa: B008 - Typer declares options this way
            [],
            "--player",
            help="One more player, taken whole (a bot command may hold commas): --player 'mine=cmd:./bot a,b'. "
            "Repeatable; adds to --players.",
        ),
        on_fault: str = typer.Option(
            "stop",
            "--on-fault",
            help="When a player faults (crash, hang, illegal move): stop (exit 1), or forfeit: score its seat's "
            "hands as forfeits, list the fault and play on.",
        ),
        hands: int = typer.Option(100, "--hands", "-n", min=0, help="Deals to play, each at every duplicate table."),
        games: int = typer.Option(
            None, "--games", min=0, help="Whole games to the target, duplicate-style. [default: hands/20, at least 1]"
        ),
        preset: str = typer.Option("standard", "--preset", help="Rule preset (see 'hearts rules list')."),
        seats: int = typer.Option(
            4, "--seats", "--players-per-table", min=3, max=6, help="Seats at each table (3 to 6)."
        ),
        seed: int = typer.Option(
            0, "--seed", help="Seed of the deals and the players: the same seed gives the same results."
        ),
        jobs: int = typer.Option(
            None, "--jobs", "-j", min=1, help="Worker processes. [default: one per core this process may use]"
        ),
        budget: float = typer.Option(None, "--budget", min=0.0, help="Seconds per decision for players that search."),
        json_path: Path = typer.Option(None, "--json", help="Write every figure and table played to this file."),  # noqa: B008
        plot_path: Path = typer.Option(None, "--plot", help="Write a PNG of the payoff and its running mean."),  # noqa: B008
        backend: str = typer.Option("local", "--backend", help="local (processes on this machine) or ray."),
        ray_address: str = typer.Option(None, "--ray-address", help="Ray cluster to use (default: start a local one)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    ) -> None:
        """Play a fair duplicate tournament: every deal is replayed with the seats rotated, so luck cancels.

        Two players play 2-against-2 (A in seats 0 and 2, B in 1 and 3, then swapped). Prints each
        player's payoff per seat-deal (the mean of the other seats' points minus its own), points per
        hand, win rate of whole games, moons and seconds per decision, each with a 95% interval over
        deals, then OpenSkill ratings.
        """
        import json

        from rich.console import Console

        from hearts.cli._progress import TournamentProgress
        from hearts.sim.seats import ON_FAULT
        from hearts.sim.tournament import (
            TournamentConfig,
            TournamentError,
            check_players,
            default_jobs,
            run_tournament,
            tables_for,
        )

        # In a terminal, its own width (the figures' table splits into as many as fit); to a file or a
        # pipe, wide enough for the table in one piece (rich would assume 80 there).
        console = Console() if Console().is_terminal else Console(width=WIDE)
        specs = (*(p.strip() for p in players.split(",")), *player) if players else tuple(player)
        if on_fault not in ON_FAULT:
            raise typer.BadParameter(f"choose one of {', '.join(ON_FAULT)}, not {on_fault!r}", param_hint="--on-fault")
        if backend not in ("local", "ray"):
            raise typer.BadParameter(f"unknown backend {backend!r}: choose local or ray", param_hint="--backend")
        if budget is not None and budget <= 0:
            raise typer.BadParameter(
                f"the budget must be a positive number of seconds, not {budget}", param_hint="--budget"
            )
        if games is None:
            games = max(1, hands // 20)
        try:
            config = TournamentConfig(
                specs, hands=hands, games=games, preset=preset, seats=seats, seed=seed, budget=budget,
                on_fault=on_fault,
            )  # fmt: skip
        except TournamentError as exc:
            raise typer.BadParameter(str(exc)) from None
        try:
            check_players(config.players, config.budget, config.rules)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--players") from None
        if backend == "ray":
            try:
                import ray  # noqa: F401
            except ImportError:
                raise typer.BadParameter(
                    "the ray backend needs Ray: pip install 'hearts[ray]'", param_hint="--backend"
                ) from None

        jobs_used = default_jobs() if jobs is None else jobs
        if not quiet:
            console.print(
                f"{' vs '.join(config.labels)}: {_count(config.hands, 'deal')} and {_count(config.games, 'game')}, "
                f"each at {len(tables_for(len(config.players), config.rules.players, 0))} tables, "
                f"{jobs_used} worker process{'es' if jobs_used > 1 else ''} (--jobs)"
            )
        with TournamentProgress(console, config.rules, config.hands, config.games, quiet) as progress:
            try:
                result = run_tournament(
                    config, jobs=jobs, backend=backend, ray_address=ray_address, check=False,
                    progress=progress.show,
                )  # fmt: skip
            except ValueError as exc:
                console.print(f"[red]error:[/red] {exc}")
                raise typer.Exit(1) from None

        _print_result(console, result)
        if json_path is not None:
            json_path.parent.mkdir(parents=True, exist_ok=True)
            json_path.write_text(json.dumps(result.to_dict(), indent=1) + "\n")
            console.print(f"figures written to {json_path}")
        if plot_path is not None:
            from hearts.sim.plot import plot_payoff

            plot_payoff(result, plot_path)
            console.print(f"plot written to {plot_path}")


#: The width for output to a file or a pipe: the figures' table in one piece.
WIDE = 160


def _print_result(console: object, result: object) -> None:
    from rich.console import Console
    from rich.table import Table

    from hearts.sim.stats import MIN_RATE_SAMPLES
    from hearts.sim.tournament import TournamentResult, tables_for

    assert isinstance(console, Console) and isinstance(result, TournamentResult)
    config = result.config
    k, n = len(config.players), config.rules.players
    tables = len(tables_for(k, n, 0))
    title = (
        f"Duplicate tournament: {_count(config.hands, 'deal')} and {_count(config.games, 'game')}, {tables} tables each, "
        f"{n} seats, preset {config.preset}, seed {config.seed} ({result.seconds:.1f} s)"
    )
    caption = (
        "± is the 95% t interval over deals; \\[low, high] for rates the 95% Wilson interval over deals (games for "
        f"the win rate; 'too few' below {MIN_RATE_SAMPLES}); payoff = mean of the others' points − own."
    )
    faulted = any(t.faults for t in result.tables)
    figures = result.figures()
    columns: list[tuple[str, list[str]]] = [
        ("payoff/seat-deal", [f.payoff.text(2) for f in figures]),
        ("points/hand", [f.points.text(2) for f in figures]),
        ("win rate", [f.win_rate.text(3, samples="games") for f in figures]),
        ("moons made %", [f.moons_made.text(1, scale=100) for f in figures]),
        ("moons allowed %", [f.moons_allowed.text(1, scale=100) for f in figures]),
        ("ms/decision", [f.decision_mean.text(2, scale=1000) for f in figures]),
        ("p95 ms", [f"{1000 * f.decision_p95:.2f}" for f in figures]),
        *((("faults (hands)", [f"{f.faults} ({f.forfeited_hands})" for f in figures]),) if faulted else ()),
    ]
    parts = _fit(columns, max(len(f.label) for f in figures), console.width)
    for i, part in enumerate(parts):
        table = Table(
            title=title if i == 0 else None,
            caption=caption if i == len(parts) - 1 else None,
        )
        # Long specs (cmd:...) fold onto more lines; the figures never wrap.
        table.add_column("player", overflow="fold", max_width=28)
        for column, _ in part:
            table.add_column(column, justify="right", no_wrap=True)
        for i_row, f in enumerate(figures):
            table.add_row(f.label, *(cells[i_row] for _, cells in part))
        console.print(table)
    _print_faults(console, result)
    if config.games:
        console.print(
            f"win rate: share of games won per seat (even play: {1 / n:.3f}); tied lowest seats share the win."
        )
    rated, rows = result.ratings()
    ratings = Table("player", "ordinal (μ − 3σ)", "μ", "σ", title=f"OpenSkill Plackett-Luce ratings over {rated}")
    for row in rows:
        ratings.add_row(row["player"], f"{row['ordinal']:.2f}", f"{row['mu']:.2f}", f"{row['sigma']:.2f}")
    console.print(ratings)


def _fit(columns: list[tuple[str, list[str]]], label: int, width: int) -> list[list[tuple[str, list[str]]]]:
    """The figure columns in as few tables as fit ``width`` side by side with the player's name (up to 28
    wide), in order: a narrow terminal gets the figures in several tables, each with the players' names,
    rather than every name squeezed into a sliver and wrapped letter by letter.

    >>> cols = [("a" * 20, ["1"]), ("b" * 20, ["2"]), ("c" * 20, ["3"])]
    >>> [[name[0] for name, _ in part] for part in _fit(cols, 10, 80)]
    [['a', 'b'], ['c']]
    """
    used = min(label, 28) + 4  # the name's column with its padding and the table's two edges
    parts: list[list[tuple[str, list[str]]]] = [[]]
    room = used
    for column in columns:
        need = max(len(column[0]), *(len(c) for c in column[1])) + 3  # padding and a rule
        if parts[-1] and room + need > width:
            parts.append([])
            room = used
        parts[-1].append(column)
        room += need
    return parts


def _print_faults(console: object, result: object) -> None:
    """Every fault, where it happened and what the bot did, with the forfeit rule."""
    from rich.console import Console
    from rich.markup import escape

    from hearts.sim.seats import STAND_IN, forfeit_points
    from hearts.sim.tournament import TournamentResult

    assert isinstance(console, Console) and isinstance(result, TournamentResult)
    faults = result.faults()
    if not faults:
        return
    console.print(
        f"[bold red]{_count(len(faults), 'fault')}[/bold red]: each faulted seat's hands, from the fault to the end "
        f"of its deal or game, are scored as forfeits ({forfeit_points(result.config.rules)} points each, no moon); "
        f"{STAND_IN} played the seat's cards for the others' sake and none of its play counts."
    )
    for f in faults:
        at = f" at decision {f['decision']}" if f["decision"] is not None else ""
        console.print(
            escape(
                f"  {f['player']}: {f['unit']} {f['index'] + 1}, table {f['table'] + 1}, seat {f['seat'] + 1} "
                f"{f['seat_name']}, hand {f['hand']}: {f['kind']}{at}: {f['message']} "
                f"({_count(f['forfeited_hands'], 'hand')} forfeited)"
            ),
            soft_wrap=True,
        )


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

