"""The compiled medium rollout policy (``kernels.medium_card``) against the medium player itself."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from tests.test_players_sampling import RULES

from hearts.core import Rules
from hearts.core.cards import SUIT_MASKS
from hearts.core.hand import HandState, Phase
from hearts.core.view import SeatView
from hearts.fast import kernels as k
from hearts.fast import rules_array, simulate, state_array
from hearts.players.knowledge import Knowledge
from hearts.players.medium import MediumPlayer


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.name or 'custom'}")
def test_medium_card_is_the_medium_players_card(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """Card for card in medium-against-medium hands, every play with a choice. The compiled lead
    counts the voids of the world it plays in, where the medium player counts the voids it has
    seen: here the medium players are shown the real voids, so the two must agree everywhere.
    Positions where medium plays its own moon plan are left out (a search gives its shooters the
    moon policy instead)."""
    R = rules_array(rules)
    n = rules.players
    players = [MediumPlayer(seed=s) for s in range(n)]
    rng = random.Random(7)
    checked: Counter[str] = Counter()
    hands: list[int] = []
    monkeypatch.setattr(Knowledge, "can_have_suit", lambda self, o, suit: bool(hands[o] & SUIT_MASKS[suit]))
    for number in range(12):
        state = HandState.deal(rules, rng, number)
        if state.phase is Phase.PASS:
            for s in range(n):
                state.pass_cards(s, players[s].choose_pass(SeatView.of_hand(state, s))[0])
        while state.phase is Phase.PLAY:
            seat = state.turn
            hands[:] = state.hands
            view = SeatView.of_hand(state, seat)
            card, _ = players[seat].choose_play(view)
            legal = state.legal_mask()
            knowledge = Knowledge.of(view)
            kind = "lead" if not state.trick else "follow"
            if legal & (legal - 1) and not players[seat].shooting(knowledge):
                S = state_array(state)
                best, best_seat = k.trick_best(S, n)
                got = k.medium_card(S, R, legal, seat, len(state.trick), best, best_seat, S[k.S_TRICK_MASK], -1, 0.0)
                assert got == int(card), f"{kind} {state.trick!r}: compiled {got}, medium {int(card)}"
                checked[kind] += 1
            state.play(card)
    assert checked["lead"] >= 40 and checked["follow"] >= 200, checked


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
