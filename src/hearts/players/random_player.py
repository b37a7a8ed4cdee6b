"""The random player: uniform over legal moves and passes. The baseline for everything else."""

from __future__ import annotations

from hearts.core import Card, CardSet, SeatView
from hearts.players.base import Player


class RandomPlayer(Player):
    name = "random"

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        cards = self.view_rng(view).sample(list(view.hand), view.rules.pass_count)
        return CardSet(cards), "random pass"

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        return self.view_rng(view).choice(view.legal), "random legal card"
