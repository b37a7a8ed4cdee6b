"""Every knob of the search players, as one frozen, validated value: :class:`SearchConfig`.

``hard`` and ``expert`` are two constants of it (:data:`HARD`, :data:`EXPERT`); a variant is
``dataclasses.replace(EXPERT, rollout="medium")``, or the same written as text where a tournament or
a benchmark names a player (``expert:rollout=medium,worlds=500``, read by :func:`parse_variant`).

>>> HARD.budget, HARD.worlds, HARD.prior, EXPERT.rollout, EXPERT.pass_opponents
(0.3, 1000, 'learned', 'medium-moon', 'medium-moon')
>>> parse_variant("expert", "rollout=medium, worlds=500").rollout
'medium'
>>> parse_variant("expert", "depth=3")
Traceback (most recent call last):
...
hearts.players.search_config.SearchConfigError: unknown setting 'depth' for expert: choose one of budget, ...
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

__all__ = ["EXPERT", "HARD", "LEVEL_CONFIGS", "SearchConfig", "SearchConfigError", "parse_variant"]


class SearchConfigError(ValueError):
    """A search setting that does not exist or has a value it cannot take."""


#: The compiled card-play policies a seat can roll out with (the kernels' ``POLICY_*`` by name).
ROLLOUTS = ("medium", "medium-moon")
#: The policies the other seats play in the pass search's rollouts.
PASS_OPPONENTS = ("medium", "medium-moon")
#: The rule-based card the search keeps unless another is clearly better.
PRIORS = ("medium", "learned")


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How a search player decides: each field one knob, with what it means.

    The other seats always roll out with the medium player's card play (it is also inference's
    model of them); a seat found running for the moon plays the kernels' moon plan.
    """

    name: str = "search"  #: the level's name, shown at tables and in results
    budget: float = 0.3  #: seconds a decision (a caller's ``time_budget`` replaces it)
    budget_share: float = 0.85  #: the part of the budget spent searching; the rest is margin
    worlds: int = 1000  #: sampled worlds a decision at most; the search stops early when it reaches them
    world_batch: int = 16  #: worlds sampled per compiled call at most (the clock is read between calls)
    rollouts_per_world: int = 24  #: rollouts one world plays in all, shared out over candidates and plans
    max_repeats: int = 8  #: rollouts per world and candidate at most
    noise: float = 0.1  #: the chance a rollout seat plays a random legal card instead of its policy's
    rollout: str = "medium"  #: this seat's own rollout policy (one of :data:`ROLLOUTS`)
    prior: str = "medium"  #: the rule-based card kept unless another is clearly better (:data:`PRIORS`)
    prior_margin: float = 1.0  #: points a searched card must gain over the prior (plus one standard error)
    miss_weight: float = 0.15  #: inference: a world's weight per follow or discard medium would not have made
    lead_miss_weight: float = 0.4  #: inference: ...and per such lead (leads say less)
    moon_plan_strength: float = 0.55  #: moon hand strength from which the search also tries its own moon line
    threat_points: int = 4  #: penalty cards (or Q♠ and two) that make a sole point holder the moon threat
    early_threat_points: int = 0  #: from this many a sole point holder is an early threat (0: no early defence)
    early_threat_tricks: int = 0  #: before any point, the seat with most tricks won (at least this many) is one
    early_threat_strength: float = 0.25  #: dealt-hand moon strength at which an early threat runs half the time
    early_threat_slope: float = 25.0  #: how steeply that chance rises with the strength
    pass_miss_weight: float = 0.3  #: reading an early threat's pass: the weight of a card a model would not pass
    early_defence_share: float = 0.5  #: from this share of worlds where it runs, the prior is medium's defence
    pass_opponents: str = "medium"  #: the other seats' policy in the pass search (:data:`PASS_OPPONENTS`)
    moon_safe_passes: bool = False  #: the reference pass keeps A♥ K♥ Q♥; passes keeping them are searched too
    pass_candidates: int = 12  #: passes searched at most (the reference pass counts as one)

    def __post_init__(self) -> None:
        def bad(knob: str, why: str) -> SearchConfigError:
            return SearchConfigError(f"{self.name}: {knob} must be {why}, not {getattr(self, knob)!r}")

        for knob in ("worlds", "world_batch", "rollouts_per_world", "max_repeats", "pass_candidates"):
            value = getattr(self, knob)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise bad(knob, "a whole number of at least 1")
        for knob in ("threat_points", "early_threat_points", "early_threat_tricks"):
            value = getattr(self, knob)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise bad(knob, "a whole number of at least 0")
        for knob in ("budget", "prior_margin", "moon_plan_strength", "early_threat_strength", "early_threat_slope"):
            value = getattr(self, knob)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise bad(knob, "a number")
        if not self.budget > 0:
            raise bad("budget", "positive seconds")
        for knob in ("budget_share", "miss_weight", "lead_miss_weight", "pass_miss_weight"):
            value = getattr(self, knob)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
                raise bad(knob, "a number above 0 and at most 1")
        for knob in ("noise", "early_defence_share"):
            value = getattr(self, knob)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 2:
                raise bad(knob, "a number from 0 to 2" if knob == "early_defence_share" else "a number from 0 to 1")
        if self.noise > 1:
            raise bad("noise", "a number from 0 to 1")
        for knob, choices in (("rollout", ROLLOUTS), ("prior", PRIORS), ("pass_opponents", PASS_OPPONENTS)):
            if getattr(self, knob) not in choices:
                raise bad(knob, "one of " + ", ".join(choices))
        for knob in ("moon_safe_passes",):
            if not isinstance(getattr(self, knob), bool):
                raise bad(knob, "true or false")

    def replace(self, **changes: Any) -> SearchConfig:
        """This config with ``changes`` (validated); an unknown knob raises :class:`SearchConfigError`."""
        unknown = sorted(set(changes) - set(KNOBS))
        if unknown:
            raise SearchConfigError(
                f"unknown setting {unknown[0]!r} for {self.name}: choose one of {', '.join(sorted(KNOBS))}"
            )
        return dataclasses.replace(self, **changes)


