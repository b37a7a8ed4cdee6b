"""Cards as coloured text, and reading cards a person types.

>>> str(card_text(Card.parse("QS")))
'Q♠'
>>> TypedCard().feed("1").feed("0").feed("h").card
Card('10H')
>>> TypedCard().feed("t").feed("h").card
Card('10H')
>>> TypedCard().feed("x").error
"'x' does not start a card: type a rank 2-10, T, J, Q, K or A, then a suit c, d, s or h"
>>> plural(1, "card"), plural(3, "card"), plural(-9, "point")
('1 card', '3 cards', '-9 points')
>>> rules_title(Rules()), rules_title(Rules(pass_cycle="right,across,hold,left")), rules_title(Rules(target=77))
('standard', 'standard', 'custom rules')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text

from hearts.core import Card, CardParseError, CardSet, HeartsError, Rules, Suit

# Colours are hex: Textual reads Rich's style strings but not Rich's extended colour names.
#: Suit colours of the usual two-colour deck on a dark background: black suits white, red ones red.
TWO_COLOUR = {Suit.CLUBS: "#f2f2f2", Suit.DIAMONDS: "#ff6b6b", Suit.SPADES: "#f2f2f2", Suit.HEARTS: "#ff6b6b"}
#: The four-colour deck (as in many online card rooms): clubs green, diamonds blue.
FOUR_COLOUR = {Suit.CLUBS: "#6bdc6b", Suit.DIAMONDS: "#6bb6ff", Suit.SPADES: "#f2f2f2", Suit.HEARTS: "#ff6b6b"}


def suit_colour(suit: Suit, four_colour: bool = False) -> str:
    """The Rich colour a suit is drawn in."""
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


def card_text(card: Card, four_colour: bool = False, style: str = "") -> Text:
    """``Q♠`` in its suit's colour (plus ``style``, e.g. ``"bold"`` or ``"dim"``)."""
    return Text(card.symbol(), style=f"{suit_colour(card.suit, four_colour)} {style}".strip())


def cards_text(cards: Iterable[Card], four_colour: bool = False, sep: str = " ", style: str = "") -> Text:
    """Cards in their colours separated by ``sep``; a dash when there are none."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c, four_colour, style))
    return out if out.plain else Text("—", style="dim")


def verb(name: str, verb: str) -> str:
    """The verb agreeing with a seat's name: "You take", "West takes".

    >>> verb("You", "lead"), verb("West", "lead")
    ('lead', 'leads')
    """
    return verb if name == "You" else verb + "s"


def plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun agreeing."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def refusal_words(exc: HeartsError) -> str:
    """The engine's refusal of the human's move, said to the human ("You don't hold Q♠.").

    Read from the error's fields (``rule``, ``card``/``cards``, ``reason``), never from its text;
    an error without them is shown as the engine wrote it.

    >>> from hearts.core import Game, Rules
    >>> game = Game(Rules.preset("no-passing"), seed=2)
    >>> try:
    ...     game.play("QS", 0)
    ... except HeartsError as exc:
    ...     print(refusal_words(exc))
    You don't hold Q♠.
    """
    rule, reason = exc.rule, exc.reason or ""
    card = exc.card if isinstance(exc.card, Card) else None
    held = exc.cards if isinstance(exc.cards, CardSet) else None
    what = card.symbol() if card is not None else (cards_plain(held) if held is not None else "that")
    if rule == "not-held":
        return f"You don't hold {what}."
    if rule == "follow-suit":
        return f"You can't play {what}: you {reason}."
    if rule == "first-trick":
        return f"You can't play {what}: no heart or Q♠ on the first trick while you hold another card."
    if rule == "hearts-not-broken":
        if "Q♠" in reason:
            return f"You can't lead {what}: hearts are not broken, and you hold Q♠ to lead instead."
        return f"You can't lead {what}: hearts are not broken yet."
    if rule == "opening-lead":
        return f"You can't lead {what}: {reason}."
    if reason:
        return reason[0].upper() + reason[1:] + "."
    return str(exc)


def cards_plain(cards: Iterable[Card]) -> str:
    """Cards with suit symbols as plain text: ``2♣ 10♣ Q♠``; a dash when there are none."""
    return " ".join(c.symbol() for c in cards) or "—"


RANK_START = set("23456789tjqka1")
SUIT_KEYS = set("cdsh♣♦♠♥")


@dataclass(frozen=True)
class TypedCard:
    """What has been typed of a card so far (``q``, then ``qs``): immutable, one key at a time.

    ``card`` is set once a whole card is typed; ``error`` once the keys cannot make one.
    """

    text: str = ""
    card: Card | None = None
    error: str | None = None

    def feed(self, key: str) -> TypedCard:
        """The state after one more key (a single character)."""
        key = key.lower()
        text = self.text + key
        if not self.text:
            if key not in RANK_START:
                return TypedCard(
                    text,
                    error=f"{key!r} does not start a card: type a rank 2-10, T, J, Q, K or A, then a suit c, d, s or h",
                )
            return TypedCard(text)
        if self.text == "1" and key == "0":
            return TypedCard(text)
        if key in SUIT_KEYS:
            try:
                return TypedCard(text, card=Card.parse(text))
            except CardParseError as exc:
                return TypedCard(text, error=str(exc))
        return TypedCard(text, error=f"{text!r} is not a card: after the rank type a suit c, d, s or h")


def rules_title(rules: Rules) -> str:
    """The preset ``rules`` are, for a title: also when their pass cycle starts part-way through (a
    deal played again starts the cycle at its hand's direction); else ``custom rules``."""
    cycle = tuple(rules.pass_cycle or ())
    for turn in range(max(1, len(cycle))):
        turned = rules if not turn else dataclasses.replace(rules, pass_cycle=cycle[-turn:] + cycle[:-turn])
        if turned.name:
            return turned.name
    return "custom rules"
