"""The table's pieces: cards, the hand, seat boxes, the score table and the deal viewer.

Widgets only draw what they are given; the table screen decides what the human
may see (its seat's view during play, whole deals only once a hand is over).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.markup import escape
from textual.message import Message
from textual.widgets import Static

from hearts.core import Card, CardSet, PassDirection, Suit
from hearts.tui.cardtext import card_text, cards_text, plural, suit_colour, verb
from hearts.tui.story import HandStory

#: Suit colours on a white card face (the bright colours of :mod:`cardtext` are for dark backgrounds).
FACE_TWO = {Suit.CLUBS: "#111111", Suit.DIAMONDS: "#c4161c", Suit.SPADES: "#111111", Suit.HEARTS: "#c4161c"}
FACE_FOUR = {Suit.CLUBS: "#17801e", Suit.DIAMONDS: "#1d4fc4", Suit.SPADES: "#111111", Suit.HEARTS: "#c4161c"}


def face_text(card: Card, four_colour: bool, dim: bool = False) -> Text:
    """A card's face: rank and suit in the suit's colour on the white card."""
    colour = "#4a4a4a" if dim else (FACE_FOUR if four_colour else FACE_TWO)[card.suit]
    return Text(card.symbol(), style=f"bold {colour}")


class CardWidget(Static):
    """One card of the human's hand, drawn as a small white card; clicking it picks it."""

    class Picked(Message):
        """The card was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int) -> None:
        super().__init__("", classes="card", id=f"card-{index}")
        self.index = index
        self.card: Card | None = None

    def show(
        self,
        card: Card | None,
        four_colour: bool,
        *,
        cursor: bool = False,
        marked: bool = False,
        illegal: bool = False,
        received: bool = False,
        hinted: bool = False,
        suit_start: bool = False,
    ) -> None:
        """Draw ``card`` (or hide the slot when ``None``) with its state as CSS classes."""
        self.card = card
        if self.display != (card is not None):
            self.display = card is not None
        if card is None:
            return
        self.update(face_text(card, four_colour, dim=illegal), layout=False)  # fixed size: no re-layout
        for name, on in (
            ("-cursor", cursor),
            ("-marked", marked),
            ("-illegal", illegal),
            ("-received", received),
            ("-hinted", hinted),
            ("-suit-start", suit_start),
        ):
            self.set_class(on, name)

    def on_click(self) -> None:
        if self.card is not None:
            self.post_message(self.Picked(self.index))


class HandRow(Horizontal):
    """The human's cards, sorted by suit then rank, in a fixed pool of card widgets (no re-mounting)."""

    MAX_CARDS = 18  # 17 cards at a table of three, and one spare

    def compose(self) -> ComposeResult:
        for i in range(self.MAX_CARDS):
            yield CardWidget(i)

    def show(
        self,
        cards: Sequence[Card],
        four_colour: bool,
        cursor: int | None,
        marked: CardSet,
        legal: CardSet | None,
        received: CardSet,
        hinted: CardSet,
    ) -> None:
        """Draw the hand; ``legal`` None means every card looks playable (not the human's turn to play)."""
        widgets = list(self.query(CardWidget))
        for i, widget in enumerate(widgets):
            if i >= len(cards):
                widget.show(None, four_colour)
                continue
            card = cards[i]
            widget.show(
                card,
                four_colour,
                cursor=i == cursor,
                marked=card in marked,
                illegal=legal is not None and card not in legal,
                received=card in received,
                hinted=card in hinted,
                suit_start=i > 0 and cards[i - 1].suit != card.suit,
            )


class SeatBox(Static):
    """One seat at the table: name and level, total, points this hand, and its card in the trick."""

    def __init__(self, seat: int, *, id: str | None = None) -> None:
        super().__init__("", classes="seat", id=id)
        self.seat = seat

    def show(
        self, title: str, lines: Sequence[Text], card: Card | None, four_colour: bool, *, to_move: bool, won: bool
    ) -> None:
        self.border_title = escape(title)  # names are the players' own text, not markup
        body = Text("\n").join(lines)
        body.append("\n")
        if card is None:
            body.append("  ·  ", style="dim")
        else:
            face = (FACE_FOUR if four_colour else FACE_TWO)[card.suit]
            paper = "#fff2a8" if won else "#f4f1e8"
            body.append(f" {card.symbol():>3} ", style=f"bold {face} on {paper}")
        self.update(body, layout=False)
        self.set_class(to_move, "-to-move")
        self.set_class(won, "-won")


