"""Rule options: one frozen, validated dataclass, and named presets.

Every variant printed in the rules pages is a named option here; see
``docs/rules.md`` for each one in plain words.

>>> rules = Rules.preset("omnibus")
>>> rules.bonus_card, rules.bonus_points
(Card('JD'), -10)
>>> Rules(players=3).removed, Rules(players=3).hand_size
((Card('2D'),), 17)
>>> Rules(players=5).pass_cycle
(<PassDirection.LEFT: 'left'>, <PassDirection.RIGHT: 'right'>, <PassDirection.HOLD: 'hold'>)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hearts.core.cards import (
    CARDS,
    CLUBS,
    FULL_DECK,
    HEARTS,
    QS_BIT,
    QUEEN_OF_SPADES,
    Card,
    cards_of,
    mask_of,
)
from hearts.core.errors import CardParseError, RulesError


class PassDirection(Enum):
    """Where a seat's passed cards go. Left is the next seat in playing order."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"

    def offset(self, players: int) -> int:
        """Seats to count forward in playing order to the receiver (0 for hold)."""
        if self is PassDirection.LEFT:
            return 1
        if self is PassDirection.RIGHT:
            return players - 1
        if self is PassDirection.ACROSS:
            return players // 2
        return 0


class OpeningLead(Enum):
    """Which card opens the first trick; the holder of the lowest club in play leads either way."""

    LOWEST_CLUB = "lowest-club"  #: that seat must lead the lowest club (2♣, or 3♣ when 2♣ is out)
    ANY_CLUB = "any-club"  #: that seat may lead any of its clubs


class MoonScoring(Enum):
    """How a hand is scored when one seat takes every heart in play and Q♠."""

    ADD_TO_OTHERS = "add-to-others"  #: Bicycle: shooter 0, each other seat +26
    SHOOTER_CHOOSES = "shooter-chooses"  #: Britannica: the shooter picks −26 for itself or +26 to the others
    SUBTRACT_FROM_SHOOTER = "subtract-from-shooter"  #: shooter −26, the others 0
    DISABLED = "disabled"  #: no moon: the shooter simply takes its 26


class MoonOption(Enum):
    """The shooter's answer where :attr:`MoonScoring.SHOOTER_CHOOSES` applies."""

    ADD_TO_OTHERS = "add-to-others"
    SUBTRACT_FROM_SELF = "subtract-from-self"


class TieRule(Enum):
    """What happens when the game ends with two or more seats tied for the lowest total."""

    SHARE = "share"  #: the tied seats share the win
    PLAY_ON = "play-on"  #: more hands are played until one seat is lowest alone


L, R, A, H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD

#: Cards removed by default so that the deck divides evenly.
DEFAULT_REMOVED: dict[int, tuple[str, ...]] = {
    3: ("2D",),
    4: (),
    5: ("2D", "2C"),
    6: ("2D", "3D", "3C", "4C"),
}

#: Named pass cycles. ``standard`` depends on the player count (no across for odd counts).
PASS_CYCLE_NAMES = ("standard", "left", "no-hold", "none")


