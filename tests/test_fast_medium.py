"""The medium player's one policy (:mod:`hearts.fast.medium`): the player and the kernels.

The player calls ``medium_choice`` with what its seat knows; the kernels call it through
``medium_card``/``medium_moon_card`` with what a world's hands show. What is still two-sided is
those two readings of a position, checked here; ``moon_strength`` is written once (the pass and the
search players read it through ``moon_hand_strength``) and checked by its parts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from tests.test_players_sampling import RULES

from hearts.core import Rules
from hearts.core.cards import SUIT_MASKS, mask_of
from hearts.core.hand import HandState, Phase
from hearts.core.view import SeatView
from hearts.fast import kernels as k
from hearts.fast import medium as policy
from hearts.fast import rules_array, simulate, state_array
from hearts.players.knowledge import Knowledge, moon_hand_strength
from hearts.players.medium import REASONS, MediumPlayer


def medium_positions(
    rules: Rules, hands: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[HandState, int, int, bool]]:
    """Every play with a choice of medium-against-medium hands: (state, legal mask, medium's card,
    whether medium played its moon plan there). The medium players are shown the real voids: the
    kernels' lead counts the voids of the world it plays in, where the medium player counts the
    voids it has seen, so only then must the two readings agree everywhere."""
    n = rules.players
    players = [MediumPlayer(seed=s) for s in range(n)]
    rng = random.Random(seed)
    real: list[int] = []
    monkeypatch.setattr(Knowledge, "can_have_suit", lambda self, o, suit: bool(real[o] & SUIT_MASKS[suit]))
    for number in range(hands):
        state = HandState.deal(rules, rng, number)
        if state.phase is Phase.PASS:
            for s in range(n):
                state.pass_cards(s, players[s].choose_pass(SeatView.of_hand(state, s))[0])
        while state.phase is Phase.PLAY:
            seat = state.turn
            real[:] = state.hands
            view = SeatView.of_hand(state, seat)
            card, _ = players[seat].choose_play(view)
            legal = state.legal_mask()
            if legal & (legal - 1):
                yield state, legal, int(card), players[seat].shooting(Knowledge.of(view))
            state.play(card)


def compiled_card(kernel: Any, state: HandState, legal: int) -> int:
    """The kernel's card (no random card) in ``state``, for the seat to play."""
    S = state_array(state)
    R = rules_array(state.rules)
    best, best_seat = k.trick_best(S, state.players)
    tmask = S[k.S_TRICK_MASK]
    return int(kernel(S, R, legal, state.turn, len(state.trick), best, best_seat, tmask, -1, 0.0))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.name or 'custom'}")
