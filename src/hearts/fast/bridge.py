"""The Python side of the fast core: rules and positions into kernel arrays, results back out.

>>> from hearts.core import Rules
>>> R = rules_array(Rules.preset("omnibus"))
>>> int(R[k.R_PLAYERS]), int(R[k.R_BONUS_CARD]), int(R[k.R_BONUS_POINTS])
(4, 22, -10)
>>> result = simulate(Rules(), 200, policy="greedy", seed=1)
>>> result.scores.shape, bool((result.scores.sum(axis=1) >= 0).all())
((200, 4), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hearts.core.arith import rules_row
from hearts.core.hand import HandState, Phase
from hearts.core.rules import MoonOption, Rules
from hearts.fast import kernels as k

#: Policy names accepted by :func:`simulate` and :func:`rollout`.
POLICIES: dict[str, int] = {
    "random": k.POLICY_RANDOM,
    "greedy": k.POLICY_GREEDY,
    "moon": k.POLICY_MOON,
    "medium": k.POLICY_MEDIUM,
    "medium-moon": k.POLICY_MEDIUM_MOON,
}

#: Default chance that the greedy policy plays (or passes) a random card instead: enough
#: noise that rollouts from one position do not all play out the same way.
GREEDY_EPS = 0.1


def rules_array(rules: Rules) -> np.ndarray:
    """The kernels' int64 rules array: :func:`hearts.core.arith.rules_row`, the one mapping from
    :class:`Rules` to the numbers the rules' arithmetic reads (``R_*`` slots)."""
    return np.array(rules_row(rules), dtype=np.int64)


_RULES_ARRAYS: dict[Rules, np.ndarray] = {}


def shared_rules_array(rules: Rules) -> np.ndarray:
    """:func:`rules_array`, built once per rules for the per-decision callers (the kernels never
    write to it; :func:`rules_array` returns a fresh array that a caller may change)."""
    R = _RULES_ARRAYS.get(rules)
    if R is None:
        if len(_RULES_ARRAYS) > 64:
            _RULES_ARRAYS.clear()
        R = _RULES_ARRAYS[rules] = rules_array(rules)
    return R


_rules_array_shared = shared_rules_array  # the name the search players use


def state_array(hand: HandState) -> np.ndarray:
    """The kernels' state array of a hand in its play phase (e.g. a world from ``SeatView.world``)."""
    if hand.phase is not Phase.PLAY:
        raise ValueError(f"a kernel state needs a hand in the play phase, not the {hand.phase.value} phase")
    n = hand.players
    S = np.zeros(k.STATE_SIZE, dtype=np.int64)
    for s in range(n):
        S[k.S_HANDS + s] = hand.hands[s]
        S[k.S_TAKEN + s] = hand.taken[s]
        S[k.S_POINTS + s] = hand.points[s]
    S[k.S_LEADER] = hand.leader
    S[k.S_TURN] = hand.turn
    S[k.S_TRICK_LEN] = len(hand.trick)
    mask = 0
    for i, c in enumerate(hand.trick):
        S[k.S_TRICK + i] = c
        mask |= 1 << c
    S[k.S_TRICK_MASK] = mask
    S[k.S_TRICKS_DONE] = len(hand.tricks)
    S[k.S_BROKEN] = int(hand.hearts_broken)
    return S


def _policies(policy: str | Sequence[str], players: int) -> np.ndarray:
    names = [policy] * players if isinstance(policy, str) else list(policy)
    if len(names) != players:
        raise ValueError(f"{len(names)} policies for {players} seats: give one name or one per seat")
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"unknown policy {name!r}: choose one of {', '.join(POLICIES)}")
    return np.array([POLICIES[name] for name in names], dtype=np.int64)


def _choice(option: MoonOption | str) -> int:
    option = MoonOption(option)
    return k.CHOICE_ADD_TO_OTHERS if option is MoonOption.ADD_TO_OTHERS else k.CHOICE_SUBTRACT_FROM_SELF


