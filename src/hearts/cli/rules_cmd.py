"""``hearts rules [PRESET]``: print a preset's options in words."""

from __future__ import annotations

import typer

from hearts.cli._options import OLD_PLAYERS_HELP, seats_from


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules_command(
        preset: str = typer.Argument("standard", help="A preset name; 'list' shows them all."),
        seats: int = typer.Option(None, "--seats", help="Number of players at the table (3 to 6)."),
        old_players: int = typer.Option(None, "--players", hidden=True, help=OLD_PLAYERS_HELP),
    ) -> None:
        """Print the rules a preset plays by, option by option."""
        players = seats_from(seats, old_players)
        from rich.console import Console
        from rich.table import Table

        from hearts.core import PRESETS, Rules, RulesError

        console = Console()
        if preset == "list":
            table = Table("preset", "what it is", title="Rule presets")
            for name, (text, _) in PRESETS.items():
                table.add_row(name, text)
            console.print(table)
            return
        try:
            rules = Rules.preset(preset, **({} if players is None else {"players": players}))
        except RulesError as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
        table = Table("option", "value", title=f"Rules: {preset} — {PRESETS[preset.strip().lower().replace('_', '-')][0]}")
        for name, value in rules.describe():
            table.add_row(name, value)
        console.print(table)
