"""The players' one seam with the compiled core: typed calls into :mod:`hearts.fast`.

Every kernel a search player runs is called through a function here, with numpy arrays typed
(:data:`Ints`, :data:`Floats`) and plain ints and floats, so the players package never handles the
kernels module itself. :func:`warm_up` loads the kernels (numba compiles them, or reads its disk
cache) and runs each once, so that no timed decision pays for compiling; the server calls it on
start, and every search player when made.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from hearts.core import HandState, Rules

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Floats = npt.NDArray[np.float64]

__all__ = [
    "card_atoms",
    "danger_pass",
    "hunts_moon",
    "learned_values",
    "load_fast",
    "medium_choice",
    "moon_log_ratios",
    "moon_pass_key",
    "moon_threat",
    "moon_strength",
    "pass_danger",
    "pass_log_ratios",
    "pass_offset",
    "pass_positions",
    "play_log_likelihoods",
    "plays_for_moon",
    "policy_code",
    "prior_card",
    "policy_codes",
    "rules_array",
    "sample_deals",
    "search_worlds",
    "shoot_card",
    "situation",
    "state_array",
    "warm_up",
]

_FAST: ModuleType | None = None
_FAST_LOCK = threading.Lock()


def load_fast() -> ModuleType:
    """:mod:`hearts.fast`, imported whole once per process, under a lock. The players import it on
    first use (numba takes a while to import), and in a server several threads may get there at
    once (a seat's first play, the start-up warm-up): two threads importing the package's modules
    side by side can see one of them half made ("partially initialized module"). Every call into
    ``hearts.fast`` below comes after this."""
    global _FAST
    if _FAST is None:
        with _FAST_LOCK:
            if _FAST is None:
                import hearts.fast

                _FAST = hearts.fast
    return _FAST


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
    """The kernels' code of the rollout policy ``name`` (``medium``, ``medium-moon``, ``moon``)."""
    load_fast()
    from hearts.fast.bridge import POLICIES

    return int(POLICIES[name])


def policy_codes(own: str, others: str, players: int, seat: int) -> list[int]:
    """Each seat's rollout policy code: ``own`` for ``seat``, ``others`` for the rest."""
    mine, theirs = policy_code(own), policy_code(others)
    return [mine if s == seat else theirs for s in range(players)]


def search_worlds(
    worlds: Ints, R: Ints, cards: Ints, plans: Ints, noise: float, seeds: Ints, totals: Ints
) -> Ints:
    """scores[world, rollout, plan, card, seat]: every candidate ``cards`` (below 0: none, the world
    is the position) under every row of ``plans`` (a policy code a seat) in every world, several
    rollouts each on the same ``seeds`` (:func:`hearts.fast.kernels.search_worlds`)."""
    kern = _kernels()
    out: Ints = kern.search_worlds(worlds, R, cards, plans, noise, seeds, kern.CHOICE_BEST, totals)
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


# -- the medium player's card play, its moon plan and pass (hearts.fast.medium) -----------------------


def medium_choice(
    R: Ints, taken: Ints, seat: int, hand: int, out: int, voids: int, trick_number: int, points: int,
    legal: int, trick_len: int, winning: int, winning_seat: int, trick_mask: int, running: int,
) -> tuple[int, int, int]:  # fmt: skip
    """Medium's card from ``legal`` for a seat that knows this, its reason code and the seat the
    reason names (:func:`hearts.fast.medium.medium_choice`; ``running``: a seat taken to be running
    for the moon, -1 none; ``taken[s]``: the cards seat ``s`` has taken)."""
    card, why, who = load_fast().medium.medium_choice(
        R, taken, 0, seat, hand, out, voids, trick_number, points, legal, trick_len, winning, winning_seat,
        trick_mask, running, True,
    )  # fmt: skip
    return int(card), int(why), int(who)


def plays_for_moon(R: Ints, taken: Ints, seat: int, hand: int, out: int, trick_number: int, points: int) -> bool:
    """Whether medium plays for the moon here (:func:`hearts.fast.medium.plays_for_moon`)."""
    return bool(load_fast().medium.plays_for_moon(R, taken, 0, seat, hand, out, trick_number, points))


def hunts_moon(
    R: Ints, taken: Ints, seat: int, hand: int, out: int, trick_number: int, points: int, strength: float
) -> bool:
    """Whether the hunter runs for the moon here, from moon strength ``strength``
    (:func:`hearts.fast.medium.hunts_moon`)."""
    return bool(load_fast().medium.hunts_moon(R, taken, 0, seat, hand, out, trick_number, points, strength))


def shoot_card(R: Ints, legal: int, out: int, trick_len: int, winning: int) -> tuple[int, int, int]:
    """The moon plan's card, its reason code and the seat named (:func:`hearts.fast.medium.shoot_card`)."""
    card, why, who = load_fast().medium.shoot_card(R, legal, out, trick_len, winning)
    return int(card), int(why), int(who)


def moon_pass_key(R: Ints, hand: int, card: int) -> float:
    """How late a moon builder passes ``card`` from ``hand`` (:func:`hearts.fast.medium.moon_pass_key`)."""
    return float(load_fast().medium.moon_pass_key(R, hand, card))


def moon_threat(R: Ints, taken: Ints, seat: int, min_points: int) -> int:
    """The other seat holding every penalty card taken so far, at least ``min_points`` of them or
    Q♠ and two more, seen from ``seat``; -1 when there is none (:func:`hearts.fast.medium.threat_of`)."""
    return int(load_fast().medium.threat_of(R, taken, 0, seat, min_points))


def danger_pass(R: Ints, hand: int, count: int) -> int:
    """The ``count`` most dangerous cards of ``hand`` by medium's measure, as a mask
    (:func:`hearts.fast.medium.danger_pass`)."""
    return int(load_fast().medium.danger_pass(R, hand, count))


def reason_codes() -> dict[str, int]:
    """The medium player's reason codes by name (``ONLY``, ``DUCK``, …: ``WHY_*`` of :mod:`hearts.fast.medium`)."""
    medium = load_fast().medium
    return {name[4:]: int(getattr(medium, name)) for name in dir(medium) if name.startswith("WHY_")}


def pass_danger(R: Ints, hand: int, card: int) -> float:
    """How much medium wants rid of ``card`` from ``hand`` (:func:`hearts.fast.medium.pass_danger`)."""
    return float(load_fast().medium.pass_danger(R, hand, card))


# -- the learned model (hearts.fast.features) ---------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What the model reads of a seat's position: the rules row, the cards each seat has taken,
    the seat, its hand, the cards still out, the voids it knows (bit ``4 * seat + suit``), tricks
    done, its legal cards, the trick's length, its winning card and seat, and its cards (a mask)."""

    R: Ints
    taken: Ints
    seat: int
    hand: int
    out: int
    voids: int
    tricks_done: int
    legal: int
    trick_len: int
    winning: int
    winning_seat: int
    trick_mask: int


def _position(p: Position) -> tuple[object, ...]:
    return (
        p.R, p.taken, 0, p.seat, p.hand, p.out, p.voids, p.tricks_done, p.legal, p.trick_len, p.winning,
        p.winning_seat, p.trick_mask,
    )  # fmt: skip


def learned_values(p: Position, weights: Floats, margin: float, values: Floats) -> int:
    """The model's card for position ``p``, its value of each legal card written into ``values``."""
    return int(load_fast().features.learned_values(*_position(p), weights, margin, values))


def prior_card(p: Position) -> int:
    """The medium player's card as the model reads it (its prior)."""
    return int(load_fast().features.prior_card(*_position(p)))


def situation(p: Position, atoms: Floats) -> None:
    """The model's situation atoms of position ``p``, written into ``atoms``."""
    load_fast().features.situation(
        p.R, p.taken, 0, p.seat, p.hand, p.out, p.voids, p.tricks_done, p.trick_len, p.winning_seat, p.trick_mask,
        atoms,
    )  # fmt: skip


def card_atoms(p: Position, card: int, prior: int, atoms: Floats) -> int:
    """The model's atoms of ``card`` in position ``p`` (``prior``: medium's card), written into
    ``atoms``; returns the kind of play (lead, follow, discard) whose weights apply."""
    f = load_fast().features
    return int(f.card_atoms(p.R, p.seat, p.hand, p.out, p.voids, p.trick_len, p.winning, card, prior, atoms))


def feature_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The model's situation atoms', card atoms' and kinds of play's names."""
    f = load_fast().features
    return tuple(f.SITUATION), tuple(f.CARD), tuple(f.KINDS)


def feature_sizes() -> tuple[int, int]:
    """How many situation atoms and card atoms the model reads."""
    f = load_fast().features
    return int(f.N_SITUATION), int(f.N_CARD)


# -- sampling worlds (hearts.fast.sampling) -----------------------------------------------------------


def sample_deals(
    cards: Ints, eligible: Ints, need: Ints, base: Ints, doubtful_queen: int, queen: int, doubt: float,
    tries: int, seed: int, count: int,
) -> tuple[Ints, Ints]:  # fmt: skip
    """``count`` deals of the unseen ``cards`` (:func:`hearts.fast.sampling.sample_deals`), and
    per deal whether it was dealt (0: the compiled greedy method could not finish it)."""
    load_fast()
    from hearts.fast.sampling import sample_deals as deal

    hands, ok = deal(cards, eligible, need, base, doubtful_queen, queen, doubt, tries, seed, count)
    return hands, ok


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
        0.1, np.zeros((1, 1), dtype=np.int64), np.zeros(4, dtype=np.int64),
    )  # fmt: skip
    pass_positions(R, np.array(hands, dtype=np.int64), np.zeros(4, dtype=np.int64), 0, np.zeros(1, dtype=np.int64), 1)
    one = np.array([hands], dtype=np.int64)
    play_log_likelihoods(one, R, np.zeros(0, dtype=np.int64), 0, -1.0, -1.0, policy_code("medium"))
    moon_log_ratios(one, R, np.zeros(0, dtype=np.int64), 1, -1.0, -1.0)
    pass_log_ratios(np.array(hands, dtype=np.int64), R, 7, -1.0)
    moon_strength(R, hands[0])
    moon_threat(R, np.zeros(4, dtype=np.int64), 0, 4)
    danger_pass(R, hands[0], 3)
    three = np.arange(3, dtype=np.int64)
    sample_deals(three, np.full(3, 2, dtype=np.int64), three, three, 0, -1, 0.8, 4, 0, 1)