def _seed(seed: int | None) -> int:
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1)[0])
    if not isinstance(seed, int) or not 0 <= seed < 2**32 - 2**16:
        raise ValueError(f"seed must be a whole number from 0 to {2**32 - 2**16 - 1}, not {seed!r}")
    return seed


@dataclass(frozen=True)
class HandResults:
    """Per-hand results of a batch: ``scores[hand, seat]`` and ``shooters[hand]`` (-1: no moon)."""

    scores: np.ndarray
    shooters: np.ndarray

    @property
    def hands(self) -> int:
        return int(self.scores.shape[0])

    def mean_scores(self) -> np.ndarray:
        return self.scores.mean(axis=0)

    def moon_rate(self) -> float:
        return float((self.shooters >= 0).mean()) if self.hands else 0.0


def simulate(
    rules: Rules,
    hands: int,
    policy: str | Sequence[str] = "random",
    seed: int | None = None,
    *,
    first_hand: int = 0,
    eps: float = GREEDY_EPS,
    moon_choice: MoonOption | str = MoonOption.ADD_TO_OTHERS,
    parallel: bool = False,
    chunks: int = 64,
) -> HandResults:
    """Deal, pass, play and score ``hands`` random hands in compiled code.

    ``policy`` is one name for every seat or one per seat (``random``, ``greedy``). Hand
    ``i`` passes in the direction of hand number ``first_hand + i`` of the cycle. Where the
    rules leave the moon to the shooter, ``moon_choice`` is applied and ``shooters`` says who
    shot. With ``parallel`` the hands are split into ``chunks`` seeded runs over all cores
    (the same seed and chunks give the same results).
    """
    if not isinstance(hands, int) or hands < 0:
        raise ValueError(f"hands must be a whole number of at least 0, not {hands!r}")
    R = rules_array(rules)
    pol = _policies(policy, rules.players)
    s = _seed(seed)
    if parallel:
        if not isinstance(chunks, int) or chunks < 1:
            raise ValueError(f"chunks must be a whole number of at least 1, not {chunks!r}")
        scores, shooters = k.simulate_hands_parallel(
            R, hands, pol, float(eps), s, first_hand, _choice(moon_choice), chunks
        )
    else:
        scores, shooters = k.simulate_hands(R, hands, pol, float(eps), s, first_hand, _choice(moon_choice))
    return HandResults(scores, shooters)


#: The shooter's moon answer in :func:`simulate_games`: "best" is the players' own rule
#: (``hearts.players.knowledge.best_moon_option``), or always one :class:`MoonOption`.
MOON_MODES = {
    "best": k.CHOICE_BEST,
    "add-to-others": k.CHOICE_ADD_TO_OTHERS,
    "subtract-from-self": k.CHOICE_SUBTRACT_FROM_SELF,
}


@dataclass(frozen=True)
class GameResults(HandResults):
    """Hands of successive games: :class:`HandResults` plus ``ends[hand]``, the bit set of the
    winners where that hand ended a game (0 elsewhere)."""

    ends: np.ndarray

    @property
    def games(self) -> int:
        """Games started, the last (unfinished) one included."""
        finished = self.games_finished
        return finished + (1 if self.hands and self.ends[-1] == 0 else 0)

    @property
    def games_finished(self) -> int:
        return int((self.ends != 0).sum())

    def wins(self) -> list[float]:
        """Games won per seat; a win shared by k seats counts 1/k."""
        players = self.scores.shape[1]
        out = [0.0] * players
        for mask in self.ends[self.ends != 0].tolist():
            winners = [s for s in range(players) if mask >> s & 1]
            for s in winners:
                out[s] += 1 / len(winners)
        return out


