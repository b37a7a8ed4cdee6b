"""``hearts review RECORD``: a finished hand's decisions valued by the expert, with marks and costs.

The table has a row per decision of the seat (the pass and every play with a choice): what it
played, the expert's card from the same information, the cost in expected points (± its standard
error), the mark and the reason; then the summary (points lost, the three costliest decisions,
the moon). While the review is made, each decision's row is shown on stderr as soon as it is
made. ``--json FILE`` (``-`` for stdout) writes the review as JSON (docs/review.md). Reviews
are kept in the user's cache folder, so a hand reviewed once is not searched again. Bad input
(a file that is not a record, a record that does not replay, an unknown seat, a hand that is not
finished) gets a one-line error and exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from hearts.review import HandReview


def cache_folder() -> Path:
    """Where ``hearts review`` keeps its reviews: the user's cache folder (via platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("hearts", appauthor=False)) / "reviews"


def register(app: typer.Typer) -> None:
    @app.command("review")
    def review_command(
        record_file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
        seat: Annotated[
            str,
            typer.Option("--seat", "-s", help="The seat to review: a number from 1, a name, or South/West/North/East."),
        ] = "1",
        hand: Annotated[
            int | None,
            typer.Option("--hand", help="The hand to review, from 1 (default: the last finished hand)."),
        ] = None,
        budget: Annotated[
            float | None,
            typer.Option(
                "--budget", help="At most this many seconds per decision (default: no limit, --worlds decides)."
            ),
        ] = None,
        worlds: Annotated[
            int | None,
            typer.Option(
                "--worlds",
                min=1,
                help="Sampled worlds per decision at most (default 1000; fewer where the verdict is settled sooner).",
            ),
        ] = None,
        seed: Annotated[
            int, typer.Option("--seed", help="The expert's seed: the same seed and worlds give the same review.")
        ] = 0,
        json_path: Annotated[
            Path | None, typer.Option("--json", help="Write the review as JSON to this file ('-': print it instead).")
        ] = None,
        no_cache: Annotated[
            bool, typer.Option("--no-cache", help="Search again even if this hand was reviewed.")
        ] = False,
        quiet: Annotated[
            bool, typer.Option("--quiet", "-q", help="No progress (the decisions as they are made).")
        ] = False,
    ) -> None:
        """Review a finished hand: the expert values every decision of one seat from that seat's information and marks what each cost in expected points."""
        import contextlib
        import json

        from rich.console import Console
        from rich.live import Live

        from hearts.core import GameRecord, HeartsError
        from hearts.review import DecisionReview, ReviewCache, review_hand
        from hearts.tui.review import review_table

        err = Console(stderr=True)

        def fail(message: str) -> None:
            typer.echo(f"error: {message}", err=True)
            raise typer.Exit(2)

        if budget is not None and not budget > 0:
            fail(f"--budget must be a positive number of seconds, not {budget}")
        try:
            raw = record_file.read_text(encoding="utf-8")
        except FileNotFoundError:
            fail(f"{record_file}: no such file")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"{record_file}: cannot read it: {exc}")
        to_stdout = json_path is not None and str(json_path) == "-"
        # Each decision's row as soon as it is made, under a progress title, on stderr (gone once
        # the whole review is printed): the terminal review's table, filling in.
        live = Live(console=err, transient=True, auto_refresh=False)
        made: list[DecisionReview] = []

        def show(done: int, total: int) -> None:
            live.update(review_table(None, made, total), refresh=True)

        try:
            record = GameRecord.loads(raw)
            with live if not quiet else contextlib.nullcontext():
                review = review_hand(
                    record,
                    seat,
                    None if hand is None else hand - 1,
                    budget=budget,
                    worlds=worlds,
                    seed=seed,
                    progress=None if quiet else show,
                    verdict=made.append,
                    cache=None if no_cache else ReviewCache(cache_folder()),
                )
        except HeartsError as exc:
            fail(f"{record_file}: {exc}")
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            fail(f"{record_file}: {exc}")
        if json_path is not None:
            text = json.dumps(review.to_dict(), ensure_ascii=False, indent=1)
            if to_stdout:
                typer.echo(text)
                return
            try:
                json_path.write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                fail(f"cannot write {json_path}: {exc}")
        print_review(Console(), review)


def print_review(console: object, review: HandReview) -> None:
    """The review as a rich table and its summary, on ``console`` (a :class:`rich.console.Console`):
    the same table and lines as the terminal's review screen (:mod:`hearts.tui.review`)."""
    from rich.console import Console

    from hearts.tui.review import review_summary, review_table

    assert isinstance(console, Console)
    console.print(review_table(review))
    for line in review_summary(review):
        console.print(line)
