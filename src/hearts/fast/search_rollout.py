"""The compiled rollout as the search players' ``rollout(state, rng, shooters)`` hook.

:class:`hearts.players.search.SearchPlayer` plays each candidate out in each sampled
world with a replaceable ``rollout`` callable that must leave the
:class:`~hearts.core.hand.HandState` at the end of the hand. :class:`CompiledRollout`
plays every trick but the last in compiled code (the greedy policy, and the moon policy for
the seats in ``shooters``), writes that position back into the state (hands, tricks taken,
points; the kernels' tricks are the engine's, as ``tests/test_fast_kernels.py`` checks), and
lets the engine's ``advance`` play the last trick, in which every seat holds one card: the
engine resolves it and scores the hand, moon included, as with any other rollout.

>>> from hearts.core import Rules
>>> from hearts.players.hard import HardPlayer
>>> player = HardPlayer(seed=1, rollout=CompiledRollout())
"""

from __future__ import annotations

import random

import numpy as np

from hearts.core.cards import CARDS
from hearts.core.hand import HandState, Phase, Trick
from hearts.core.rules import Rules
from hearts.fast import kernels as k
from hearts.fast.bridge import GREEDY_EPS, rules_array, state_array


class CompiledRollout:
    """``rollout(state, rng, shooters)``: play ``state`` to the end of the hand, cards chosen in compiled code.

    Seats in the bit set ``shooters`` play for the moon while no other seat has a point
    (``moon`` policy); the others play the ``greedy`` policy, with a random legal card with
    probability ``epsilon``. The compiled generator is seeded from ``rng``, so the same ``rng``
    state gives the same rollout (the search's common random numbers still hold).
    """

    def __init__(self, epsilon: float = GREEDY_EPS) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a probability between 0 and 1, not {epsilon!r}")
        self.epsilon = float(epsilon)
        self._rules: Rules | None = None
        self._R = np.zeros(0, dtype=np.int64)
        self._trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
        self._policies: dict[tuple[int, int], np.ndarray] = {}

    def _policy(self, players: int, shooters: int) -> np.ndarray:
        key = (players, shooters)
        pol = self._policies.get(key)
        if pol is None:
            pol = np.array(
                [k.POLICY_MOON if shooters >> s & 1 else k.POLICY_GREEDY for s in range(players)], dtype=np.int64
            )
            self._policies[key] = pol
        return pol

    def __call__(self, state: HandState, rng: random.Random, shooters: int = 0) -> None:
        if state.phase is not Phase.PLAY:
            return
        rules = state.rules
        if rules is not self._rules:
            self._R = rules_array(rules)
            self._rules = rules
        n = rules.players
        last = rules.hand_size - 1
        done = len(state.tricks)
        if done < last:
            # Every trick but the last in compiled code, then the position is handed back.
            S = state_array(state)
            trace = self._trace
            k.play_to_last_trick(S, self._R, self._policy(n, shooters), self.epsilon, rng.getrandbits(31), trace)
            cards = trace[k.TRACE_PLAYS + 1 : k.TRACE_PLAYS + 2 * last * n : 2].tolist()
            winners = trace[k.TRACE_WINNERS : k.TRACE_WINNERS + last].tolist()
            tricks = state.tricks
            leader = state.leader
            first = tuple(state.trick)
            for t in range(done, last):
                played = cards[t * n + len(first) : (t + 1) * n] if t == done else cards[t * n : (t + 1) * n]
                trick_cards = (first if t == done else ()) + tuple(CARDS[c] for c in played)
                tricks.append(Trick(leader, trick_cards, winners[t]))
                leader = winners[t]
            state.hands = S[k.S_HANDS : k.S_HANDS + n].tolist()
            state.taken = S[k.S_TAKEN : k.S_TAKEN + n].tolist()
            state.points = S[k.S_POINTS : k.S_POINTS + n].tolist()
            state.trick = []
            state.leader = state.turn = leader
            state.hearts_broken = bool(S[k.S_BROKEN])
        # The last trick: each seat plays the one card it holds, and the engine scores the hand.
        hands = state.hands
        while state.phase is Phase.PLAY:
            state.advance(CARDS[hands[state.turn].bit_length() - 1])

    def __repr__(self) -> str:
        return f"CompiledRollout(epsilon={self.epsilon})"