def score_table(
    names: Sequence[str],
    points: Sequence[int],
    totals: Sequence[int],
    *,
    to_move: Sequence[int] = (),
    title: str | None = None,
    expand: bool = True,
) -> Table:
    """The running scores: each seat's points this hand and its total (low is good)."""
    table = Table(title=title, expand=expand, box=None, padding=(0, 1), show_edge=False)
    table.add_column("seat", ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column("hand", justify="right", width=4)
    table.add_column("total", justify="right", width=5)
    low = min(totals) if totals else 0
    for seat, name in enumerate(names):
        marker = "▶ " if seat in to_move else "  "
        style = "bold green" if totals[seat] == low else ""
        table.add_row(marker + name, str(points[seat]), Text(str(totals[seat]), style=style))
    return table


class DealViewer(Static):
    """A finished (or recorded) hand, step by step: step 0 is the deal and the passes, step k the k-th trick."""

    def __init__(
        self, names: Sequence[str], story: HandStory, four_colour: bool = False, *, id: str | None = None
    ) -> None:
        super().__init__("", id=id)
        self.names = tuple(names)
        self.story = story
        self.four_colour = four_colour
        self.step = 0

    @property
    def steps(self) -> int:
        return len(self.story.tricks) + 1

    def set_story(self, story: HandStory, step: int = 0) -> None:
        self.story = story
        self.go(step)

    def go(self, step: int) -> None:
        self.step = max(0, min(step, self.steps - 1))
        self.update(self.render_step())

    def on_mount(self) -> None:
        self.go(self.step)

    def render_step(self) -> RenderableType:
        story = self.story
        names = self.names
        fc = self.four_colour
        n = len(names)
        holding = story.direction is PassDirection.HOLD
        if self.step == 0:
            heading = Text.assemble(
                ("The deal", "bold"),
                f"  ·  hand {story.number + 1}  ·  ",
                "no passing" if holding else f"pass {story.direction.value}",
            )
            table = Table(box=None, padding=(0, 1), expand=False)
            table.add_column("seat", style="bold", no_wrap=True)
            table.add_column("dealt")
            if not holding:
                table.add_column("passed")
            for seat in range(n):
                row: list[RenderableType] = [names[seat]]
                passed = story.passes[seat]
                dealt = Text()
                for i, card in enumerate(story.dealt[seat]):
                    if i:
                        dealt.append(" ")
                    dealt.append_text(card_text(card, fc, "underline" if passed and card in passed else ""))
                row.append(dealt)
                if not holding:
                    where = Text(f" → {names[story.pass_to[seat]]}", style="dim")
                    row.append(cards_text(passed or (), fc) + where if passed else Text("not yet", style="dim"))
                table.add_row(*row)
            hint = Text("→ to step through the tricks", style="dim")
            return Group(heading, table, hint)
        trick = story.tricks[self.step - 1]
        heading = Text.assemble(
            ("Trick ", "bold"),
            (f"{trick.number + 1}", "bold"),
            f" of {story.rules.hand_size}",
            f"  ·  {names[trick.leader]} {verb(names[trick.leader], 'lead')}",
        )
        played = dict(trick.plays)
        table = Table(box=None, padding=(0, 1), expand=False)
        table.add_column("seat", style="bold", no_wrap=True)
        table.add_column("plays", justify="center")
        table.add_column("cards before the trick")
        table.add_column("points", justify="right")
        # Points taken so far this hand, this trick included (the engine's trick points, the bonus
        # card's included; a moon is settled only in the hand's score).
        taken = [0] * n
        for done in story.tricks[: self.step]:
            if done.winner is not None:
                taken[done.winner] += done.points
        for seat in range(n):
            played_card = played.get(seat)
            won = trick.winner == seat
            cell = (
                Text("·", style="dim")
                if played_card is None
                else card_text(played_card, fc, "bold reverse" if won else "bold")
            )
            hand = Text()
            for i, c in enumerate(trick.before[seat]):
                if i:
                    hand.append(" ")
                hand.append_text(card_text(c, fc, "reverse" if c == played_card else "dim"))
            label = Text(names[seat]) + (
                Text(f" ◀ {verb(names[seat], 'win')}", style="bold yellow") if won else Text("")
            )
            table.add_row(label, cell, hand, str(taken[seat]))
        if trick.winner is None:
            outcome = Text("the trick is still being played", style="dim")
        else:
            who = names[trick.winner]
            outcome = Text(f"{who} {verb(who, 'win')} it: {plural(trick.points, 'point')}")
        if trick.hearts_broken_by is not None:
            seat, card = trick.hearts_broken_by
            outcome.append(f"  ·  hearts broken by {names[seat]} ", style="red")
            outcome.append_text(card_text(card, fc))
        return Group(heading, table, outcome)


def suit_legend(four_colour: bool) -> Text:
    """The four suits in their colours (shown in the help)."""
    out = Text()
    for suit in Suit:
        out.append(f"{suit.symbol} {suit} ", style=suit_colour(suit, four_colour))
    return out