def pass_direction(value: object) -> PassDirection:
    """One pass direction by name, or a RulesError in players' words (never the class's name).

    >>> pass_direction("Across")
    <PassDirection.ACROSS: 'across'>
    >>> pass_direction("righ")
    Traceback (most recent call last):
    ...
    hearts.core.errors.RulesError: unknown pass direction 'righ' (choose left, right, across, hold)
    """
    if isinstance(value, PassDirection):
        return value
    try:
        return PassDirection(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        choices = ", ".join(d.value for d in PassDirection)
        raise RulesError(f"unknown pass direction {value!r} (choose {choices})") from None


def pass_directions(cycle: object) -> tuple[PassDirection, ...]:
    """A pass cycle given as directions (a list of names, or one string of them separated by commas).

    >>> [d.value for d in pass_directions("left, across")]
    ['left', 'across']
    """
    if isinstance(cycle, str):
        cycle = [d for d in cycle.split(",") if d.strip()]
    if not isinstance(cycle, (list, tuple)):
        raise RulesError(
            f"the pass cycle is a list of directions (left, right, across, hold) or a cycle name "
            f"({', '.join(PASS_CYCLE_NAMES)}), not {cycle!r}"
        )
    return tuple(pass_direction(d) for d in cycle)


def pass_cycle_named(name: str, players: int) -> tuple[PassDirection, ...]:
    """The pass cycle called ``name`` for ``players`` seats.

    >>> [d.value for d in pass_cycle_named("standard", 4)]
    ['left', 'right', 'across', 'hold']
    >>> [d.value for d in pass_cycle_named("no-hold", 3)]
    ['left', 'right']
    """
    if not isinstance(players, int) or isinstance(players, bool) or not 3 <= players <= 6:
        raise RulesError(f"players must be 3, 4, 5 or 6, not {players!r}")
    even = players % 2 == 0
    cycles = {
        "standard": (L, R, A, H) if even else (L, R, H),
        "left": (L,),
        "no-hold": (L, R, A) if even else (L, R),
        "none": (H,),
    }
    if name not in cycles:
        raise RulesError(
            f"unknown pass cycle {name!r}: choose one of {', '.join(PASS_CYCLE_NAMES)}, "
            "or directions such as left,right,hold"
        )
    return cycles[name]


_ENUM_OPTIONS: dict[str, type[Enum]] = {"opening": OpeningLead, "moon": MoonScoring, "ties": TieRule}
_BOOL_OPTIONS = ("points_on_first_trick", "hearts_must_be_broken", "queen_breaks_hearts", "heart_lead_with_only_queen")
_INT_OPTIONS = ("heart_points", "queen_points", "bonus_points", "target")


def read_option(name: str, value: Any, players: int = 4) -> Any:
    """Rule option ``name`` as its typed value, from that value or the form a player or a document
    writes it in: an enum's value (``"shooter-chooses"``), cards by name (``"2D 3D"``, ``["2D"]``,
    ``"J♦"``), a pass cycle by name (``"no-hold"``) or directions (``"left,right"``, ``["left"]``).
    Numbers and true/false must be given as such (see :func:`read_text_option` for typed text).
    The one parser of rule options: :class:`Rules` reads every option through it, so each face's
    options (the command line, the terminal's form, the server's JSON) are read the same way.
    ``players`` resolves the defaults that depend on the count. Raises :class:`RulesError`.

    >>> read_option("moon", "shooter-chooses")
    <MoonScoring.SHOOTER_CHOOSES: 'shooter-chooses'>
    >>> [d.value for d in read_option("pass_cycle", "no-hold", players=3)]
    ['left', 'right']
    >>> read_option("removed", "2D, 3D")
    (Card('2D'), Card('3D'))
    """
    if name == "players":
        if not isinstance(value, int) or isinstance(value, bool) or not 3 <= value <= 6:
            raise RulesError(f"players must be 3, 4, 5 or 6, not {value!r}")
        return value
    if name == "removed":
        removed = DEFAULT_REMOVED[players] if value is None else value
        try:
            # A string such as "2D 3D" names the cards; iterating it would split it into characters.
            mask = mask_of(removed.replace(",", " ").split() if isinstance(removed, str) else removed)
        except (CardParseError, TypeError) as exc:
            raise RulesError(f"removed cards: {exc}") from None
        return tuple(cards_of(mask))
    if name == "pass_cycle":
        cycle: Any = value
        if cycle is None:
            cycle = pass_cycle_named("standard", players)
        elif isinstance(cycle, str) and "," not in cycle:
            # One word: a cycle's name ("standard", "left", "no-hold", "none") or a single direction.
            word = cycle.strip().lower()
            if word not in {d.value for d in PassDirection}:
                cycle = pass_cycle_named(word, players)  # raises for a word that is neither
        directions = pass_directions(cycle)
        if not directions:
            raise RulesError("the pass cycle is empty: use ('hold',) for no passing")
        if players % 2 and A in directions:
            raise RulesError(f"there is no 'across' with {players} players: pass left, right or hold")
        return directions
    if name in _ENUM_OPTIONS:
        enum_type = _ENUM_OPTIONS[name]
        if isinstance(value, enum_type):
            return value
        try:
            return enum_type(value)
        except ValueError:
            choices = ", ".join(m.value for m in enum_type)
            raise RulesError(f"{name} must be one of {choices}, not {value!r}") from None
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be true or false, not {value!r}")
        return value
    if name in _INT_OPTIONS:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{name} must be a whole number, not {value!r}")
        return value
    if name == "bonus_card":
        if value is None or isinstance(value, Card):
            return value
        if isinstance(value, str):
            try:
                return Card.parse(value)
            except CardParseError as exc:
                raise RulesError(f"bonus_card: {exc}") from None
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
            return CARDS[value]
        raise RulesError(f"bonus_card: not a card: {value!r}")
    if name == "pass_count":
        return value  # its range depends on the hand size: Rules checks it
    known = ", ".join(f.name for f in dataclasses.fields(Rules) if f.init)
    raise RulesError(f"unknown rule option {name!r}: known are {known}")


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def read_text_option(name: str, text: Any) -> Any:
    """Rule option ``name`` as typed on a command line or in a form: whole numbers and true/false
    (yes/no, on/off) are read from their text, ``none`` is no bonus card, and everything else is
    what :func:`read_option` reads. A value that is not text is passed through.

    >>> read_text_option("target", " 50 "), read_text_option("queen_breaks_hearts", "yes")
    (50, True)
    >>> read_text_option("bonus_card", "none") is None
    True
    >>> read_text_option("target", "fifty")
    Traceback (most recent call last):
    ...
    hearts.core.errors.RulesError: target must be a whole number, not 'fifty'
    """
    if not isinstance(text, str):
        return text
    word = text.strip()
    if name in _INT_OPTIONS or name in ("players", "pass_count"):
        try:
            return int(word)
        except ValueError:
            what = "3, 4, 5 or 6" if name == "players" else "a whole number"
            raise RulesError(f"{name.replace('_', ' ')} must be {what}, not {text!r}") from None
    if name in _BOOL_OPTIONS:
        if word.lower() in _TRUE | _FALSE:
            return word.lower() in _TRUE
        raise RulesError(f"{name.replace('_', ' ')} must be true or false (yes or no), not {text!r}")
    if name == "bonus_card" and word.lower() in ("none", ""):
        return None
    return word


@dataclass(frozen=True)
class Rules:
    """Every rule option. The defaults are the standard game as the rules pages print it.

    ``removed`` and ``pass_cycle`` left as ``None`` take the defaults for the
    player count; after construction they always hold the resolved value.
    """

    players: int = 4
    removed: tuple[Card, ...] | None = None
    opening: OpeningLead = OpeningLead.LOWEST_CLUB
    pass_cycle: tuple[PassDirection, ...] | None = None
    pass_count: int = 3
    points_on_first_trick: bool = False
    hearts_must_be_broken: bool = True
    queen_breaks_hearts: bool = False
    heart_lead_with_only_queen: bool = False
    heart_points: int = 1
    queen_points: int = 13
    bonus_card: Card | None = None
    bonus_points: int = -10
    moon: MoonScoring = MoonScoring.ADD_TO_OTHERS
    target: int = 100
    ties: TieRule = TieRule.SHARE
    # Derived, for the hot path; not part of equality or the record.
    in_play: int = field(default=0, init=False, repr=False, compare=False)
    penalty_mask: int = field(default=0, init=False, repr=False, compare=False)
    hand_size: int = field(default=0, init=False, repr=False, compare=False)
    opening_card: Card = field(default=CARDS[0], init=False, repr=False, compare=False)
    moon_points: int = field(default=26, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Each option given as its typed value, or in a form a player or a document writes it (an
        # enum's value, a card's name, a pass cycle's name or directions): read_option parses it.
        _set = object.__setattr__
        n = read_option("players", self.players)
        for name in _OPTIONS_AFTER_PLAYERS:
            _set(self, name, read_option(name, getattr(self, name), n))
        removed_mask = mask_of(self.removed or ())
        if removed_mask & QS_BIT:
            raise RulesError("Q♠ cannot be removed: the game is built around it")
        in_play = FULL_DECK & ~removed_mask
        if not in_play & CLUBS:
            raise RulesError("at least one club must stay in play: the lowest club opens")
        if in_play.bit_count() % n:
            raise RulesError(
                f"{in_play.bit_count()} cards do not divide among {n} players: "
                f"remove {in_play.bit_count() % n} more (the defaults are "
                f"{', '.join(Card.parse(c).symbol() for c in DEFAULT_REMOVED[n]) or 'none'})"
            )
        hand_size = in_play.bit_count() // n
        if not isinstance(self.pass_count, int) or isinstance(self.pass_count, bool) or not 1 <= self.pass_count < hand_size:
            raise RulesError(f"pass_count must be between 1 and {hand_size - 1}, not {self.pass_count!r}")
        bonus = self.bonus_card
        if bonus is not None:
            if not in_play >> bonus & 1:
                raise RulesError(f"bonus card {bonus.symbol()} has been removed from the deck")
            if bonus == QUEEN_OF_SPADES or (1 << bonus) & HEARTS:
                raise RulesError(f"bonus card {bonus.symbol()} is a penalty card: choose a non-heart other than Q♠")
        if self.heart_points < 0 or self.queen_points < 0:
            raise RulesError("heart_points and queen_points cannot be negative: points are penalties")
        if self.heart_points == 0 and self.queen_points == 0:
            # Nothing would ever be scored, so no total could reach the target: the game would never end.
            raise RulesError("heart_points and queen_points cannot both be 0: no total could ever reach the target")
        if self.target <= 0:
            raise RulesError(f"target must be positive, not {self.target}")
        _set(self, "in_play", in_play)
        _set(self, "penalty_mask", (in_play & HEARTS) | QS_BIT)
        _set(self, "hand_size", hand_size)
        _set(self, "opening_card", CARDS[(in_play & CLUBS & -(in_play & CLUBS)).bit_length() - 1])
        _set(self, "moon_points", (in_play & HEARTS).bit_count() * self.heart_points + self.queen_points)
        if self.bonus_card is not None and self.bonus_points <= -self.moon_points:
            # Each hand would then hand out no points or fewer than none, and totals could drift
            # down for ever without one reaching the target.
            raise RulesError(
                f"bonus_points {self.bonus_points} outweighs every penalty point in a hand ({self.moon_points}): "
                f"the game could never end; use more than {-self.moon_points}"
            )

    # -- presets and lookup -------------------------------------------------

    @staticmethod
    def preset(name: str, **overrides: Any) -> Rules:
        """The preset called ``name``, with any options overridden.

        >>> Rules.preset("short").target
        50
        >>> Rules.preset("britannica", players=5).moon.value
        'shooter-chooses'
        """
        key = name.strip().lower().replace("_", "-")
        if key not in PRESETS:
            raise RulesError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}")
        options = dict(PRESETS[key][1])
        options.update(overrides)
        return Rules(**options)

    @staticmethod
    def from_text(preset: str = "standard", **options: Any) -> Rules:
        """The preset called ``preset`` with options as a player typed them (on the command line, in
        the terminal's form): each read by :func:`read_text_option`; an option given as ``None`` is
        left at the preset's value.

        >>> rules = Rules.from_text("omnibus", players="5", pass_cycle="left,right", bonus_card="none")
        >>> rules.players, [d.value for d in rules.pass_cycle or ()], rules.bonus_card
        (5, ['left', 'right'], None)
        """
        known = {f.name for f in dataclasses.fields(Rules) if f.init}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RulesError(f"unknown rule option(s) {', '.join(map(repr, unknown))}: known are {', '.join(sorted(known))}")
        return Rules.preset(preset, **{k: read_text_option(k, v) for k, v in options.items() if v is not None})

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; a new player count re-derives the removed cards and cycle."""
        if "players" in changes and changes["players"] != self.players:
            changes.setdefault("removed", None)
            if self.pass_cycle == pass_cycle_named("standard", self.players):
                changes.setdefault("pass_cycle", None)
        return dataclasses.replace(self, **changes)

    # -- scoring ----------------------------------------------------------------

    def penalty_points(self, mask: int) -> int:
        """The penalty points in a set of cards (a 52-bit mask): each heart, and Q♠.

        >>> Rules().penalty_points(mask_of(["QS", "2H", "3H", "JD"]))
        15
        """
        return arith.penalty_points(mask, arith.rules_row(self))

    def points_taken(self, mask: int) -> int:
        """What taking a set of cards (a trick, a hand's tricks) scores before any moon: its penalty
        points plus the bonus card's (J♦ -10 in Omnibus). The one place a trick's score is counted.

        >>> Rules.preset("omnibus").points_taken(mask_of(["JD", "QH", "2C", "3C"]))
        -9
        """
        return arith.points_taken(mask, arith.rules_row(self))

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass direction of hand ``hand_number`` (0-based)."""
        cycle = self.pass_cycle
        assert cycle is not None
        return cycle[hand_number % len(cycle)]

    @property
    def name(self) -> str | None:
        """The preset these rules equal, if any."""
        for key in PRESETS:
            if Rules.preset(key, players=self.players) == self:
                return key
        return None

    # -- serialisation --------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready data (cards as strings, enums as their values)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif f.name == "removed":
                value = [str(c) for c in value]
            elif f.name == "pass_cycle":
                value = [d.value for d in value]
            elif f.name == "bonus_card":
                value = None if value is None else str(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], preset: str | None = None) -> Rules:
        """Rules from :meth:`to_dict`'s form; unknown keys are an error, missing ones take the
        defaults, or the values of ``preset`` where one is named (the server's new tables: a preset
        with some options overridden).

        >>> Rules.from_dict({"target": 50}, preset="omnibus") == Rules.preset("omnibus", target=50)
        True
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rule option(s) {', '.join(map(repr, unknown))}: known are {', '.join(sorted(known))}")
        options = dict(data)
        # JSON has a type for each option: a list of card names for removed, a cycle's name or a list
        # of directions, a card's name or null for the bonus card. The values are read by read_option.
        if options.get("removed") is not None:
            for card in _strings(options["removed"], "removed"):
                if not isinstance(card, str):
                    raise RulesError(f"removed cards: not a card: {card!r}")
        cycle = options.get("pass_cycle")
        if cycle is not None and not isinstance(cycle, str):
            _strings(cycle, "pass_cycle")
        bonus = options.get("bonus_card")
        if bonus is not None and not isinstance(bonus, str):
            raise RulesError(f"bonus_card: not a card: {bonus!r}")
        return cls(**options) if preset is None else cls.preset(preset, **options)

    def describe(self) -> list[tuple[str, str]]:
        """Each option with its value in words (cards with suit symbols: ``J♦``), for ``hearts rules``."""
        cycle = self.pass_cycle or ()
        moon_words = {
            MoonScoring.ADD_TO_OTHERS: f"shooter scores 0, each other seat +{self.moon_points}",
            MoonScoring.SHOOTER_CHOOSES: f"shooter chooses: -{self.moon_points} to itself or +{self.moon_points} to each other seat",
            MoonScoring.SUBTRACT_FROM_SHOOTER: f"shooter -{self.moon_points}, the others 0",
            MoonScoring.DISABLED: "no moon: the points count as taken",
        }
        return [
            ("players", f"{self.players} ({self.hand_size} cards each)"),
            ("removed", " ".join(c.symbol() for c in self.removed or ()) or "none"),
            ("opening", f"holder of {self.opening_card.symbol()} leads " + ("it" if self.opening is OpeningLead.LOWEST_CLUB else "any club")),
            ("pass_cycle", ", ".join(d.value for d in cycle)),
            ("pass_count", str(self.pass_count)),
            ("points_on_first_trick", "allowed" if self.points_on_first_trick else "no heart or Q♠ (unless the hand holds only penalty cards)"),
            ("hearts_must_be_broken", "yes" if self.hearts_must_be_broken else "no: hearts may be led at any time"),
            ("queen_breaks_hearts", "yes (house rule)" if self.queen_breaks_hearts else "no"),
            ("heart_lead_with_only_queen", "may lead a heart" if self.heart_lead_with_only_queen else "must lead Q♠"),
            ("heart_points", str(self.heart_points)),
            ("queen_points", str(self.queen_points)),
            ("bonus_card", "none" if self.bonus_card is None else f"{self.bonus_card.symbol()} scores {self.bonus_points}"),
            ("moon", f"{self.moon.value}: {moon_words[self.moon]}"),
            ("target", f"game ends when a total reaches {self.target}"),
            ("ties", "tied lowest seats share the win" if self.ties is TieRule.SHARE else "play more hands until one seat is lowest"),
        ]


#: The options Rules reads after the player count (which the defaults of some depend on), in field order.
_OPTIONS_AFTER_PLAYERS = tuple(f.name for f in dataclasses.fields(Rules) if f.init and f.name != "players")


def _strings(value: object, name: str) -> Iterable[str]:
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"{name} must be a list, not {value!r}")
    return value


#: Preset name -> (one-line description, options).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "standard": ("The standard game (Bicycle): pass left/right/across/hold, moon adds 26 to the others, to 100.", {}),
    "omnibus": ("Omnibus Hearts: whoever takes J♦ scores -10.", {"bonus_card": Card.parse("JD")}),
    "omnibus-10d": ("Omnibus with 10♦ as the bonus card, as some tables play it.", {"bonus_card": Card.parse("10D")}),
    "britannica": ("Britannica's moon: the shooter chooses -26 for itself or +26 to the others.", {"moon": MoonScoring.SHOOTER_CHOOSES}),
    "short": ("The standard game to 50 instead of 100.", {"target": 50}),
    "pass-left": ("Pass left every hand, as some computer versions do.", {"pass_cycle": "left"}),
    "no-hold": ("Pass left, right, across (left, right with an odd count); no hold hand.", {"pass_cycle": "no-hold"}),
    "no-passing": ("No passing at all: every hand is a hold hand.", {"pass_cycle": "none"}),
    "house-queen": ("House rule: Q♠ breaks hearts too.", {"queen_breaks_hearts": True}),
}

# The rules' arithmetic reads Rules (its options and enums): imported once both modules exist.
from hearts.core import arith  # noqa: E402