def simulate_games(
    rules: Rules,
    hands: int,
    policy: str | Sequence[str] = "random",
    seed: int | None = None,
    *,
    eps: float = GREEDY_EPS,
    moon: str = "best",
    chunk: int = 65_536,
    progress: Callable[[int, int], None] | None = None,
) -> GameResults:
    """Play ``hands`` hands of successive games in compiled code, each game to the target.

    Like ``hearts.sim.simulate`` with the same policy in every seat, but compiled: the pass
    direction follows each game's hand number, the game ends as ``Game`` ends it (ties as the
    rules say), and a moon left to the shooter is answered by ``moon`` (see :data:`MOON_MODES`).
    ``progress(done, hands)`` is called after every ``chunk`` hands.
    """
    if not isinstance(hands, int) or hands < 0:
        raise ValueError(f"hands must be a whole number of at least 0, not {hands!r}")
    if moon not in MOON_MODES:
        raise ValueError(f"unknown moon answer {moon!r}: choose one of {', '.join(MOON_MODES)}")
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a whole number of at least 1, not {chunk!r}")
    R = rules_array(rules)
    pol = _policies(policy, rules.players)
    carry = np.zeros(2 + rules.players, dtype=np.int64)  # hand number, generator, totals
    no_traces = np.zeros((0, k.TRACE_SIZE), dtype=np.int64)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    done = 0
    next_seed = _seed(seed)
    while done < hands or not parts:
        size = min(chunk, hands - done)
        parts.append(k.simulate_games(R, size, pol, float(eps), next_seed, MOON_MODES[moon], carry, no_traces))
        next_seed = -1  # later chunks go on with the same stream
        done += size
        if progress is not None:
            progress(done, hands)
    return GameResults(
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
    )


def rollout(
    hand: HandState | np.ndarray,
    seat: int,
    policy: str | Sequence[str] = "greedy",
    n: int = 100,
    seed: int | None = None,
    *,
    rules: Rules | None = None,
    eps: float = GREEDY_EPS,
    moon_choice: MoonOption | str = MoonOption.ADD_TO_OTHERS,
) -> np.ndarray:
    """Play a determinized position to the end ``n`` times; return the mean hand score of every seat.

    ``hand`` is a :class:`HandState` in its play phase (typically ``view.world(hands)``) or a
    state array from :func:`state_array` (then ``rules`` is needed). ``seat`` is the seat the
    search decides for: it must be the seat to play. The result is indexed by seat.
    """
    if isinstance(hand, HandState):
        rules = hand.rules
        S = state_array(hand)
    else:
        if rules is None:
            raise ValueError("rollout from a state array needs the rules")
        S = np.asarray(hand, dtype=np.int64)
    if S[k.S_TURN] != seat:
        raise ValueError(f"rollout for seat {seat}, but seat {int(S[k.S_TURN])} is to play")
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number of at least 1, not {n!r}")
    return k.rollout(
        S,
        _rules_array_shared(rules),
        _policies(policy, rules.players),
        float(eps),
        n,
        _seed(seed),
        _choice(moon_choice),
    )


def rollout_worlds(
    worlds: Sequence[HandState],
    policy: str | Sequence[str] = "greedy",
    n: int = 10,
    seed: int | None = None,
    *,
    eps: float = GREEDY_EPS,
    moon_choice: MoonOption | str = MoonOption.ADD_TO_OTHERS,
    parallel: bool = False,
) -> np.ndarray:
    """:func:`rollout` for several determinizations of one position in one compiled call: means[world, seat].

    With ``parallel`` the worlds are spread over all cores (world ``w`` seeded ``seed + w``).
    """
    if not worlds:
        raise ValueError("rollout_worlds needs at least one world")
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number of at least 1, not {n!r}")
    rules = worlds[0].rules
    if any(w.rules != rules or w.turn != worlds[0].turn for w in worlds):
        raise ValueError("rollout_worlds needs worlds of one position: the same rules and the same seat to play")
    states = np.stack([state_array(w) for w in worlds])
    kernel = k.rollout_worlds_parallel if parallel else k.rollout_worlds
    return kernel(
        states,
        _rules_array_shared(rules),
        _policies(policy, rules.players),
        float(eps),
        n,
        _seed(seed),
        _choice(moon_choice),
    )


