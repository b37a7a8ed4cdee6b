"""The players' one seam with the compiled core: typed calls into :mod:`hearts.fast`.

Every kernel a search player runs is called through a function here, with numpy arrays typed
(:data:`Ints`, :data:`Floats`) and plain ints and floats, so the players package never handles the
kernels module itself. :func:`warm_up` loads the kernels (numba compiles them, or reads its disk
cache) and runs each once, so that no timed decision pays for compiling; the server calls it on
start, and every search player when made.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from hearts.core import HandState, Rules
from hearts.players.knowledge import load_fast

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Floats = npt.NDArray[np.float64]

__all__ = [
    "moon_log_ratios",
    "moon_strength",
    "pass_log_ratios",
    "pass_offset",
    "pass_positions",
    "play_log_likelihoods",
    "policy_code",
    "policy_codes",
    "rules_array",
    "search_worlds",
    "state_array",
    "warm_up",
]

_WARM = False
_WARMING = threading.Lock()


def warm_up() -> None:
    """Load the kernels and run each the search calls once (compiled now, not inside a timed
    decision); once a process, the first caller doing it while the others wait."""
    global _WARM
    if _WARM:
        return
    with _WARMING:
        if not _WARM:
            _run_each_once()
            _WARM = True


def _kernels():  # type: ignore[no-untyped-def]
    load_fast()  # the package whole, under its lock, before any of its modules (see load_fast)
    from hearts.fast import kernels

    return kernels


def rules_array(rules: Rules) -> Ints:
    """The kernels' rules row for ``rules``, built once per rules (callers never write to it)."""
    load_fast()
    from hearts.fast.bridge import shared_rules_array

    return shared_rules_array(rules)


def state_array(hand: HandState) -> Ints:
    """The kernels' state array of a hand in its play phase (a sampled world)."""
    load_fast()
    from hearts.fast.bridge import state_array as build

    return build(hand)


def hands_slot() -> int:
    """Where the seats' hands start in a state array."""
    return int(_kernels().S_HANDS)


def policy_code(name: str) -> int:
    """The kernels' code of the rollout policy ``name`` (``medium``, ``medium-moon``, ``learned``,
    ``moon``)."""
    load_fast()
    from hearts.fast.bridge import POLICIES

    return int(POLICIES[name])


def policy_codes(own: str, others: str, players: int, seat: int) -> list[int]:
    """Each seat's rollout policy code: ``own`` for ``seat``, ``others`` for the rest."""
    mine, theirs = policy_code(own), policy_code(others)
    return [mine if s == seat else theirs for s in range(players)]


def search_worlds(
    worlds: Ints,
    R: Ints,
    cards: Ints,
    plans: Ints,
    noise: float,
    seeds: Ints,
    totals: Ints,
    weights: Floats | None,
    margin: float,
    voids: int,
) -> Ints:
    """scores[world, rollout, plan, card, seat]: every candidate ``cards`` (below 0: none, the world
    is the position) under every row of ``plans`` (a policy code a seat) in every world, several
    rollouts each on the same ``seeds`` (:func:`hearts.fast.kernels.search_worlds_with`); a learned
    seat plays the model ``weights`` with ``margin``, knowing the ``voids`` shown so far."""
    kern = _kernels()
    model = kern.NO_WEIGHTS if weights is None else weights
    out: Ints = kern.search_worlds_with(
        worlds, R, cards, plans, noise, seeds, kern.CHOICE_BEST, totals, model, margin, voids
    )
    return out


def pass_positions(R: Ints, dealt: Ints, passes: Ints, seat: int, candidates: Ints, offset: int) -> Ints:
    """One state per candidate pass of ``seat``: the ``dealt`` hands after every seat passed."""
    out: Ints = _kernels().pass_positions(R, dealt, passes, seat, candidates, offset)
    return out


def pass_offset(R: Ints, hand_number: int) -> int:
    """How many seats ahead hand ``hand_number`` passes (0: a hold hand)."""
    return int(_kernels().pass_offset(R, hand_number))


def play_log_likelihoods(
    starts: Ints, R: Ints, plays: Ints, seat: int, log_miss: float, log_lead_miss: float, policy: int
) -> Floats:
    """Per world, the log likelihood of the other seats' ``plays`` under ``policy`` (inference)."""
    out: Floats = _kernels().play_log_likelihoods(starts, R, plays, seat, log_miss, log_lead_miss, policy)
    return out


def moon_log_ratios(starts: Ints, R: Ints, plays: Ints, seat: int, log_miss: float, log_lead_miss: float) -> Floats:
    """Per world, how much better a moon run explains ``seat``'s plays than medium's play (log)."""
    out: Floats = _kernels().moon_log_ratios(starts, R, plays, seat, log_miss, log_lead_miss)
    return out


def pass_log_ratios(hands: Ints, R: Ints, passed: int, log_miss: float) -> Floats:
    """Per world, how much better building a moon explains the pass ``passed`` than medium's pass (log)."""
    out: Floats = _kernels().pass_log_ratios(hands, R, passed, log_miss)
    return out


def moon_strength(R: Ints, hand: int) -> float:
    """The moon strength (0 to 1) of ``hand``: :func:`hearts.fast.medium.moon_strength`."""
    return float(_kernels().moon_strength(R, hand))


def _run_each_once() -> None:
    import numpy as np

    rules = Rules()
    hands = [0] * 4
    for c in range(52):
        hands[c % 4] |= 1 << c
    R = rules_array(rules)
    S = state_array(HandState(rules, hands, 3))
    search_worlds(
        S[None, :], R, np.array([0], dtype=np.int64), np.full((1, 4), policy_code("medium"), dtype=np.int64),
        0.1, np.zeros((1, 1), dtype=np.int64), np.zeros(4, dtype=np.int64), None, 0.0, 0,
    )  # fmt: skip
    pass_positions(R, np.array(hands, dtype=np.int64), np.zeros(4, dtype=np.int64), 0, np.zeros(1, dtype=np.int64), 1)
    one = np.array([hands], dtype=np.int64)
    play_log_likelihoods(one, R, np.zeros(0, dtype=np.int64), 0, -1.0, -1.0, policy_code("medium"))
    moon_log_ratios(one, R, np.zeros(0, dtype=np.int64), 1, -1.0, -1.0)
    pass_log_ratios(np.array(hands, dtype=np.int64), R, 7, -1.0)
    moon_strength(R, hands[0])
    from hearts.fast.sampling import sample_deals

    three = np.arange(3, dtype=np.int64)
    sample_deals(three, np.full(3, 2, dtype=np.int64), three, three, 0, -1, 0.8, 4, 0, 1)
