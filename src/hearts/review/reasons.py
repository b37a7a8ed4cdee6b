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
from hearts.players.knowledge import QS, Knowledge
from hearts.players.medium import SUIT_NAMES


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def play_facts(view: SeatView, card: Card) -> tuple[bool, list[str]]:
    """Whether ``card`` was sure to win its trick (last to play, the highest of the suit led), and
    what the seat could see that made winning it costly: its points so far, Q♠ still out, seats
    behind it void in the suit (they may throw points on it). No facts for a card that cannot win."""
    k = Knowledge.of(view)
    rules = view.rules
    n = rules.players
    suit = card // 13
    leading = not view.trick.cards
    if not leading and (suit != k.led_suit or card < k.winning_card):
        return False, []
    if leading:
        behind = [s for s in range(n) if s != view.seat]
    else:
        behind = [(view.trick.leader + i) % n for i in range(len(view.trick.cards) + 1, n)]
    facts: list[str] = []
    pts = rules.points_taken(k.trick_mask | 1 << card)
    if pts > 0:
        facts.append(f"it held {pts} point{'s' if pts != 1 else ''}" + ("" if behind else " with your card"))
    if not behind:
        facts.append("you were last to play")
    queen_out = bool(k.out & QS_BIT) and card != QS
    if queen_out and suit == QS // 13 and card > QS:
        facts.append("Q♠ was still out")
    void = [view.names[s] for s in behind if k.void_suits[s] >> suit & 1 and k.need[s] > 0]
    if void and (queen_out or k.out & HEARTS):
        facts.append(f"{_names(void)} {'was' if len(void) == 1 else 'were'} void in {SUIT_NAMES[suit]}")
    if behind and not facts and not k.out & SUIT_MASKS[suit] & ~((2 << card) - 1):
        facts.append(f"it was the highest {SUIT_NAMES[suit][:-1]} left")
    return not behind, facts


def play_reason(view: SeatView, played: Card, best: Card, expert_reason: str, *, costly: bool) -> str:
    """The reason line of a play: the expert's reason, after what made ``played`` cost when it did."""
    expert = split_reason(expert_reason)[0]
    if not costly:
        return expert
    sure, facts = play_facts(view, played)
    if facts:
        lead = f"{played.symbol()} {'won' if sure else 'could win'} the trick: {' and '.join(facts)}"
    else:
        lead = f"{played.symbol()} did worse in the deals played out"
    return f"{lead}; {_better(best.symbol(), expert)}"


def _better(best: str, expert: str) -> str:
    """The expert's reason as advice, naming its choice unless the reason already does."""
    return f"better: {expert}" if best in expert else f"better {best}: {expert}"


def pass_reason(view: SeatView, passed: CardSet, best: CardSet, expert_reason: str, *, costly: bool) -> str:
    """The reason line of a pass: what was kept that the expert would have passed, and its reason."""
    expert = split_reason(expert_reason)[0]
    if not costly:
        return expert
    kept = CardSet(best.mask & ~passed.mask)
    given = CardSet(passed.mask & ~best.mask)
    return f"passed {given.symbols()} and kept {kept.symbols()}; {_better(best.symbols(), expert)}"
