"""The table screen of ``hearts play``: the seats around the trick, the scores, the log and your hand.

It draws only the human seat's :class:`~hearts.core.view.SeatView`. Computer seats
decide in a worker thread on their own view, with a short visible pause; the
finished trick stays on the table long enough to read. Every move goes through
the engine (an illegal card is refused with the engine's reason, said to you:
"You don't hold Q♠.") and is saved at once, so a quit or a crash loses nothing.
"""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, RichLog, Static

from hearts.core import (
    Card,
    CardSet,
    CardsReceived,
    ChooseMoon,
    ClaimRefused,
    GameRecord,
    HeartsError,
    MoonShot,
    PassCards,
    Phase,
    PlayCard,
    SeatView,
    Trick,
    TrickWon,
    visible_to,
)
from hearts.core.events import Event
from hearts.players import Decision
from hearts.players.drive import next_turn
from hearts.tui.board import (
    center_text,
    compose_board,
    hand_start_text,
    have_played,
    prompt_text,
    seat_lines,
    seat_places,
)
from hearts.tui.cardtext import RANK_START, TypedCard, card_text, cards_text, plural, refusal_words, rules_title
from hearts.tui.screens import GameOverScreen, HandOverScreen, HelpScreen, MoonScreen
from hearts.tui.session import HUMAN, Session
from hearts.tui.story import event_line, hand_events, points_this_hand
from hearts.tui.widgets import CardWidget, HandRow, SeatBox, score_table

# seat_places lives with the board now; it stays importable from here for hearts.tui.app.
__all__ = ["TableScreen", "seat_places"]


