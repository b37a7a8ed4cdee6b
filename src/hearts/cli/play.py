"""``hearts play``: a game of Hearts in the terminal against computer players (Textual).

Every rule option of the engine is a flag here (``hearts play --help``); a preset
gives the starting point and flags override it. ``--resume`` continues the game
saved after every move.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from hearts.cli._options import OLD_PLAYERS_HELP, seats_from

RULES_HELP = "Rules (override the preset)"
#: Below this many columns the help is click's plain list: rich's table of four columns would cut
#: the long flag names (``--points-on-first-trick/--no-points-on-first-trick``) to a few letters.
RICH_HELP_COLUMNS = 100


class NarrowHelpCommand(TyperCommand):
    """A command whose ``--help`` stays readable in a narrow terminal.

    At ``RICH_HELP_COLUMNS`` columns and more it is Typer's rich help with its panels; below, each
    option is written whole on its own line with its help wrapped under it, in the same panels.
    """

    # Typer's click (vendored) types stay Any here: they are not part of its public API.
    def format_help(self, ctx: Any, formatter: Any) -> None:
        if shutil.get_terminal_size().columns >= RICH_HELP_COLUMNS:
            super().format_help(ctx, formatter)
            return
        super(TyperCommand, self).format_help(ctx, formatter)  # click's plain help, with format_options below

    def format_options(self, ctx: Any, formatter: Any) -> None:
        panels: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                panel = getattr(param, "rich_help_panel", None) or "Options"
                panels.setdefault(panel, []).append(record)
        for panel, rows in panels.items():
            with formatter.section(panel):
                formatter.write_dl(rows, col_max=24)


def interactive() -> bool:
    """Whether a person is at the terminal to answer a question (not a pipe, a script or a test)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def register(app: typer.Typer) -> None:
    @app.command("play", cls=NarrowHelpCommand)
    def play_command(
        preset: Annotated[
            str, typer.Option("--preset", "-p", help="Rule preset ('hearts rules list' shows them).")
        ] = "standard",
        seats: Annotated[
            int | None,
            typer.Option(
                "--seats", help="Players at the table, 3 to 6 (you are one).", rich_help_panel=RULES_HELP
            ),
        ] = None,
        old_players: Annotated[int | None, typer.Option("--players", hidden=True, help=OLD_PLAYERS_HELP)] = None,
        opponents: Annotated[
            str,
            typer.Option(
                "--opponents",
                "-o",
                help="Computer levels, one per seat clockwise from your left, comma-separated; the last repeats (e.g. 'medium' or 'easy,hard,expert').",
            ),
        ] = "medium",
        target: Annotated[
            int | None,
            typer.Option("--target", help="The game ends when a total reaches this.", rich_help_panel=RULES_HELP),
        ] = None,
        seed: Annotated[
            int | None, typer.Option("--seed", help="Seed of the deals (the same seed deals the same cards).")
        ] = None,
        name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
        speed: Annotated[
            str | None,
            typer.Option("--speed", help="How fast the computer players move: instant, fast, normal or slow."),
        ] = None,
        four_colour: Annotated[
            bool | None,
            typer.Option("--four-colour/--two-colour", help="Four-colour deck (clubs green, diamonds blue)."),
        ] = None,
        auto_play: Annotated[
            bool | None,
            typer.Option(
                "--auto-play/--no-auto-play",
                help="Play your card for you when it is the only one you may play (on by default; said as it is played).",
            ),
        ] = None,
        setup: Annotated[
            bool,
            typer.Option(
                "--setup", help="Open the setup screen first: every rule option in a form (the flags fill it in)."
            ),
        ] = False,
        resume: Annotated[
            bool,
            typer.Option(
                "--resume",
                help="Continue the game saved when you last quit (or crashed); with --save-file, the game in that file.",
            ),
        ] = False,
        think: Annotated[
            float | None,
            typer.Option("--think", help="Seconds each computer player may think per move (default: the level's own)."),
        ] = None,
        hint_level: Annotated[
            str, typer.Option("--hint-level", help="The level whose advice the hint key gives.")
        ] = "expert",
        again: Annotated[
            Path | None,
            typer.Option(
                "--again",
                help="Play a finished hand of this record again: the same cards, the computers passing as they did (a practice game; see --hand, --seat).",
                rich_help_panel="Play a deal again",
            ),
        ] = None,
        again_hand: Annotated[
            int | None,
            typer.Option(
                "--hand",
                help="With --again: the hand, from 1 (default: the last finished one).",
                rich_help_panel="Play a deal again",
            ),
        ] = None,
        again_seat: Annotated[
            str | None,
            typer.Option(
                "--seat",
                help="With --again: your seat, a number from 1 or a name (default: 1, the record's first seat).",
                rich_help_panel="Play a deal again",
            ),
        ] = None,
        save_file: Annotated[
            Path | None,
            typer.Option(
                "--save-file",
                help="Where the game in progress is saved (default: your user data folder); an unfinished game "
                "found there is offered to resume, or kept in the saves folder beside it.",
            ),
        ] = None,
        pass_cycle: Annotated[
            str | None,
            typer.Option(
                "--pass-cycle",
                help="standard, left, no-hold, none, or directions such as 'left,right,across,hold'.",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        pass_count: Annotated[
            int | None, typer.Option("--pass-count", help="Cards passed each hand.", rich_help_panel=RULES_HELP)
        ] = None,
        removed: Annotated[
            str | None,
            typer.Option(
                "--removed",
                help="Cards taken out of the deck, e.g. '2D 2C' (default: what the player count needs).",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        opening: Annotated[
            str | None,
            typer.Option("--opening", help="lowest-club (the 2♣ leads) or any-club.", rich_help_panel=RULES_HELP),
        ] = None,
        points_on_first_trick: Annotated[
            bool | None,
            typer.Option(
                "--points-on-first-trick/--no-points-on-first-trick",
                help="May hearts and Q♠ fall on the first trick?",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        hearts_must_be_broken: Annotated[
            bool | None,
            typer.Option(
                "--hearts-must-be-broken/--hearts-any-time",
                help="Must hearts be broken before one is led?",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        queen_breaks_hearts: Annotated[
            bool | None,
            typer.Option(
                "--queen-breaks-hearts/--queen-does-not-break-hearts",
                help="Does Q♠ break hearts (house rule)?",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        heart_lead_with_only_queen: Annotated[
            bool | None,
            typer.Option(
                "--heart-lead-with-only-queen/--queen-lead-with-only-queen",
                help="Holding only hearts and Q♠, may a heart be led?",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        heart_points: Annotated[
            int | None, typer.Option("--heart-points", help="Points per heart.", rich_help_panel=RULES_HELP)
        ] = None,
        queen_points: Annotated[
            int | None, typer.Option("--queen-points", help="Points for Q♠.", rich_help_panel=RULES_HELP)
        ] = None,
        bonus_card: Annotated[
            str | None,
            typer.Option(
                "--bonus-card",
                help="Omnibus bonus card, e.g. JD or 10D ('none' for no bonus).",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        bonus_points: Annotated[
            int | None,
            typer.Option("--bonus-points", help="What the bonus card scores (e.g. -10).", rich_help_panel=RULES_HELP),
        ] = None,
        moon: Annotated[
            str | None,
            typer.Option(
                "--moon",
                help="add-to-others, shooter-chooses, subtract-from-shooter or disabled.",
                rich_help_panel=RULES_HELP,
            ),
        ] = None,
        ties: Annotated[
            str | None,
            typer.Option(
                "--ties", help="share (tied lowest seats share the win) or play-on.", rich_help_panel=RULES_HELP
            ),
        ] = None,
    ) -> None:
        """Play Hearts in the terminal: you against computer players, all keyboard (mouse too)."""
        from hearts.core import HeartsError, Rules
        from hearts.tui.session import (
            SPEEDS,
            SaveError,
            Session,
            Settings,
            check_think,
            default_save_path,
            keep_unfinished,
            resolve_level,
            saved_progress,
            saved_summary,
            settings_path,
        )

        def fail(message: str) -> None:
            typer.echo(f"error: {message}", err=True)
            raise typer.Exit(2)

        seats = seats_from(seats, old_players)

        if speed is not None and speed not in SPEEDS:
            fail(f"unknown speed {speed!r}: choose one of {', '.join(SPEEDS)}")
        try:
            check_think(think)
        except ValueError:
            fail(f"--think is the seconds each computer player may think per move: more than 0, not {think:g}")
        path = save_file or default_save_path()
        rule_flags = {
            "players": seats, "target": target, "pass_count": pass_count, "opening": opening,
            "points_on_first_trick": points_on_first_trick, "hearts_must_be_broken": hearts_must_be_broken,
            "queen_breaks_hearts": queen_breaks_hearts, "heart_lead_with_only_queen": heart_lead_with_only_queen,
            "heart_points": heart_points, "queen_points": queen_points, "bonus_points": bonus_points,
            "moon": moon, "ties": ties, "pass_cycle": pass_cycle, "removed": removed, "bonus_card": bonus_card,
        }  # fmt: skip
        # The flags as typed: Rules.from_text reads them ("left,right", "2D 3D", "none"), as every face does.
        overrides: dict[str, object] = {k: v for k, v in rule_flags.items() if v is not None}

        def table_settings(players: int) -> Settings:
            levels = tuple(level.strip() for level in opponents.split(",") if level.strip()) or ("medium",)
            if len(levels) > players - 1:
                fail(f"{len(levels)} opponent levels for {players - 1} computer seats")
            try:
                for level in (*levels, hint_level):
                    resolve_level(level)
            except ValueError as exc:
                fail(str(exc))
            return Settings(
                name=name,
                opponents=levels,
                speed=speed or "normal",
                four_colour=bool(four_colour),
                hint_level=hint_level,
                auto_play=auto_play is not False,
                think=think,
            )

        if again is None and (again_hand is not None or again_seat is not None):
            fail("--hand and --seat choose the hand played again: give the record with --again FILE")
        # Every flag of a new game is checked before an unfinished game is asked about, so that a typo
        # (--seats 7) stops at once with its reason, nothing asked and nothing set aside.
        deal: Any = None
        if not resume and again is not None:
            deal, practice = deal_again_from(again, again_hand, again_seat, fail)
            settings = table_settings(deal.rules.players)
            settings.practice = practice
        elif not resume:
            try:
                rules = Rules.from_text(preset, **overrides)
            except HeartsError as exc:
                fail(str(exc))
            except (TypeError, ValueError) as exc:
                fail(f"bad rule option: {exc}")
            settings = table_settings(rules.players)
        if not resume and path.exists():
            # A new game would take the save file: offer the unfinished game there, and never lose it. A game
            # in which no card was played is not worth the question: one with no move at all is replaced,
            # one with passes made is set aside (and said so) like any other.
            progress = saved_progress(path)
            if progress == (0, 0):
                path.unlink()
                settings_path(path).unlink(missing_ok=True)
            elif progress is not None and progress[1] and interactive() and typer.confirm(
                f"You have an unfinished game in {path} ({saved_summary(path)}). Resume it?", default=True
            ):
                resume = True
            else:
                kept = keep_unfinished(path)
                typer.echo(
                    f"Your unfinished game is kept in {kept}; continue it later with: "
                    f"hearts play --resume --save-file {kept}",
                    err=True,
                )
        if resume:
            if overrides or preset != "standard" or seed is not None or setup:
                typer.echo(
                    "note: --resume plays on with the saved game's rules and seed; rule flags are ignored", err=True
                )
            table = {
                k: v for k, v in {"speed": speed, "four_colour": four_colour, "auto_play": auto_play}.items() if v is not None
            }
            try:
                session = Session.resume(path, table)
            except SaveError as exc:
                fail(str(exc))
        elif deal is not None:
            if overrides or preset != "standard" or setup:
                typer.echo("note: --again plays the record's own rules; rule flags are ignored", err=True)
            session = Session.deal_again(deal, settings, seed=seed or 0, save_path=path)
        else:
            if setup:
                from hearts.tui.app import HeartsApp, SetupRequest, save_hint

                app_ = HeartsApp(setup=SetupRequest(rules, settings, preset, seed, path))
                app_.run()
                if save_hint(app_.session):
                    typer.echo(save_hint(app_.session))
                return
            session = Session.new(rules, settings, seed=seed, save_path=path)

        from hearts.tui.app import HeartsApp, save_hint

        HeartsApp(session).run()
        message = save_hint(session)
        if message:
            typer.echo(message)


def deal_again_from(path: Path, hand: int | None, seat: str | None, fail: Any) -> tuple[Any, str]:
    """The deal ``hearts play --again`` plays: hand ``hand`` (from 1; None: the last finished) of the
    record at ``path``, turned so that ``seat`` (a number from 1 or a name) is the person's; and the
    words the practice game is marked with. ``fail`` is called with the reason on bad input."""
    from hearts.core import GameRecord, HeartsError
    from hearts.players.again import DealAgain
    from hearts.review.reviewer import seat_of

    try:
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        record.replay()  # a record that does not replay is refused here, with the engine's reason
        done = [i for i, h in enumerate(record.hands) if h.points is not None]
        index = (done[-1] if done else 0) if hand is None else hand - 1
        who = seat_of(record, seat or "1")
        deal = DealAgain.of(record, index).turned(who)
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: cannot read it: {exc}")
    except (HeartsError, ValueError) as exc:
        fail(f"{path}: {exc}")
    return deal, f"hand {index + 1} of {path.name} again, as {record.names[who]}"
