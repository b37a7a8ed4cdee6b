"""One-line reasons for a reviewed decision, in the words hints use, from the seat's view only.

A costly decision's reason names what the seat could see that made its card dangerous (the
trick's points, Q♠ still out, a seat behind it void in the suit: it may throw points on it) and
then the expert's own reason for its card, as the hint button words it. A decision that cost
nothing gets the expert's reason alone.

>>> from hearts.core import Game, Rules
>>> game = Game(Rules.preset("no-passing"), seed=1)
>>> view = game.view(game.hand.turn)
>>> play_reason(view, view.legal[-1], view.legal[0], "lead low", costly=False)
'lead low'
"""

from __future__ import annotations

from hearts.core import Card, CardSet, SeatView
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS
from hearts.players.base import split_reason
from hearts.players.knowledge import Knowledge, trick_points
from hearts.players.medium import SUIT_NAMES


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def play_facts(view: SeatView, card: Card) -> list[str]:
    """What the seat could see that made ``card`` risky: facts about a card that may win its trick."""
    k = Knowledge.of(view)
    rules = view.rules
    n = rules.players
    suit = card // 13
    leading = not view.trick.cards
    wins_so_far = leading or (suit == k.led_suit and card > k.winning_card)
    facts: list[str] = []
    if not wins_so_far:
        return facts
    behind = (
        [(view.trick.leader + i) % n for i in range(len(view.trick.cards) + 1, n)]
        if not leading
        else [s for s in range(n) if s != view.seat]
    )
    pts = trick_points(rules, k.trick_mask)
    if pts > 0:
        facts.append(f"the trick already held {pts} point{'s' if pts != 1 else ''}")
    if card == 36 and not behind:
        facts.append("Q♠ would win the trick: you were last to play")
    elif card == 36:
        higher = [c for c in (37, 38) if k.out >> c & 1]
        if not higher:
            facts.append("Q♠ would win the trick: A♠ and K♠ were gone")
    queen_out = bool(k.out & QS_BIT) and card != 36
    if queen_out and suit == 2 and card > 36:
        facts.append("Q♠ was still out")
    void = [view.names[s] for s in behind if k.void_suits[s] >> suit & 1 and k.need[s] > 0]
    if void and (queen_out or k.out & HEARTS):
        facts.append(f"{_names(void)} {'was' if len(void) == 1 else 'were'} void in {SUIT_NAMES[suit]}")
    if not facts and behind and not k.out & SUIT_MASKS[suit] & ((1 << 52) - (2 << card)):
        facts.append(f"{card.symbol()} was the highest {SUIT_NAMES[suit][:-1]} left: it could only win")
    return facts


def play_reason(view: SeatView, played: Card, best: Card, expert_reason: str, *, costly: bool) -> str:
    """The reason line of a play: the expert's reason, after what made ``played`` cost when it did."""
    expert = split_reason(expert_reason)[0]
    if not costly:
        return expert
    facts = play_facts(view, played)
    lead = f"{played.symbol()} risked the trick: " + " and ".join(facts) if facts else f"{played.symbol()} did worse"
    return f"{lead}; better {best.symbol()}: {expert}"


def pass_reason(view: SeatView, passed: CardSet, best: CardSet, expert_reason: str, *, costly: bool) -> str:
    """The reason line of a pass: what was kept that the expert would have passed, and its reason."""
    expert = split_reason(expert_reason)[0]
    if not costly:
        return expert
    kept = CardSet(best.mask & ~passed.mask)
    given = CardSet(passed.mask & ~best.mask)
    return f"kept {kept.symbols()} and passed {given.symbols()}; better: {expert}"
