"""``hearts serve``: the table server and its web page."""

from __future__ import annotations

import typer

from hearts.server.upkeep import ABANDON_AFTER_HOURS


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_command(
        host: str = typer.Option(
            "127.0.0.1", help="Address to listen on (0.0.0.0 to let others on your network join)."
        ),
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
            help="Register a bot a table may seat by NAME: --bot NAME=COMMAND or NAME=py:MODULE:FACTORY (repeatable).",
        ),
        pause: float = typer.Option(
            0.6, help="Default seconds a computer player pauses before each card, so people can follow."
        ),
        compress: bool = typer.Option(
            False, help="Compress websocket messages (permessage-deflate): less traffic, more server CPU per message."
        ),
        log_level: str = typer.Option("info", help="Server log level (debug, info, warning, error)."),
        abandon_after: float = typer.Option(
            ABANDON_AFTER_HOURS,
            "--abandon-after",
            help="Hours without a move and with nobody at the table after which a game is closed as abandoned.",
        ),
        per_address: int = typer.Option(
            64,
            "--connections-per-address",
            help="Most websockets open at once from one client address; 0 lifts the per-address limits on "
            "connections and messages (behind a proxy every client shows the proxy's address).",
        ),
        review_worlds: int | None = typer.Option(
            None,
            "--review-worlds",
            help="Worlds the expert samples per decision of a hand review (default: the review's own; fewer is quicker and less sure).",
        ),
        leaderboard_min_games: int = typer.Option(
            5, "--leaderboard-min-games", help="Rated games a player needs before the leaderboard lists them."
        ),
        instance: str = typer.Option(
            "main",
            "--instance",
            help="This process's name where several share one database: each plays the tables it made (docs/server.md).",
        ),
        warm_up: bool = typer.Option(
            True, help="Load the computer players' compiled search in the background at start-up, so the first game does not wait for it."
        ),
    ) -> None:
        """Play in the browser: serve the lobby, tables, history and records at http://HOST:PORT."""
        import sys

        import uvicorn

        from hearts.server.app import create_app
        from hearts.server.privacy import log_config, mask_url
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
            from hearts.players.registry import bot_spec, make_player, parse_player

            try:
                if parse_player(bot_spec(command)).kind == "py":
                    make_player(bot_spec(command), seed=0)  # import it now: a typo fails here, not at a table
            except Exception as exc:  # noqa: BLE001 - the user's own module: say what went wrong, whatever it is
                typer.echo(f"error: --bot {name}: {exc}", err=True)
                raise typer.Exit(2) from None
            bots[name] = command.strip()
        if not 0 <= pause <= 30:
            typer.echo(f"error: --pause must be from 0 to 30 seconds, not {pause}", err=True)
            raise typer.Exit(2)
        if not 0 < abandon_after <= 24 * 365:
            typer.echo(f"error: --abandon-after must be hours from 0 to 8760, not {abandon_after}", err=True)
            raise typer.Exit(2)
        if per_address < 0:
            typer.echo(f"error: --connections-per-address must be 0 (no limit) or more, not {per_address}", err=True)
            raise typer.Exit(2)
        if not (instance.isascii() and instance.isalnum() and instance.islower() and len(instance) <= 12):
            typer.echo(f"error: --instance must be 1 to 12 lowercase letters and digits, not {instance!r}", err=True)
            raise typer.Exit(2)
        if review_worlds is not None and not 1 <= review_worlds <= 100_000:
            typer.echo(f"error: --review-worlds must be from 1 to 100000, not {review_worlds}", err=True)
            raise typer.Exit(2)
        url = db or default_url()
        shown_url = mask_url(url)  # the URL may hold the database's password: never print it
        try:
            app_ = create_app(
                url,
                bots=bots,
                pause=pause,
                abandon_after=abandon_after * 3600,
                limits=Limits(per_address=per_address),
                warm_up=warm_up,
                review_worlds=review_worlds,
                instance=instance,
                leaderboard_min_games=max(1, leaderboard_min_games),
            )
        except Exception as exc:  # a bad URL or an unreachable database: say which
            typer.echo(f"error: cannot open the database {shown_url!r}: {mask_secret(str(exc), url)}", err=True)
            raise typer.Exit(2) from None
        # Storage commits and computer players run in threads; a short GIL switch interval hands the
        # event loop back to them (and them back to it) sooner, which cuts latency under load.
        sys.setswitchinterval(0.001)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        typer.echo(f"hearts: open http://{shown}:{port}/ to play  (database: {shown_url})")
        uvicorn.run(
            app_,
            host=host,
            port=port,
            log_level=log_level,
            log_config=log_config(log_level),  # uvicorn's, with link tokens taken out of every line
            ws_max_size=MAX_MESSAGE_BYTES * 4,  # the protocol closes bigger frames before they are read
            ws_ping_interval=20,
            ws_ping_timeout=20,
            ws_per_message_deflate=compress,
        )


def mask_secret(text: str, url: str) -> str:
    """``text`` (a driver's error) with the password of ``url``, if it has one, masked."""
    from sqlalchemy.engine import make_url

    try:
        password = make_url(url).password
    except Exception:  # noqa: BLE001 - an unreadable URL: there is no password to find in it
        return text
    return text.replace(str(password), "***") if password else text