class TableScreen(Screen[None]):
    """The table: seats around the trick, the scores and a log at the side, your hand at the bottom."""

    BINDINGS = [
        Binding("left", "cursor(-1)", "Pick"),
        Binding("right", "cursor(1)", "Pick", show=False),
        Binding("enter", "choose", "Play/Pass"),
        Binding("space", "mark", "Mark"),
        Binding("h", "hint", "Hint"),
        Binding("c", "claim", "Claim the rest"),
        Binding("question_mark", "help", "Help & rules"),
        Binding("escape", "clear", "Clear", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.cursor = 0
        self.marked = CardSet()
        self.hinted = CardSet()
        self.typed = TypedCard()
        self.message: Text | None = None
        self.shown_trick: Trick | None = None  #: a finished trick held on the table for a moment
        self.hold_pending = False
        self.hands_shown = len(session.game.finished)
        self._cursor_turn: tuple[int, int] | None = None

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield from compose_board(self.session.game.rules.players)
            with Vertical(id="side"):
                yield Static("", id="scores")
                log = RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=10)
                log.can_focus = False  # the keys belong to the hand, not to scrolling the log
                yield log
        with Vertical(id="prompt"):
            yield Static("", id="message")
            yield Static("", id="instruction")
        yield HandRow(id="hand")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        # Below 100 columns the side panel (scores and log) gives its room to the table;
        # each seat box still shows its total and its points this hand.
        self.set_class(event.size.width < 100, "-narrow")

    def on_mount(self) -> None:
        session = self.session
        self.set_class(self.app.size.width < 100, "-narrow")
        rules = session.game.rules
        preset = rules_title(rules)
        self.app.title = "Hearts" + (" · practice" if session.settings.practice else "")
        self.app.sub_title = f"{preset} · {rules.players} players · to {rules.target}"
        log = self.query_one(RichLog)
        for note in session.notes:
            log.write(Text(note, style="yellow"))
        hand = session.game.hand
        resumed = session.game.finished or hand.tricks or hand.trick or any(p is not None for p in hand.passed)
        if resumed:
            log.write(Text(f"Resumed hand {session.game.hand_number + 1}.", style="cyan"))
        self._log_hand_start()
        if resumed and not session.game.is_over:
            # The hand so far, as this seat saw it: the log of a resumed game reads as if never left.
            for raw in hand_events(hand):
                event = visible_to(raw, HUMAN)
                if event is not None:
                    self.log_event(event)
        self.refresh_table()
        self.kick()

    # -- drawing -----------------------------------------------------------------------

    def table_view(self) -> SeatView:
        """The human seat's view of the hand on the table.

        The engine deals the next hand the moment one ends; until its end-of-hand screen has
        been seen, the table keeps showing the hand just finished (its last trick, its points).
        """
        game = self.session.game
        if len(game.finished) > self.hands_shown:
            done = game.finished[-1]
            before = list(game.totals_before(len(game.finished) - 1))
            return SeatView.of_hand(done, HUMAN, before, game.names)
        return self.session.view()

    def refresh_table(self) -> None:
        """Draw everything from the human seat's view (and the held trick, if any)."""
        session = self.session
        view = self.table_view()
        n = view.players
        fc = session.settings.four_colour
        trick = self.shown_trick or view.trick
        played = dict(trick.plays(n))
        playing = view.phase is Phase.PLAY
        points = points_this_hand(view)
        for box in self.query(SeatBox):
            seat = box.seat
            box.show(
                session.label(seat),
                seat_lines(view, seat, points, self.shown_trick),
                played.get(seat),
                fc,
                to_move=seat in view.to_move and self.shown_trick is None,
                won=self.shown_trick is not None and self.shown_trick.winner == seat,
            )
        self.query_one("#center", Static).update(center_text(view, session.names, self.shown_trick, fc), layout=False)
        self.query_one("#scores", Static).update(
            score_table([session.names[s] for s in range(n)], points, view.totals, to_move=view.to_move)
        )
        cards = list(view.hand)
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        my_play = playing and view.my_turn
        turn_key = (view.hand_number, len(view.tricks))
        if my_play and turn_key != self._cursor_turn:
            # A new turn: start the cursor on a card that may be played, not on one that will be refused.
            self._cursor_turn = turn_key
            if cards and cards[self.cursor] not in view.legal:
                self.cursor = cards.index(view.legal[0])
        received = view.received if view.received is not None and not have_played(view) else CardSet()
        self.query_one(HandRow).show(
            cards,
            fc,
            self.cursor if cards else None,
            self.marked,
            CardSet(view.legal) if my_play else None,
            received,
            self.hinted,
        )
        self._draw_prompt(view, received)

    def _draw_prompt(self, view: SeatView, received: CardSet) -> None:
        """The message and the instruction above the hand (see :func:`~hearts.tui.board.prompt_text`)."""
        message, line = prompt_text(
            view,
            self.session.names,
            self.session.settings.four_colour,
            message=self.message,
            typing=self.typed.text,
            received=received,
            marked=len(self.marked),
            shown=self.shown_trick,
        )
        self.query_one("#message", Static).update(message)
        self.query_one("#instruction", Static).update(line, layout=False)

    def say(self, text: str | Text, error: bool = False) -> None:
        """Show a message above the hand (in red for a refusal); one too long for its two rows is
        also shown whole in a notification (at the top of the screen, clear of the hand)."""
        self.message = text if isinstance(text, Text) else Text(text, style="bold red" if error else "bold")
        if error:
            self.app.bell()
        room = self.query_one("#message", Static).content_size.width
        if room and self.message.cell_len > 2 * room - 4:  # roughly: where wrapping at words would cut it
            self.app.notify(self.message.plain, severity="error" if error else "information", timeout=10, markup=False)
        self.refresh_table()

    def write_log(self, text: Text | str) -> None:
        self.query_one(RichLog).write(text if isinstance(text, Text) else Text(text))

    # -- the game moving on ---------------------------------------------------------------

    def kick(self) -> None:
        """Let the computer seats take their turns (in a worker, so the screen stays live)."""
        self.run_worker(self._drive(), group="drive", exclusive=True)

    async def _drive(self) -> None:
        session = self.session
        card_delay, trick_pause = session.timing
        while True:
            game = session.game
            if self.hold_pending:
                self.hold_pending = False
                self.refresh_table()
                await asyncio.sleep(trick_pause)
                self.shown_trick = None
                self.refresh_table()
            if len(game.finished) > self.hands_shown:
                story = game.summary(len(game.finished) - 1)
                await self.app.push_screen_wait(
                    HandOverScreen(
                        session.names,
                        story,
                        session.settings.four_colour,
                        game_over=game.is_over,
                        record=GameRecord.of(game),
                        seat=HUMAN,
                    )  # fmt: skip
                )
                self.hands_shown = len(game.finished)  # from now on the table shows the next hand
                if not game.is_over:
                    self._log_hand_start()
                self.refresh_table()
                continue
            if game.is_over:
                again = await self.app.push_screen_wait(
                    GameOverScreen(session.names, game.summaries(), game.totals, game.winners)
                )
                if not again:
                    self.app.exit()
                    return
                session.play_again()
                self.hands_shown = 0
                self.marked = self.hinted = CardSet()
                self.query_one(RichLog).clear()
                self._log_hand_start()
                self.refresh_table()
                continue
            # Whose move, from the one game loop: the computer seats pass first, one at a time (each
            # re-checked against the game as it is now), and the human in their own time.
            seat = next_turn(game, later=(HUMAN,))
            if seat is None:  # pragma: no cover - a game that is not over has a seat to move
                return
            if seat != HUMAN:
                if game.phase is Phase.PLAY:
                    self.refresh_table()
                    await asyncio.sleep(card_delay)
                await self._computer_move(seat)
                continue
            if game.phase is Phase.MOON_CHOICE:
                view = session.view()
                option = await self.app.push_screen_wait(
                    MoonScreen(game.rules.moon_points, view.totals, session.names, HUMAN)
                )
                self.after(session.apply(ChooseMoon(HUMAN, option)))
                continue
            if game.phase is Phase.PLAY and session.settings.auto_play:
                view = session.view()
                if len(view.legal) == 1:
                    # The only card the person may play is played for them, and said, so nobody is surprised.
                    card = view.legal[0]
                    text = Text("Played ", style="bold cyan")
                    text.append_text(card_text(card, session.settings.four_colour))
                    text.append(" for you: your only legal card (--no-auto-play plays it yourself).")
                    self.say(text)
                    await asyncio.sleep(card_delay)
                    if session.view() == view:
                        self.after(session.apply(PlayCard(HUMAN, card)))
                    continue
            self.refresh_table()  # the human's pass or play: wait for it
            return

    async def _computer_move(self, seat: int) -> None:
        session = self.session
        view = session.game.view(seat)
        player = session.players[seat]
        try:
            decision: Decision | BaseException = await asyncio.to_thread(session.decide, player, view)
        except Exception as exc:  # a player's bug must not stop the game: the session falls back
            decision = exc
        if session.game.view(seat) != view:
            return  # the game moved on while it thought (a new game, say): ask again
        move, problem = session.checked(seat, decision)
        if problem:
            self.write_log(Text(problem, style="red"))
        self.after(session.apply(move))

    def after(self, events: list[Event]) -> None:
        """Show what happened (as the human seat may see it) and redraw."""
        for raw in events:
            event = visible_to(raw, HUMAN)
            if event is None:
                continue
            self.log_event(event)
            if isinstance(event, TrickWon):
                self.shown_trick = Trick(event.leader, event.cards, event.seat)
                self.hold_pending = True
            elif isinstance(event, CardsReceived):
                self.message = None
            elif isinstance(event, MoonShot):
                self.app.notify(f"🌕 {self.session.names[event.seat]} shot the moon!", title="Moon", timeout=4)
        self.refresh_table()

    def log_event(self, event: Event) -> None:
        """Write one event (one the human seat may see) to the log."""
        line = event_line(event, self.session.names, self.session.settings.four_colour)
        if line is not None:
            self.write_log(line)

    def _log_hand_start(self) -> None:
        view = self.session.view()
        if view.phase is Phase.GAME_OVER:
            return
        self.write_log(hand_start_text(view))

    # -- the human's input ----------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Typing a card: a rank then a suit (``qs``, ``10h``, ``th``)."""
        char = event.character
        if not char or len(char) != 1 or not char.isprintable():
            return
        if not self.typed.text and char.lower() not in RANK_START:
            return  # not a card: leave it to the key bindings (h, ?, …)
        event.stop()
        event.prevent_default()
        self.typed = self.typed.feed(char)
        if self.typed.error:
            error, self.typed = self.typed.error, TypedCard()
            self.say(error, error=True)
        elif self.typed.card is not None:
            card, self.typed = self.typed.card, TypedCard()
            self.pick(card)
        else:
            self.message = None
            self.refresh_table()

    def on_card_widget_picked(self, message: CardWidget.Picked) -> None:
        self.cursor = message.index
        widget = self.query(CardWidget)[message.index]
        if widget.card is not None:
            self.pick(widget.card)

    def _cursor_card(self) -> Card | None:
        cards = list(self.session.view().hand)
        return cards[self.cursor] if cards and 0 <= self.cursor < len(cards) else None

    def action_cursor(self, delta: int) -> None:
        count = len(self.session.view().hand)
        if count:
            self.cursor = (self.cursor + delta) % count
        self.message = None
        self.refresh_table()

    def action_clear(self) -> None:
        self.typed = TypedCard()
        self.message = None
        self.refresh_table()

    def action_mark(self) -> None:
        card = self._cursor_card()
        if card is not None:
            self.toggle_mark(card)

    def action_choose(self) -> None:
        view = self.session.view()
        if view.phase is Phase.PASS and HUMAN in view.to_move:
            # Until enough cards are marked, Enter marks the card under the cursor and moves on, so that
            # Enter alone can choose a pass; with enough marked it passes them. It never unmarks (Space
            # does): after typing ``ks`` the cursor rests on K♠, and Enter must not take it back.
            card = self._cursor_card()
            if len(self.marked) < view.rules.pass_count and card is not None:
                if card not in self.marked:
                    self.toggle_mark(card)
                self.action_cursor(1)
                return
            self.confirm_pass()
            return
        card = self._cursor_card()
        if card is not None:
            self.pick(card)

    def pick(self, card: Card) -> None:
        """The human chose ``card``: mark it while passing, play it on its turn."""
        view = self.session.view()
        if view.phase is Phase.PASS and HUMAN in view.to_move:
            self.toggle_mark(card)
        elif view.phase is Phase.PLAY and view.my_turn and self.shown_trick is None:
            self.play(card)
        elif view.phase is Phase.PLAY and view.my_turn:
            self.say("A moment: the last trick is still on the table.")
        elif view.phase is Phase.PLAY:
            self.say(f"Wait: it is {self.session.names[view.to_move[0]]}'s turn.", error=True)
        else:
            self.say("Nothing to play now.", error=True)

    def toggle_mark(self, card: Card) -> None:
        view = self.session.view()
        if card not in view.hand:
            self.say(f"You don't hold {card.symbol()}.", error=True)
            return
        k = view.rules.pass_count
        if card in self.marked:
            self.marked = self.marked - CardSet([card])
        elif len(self.marked) >= k:
            self.say(f"You pass {plural(k, 'card')}: unmark one first (Space on a marked card).", error=True)
            return
        else:
            self.marked = self.marked | CardSet([card])
        cards = list(view.hand)
        self.cursor = cards.index(card)
        self.message = None
        self.refresh_table()

    def confirm_pass(self) -> None:
        move = PassCards(HUMAN, self.marked)
        try:
            self.session.game.check(move)
        except HeartsError as exc:
            self.say(refusal_words(exc), error=True)
            return
        self.marked = self.hinted = CardSet()
        self.message = None
        self.after(self.session.apply(move))
        self.kick()

    def play(self, card: Card) -> None:
        move = PlayCard(HUMAN, card)
        try:
            self.session.game.check(move)
        except HeartsError as exc:
            self.say(refusal_words(exc), error=True)  # the engine's reason, said to you: "You must follow spades"
            return
        self.hinted = CardSet()
        self.message = None
        self.after(self.session.apply(move))
        self.kick()

    def action_claim(self) -> None:
        """Claim every remaining trick: the engine checks it against every lie of the unseen cards and
        every play of the others; refused with the reason, or the hand is played out."""
        view = self.session.view()
        if view.phase is not Phase.PLAY or not view.my_turn or self.shown_trick is not None:
            self.say("You can claim the rest of the tricks on your turn to play.", error=True)
            return
        try:
            events = self.session.claim(HUMAN)
        except ClaimRefused as exc:
            reason = str(exc).split(": ", 1)[-1]
            self.say(f"You can't claim the rest: {reason}.", error=True)
            return
        self.hinted = CardSet()
        self.write_log(Text("You claim the rest: every trick is yours.", style="bold green"))
        self.after(events)
        self.message = Text("You claimed the rest: the hand is played out, every trick to you.", style="bold green")
        self.refresh_table()
        self.kick()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session.game.rules, self.session.settings.four_colour))

    def action_hint(self) -> None:
        view = self.session.view()
        if HUMAN not in view.to_move or view.phase not in (Phase.PASS, Phase.PLAY):
            self.say("No decision of yours to hint at right now.")
            return
        self.say(Text(f"Asking the {self.session.hint_level} player…", style="italic"))
        self.run_worker(self._hint(view), group="hint", exclusive=True)

    async def _hint(self, view: SeatView) -> None:
        session = self.session
        try:
            decision = await asyncio.to_thread(session.decide, session.hint_player, view)
            session.game.check(decision.move)
        except Exception as exc:  # hints are a help, never a crash
            if session.view() == view:
                self.say(f"No hint this time ({exc}).", error=True)
            return
        if session.view() != view:
            return  # the game moved on while the hint was thought out
        move = decision.move
        text = Text(f"Hint ({session.hint_level}): ", style="bold cyan")
        if isinstance(move, PlayCard):
            text.append("play ")
            text.append_text(card_text(move.card, session.settings.four_colour))
            self.hinted = CardSet([move.card])
            self.cursor = list(view.hand).index(move.card)
        elif isinstance(move, PassCards):
            text.append("pass ")
            text.append_text(cards_text(move.cards, session.settings.four_colour))
            self.hinted = move.cards
        text.append(f"  — {decision.reason}")
        self.say(text)
