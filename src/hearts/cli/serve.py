"""``hearts serve``: the table server and its web page."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_command(
        host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0 to let others on your network join)."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: str = typer.Option(
            None,
            "--db",
            help="SQLAlchemy database URL, e.g. sqlite:///hearts.db or postgresql://user:pw@host/hearts "
            "(default: a SQLite file in your user data directory).",
        ),
        bot: list[str] = typer.Option(  # noqa: B008 - Typer declares options this way
            [],
            "--bot",
            help="Register an external bot a table may seat by NAME: --bot NAME=COMMAND (repeatable).",
        ),
        pause: float = typer.Option(0.6, help="Default seconds a computer player pauses before each card, so people can follow."),
        compress: bool = typer.Option(
            False, help="Compress websocket messages (permessage-deflate): less traffic, more server CPU per message."
        ),
        log_level: str = typer.Option("info", help="Server log level (debug, info, warning, error)."),
        warm_up: bool = typer.Option(
            True, help="Load the computer players' compiled search in the background at start-up, so the first game does not wait for it."
        ),
    ) -> None:
        """Play in the browser: serve the lobby, tables, history and records at http://HOST:PORT."""
        import sys

        import uvicorn

        from hearts.server.app import create_app
        from hearts.server.protocol import MAX_MESSAGE_BYTES
        from hearts.server.storage import default_url

        bots: dict[str, str] = {}
        for spec in bot:
            name, sep, command = spec.partition("=")
            name = name.strip()
            if not sep or not name or not command.strip():
                typer.echo(f"error: --bot needs NAME=COMMAND, not {spec!r}", err=True)
                raise typer.Exit(2)
            if not name.replace("-", "").replace("_", "").isalnum() or len(name) > 32:
                typer.echo(f"error: bot name {name!r} must be letters, digits, - or _ (at most 32)", err=True)
                raise typer.Exit(2)
            bots[name] = command.strip()
        if not 0 <= pause <= 30:
            typer.echo(f"error: --pause must be from 0 to 30 seconds, not {pause}", err=True)
            raise typer.Exit(2)
        url = db or default_url()
        try:
            app_ = create_app(url, bots=bots, pause=pause, warm_up=warm_up)
        except Exception as exc:  # a bad URL or an unreachable database: say which
            typer.echo(f"error: cannot open the database {url!r}: {exc}", err=True)
            raise typer.Exit(2) from None
        # Storage commits and computer players run in threads; a short GIL switch interval hands the
        # event loop back to them (and them back to it) sooner, which cuts latency under load.
        sys.setswitchinterval(0.001)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        typer.echo(f"hearts: open http://{shown}:{port}/ to play  (database: {url})")
        uvicorn.run(
            app_,
            host=host,
            port=port,
            log_level=log_level,
            ws_max_size=MAX_MESSAGE_BYTES * 4,  # the protocol closes bigger frames before they are read
            ws_ping_interval=20,
            ws_ping_timeout=20,
            ws_per_message_deflate=compress,
        )
