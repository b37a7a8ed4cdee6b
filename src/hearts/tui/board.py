"""What the table screen of ``hearts play`` shows, drawn from the human seat's view.

Plain functions: each takes a :class:`~hearts.core.view.SeatView` and what else it needs
(the names, the colours, the trick held on the table) and returns rich :class:`Text`, so
the board can be read and tested apart from the screen's keys and actions
(:mod:`hearts.tui.table`), which puts these texts into its widgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from hearts.core import CardSet, PassDirection, Phase, SeatView, Trick
from hearts.tui.cardtext import card_text, cards_text, plural, verb
from hearts.tui.session import HUMAN
from hearts.tui.widgets import SeatBox


def seat_places(players: int) -> tuple[list[int], int | None, int | None]:
    """Where the computer seats sit around the human (seat 0, at the bottom), clockwise.

    Seat 1 plays after the human and sits on its left; the last seat on its right;
    the rest across the top, left to right.

    >>> seat_places(4)
    ([2], 1, 3)
    >>> seat_places(3)
    ([], 1, 2)
    >>> seat_places(6)
    ([2, 3, 4], 1, 5)
    """
    return list(range(2, players - 1)), 1, players - 1


def compose_board(players: int) -> ComposeResult:
    """The seats around the centre (the ``#table`` column); called from the screen's ``compose``."""
    top, left, right = seat_places(players)
    with Vertical(id="table"):
        with Horizontal(id="top"):
            for seat in top:
                yield SeatBox(seat, id=f"seat-{seat}")
        with Horizontal(id="middle"):
            if left is not None:
                yield SeatBox(left, id=f"seat-{left}")
            yield Static("", id="center")
            if right is not None and right != left:
                yield SeatBox(right, id=f"seat-{right}")
        with Horizontal(id="bottom"):
            yield SeatBox(HUMAN, id=f"seat-{HUMAN}")


def seat_lines(view: SeatView, seat: int, points: Sequence[int], shown: Trick | None) -> list[Text]:
    """The lines under a seat's name: its total and points this hand, then its pass, its thinking
    or its cards left. ``shown`` is a finished trick held on the table (nobody is thinking then)."""
    lines = [Text(f"total {view.totals[seat]} · hand {points[seat]}")]
    if view.phase is Phase.PASS and view.direction is not PassDirection.HOLD:
        status = Text("passed ✓", style="green") if view.has_passed[seat] else Text("choosing a pass…", style="dim")
    elif view.phase is Phase.PLAY and seat in view.to_move and seat != HUMAN and shown is None:
        status = Text("thinking…", style="italic yellow")
    else:
        status = Text(plural(view.hand_sizes[seat], "card"), style="dim")
    lines.append(status)
    return lines


def center_text(view: SeatView, names: Sequence[str], shown: Trick | None, four_colour: bool) -> Text:
    """Short lines (the centre is narrow): the hand and its pass, the trick and hearts, whose turn."""
    out = Text(justify="center")
    out.append(f"Hand {view.hand_number + 1}", style="bold")
    if view.phase in (Phase.PLAY, Phase.MOON_CHOICE):
        # While a finished trick is held on the table, its number stays up, not the next one's.
        number = len(view.tricks) if shown is not None else len(view.tricks) + 1
        out.append(f" · trick {min(number, view.rules.hand_size)}/{view.rules.hand_size}")
    elif view.phase is Phase.HAND_OVER:
        out.append(" · over", style="yellow")
    out.append("\n")
    if view.direction is PassDirection.HOLD:
        out.append("no passing")
    else:
        out.append(f"pass {view.direction.value}", style="cyan" if view.phase is Phase.PASS else "")
        if view.pass_to is not None:
            out.append(f" → {names[view.pass_to]}", style="dim")
    out.append("\n")
    if view.phase is Phase.GAME_OVER:
        out.append("game over", style="bold yellow")
    else:
        out.append(
            "♥ broken" if view.hearts_broken else "♥ not broken", style="bold red" if view.hearts_broken else "dim"
        )
    out.append("\n")
    if shown is not None and shown.winner is not None:
        winner = names[shown.winner]
        out.append(f"{winner} {verb(winner, 'take')} the trick", style="bold green")
    elif view.phase is Phase.PLAY:
        turn = view.to_move[0]
        out.append(
            "Your turn" if turn == HUMAN else f"{names[turn]} to play", style="bold yellow" if turn == HUMAN else ""
        )
    elif view.phase is Phase.MOON_CHOICE:
        out.append("🌕 moon!", style="bold yellow")
    last = view.tricks[-1] if view.tricks and shown is None else None
    if last is not None and last.winner is not None:
        out.append("\n")
        out.append_text(last_trick_text(last, view, names, four_colour))
    return out


def last_trick_text(trick: Trick, view: SeatView, names: Sequence[str], four_colour: bool) -> Text:
    """The hand's last finished trick on one short line, in playing order, with who took it and its
    points: it stays readable after the trick leaves the table, at any speed and without the log
    (which narrow terminals hide), until the next trick is taken."""
    assert trick.winner is not None
    winner = names[trick.winner][:10]
    out = Text()
    out.append("last: ", style="dim")
    out.append(f"{winner} took ")
    out.append_text(Text(" ").join(card_text(c, four_colour) for c in trick.cards))
    points = view.rules.points_taken(sum(1 << c for c in trick.cards))
    if points:
        out.append(f" {points:+d}", style="bold")
    return out


def have_played(view: SeatView) -> bool:
    """Whether the human seat has played a card this hand (the cards it received stop being highlighted)."""
    n = view.players
    return any(seat == HUMAN for t in (*view.tricks, view.trick) for seat, _ in t.plays(n))


def prompt_text(
    view: SeatView,
    names: Sequence[str],
    four_colour: bool,
    *,
    message: Text | None,
    typing: str,
    received: CardSet,
    marked: int,
    shown: Trick | None,
) -> tuple[Text, Text]:
    """Above the hand: the message (up to two rows), then what to do now on a row of its own,
    so that a long message can never push the instruction out of sight.

    ``message`` is the screen's message, if any; ``typing`` the card typed so far; ``marked`` how
    many cards are marked to pass; ``shown`` a finished trick held on the table.
    """
    line = Text()
    if message is not None:
        line.append_text(message)
    elif typing:
        line.append(f"typing: {typing}…", style="bold")
    elif received and view.pass_from is not None:
        line.append(f"You received from {names[view.pass_from]}: ")
        line.append_text(cards_text(received, four_colour))
        line.append("  (highlighted)", style="dim")
    said, line = line, Text()
    k = view.rules.pass_count
    if view.phase is Phase.PASS and HUMAN in view.to_move and view.pass_to is not None:
        line.append(
            f"Pass {plural(k, 'card')} to {names[view.pass_to]}: Space, click or type marks "
            f"({marked}/{k}), Enter passes.",
            style="dim",
        )
    elif view.phase is Phase.PASS:
        line.append("Waiting for the others to pass…", style="dim")
    elif view.phase is Phase.PLAY and view.my_turn and shown is None:
        line.append("Your turn: ← → Enter, type (qs, 10h) or click a card · h hint · ? help", style="dim")
    elif view.phase is Phase.GAME_OVER:
        line.append("The game is over.", style="dim")
    elif view.phase is Phase.HAND_OVER:
        line.append("The hand is over.", style="dim")
    else:
        line.append("The others are playing…", style="dim")
    return said, line


def hand_start_text(view: SeatView) -> Text:
    """The log's heading for a new hand, with its pass."""
    where = "no passing" if view.direction is PassDirection.HOLD else f"pass {view.direction.value}"
    return Text(f"— Hand {view.hand_number + 1}: {where} —", style="bold cyan")
