"""The story of a hand as the terminal tells it: the log's line for each event and the plain account
of a record.

The hand itself, every pass, trick, winner and score, is the engine's one summary of a hand
(:class:`~hearts.core.summary.HandSummary`, kept by the game: ``game.summary(n)``), which the
end-of-hand screen, the record viewer and the account of ``hearts replay`` all show; the running
totals are the game's (``game.totals_before(n)``). ``HandStory``, ``hand_story``,
``game_stories`` and ``running_totals`` are those names as the terminal first spelled them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from hearts.core import (
    CardPlayed,
    CardSet,
    CardsPassed,
    CardsReceived,
    Game,
    GameOver,
    GameRecord,
    HandScored,
    HandState,
    HeartsBroken,
    MoonChosen,
    MoonOption,
    MoonShot,
    PassDirection,
    Phase,
    SeatView,
    TrickWon,
)
from hearts.core.events import Event
from hearts.core.summary import HandSummary, TrickSummary
from hearts.tui.cardtext import card_text, cards_plain, cards_text, plural, rules_title, verb

HandStory = HandSummary
TrickStory = TrickSummary


def points_this_hand(view: SeatView) -> tuple[int, ...]:
    """Each seat's points from the tricks it has taken this hand, as the engine scores them
    (``Rules.points_taken``: hearts, Q♠ and the bonus card, J♦ −10 in Omnibus); a moon is
    settled only in the hand's score."""
    won = [0] * view.players
    for trick in view.tricks:
        if trick.winner is not None:
            for card in trick.cards:
                won[trick.winner] |= 1 << card
    return tuple(view.rules.points_taken(mask) for mask in won)


def hand_events(hand: HandState) -> list[Event]:
    """Every event of ``hand`` so far (passes, cards, tricks), told again on a fresh hand dealt the same
    cards: a resumed table writes its log from these (through ``visible_to``, like any event)."""
    fresh = HandState(hand.rules, hand.dealt, hand.number)
    events: list[Event] = []
    if fresh.phase is Phase.PASS:
        for seat, mask in enumerate(hand.passed):
            if mask is not None:
                events.extend(fresh.pass_cards(seat, CardSet(mask)))
    for done in hand.tricks:
        for card in done.cards:
            events.extend(fresh.play(card))
    for card in hand.trick:
        events.extend(fresh.play(card))
    return events


def hand_story(hand: HandState, totals: tuple[int, ...] | None = None) -> HandSummary:
    """Tell ``hand`` again, step by step, on a fresh hand dealt the same cards (:meth:`HandSummary.of`)."""
    return HandSummary.of(hand, totals)


def running_totals(game: Game, hands: int) -> list[int]:
    """Each seat's total after the first ``hands`` finished hands (:meth:`Game.totals_before`)."""
    return list(game.totals_before(hands))


def game_stories(game: Game) -> list[HandSummary]:
    """Every hand of ``game``: the finished ones, then the one in progress (:meth:`Game.summaries`)."""
    return game.summaries()


def event_line(event: Event, names: Sequence[str], four_colour: bool = False, me: int = 0) -> Text | None:
    """One event as the table's log tells it to seat ``me`` (None for an event the log leaves out).

    The caller passes only the events ``me`` may see (``visible_to``): another seat's pass
    arrives without its cards.
    """
    fc = four_colour
    if isinstance(event, CardPlayed):
        return Text(f"{names[event.seat]}: ") + card_text(event.card, fc)
    if isinstance(event, TrickWon):
        who = names[event.seat]
        points = f" ({event.points:+d})" if event.points else ""
        return Text(f"  {who} {verb(who, 'take')} trick {event.trick_number + 1}{points}", style="green")
    if isinstance(event, HeartsBroken):
        return Text("  ♥ hearts are broken", style="bold red")
    if isinstance(event, CardsPassed):
        if event.seat != me:
            return Text(f"{names[event.seat]} has passed", style="dim")
        return Text("You passed ") + cards_text(event.cards, fc) + Text(f" to {names[event.to_seat]}")
    if isinstance(event, CardsReceived):
        return Text(f"You received from {names[event.from_seat]}: ") + cards_text(event.cards, fc)
    if isinstance(event, MoonShot):
        return Text(f"🌕 {names[event.seat]} shot the moon!", style="bold yellow")
    if isinstance(event, MoonChosen):
        how = "adds to the others" if event.option is MoonOption.ADD_TO_OTHERS else "subtracts from itself"
        return Text(f"  {names[event.seat]} {how}", style="yellow")
    if isinstance(event, HandScored):
        scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(event.points))
        return Text(f"Hand {event.hand_number + 1}: {scores}", style="bold")
    if isinstance(event, GameOver):
        return Text("Game over: " + " and ".join(names[s] for s in event.winners) + " won", style="bold yellow")
    return None


