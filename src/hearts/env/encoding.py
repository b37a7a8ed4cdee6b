"""The observation encoding and the action numbering, built only from a seat's :class:`SeatView`.

An observation is a flat ``float32`` vector whose blocks are listed in
:class:`ObservationLayout` (see ``docs/env.md`` for the table). Everything a
seat may see is there: its own cards, the pass it gave and the pass it got,
every card each seat has played this hand, the trick in progress, the voids
each seat has shown, the penalty points each seat has taken, the running
totals, the pass direction and the phase. Seats are numbered *relative to the
observer* (block 0 is the observer, 1 the next seat in playing order, ...), so
one policy serves every seat.

Actions are one number each (:data:`ACTION_COUNT` of them):

* ``0..51``: a card (``suit * 13 + rank - 2``): the card to play, or in the
  passing phase one card to add to the pass (a pass of three takes three steps);
* ``52``: a moon shooter adds the moon's points to every other seat;
* ``53``: a moon shooter subtracts them from its own total.

>>> from hearts.core import Game, Rules
>>> game = Game(Rules(), seed=1)
>>> layout = ObservationLayout(4)
>>> layout.size
661
>>> obs = encode_view(game.view(0))
>>> obs.shape, int(obs[layout.block("hand")].sum())
((661,), 13)
>>> int(action_mask(game.view(0)).sum())   # any of the 13 cards may start the pass
13
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from hearts.core import (
    CARDS,
    ChooseMoon,
    IllegalMoveError,
    MoonOption,
    Move,
    PassDirection,
    Phase,
    PlayCard,
    SeatView,
    cards_of,
)

#: Actions 0..51 are cards; these two are the moon shooter's choices.
MOON_ADD_TO_OTHERS = 52
MOON_SUBTRACT_FROM_SELF = 53
ACTION_COUNT = 54
MOON_ACTIONS: dict[MoonOption, int] = {
    MoonOption.ADD_TO_OTHERS: MOON_ADD_TO_OTHERS,
    MoonOption.SUBTRACT_FROM_SELF: MOON_SUBTRACT_FROM_SELF,
}

_DIRECTIONS = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)
_PHASES = (Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE)

# Totals are scaled by the target and clipped to this range, so that the observation
# stays inside its declared box whatever the scores do (a subtracting moon can go negative).
TOTALS_LOW, TOTALS_HIGH = -1.0, 2.0


class ObservationLayout:
    """Where each block of the observation vector lies for a table of ``players`` seats.

    Per-seat blocks hold one row per seat *relative to the observer*: row 0 is the
    observer, row 1 the next seat in playing order (to its left), and so on.
    """

    def __init__(self, players: int) -> None:
        n = players
        self.players = n
        blocks: list[tuple[str, int, str]] = [
            ("hand", 52, "the observer's cards now (1 per card held)"),
            ("passed", 52, "the cards the observer passes (its choice so far while it is choosing)"),
            ("received", 52, "the cards the observer received (once every seat has passed)"),
            (
                "played",
                n * 52,
                "for each relative seat, every card it has played this hand (trick in progress included)",
            ),
            ("trick", n * 52, "for each relative seat, the card it has played to the trick in progress"),
            (
                "unseen",
                52,
                "cards in other hands whose place the observer does not know (not held, not played, not passed away by it)",
            ),
            ("voids", n * 4, "for each relative seat and suit (C, D, S, H), 1 if the seat has shown it holds none"),
            ("points", n, "heart and Q♠ points each relative seat has taken this hand, divided by the moon's points"),
            (
                "totals",
                n,
                f"running totals before this hand, divided by the target, clipped to [{TOTALS_LOW}, {TOTALS_HIGH}]",
            ),
            ("direction", 4, "the pass direction one-hot: left, right, across, hold"),
            ("phase", 3, "the phase one-hot: pass, play, moon-choice (all 0 when the hand or game is over)"),
            ("leader", n, "the relative seat that led (or leads) the trick in progress, one-hot"),
            ("hearts_broken", 1, "1 once hearts are broken (or may be led from the start)"),
            ("tricks_done", 1, "completed tricks divided by the number of tricks in a hand"),
        ]
        self.blocks = blocks
        self.slices: dict[str, slice] = {}
        start = 0
        for name, size, _ in blocks:
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.ones(self.size, dtype=np.float32)
        self.low[self.slices["totals"]] = TOTALS_LOW
        self.high[self.slices["totals"]] = TOTALS_HIGH

    def block(self, name: str) -> slice:
        """The slice of block ``name``; raises ``KeyError`` naming the known blocks."""
        try:
            return self.slices[name]
        except KeyError:
            raise KeyError(f"no observation block {name!r}: blocks are {', '.join(self.slices)}") from None

    def describe(self) -> list[tuple[str, int, int, str]]:
        """``(name, start, size, meaning)`` for each block, in order (the table in docs/env.md)."""
        return [(name, self.slices[name].start, size, text) for name, size, text in self.blocks]


_LAYOUTS: dict[int, ObservationLayout] = {}


def layout_for(players: int) -> ObservationLayout:
    """The (shared, cached) layout for ``players`` seats."""
    if players not in _LAYOUTS:
        _LAYOUTS[players] = ObservationLayout(players)
    return _LAYOUTS[players]


def _set_cards(out: np.ndarray, offset: int, cards: Iterable[int]) -> None:
    for c in cards:
        out[offset + int(c)] = 1.0


def encode_view(view: SeatView, selected: int = 0) -> np.ndarray:
    """The observation of ``view``'s seat: a new ``float32`` vector laid out as :func:`layout_for` says.

    ``selected`` is the mask of the cards this seat has chosen so far for a pass it has
    not finished choosing (the environment passes one card per step); it is the seat's
    own knowledge, so it goes in the ``passed`` block until the engine holds the pass.
    Only ``view`` and ``selected`` are read: nothing here can reach another seat's hand.
    """
    n = view.players
    layout = layout_for(n)
    sl = layout.slices
    out = np.zeros(layout.size, dtype=np.float32)
    me = view.seat
    rules = view.rules

    def rel(seat: int) -> int:
        return (seat - me) % n

    _set_cards(out, sl["hand"].start, cards_of(view.hand.mask))
    passed = view.passed.mask if view.passed is not None else selected
    _set_cards(out, sl["passed"].start, cards_of(passed))
    if view.received is not None:
        _set_cards(out, sl["received"].start, cards_of(view.received.mask))
    played0 = sl["played"].start
    for t in view.tricks:
        for seat, card in t.plays(n):
            out[played0 + rel(seat) * 52 + card] = 1.0
    trick0 = sl["trick"].start
    for seat, card in view.trick.plays(n):
        out[played0 + rel(seat) * 52 + card] = 1.0
        out[trick0 + rel(seat) * 52 + card] = 1.0
    # The view already leaves out cards passed away and not yet played: the observer knows where they are.
    _set_cards(out, sl["unseen"].start, cards_of(view.unseen.mask))
    voids0 = sl["voids"].start
    for seat, mask in enumerate(view.voids()):
        for suit in range(4):
            if mask >> (suit * 13) & 1:
                out[voids0 + rel(seat) * 4 + suit] = 1.0
    moon = max(1, rules.moon_points)
    points0, totals0 = sl["points"].start, sl["totals"].start
    for seat in range(n):
        out[points0 + rel(seat)] = min(1.0, view.points[seat] / moon)
        out[totals0 + rel(seat)] = min(TOTALS_HIGH, max(TOTALS_LOW, view.totals[seat] / rules.target))
    out[sl["direction"].start + _DIRECTIONS.index(view.direction)] = 1.0
    if view.phase in _PHASES:
        out[sl["phase"].start + _PHASES.index(view.phase)] = 1.0
    out[sl["leader"].start + rel(view.trick.leader)] = 1.0
    out[sl["hearts_broken"].start] = float(view.hearts_broken)
    out[sl["tricks_done"].start] = len(view.tricks) / rules.hand_size
    return out


def action_mask(view: SeatView, selected: int = 0) -> np.ndarray:
    """The ``int8`` mask of the actions ``view``'s seat may take now (all zero when it owes nothing).

    In play the legal cards come from the engine (``view.legal``). In the passing phase any
    held card not yet chosen may be added to the pass (the engine allows any
    ``pass_count`` cards of the hand). A moon shooter choosing its scoring gets
    the two moon actions.
    """
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if view.seat not in view.to_move:
        return mask
    if view.phase is Phase.PLAY:
        for c in view.legal:
            mask[c] = 1
    elif view.phase is Phase.PASS:
        for c in cards_of(view.hand.mask & ~selected):
            mask[c] = 1
    elif view.phase is Phase.MOON_CHOICE:
        for option in view.moon_options:
            mask[MOON_ACTIONS[option]] = 1
    return mask


def action_of_move(move: Move) -> int:
    """The action number of a play or moon choice (a pass is three card actions, one per card)."""
    if isinstance(move, PlayCard):
        return int(move.card)
    if isinstance(move, ChooseMoon):
        return MOON_ACTIONS[move.option]
    raise IllegalMoveError(f"a pass is taken one card action at a time, not as one action: {move!r}")


def describe_action(action: int) -> str:
    """The action in words, for errors and logs: ``'Q♠'`` or ``'moon: add-to-others'``.

    >>> describe_action(36), describe_action(52)
    ('Q♠', 'moon: add-to-others')
    """
    if 0 <= action < 52:
        return CARDS[action].symbol()
    if action == MOON_ADD_TO_OTHERS:
        return "moon: " + MoonOption.ADD_TO_OTHERS.value
    if action == MOON_SUBTRACT_FROM_SELF:
        return "moon: " + MoonOption.SUBTRACT_FROM_SELF.value
    return f"action {action}"


def as_action(action: object) -> int:
    """``action`` as a plain int in ``0..53``; raise :class:`IllegalMoveError` naming it otherwise.

    Accepts Python and NumPy integers (and 0-d / one-element integer arrays), as RL libraries hand them out.
    """
    value = action
    if isinstance(value, np.ndarray) and value.size == 1 and np.issubdtype(value.dtype, np.integer):
        value = value.reshape(()).item()
    if isinstance(value, np.integer):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < ACTION_COUNT:
        raise IllegalMoveError(
            f"not an action: {action!r} (actions are whole numbers 0-51 for cards, "
            f"{MOON_ADD_TO_OTHERS} and {MOON_SUBTRACT_FROM_SELF} for the moon choice)"
        )
    return value
