"""``hearts replay FILE``: tell a game record hand by hand and trick by trick.

In a terminal it opens a Textual viewer that steps through the game with the
whole deal shown; when the output is not a terminal (a pipe, a file), or with
``--text``, it prints the plain account. A malformed record gives the engine's
RecordError text and exit status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        file: Annotated[
            Path, typer.Argument(help="A game record (JSON), e.g. a saved game or a server or tournament record.")
        ],
        text: Annotated[bool, typer.Option("--text", help="Print the plain account even in a terminal.")] = False,
    ) -> None:
        """Replay a game record: every pass, trick, winner, points, totals and moon."""
        from hearts.core import GameRecord, HeartsError
        from hearts.tui.story import game_account

        def fail(message: str) -> None:
            typer.echo(f"error: {file}: {message}", err=True)
            raise typer.Exit(2)

        try:
            raw = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            fail("no such file")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read it: {exc}")
        try:
            record = GameRecord.loads(raw)
            account = game_account(record)
        except HeartsError as exc:
            fail(str(exc))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # A record whose values have the wrong types can trip the engine before its own checks do.
            fail(f"malformed record: {exc}")
        if text or not sys.stdout.isatty():
            typer.echo(account)
            return
        from hearts.tui.replay import ReplayApp

        ReplayApp(record, title=file.name).run()