def _scores_line(names: tuple[str, ...], values: tuple[int, ...]) -> str:
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))


def game_account(record: GameRecord) -> str:
    """A readable account of every hand and trick of ``record`` (replayed through the engine).

    Raises :class:`~hearts.core.errors.RecordError` if the record breaks a rule.
    """
    game = record.replay()
    names = game.names
    rules = game.rules
    preset = rules_title(rules)
    lines = [
        f"Hearts: {rules.players} players, {'custom rules' if preset == 'custom rules' else f'the {preset} rules'}, "
        f"to {rules.target} points" + ("" if record.seed is None else f" (seed {record.seed})"),
        "Players: " + ", ".join(f"{name} (seat {seat + 1})" for seat, name in enumerate(names)),
    ]
    for story in game_stories(game):
        lines.append("")
        state = "" if story.finished else " (in progress)"
        lines.append(
            f"Hand {story.number + 1}: {'no passing' if story.direction is PassDirection.HOLD else 'pass ' + story.direction.value}{state}"
        )
        lines.append("  Dealt:")
        width = max(len(x) for x in names)
        for seat, cards in enumerate(story.dealt):
            lines.append(f"    {names[seat]:<{width}}  {cards_plain(cards)}")
        if story.direction is not PassDirection.HOLD:
            lines.append("  Passes:")
            for seat, passed in enumerate(story.passes):
                to = names[story.pass_to[seat]]
                what = "has not passed yet" if passed is None else cards_plain(passed)
                lines.append(f"    {names[seat]:<{width}} → {to:<{width}}  {what}")
        for trick in story.tricks:
            plays = ", ".join(f"{names[s]} {c.symbol()}" for s, c in trick.plays)
            leader = names[trick.leader]
            head = f"  Trick {trick.number + 1:>2}: {leader} {verb(leader, 'lead')}. {plays}"
            if trick.winner is None:
                lines.append(head + " (in progress)")
            else:
                pts = plural(trick.points, "point")
                winner = names[trick.winner]
                lines.append(f"{head}. {winner} {verb(winner, 'win')} ({pts}).")
            if trick.hearts_broken_by is not None:
                seat, card = trick.hearts_broken_by
                lines.append(f"             Hearts broken by {names[seat]} ({card.symbol()}).")
        moon = story.moon_words(names)
        if moon:
            lines.append(f"  Moon! {moon}.")
        if story.scores is not None and story.totals is not None:
            lines.append(f"  Points: {_scores_line(names, story.scores)}")
            lines.append(f"  Totals: {_scores_line(names, story.totals)}")
    lines.append("")
    if game.winners:
        who = " and ".join(names[s] for s in game.winners)
        lines.append(
            f"Game over. {'Winners' if len(game.winners) > 1 else 'Winner'}: {who}. Final totals: {_scores_line(names, tuple(game.totals))}"
        )
    else:
        lines.append(f"Game in progress. Totals so far: {_scores_line(names, tuple(game.totals))}")
    return "\n".join(lines)
