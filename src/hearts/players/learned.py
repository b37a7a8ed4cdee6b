"""The learned player: plays the card the learned evaluation values best, in a few milliseconds.

The model (:mod:`hearts.fast.features`, weights from :mod:`hearts.players.weights`, trained by
``hearts train``) values each legal card from what this seat knows: its
:class:`~hearts.players.knowledge.Knowledge`, the same facts the medium player reads (its hand, the
cards out, the voids shown, the cards taken, the trick). The value is the points the seat expects to
take from here to the end of the hand, less the others' mean; the player plays the lowest and says
what weighed most for it against the next best card. It passes, and chooses a moon's scoring, as the
medium player does (the model values card play only).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hearts.core import CARDS, Card, SeatView
from hearts.players.knowledge import Knowledge, bottom, load_fast, sym
from hearts.players.medium import MediumPlayer, _mask, _rules_row, _taken
from hearts.players.weights import LearnedModel, load_model


def _voids(k: Knowledge) -> int:
    """Bit ``4 * seat + suit`` for each suit another seat has shown it lacks."""
    voids = 0
    for o in range(k.players):
        if o != k.seat:
            for s in range(4):
                if k.void_suits[o] >> s & 1:
                    voids |= 1 << (4 * o + s)
    return voids


class LearnedPlayer(MediumPlayer):
    """Plays the card a trained linear evaluation values best; passes as medium does."""

    name = "learned"

    def __init__(
        self, seed: int | None = None, time_budget: float | None = None, weights: str | Path | None = None
    ) -> None:
        super().__init__(seed=seed, time_budget=time_budget)
        self.model: LearnedModel = load_model(weights)

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        legal = _mask(view.legal)
        if legal & (legal - 1) == 0:
            return CARDS[bottom(legal)], "the only legal card"
        k = Knowledge.of(view)
        card, why = self.play_from(k, legal)
        return CARDS[card], why

    def evaluate(self, k: Knowledge, legal: int) -> tuple[int, dict[int, float]]:
        """The model's card and its value of each legal card (the points this seat expects to take from
        here, less the others' mean; lower is better)."""
        f = load_fast().features
        out = np.zeros(52)
        card = f.learned_values(*self._inputs(k, legal), self.model.weights, self.model.margin, out)
        return int(card), {c: float(out[c]) for c in range(52) if legal >> c & 1}

    def _inputs(self, k: Knowledge, legal: int) -> tuple[object, ...]:
        trick = k.trick
        return (
            _rules_row(k.rules), _taken(k), 0, k.seat, k.hand, k.out, _voids(k), k.trick_number, legal,
            len(trick), k.winning_card if trick else 0, k.winning_seat if trick else -1, k.trick_mask,
        )  # fmt: skip

    def play_from(self, k: Knowledge, legal: int) -> tuple[int, str]:
        """The model's card from ``legal`` and why, in words: its value, the runner-up's, and the fact
        that weighed most between them."""
        card, values = self.evaluate(k, legal)
        f = load_fast().features
        prior = int(f.prior_card(*self._inputs(k, legal)))
        ranked = sorted(values, key=lambda c: (values[c], c))
        other = ranked[1] if ranked[0] == card else ranked[0]
        why = f"the model expects {values[card]:+.1f} points with {sym(card)}, {values[other]:+.1f} with {sym(other)}"
        if card == prior and values[other] < values[card]:
            return (
                card,
                why + f": the medium player's card, and {sym(other)} does not save {self.model.margin:g} points",
            )
        reason = self._reason(k, legal, card, other)
        return card, why + (f": {reason}" if reason else "")

    def _reason(self, k: Knowledge, legal: int, card: int, other: int) -> str:
        """The situation and card facts whose term favours ``card`` over ``other`` the most."""
        f = load_fast().features
        R, T, t0, seat, hand, out, voids, done, _legal, tl, w, w_seat, tmask = self._inputs(k, legal)
        A = np.empty(f.N_SITUATION)
        f.situation(R, T, t0, seat, hand, out, voids, done, tl, w_seat, tmask, A)
        B1 = np.empty(f.N_CARD)
        B2 = np.empty(f.N_CARD)
        prior = f.prior_card(R, T, t0, seat, hand, out, voids, done, legal, tl, w, w_seat, tmask)
        kind1 = f.card_atoms(R, seat, hand, out, voids, tl, w, card, prior, B1)
        kind2 = f.card_atoms(R, seat, hand, out, voids, tl, w, other, prior, B2)
        W = self.model.weights
        # Each term's share of the difference in value (negative: it favours ``card``).
        terms = np.outer(A, B1) * W[kind1] - np.outer(A, B2) * W[kind2]
        i, j = np.unravel_index(int(np.argmin(terms)), terms.shape)
        if terms[i, j] >= 0:
            return ""
        what = f.CARD[j] if B1[j] != B2[j] else f"{f.CARD[j]} ({f.KINDS[kind1]})"
        return what if i == 0 else f"{what}, with {f.SITUATION[i]}"
