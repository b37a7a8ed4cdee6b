"""The moon hunter: a measurement opponent that shoots far more often than medium, plays legally
under every table size and preset, builds a moon when passing, and plays as medium once the moon is dead."""

from __future__ import annotations

import random

import pytest

from hearts.core import Game, MoonScoring, Phase, Rules
from hearts.core.cards import HEARTS, QS_BIT
from hearts.players import LEVELS, make_player
from hearts.players.hunter import HUNTER_PASS_STRENGTH, HunterPlayer
from hearts.players.knowledge import HIGH_SPADES, Knowledge, moon_hand_strength
from hearts.players.medium import MediumPlayer
from hearts.players.registry import MEASUREMENT_LEVELS
from hearts.sim.tournament import TournamentConfig, run_tournament


def test_the_hunter_shoots_far_more_often_than_medium() -> None:
    # Fixed deals, 2-against-2 duplicate: both players hold the same cards, seat for seat.
    result = run_tournament(TournamentConfig(("medium", "hunter"), hands=100, games=0, seed=0), jobs=1)
    medium, hunter = result.figures()
    assert hunter.moons_made.mean >= 0.05  # at least one moon every 20 seat-hands
    assert hunter.moons_made.mean >= 10 * max(medium.moons_made.mean, 0.001)
    assert hunter.moons_made.low > medium.moons_made.high  # the intervals over deals do not meet
    assert medium.moons_allowed.mean == pytest.approx(2 * hunter.moons_made.mean)  # two hunters face each medium


VARIANTS = {
    "three": Rules(players=3),
    "standard": Rules(),
    "five-omnibus": Rules.preset("omnibus", players=5),
    "six-no-moon": Rules(moon=MoonScoring.DISABLED, players=6),
    "britannica": Rules.preset("britannica"),
    "subtract-moon": Rules(moon=MoonScoring.SUBTRACT_FROM_SHOOTER, players=5),
    "no-passing": Rules.preset("no-passing", players=6),
    "points-first": Rules(points_on_first_trick=True, pass_count=4),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_hunter_plays_legally_and_as_medium_once_the_moon_is_dead(variant: str) -> None:
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    shooting_plays = medium_plays = 0
    for _ in range(4):
        game = Game(rules, seed=rng.randrange(10**6))
        players = [make_player("hunter" if s % 2 == 0 else "medium", seed=s) for s in range(rules.players)]
        medium = MediumPlayer(seed=0)
        while len(game.finished) < 1:
            seat = game.to_move[0]
            view = game.view(seat)
            decision = players[seat].decide(view)
            assert game.is_legal(decision.move), (variant, decision)
            assert decision.reason and "\n" not in decision.reason
            hunter = players[seat]
            if isinstance(hunter, HunterPlayer) and game.phase is Phase.PLAY and len(view.legal) > 1:
                k = Knowledge.of(view)
                others_scored = any(k.taken[o] & rules.penalty_mask for o in range(rules.players) if o != seat)
                if hunter.shooting(k):
                    assert not others_scored and rules.moon is not MoonScoring.DISABLED
                    assert decision.reason.startswith("moon:"), decision.reason
                    shooting_plays += 1
                else:
                    assert decision == medium.decide(view)  # the moon is dead (or never was): medium's move
                    medium_plays += 1
            game.apply(decision.move)
    assert medium_plays
    if rules.moon is not MoonScoring.DISABLED:
        assert shooting_plays


def test_the_hunter_passes_to_build_a_moon() -> None:
    rules = Rules()
    hunter = HunterPlayer(seed=0)
    built = 0
    for seed in range(40):
        game = Game(rules, seed=seed)
        for seat in range(rules.players):
            view = game.view(seat)
            hand = view.hand.mask
            decision = hunter.decide(view)
            passed = decision.move.cards.mask  # type: ignore[union-attr]
            if moon_hand_strength(rules, hand) < HUNTER_PASS_STRENGTH:
                assert decision == MediumPlayer(seed=0).decide(view)  # no moon promise: medium's pass
                continue
            built += 1
            assert decision.reason.startswith("moon hunt: keep my hearts and high spades, pass")
            keep = hand & (HEARTS | QS_BIT | HIGH_SPADES)
            if (hand & ~keep).bit_count() >= rules.pass_count:
                assert not passed & keep  # hearts and A♠ K♠ Q♠ stay
                # Only side cards go, so the cards kept make a moon hand at least as strong.
                assert moon_hand_strength(rules, hand & ~passed) >= moon_hand_strength(rules, hand)
    assert built >= 20


def test_the_hunter_is_a_measurement_level_not_offered_to_people() -> None:
    assert "hunter" in MEASUREMENT_LEVELS and "hunter" not in LEVELS
    assert make_player("Hunter", seed=1).name == "hunter"
    from hearts.tui.session import resolve_level

    with pytest.raises(ValueError, match="unknown player level 'hunter'"):
        resolve_level("hunter")  # the terminal does not offer it (the web tables check LEVELS the same way)
