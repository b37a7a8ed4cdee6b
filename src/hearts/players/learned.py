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
from hearts.players import compiled
from hearts.players.knowledge import Knowledge, bottom, sym
from hearts.players.medium import MediumPlayer, _mask, _rules_row, _taken
from hearts.players.weights import LearnedModel, load_model


def _points(value: float) -> str:
    """A value in points as a hint shows it: signed, one decimal, never "-0.0"."""
    text = f"{value:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def _voids(k: Knowledge) -> int:
    """The voids the model reads: :meth:`Knowledge.void_bits`, as the medium player reads them, so
    that the model's prior is medium's very card."""
    return k.void_bits()


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
        out = np.zeros(52)
        card = compiled.learned_values(self._position(k, legal), self.model.weights, self.model.margin, out)
        return card, {c: float(out[c]) for c in range(52) if legal >> c & 1}

    def _position(self, k: Knowledge, legal: int) -> compiled.Position:
        trick = k.trick
        return compiled.Position(
            _rules_row(k.rules), _taken(k), k.seat, k.hand, k.out, _voids(k), k.trick_number, legal,
            len(trick), k.winning_card if trick else 0, k.winning_seat if trick else -1, k.trick_mask,
        )  # fmt: skip

    def play_from(self, k: Knowledge, legal: int, running: int = -1) -> tuple[int, str]:
        """The model's card from ``legal`` and why, in words. Where it keeps the medium player's card:
        medium's reason, and what the model thought of it against the best other card. Where it leaves
        it: the two values and the fact that weighed most for its card against medium's. Against a
        seat taken to be running for the moon (``running``) it plays medium's defence: the model
        never saw a runner."""
        if running >= 0:
            return MediumPlayer.play_from(self, k, legal, running)
        card, values = self.evaluate(k, legal)
        prior = compiled.prior_card(self._position(k, legal))
        medium, medium_why = MediumPlayer.play_from(self, k, legal)
        if card == prior == medium:
            others = sorted((c for c in values if c != card), key=lambda c: (values[c], c))
            other = others[0]
            if values[other] < values[card]:
                verdict = f"{sym(other)} at {_points(values[other])} does not save {self.model.margin:g}"
            else:
                verdict = f"{sym(other)} next at {_points(values[other])}"
            return card, f"{medium_why} (the model: {_points(values[card])} points, {verdict})"
        why = (
            f"the model expects {_points(values[card])} points with {sym(card)}, "
            f"{_points(values[prior])} with the medium player's {sym(prior)}"
        )
        reason = self._reason(k, legal, card, prior)
        return card, why + (f": {reason}" if reason else "")

    def _reason(self, k: Knowledge, legal: int, card: int, other: int) -> str:
        """The situation and card facts whose term favours ``card`` over ``other`` the most."""
        p = self._position(k, legal)
        n_situation, n_card = compiled.feature_sizes()
        situation_names, card_names, kinds = compiled.feature_names()
        A = np.empty(n_situation)
        compiled.situation(p, A)
        B1 = np.empty(n_card)
        B2 = np.empty(n_card)
        prior = compiled.prior_card(p)
        kind1 = compiled.card_atoms(p, card, prior, B1)
        kind2 = compiled.card_atoms(p, other, prior, B2)
        W = self.model.weights
        # Each term's share of the difference in value (negative: it favours ``card``).
        terms = np.outer(A, B1) * W[kind1] - np.outer(A, B2) * W[kind2]
        i, j = np.unravel_index(int(np.argmin(terms)), terms.shape)
        if terms[i, j] >= 0:
            return ""
        what = card_names[j] if B1[j] != B2[j] else f"{card_names[j]} ({kinds[kind1]})"
        return what if i == 0 else f"{what}, with {situation_names[i]}"
