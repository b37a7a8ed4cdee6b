"""``hearts serve``: the table server and its web page."""

from __future__ import annotations

import threading

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
        per_address: int = typer.Option(
            64,
            "--connections-per-address",
            help="Most websockets open at once from one client address; 0 lifts the per-address limits on "
            "connections and messages (behind a proxy every client shows the proxy's address).",
        ),
    ) -> None:
        """Play in the browser: serve the lobby, tables, history and records at http://HOST:PORT."""
        import sys

        import uvicorn

        from hearts.server.app import create_app
        from hearts.server.protocol import MAX_MESSAGE_BYTES
        from hearts.server.share import Limits
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
        if per_address < 0:
            typer.echo(f"error: --connections-per-address must be 0 (no limit) or more, not {per_address}", err=True)
            raise typer.Exit(2)
        url = db or default_url()
        try:
            app_ = create_app(url, bots=bots, pause=pause, limits=Limits(per_address=per_address), warm=True)
        except Exception as exc:  # a bad URL or an unreachable database: say which
            typer.echo(f"error: cannot open the database {url!r}: {exc}", err=True)
            raise typer.Exit(2) from None
        # Storage commits and computer players run in threads; a short GIL switch interval hands the
        # event loop back to them (and them back to it) sooner, which cuts latency under load.
        sys.setswitchinterval(0.001)
        # Load (or, on a first run, compile) the search players' numba kernels in the background now,
        # so the first hard or expert seat or hint does not wait for them.
        threading.Thread(target=_warm_search_kernels, name="hearts-warm-up", daemon=True).start()
        _log_to_console(log_level)
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


def _log_to_console(level: str) -> None:
    """The server's own log lines (``hearts.*``) at ``level``, beside uvicorn's."""
    import logging

    logger = logging.getLogger("hearts")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(level.upper())


def _warm_search_kernels() -> None:
    try:
        from hearts.players.search import compiled_kernels

        compiled_kernels()
    except Exception:  # noqa: BLE001 - without the kernels the players search in Python; nothing is lost
        pass
