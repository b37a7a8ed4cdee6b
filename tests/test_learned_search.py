"""The learned evaluation inside the search players: a search can keep the model's card as its prior."""

from __future__ import annotations

import random

import pytest

from hearts.core import Game, Phase, Rules
from hearts.players.knowledge import Knowledge
from hearts.players.learned import LearnedPlayer
from hearts.players.medium import MediumPlayer
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT, HARD


def _mid_hand(seed: int, plays: int, rules: Rules | None = None) -> Game:
    """A game ``plays`` cards into its first hand, passed and played at random."""
    game = Game(rules or Rules.preset("no-passing"), seed=seed)
    rng = random.Random(seed)
    for seat in game.to_move if game.phase is Phase.PASS else ():
        game.pass_cards(seat, rng.sample(list(game.view(seat).hand), game.rules.pass_count))
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    return game


@pytest.mark.parametrize("seed", range(8))
def test_the_learned_prior_is_the_models_card_and_says_so(seed: int) -> None:
    """With a margin nothing clears, the search keeps its prior: the model's card under
    ``prior="learned"`` with the learned player's reason, medium's card under ``prior="medium"``."""
    game = _mid_hand(seed, 2 + 5 * seed)
    view = game.view(game.hand.turn)
    legal = sum(1 << c for c in view.legal)
    if len(view.legal) < 2:
        return
    k_ = Knowledge.of(view)
    card, why = LearnedPlayer().play_from(k_, legal)
    medium, medium_why = MediumPlayer().play_from(k_, legal)
    # Without the early moon defence, which replaces the prior by medium's defence where a seat may shoot.
    base = HARD.replace(worlds=8, prior_margin=1e9, early_threat_points=0, early_threat_tricks=0)
    decision = SearchPlayer(base.replace(prior="learned"), seed=1).decide(view)
    plain = SearchPlayer(base.replace(prior="medium"), seed=1).decide(view)
    if not decision.reason.startswith("stop "):  # a card that stops a moon is named so
        assert int(decision.move.card) == card and int(plain.move.card) == medium
        assert decision.reason.startswith(why + " (")
        assert plain.reason.startswith(medium_why + " (")
        if card != medium:
            assert "the model expects" in decision.reason and "the model expects" not in plain.reason


def test_an_unknown_prior_is_refused() -> None:
    with pytest.raises(ValueError, match="prior must be one of medium, learned, not 'clever'"):
        HARD.replace(prior="clever")
    assert HARD.prior == "learned" and EXPERT.prior == "medium"


def test_the_model_is_no_rollout_policy() -> None:
    """The learned model is a prior only: its rollouts cost expert points against ISMCTS
    (docs/players.md), so no search rolls out with it."""
    with pytest.raises(ValueError, match="rollout must be one of medium, medium-moon, not 'learned'"):
        EXPERT.replace(rollout="learned")