def test_the_kernels_read_a_world_as_the_player_reads_its_view(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """``medium_moon_card`` (a world's hands) is the medium player's card (its seat's knowledge)
    at every play with a choice; ``medium_card`` too where medium does not play its moon plan
    (a search gives its shooters the moon policy instead)."""
    checked: Counter[str] = Counter()
    for state, legal, card, shooting in medium_positions(rules, 12, 7, monkeypatch):
        kind = "moon plan" if shooting else "lead" if not state.trick else "follow"
        got = compiled_card(k.medium_moon_card, state, legal)
        assert got == card, f"{kind} {state.trick!r}: world {got}, player {card}"
        assert bool(k.medium_shooting(state_array(state), rules_array(rules), state.turn)) == shooting
        if not shooting:
            assert compiled_card(k.medium_card, state, legal) == card, f"{kind} {state.trick!r}"
        checked[kind] += 1
    assert checked["lead"] >= 40 and checked["follow"] >= 200, checked


def test_the_moon_plan_reads_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enough hands of the standard game that medium plays its moon plan at many positions (both
    ways in: a strong hand at the first tricks, and most of the points with the top heart): the
    world's card is the player's at every one."""
    shooting = 0
    for state, legal, card, shoots in medium_positions(Rules(), 400, 11, monkeypatch):
        if shoots:
            assert compiled_card(k.medium_moon_card, state, legal) == card, state.trick
            shooting += 1
    assert shooting >= 30, shooting


def test_moon_strength_weighs_hearts_their_tops_the_queen_and_side_losers() -> None:
    """The one measure of a moon hand (compiled; ``moon_hand_strength`` calls it), by its parts:
    hearts held (of 8) 0.35, A-K-Q-J of hearts 0.25, Q♠ held or covered by A♠ K♠ 0.15, and 0.25 less a
    share for each low side card with two unheld cards above it."""
    rules = Rules()
    strong = mask_of("AH KH QH JH 10H 9H 8H QS AS KS AD KD AC".split())
    assert moon_hand_strength(rules, strong) == pytest.approx(7 / 8 * 0.35 + 0.25 + 0.15 + 0.25)
    one_loser = mask_of("AH KH QH JH 10H 9H 8H QS AS KS AD KD 2C".split())
    assert moon_hand_strength(rules, one_loser) == pytest.approx(7 / 8 * 0.35 + 0.25 + 0.15 + (1 - 3 / 13) * 0.25)
    no_queen = mask_of("AH KH 10H 2S 3S 4S 2D 3D 4D 2C 3C 4C 5C".split())
    assert moon_hand_strength(rules, no_queen) == pytest.approx(3 / 8 * 0.35 + 2 / 4 * 0.25)
    assert k.moon_strength(rules_array(rules), strong) == moon_hand_strength(rules, strong)


def test_every_reason_code_has_words_and_a_choice_names_its_reason() -> None:
    """Each ``WHY_*`` code of the policy has the player's words (one code, one text), and a choice
    comes back with its code and the seat the words will name."""
    codes = {name[4:]: getattr(policy, name) for name in dir(policy) if name.startswith("WHY_")}
    assert set(codes) == set(REASONS)
    assert len(set(codes.values())) == len(codes)
    rules = Rules()
    R = rules_array(rules)
    taken = np.zeros(4, dtype=np.int64)
    taken[3] = k.QS_BIT | (1 << 40) | (1 << 41)  # East took Q♠ and two hearts: it may shoot
    # South void in spades on a spade trick East is winning: no points to East.
    hand = (1 << 5) | (1 << 45)
    out = ((1 << 52) - 1) & ~hand & ~taken[3] & ~((1 << 26) | (1 << 30))
    card, why, who = policy.medium_choice(
        R, taken, 0, 0, hand, out, 0, 4, 0, hand, 2, 30, 3, (1 << 26) | (1 << 30), -1, True
    )
    assert (card, why, who) == (5, policy.WHY_NO_POINTS_TO_SHOOTER, 3)


def test_medium_moon_policy_shoots_and_hides_its_plan() -> None:
    """In whole hands the medium-moon policy shoots more moons than medium, which never plans
    one (its moons are accidents)."""
    rules = Rules()
    plain = simulate(rules, 20_000, policy="medium", seed=8)
    moon = simulate(rules, 20_000, policy="medium-moon", seed=8)
    assert (moon.scores.sum(axis=1) % 26 == 0).all()
    assert moon.moon_rate() > plain.moon_rate()
    assert moon.moon_rate() > 0.002


def test_medium_card_defends_against_a_running_shooter_and_runs_for_one() -> None:
    """The search's running shooter plays the moon policy; the others take a heart off it."""
    rules = Rules()
    R = rules_array(rules)
    S = np.zeros(k.STATE_SIZE, dtype=np.int64)
    # Trick 4, hearts broken: North (2) led 2♥, East (3) is winning with K♥, South (0) to play
    # from 5♥ and A♥. Hands are the cards left (not a full deal: only the seat to play matters).
    S[k.S_HANDS + 0] = (1 << 42) | (1 << 51)
    S[k.S_HANDS + 1] = 1 << 10
    S[k.S_HANDS + 2] = 1 << 11
    S[k.S_HANDS + 3] = 1 << 12
    S[k.S_LEADER], S[k.S_TURN], S[k.S_TRICKS_DONE], S[k.S_BROKEN] = 2, 0, 3, 1
    S[k.S_TRICK_LEN], S[k.S_TRICK], S[k.S_TRICK + 1] = 2, 39, 50
    S[k.S_TRICK_MASK] = (1 << 39) | (1 << 50)
    legal = int(S[k.S_HANDS + 0])
    tmask = int(S[k.S_TRICK_MASK])
    # Nobody running: duck under K♥ with 5♥. East (3) running: take the trick with A♥.
    assert k.medium_card(S, R, legal, 0, 2, 50, 3, tmask, -1, 0.0) == 42
    assert k.medium_card(S, R, legal, 0, 2, 50, 3, tmask, 3, 0.0) == 51
    # South running itself: win with its highest heart.
    assert k.medium_card(S, R, legal, 0, 2, 50, 3, tmask, 0, 0.0) == 51
    # East holding every penalty card so far (Q♠ and two hearts): medium's own moon threat.
    S[k.S_TAKEN + 3] = k.QS_BIT | (1 << 40) | (1 << 41)
    assert k.moon_threat(S, R, 0, -1) == 3
    assert k.medium_card(S, R, legal, 0, 2, 50, 3, tmask, -1, 0.0) == 51


def test_the_medium_policy_beats_greedy_and_plays_whole_hands() -> None:
    """Whole hands with the medium policy for every seat end with the points of a hand, and
    two medium-policy seats against two greedy ones take fewer points over duplicate deals."""
    rules = Rules()
    result = simulate(rules, 200, policy="medium", seed=3)
    assert (result.scores.sum(axis=1) % 26 == 0).all()
    mixed = simulate(rules, 20000, policy=["medium", "greedy", "medium", "greedy"], seed=4)
    swapped = simulate(rules, 20000, policy=["greedy", "medium", "greedy", "medium"], seed=4)
    medium = mixed.scores[:, [0, 2]].sum() + swapped.scores[:, [1, 3]].sum()
    greedy = mixed.scores[:, [1, 3]].sum() + swapped.scores[:, [0, 2]].sum()
    assert medium < greedy
