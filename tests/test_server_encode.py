"""A move's update is encoded with the views' public part built and encoded once for every seat
(``encode_with_view``): the text each seat gets is exactly what encoding its whole view gives."""

from __future__ import annotations

import json
import random

import pytest

from hearts.core import Game, Rules
from hearts.core.cards import cards_of
from hearts.server.protocol import encode, encode_with_view


@pytest.mark.parametrize("preset", ["standard", "omnibus", "no-passing"])
def test_every_seats_update_is_the_text_of_its_whole_view(preset: str) -> None:
    game = Game(Rules.preset(preset), seed=11)
    rng = random.Random(3)
    base = {"type": "update", "seq": 1, "actor": "human", "finished_hand": None, "clock": None, "events": [{"type": "x"}]}
    checked = 0
    while not game.is_over and checked < 400:
        public = None
        for seat in range(game.rules.players):
            view = game.view(seat)
            if public is None:
                public = encode(view.public_dict())
            spliced = encode_with_view(base, public, view.own_dict())
            assert spliced == encode(dict(base, view=view.to_dict()))
            assert json.loads(spliced)["view"]["hand"] == view.to_dict()["hand"]
            checked += 1
        mover = game.hand.turn if game.hand.to_move else None
        if game.hand.phase.value == "pass":
            for s in range(game.rules.players):
                if game.hand.passed[s] is None:
                    game.pass_cards(s, rng.sample(cards_of(game.hand.hands[s]), game.rules.pass_count))
        elif mover is not None and game.legal_plays():
            game.play(rng.choice(game.legal_plays()))
        else:
            break
    assert checked > 50