def rollout_candidates(
    world: HandState,
    cards: Sequence[int],
    plans: Sequence[int] = (0,),
    seed: int | None = None,
    *,
    totals: Sequence[int] | None = None,
    eps: float = GREEDY_EPS,
    moon: str = "best",
) -> np.ndarray:
    """Score every candidate card of the seat to play in one determinized ``world``, in one call.

    For each plan (a bit set of seats that play for the moon, the ``moon`` policy; the others
    play ``greedy``) and each card, the card is played, the hand played out and scored, with
    the same random numbers for every card (common random numbers). A moon left to the shooter
    is answered by ``moon`` (``best`` weighs the game's ``totals``). Returns scores[plan, card, seat]:
    what a search player's inner loop computes, at compiled speed.
    """
    if moon not in MOON_MODES:
        raise ValueError(f"unknown moon answer {moon!r}: choose one of {', '.join(MOON_MODES)}")
    rules = world.rules
    n = rules.players
    legal = world.legal_mask()
    for c in cards:
        if not 0 <= int(c) < 52 or not legal >> int(c) & 1:
            raise ValueError(f"candidate {c!r} is not a legal card for seat {world.turn} in this world")
    if not cards or not plans:
        raise ValueError("rollout_candidates needs at least one card and one plan")
    pol = np.array(
        [[k.POLICY_MOON if plan >> s & 1 else k.POLICY_GREEDY for s in range(n)] for plan in plans], dtype=np.int64
    )
    game_totals = np.zeros(n, dtype=np.int64) if totals is None else np.array(totals, dtype=np.int64)
    if game_totals.shape != (n,):
        raise ValueError(f"totals must give one number per seat ({n}), not {list(game_totals)}")
    return k.rollout_candidates(
        state_array(world),
        _rules_array_shared(rules),
        np.array([int(c) for c in cards], dtype=np.int64),
        pol,
        float(eps),
        _seed(seed),
        MOON_MODES[moon],
        game_totals,
    )


def warm_up() -> None:
    """Call the main kernels once on tiny inputs, so compilation (or loading the disk cache) is paid now."""
    rules = Rules()
    simulate(rules, 1, "greedy", seed=0)
    simulate_games(rules, 1, "random", seed=0)
    hand = HandState(rules, _fixed_deal(rules), 3)
    rollout(hand, hand.turn, "greedy", 1, seed=0)
    rollout_worlds([hand], "greedy", 1, seed=0)
    rollout_candidates(hand, [int(c) for c in hand.legal_plays()[:1]], seed=0)
    _warm_up_learned(rules, hand)


def _warm_up_learned(rules: Rules, hand: HandState) -> None:
    """The learned player's calls (:mod:`hearts.fast.features`), with the argument types it passes."""
    from hearts.fast import features as f

    R = rules_array(rules)
    T = np.zeros(rules.players, dtype=np.int64)
    W = np.zeros((f.N_KINDS, f.N_SITUATION, f.N_CARD))
    seat = hand.turn
    mine = hand.hands[seat]
    out = rules.in_play & ~mine
    legal = 0
    for c in hand.legal_plays():
        legal |= 1 << int(c)
    args = (R, T, 0, seat, mine, out, 0, 0, legal, 0, 0, -1, 0)
    f.learned_values(*args, W, 0.0, np.zeros(52))
    prior = f.prior_card(*args)
    A = np.empty(f.N_SITUATION)
    f.situation(R, T, 0, seat, mine, out, 0, 0, 0, -1, 0, A)
    f.card_atoms(R, seat, mine, out, 0, 0, 0, prior, prior, np.empty(f.N_CARD))


def _fixed_deal(rules: Rules) -> list[int]:
    """A fixed deal: card ``i`` to seat ``i % players``."""
    hands = [0] * rules.players
    for i, c in enumerate(c for c in range(52) if rules.in_play >> c & 1):
        hands[i % rules.players] |= 1 << c
    return hands