#: Every knob's name and type, for reading variants written as text.
KNOBS: dict[str, type] = {
    f.name: type(getattr(SearchConfig(), f.name)) for f in dataclasses.fields(SearchConfig) if f.name != "name"
}

#: The ``hard`` level: 0.3 s a decision, at most 1,000 worlds, the learned model's card as its prior;
#: expert's moon defence: it passes keeping A♥ K♥ Q♥ against moon-capable opponents and defends
#: early moon threats.
HARD = SearchConfig(
    name="hard",
    budget=0.3,
    worlds=1000,
    prior="learned",
    early_threat_points=1,
    early_threat_tricks=2,
    pass_opponents="medium-moon",
    moon_safe_passes=True,
)

#: The ``expert`` level: 1 s a decision, at most 4,000 worlds; its own seat rolls out with the medium
#: player's whole card play, its moon plan included; it passes keeping A♥ K♥ Q♥ against moon-capable
#: opponents and defends early moon threats.
EXPERT = SearchConfig(
    name="expert",
    budget=1.0,
    worlds=4000,
    rollout="medium-moon",
    prior="medium",
    early_threat_points=1,
    early_threat_tricks=2,
    early_threat_strength=0.35,
    early_threat_slope=25.0,
    pass_miss_weight=0.3,
    early_defence_share=0.5,
    pass_opponents="medium-moon",
    moon_safe_passes=True,
    pass_candidates=20,
)

#: The search levels by name.
LEVEL_CONFIGS: dict[str, SearchConfig] = {"hard": HARD, "expert": EXPERT}


def parse_variant(level: str, settings: str) -> SearchConfig:
    """The config of ``level`` (``hard`` or ``expert``) with ``settings`` written as
    ``knob=value`` pairs separated by commas; every error names the knob and what it takes."""
    base = LEVEL_CONFIGS.get(level.strip().lower())
    if base is None:
        raise SearchConfigError(f"{level!r} has no search settings: only {' and '.join(LEVEL_CONFIGS)} do")
    changes: dict[str, Any] = {}
    for part in settings.split(","):
        if not part.strip():
            continue
        knob, eq, text = part.partition("=")
        knob, text = knob.strip().replace("-", "_"), text.strip()
        if not eq or not knob:
            raise SearchConfigError(f"{part.strip()!r} is not knob=value (as in rollout=medium)")
        kind = KNOBS.get(knob)
        if kind is None:
            raise SearchConfigError(
                f"unknown setting {knob!r} for {base.name}: choose one of {', '.join(sorted(KNOBS))}"
            )
        changes[knob] = _value(knob, kind, text)
    return base.replace(**changes)


def _value(knob: str, kind: type, text: str) -> Any:
    """``text`` read as ``knob``'s type."""
    if kind is bool:
        if text.lower() in ("true", "yes", "on", "1"):
            return True
        if text.lower() in ("false", "no", "off", "0"):
            return False
        raise SearchConfigError(f"{knob} must be true or false, not {text!r}")
    if kind is str:
        return text
    try:
        return int(text) if kind is int else float(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SearchConfigError(f"{knob} must be {what}, not {text!r}") from None
