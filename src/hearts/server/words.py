"""What a person at a table reads when the server refuses their move: said to them ("you"), in
players' words, with cards shown by their suit symbols.

The engine decides every refusal and names the seat ("illegal play 10♥ by South: must follow
clubs"), as a log or a bot wants it. The seat's own page wants "You can't play 10♥: must follow
clubs", and a move that arrives after the table moved on (a double click, a stand-in that played
first, a hand that ended) wants to say so without the protocol's sequence numbers. The table
(:mod:`hearts.server.table`) asks this module for the words; it never decides anything here.
"""

from __future__ import annotations

import re

from hearts.core import Card, ChooseMoon, ClaimRest, Game, HeartsError, Move, PassCards, Phase, PlayCard

#: A card written the protocol's way ("10H", "QS", optionally in quotes), as older engine messages
#: and bots write them.
_CARD_CODE = re.compile(r"'?\b(10|[2-9TJQKA])([CDSH])\b'?")


def with_symbols(text: str) -> str:
    """``text`` with every card code shown with its suit symbol.

    >>> with_symbols("illegal play '10H' by South: South does not hold 10H")
    'illegal play 10♥ by South: South does not hold 10♥'
    >>> with_symbols("pass QS AS TD")
    'pass Q♠ A♠ 10♦'
    """
    return _CARD_CODE.sub(lambda m: Card.parse(m.group(1) + m.group(2)).symbol(), text)


def _cards(move: Move) -> str:
    if isinstance(move, PlayCard):
        return move.card.symbol()
    if isinstance(move, PassCards):
        return " ".join(c.symbol() for c in move.cards)
    if isinstance(move, ClaimRest):
        return "the rest of the tricks"
    return move.option.value


def _names(game: Game, seats: tuple[int, ...] | list[int]) -> str:
    names = [game.names[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def refusal(exc: HeartsError, move: Move, game: Game) -> str:
    """The engine's refusal of ``move`` said to the seat that made it, on the ``game`` that refused it.

    >>> from hearts.core import Rules
    >>> game = Game(Rules.preset("no-passing"), seed=2)
    >>> leader = game.to_move[0]
    >>> def refused(card: str, seat: int) -> str:
    ...     move = PlayCard(seat, Card.parse(card))
    ...     try:
    ...         game.check(move)
    ...     except HeartsError as exc:
    ...         return refusal(exc, move, game)
    ...     return "allowed"
    >>> refused("3C", leader)
    "You can't play 3♣: the first trick must be opened with 2♣"
    >>> refused("QS", leader)
    "You don't hold Q♠"
    >>> refused("2C", (leader + 1) % 4)
    'Not your turn: South plays now'
    """
    seat, phase = move.seat, game.phase
    mine = seat in game.to_move
    waiting = _names(game, game.to_move) if game.to_move else ""
    if phase is Phase.GAME_OVER:
        return "The game is over"
    if phase is Phase.MOON_CHOICE:
        return "You shot the moon: choose how it scores" if mine else f"{waiting} shot the moon and is choosing how it scores"
    if isinstance(move, ChooseMoon):
        return "There is no moon to score now"
    if phase is Phase.PASS and isinstance(move, PlayCard):
        return "No playing yet: choose the cards to pass first" if mine else f"No playing yet: waiting for {waiting} to pass"
    if phase is Phase.PLAY and isinstance(move, PassCards):
        return "No passing now: it is your turn to play" if mine else f"No passing now: {waiting} plays"
    if not mine:
        return f"You have passed: waiting for {waiting}" if phase is Phase.PASS else f"Not your turn: {waiting} plays now"
    text = str(exc)
    if isinstance(move, ClaimRest):  # "South cannot claim the rest: ..." said to South
        return "You cannot " + with_symbols(text.partition(" cannot ")[2] or text)
    # The rule in words: the error's own field where the engine gives one, else its text after the colon.
    reason = getattr(exc, "reason", None) or text.partition(": ")[2] or text
    # "<seat> does not hold 5♣": the engine may name the seat by its place (South), not the table's name.
    reason = re.sub(r"^.+? does not hold\b", "you don't hold", with_symbols(reason))
    if getattr(exc, "rule", None) == "not-held" or reason.startswith("you don't hold"):
        return reason[0].upper() + reason[1:]
    verb = {PlayCard: "play", PassCards: "pass"}.get(type(move))
    if verb is None:
        return with_symbols(text)
    return f"You can't {verb} {_cards(move)}: {reason}"


def too_late(move: Move, new_hand: bool, last: Move | None, last_actor: str | None) -> str:
    """Why a move that answered an older view of the table was not made (see ``LiveTable._stale``).

    ``new_hand``: a hand began since that view; ``last``/``last_actor``: the seat's latest move and
    who made it (``"stand-in"``: a computer standing in for the person). The words start "too
    late", which protocol clients may look for.

    >>> from hearts.core import Card
    >>> play = PlayCard(0, Card.parse("7D"))
    >>> too_late(play, False, play, "human")
    'too late: you already played 7♦ and the table has moved on; nothing was changed'
    """
    if last == move and last_actor != "stand-in":
        what = "played" if isinstance(move, PlayCard) else "passed" if isinstance(move, PassCards) else "chose"
        return f"too late: you already {what} {_cards(move)} and the table has moved on; nothing was changed"
    if new_hand:
        return "too late: that hand is over and a new one has begun; nothing was changed"
    if last_actor == "stand-in":
        return "too late: a computer moved for you while you were away; nothing was changed"
    return "too late: you have moved since and the table has moved on; nothing was changed"


def ahead_of_the_table() -> str:
    """A move that answers a table newer than the server's: only a confused or hostile client sends one."""
    return "out of step: that move answers a table newer than this one; reload the page to see the table as it is"
