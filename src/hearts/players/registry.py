"""Players by spec: ``make_player("expert", seed=1)``. Every player spec is read here, once.

A spec is one of

* a level: ``random``, ``easy``, ``medium``, ``hard``, ``expert``, ``learned`` (any case), or a measurement
  level (:data:`MEASUREMENT_LEVELS`: ``hunter``), which tournaments and benchmarks seat but tables
  and the terminal do not offer; a search level may carry settings of its
  :class:`~hearts.players.search_config.SearchConfig`, ``expert:rollout=medium,worlds=500``;
* ``cmd:COMMAND``: an outside program speaking the bot protocol (``docs/bot-protocol.md``);
* ``py:MODULE:FACTORY``: a Python player, e.g. a trained policy (``docs/bot-protocol.md``,
  "Python players"): MODULE is an importable module or a path to a ``.py`` file, FACTORY a
  name in it that returns a :class:`Player` or a callable ``SeatView -> Move``;

each optionally preceded by a display name, ``NAME=SPEC`` (``mybot=cmd:./mybot --fast``), which
tournaments and tables show instead of the spec.

>>> make_player("medium", seed=3).name
'medium'
>>> parse_player("mybot=cmd:./mybot --depth=3")
PlayerSpec(kind='cmd', target='./mybot --depth=3', name='mybot', settings='')
>>> parse_player("py:policies.linear:load").label, parse_player("py:../bots/linear.py:load").label
('py:linear:load', 'py:linear:load')
>>> parse_player("x=expert:rollout=medium")
PlayerSpec(kind='level', target='expert', name='x', settings='rollout=medium')
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts.players.base import Decision, Player

#: level name -> "module:Class". Modules load on first use so that start-up stays quick.
LEVELS: dict[str, str] = {
    "random": "hearts.players.random_player:RandomPlayer",
    "easy": "hearts.players.easy:EasyPlayer",
    "medium": "hearts.players.medium:MediumPlayer",
    "hard": "hearts.players.search_config:HARD",
    "expert": "hearts.players.search_config:EXPERT",
    "learned": "hearts.players.learned:LearnedPlayer",
}

#: Levels for measurement only (tournaments, benchmarks), never offered to people: they are not in
#: :data:`LEVELS`, which the tables, the terminal and the hints choose from. ``hunter`` shoots the
#: moon whenever it plausibly can, to test the other levels' moon defence (docs/players.md).
MEASUREMENT_LEVELS: dict[str, str] = {
    "hunter": "hearts.players.hunter:HunterPlayer",
}

#: A display name: letters, digits, ``_``, ``-`` and ``.``, at most 32, starting with a letter or digit.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,31}")
_KINDS = ("cmd:", "py:")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A parsed player spec: its ``kind`` (``level``, ``cmd`` or ``py``), what it names, and a display name."""

    kind: str
    target: str  #: the level, the command, or ``MODULE:FACTORY``
    name: str | None = None
    settings: str = ""  #: a search level's settings, ``knob=value,...`` (validated when parsed)

    @property
    def label(self) -> str:
        """What to show for this player: its display name, else the spec as written (without a name), a
        ``py:`` module by its last name only (``py:linear:load`` for ``py:../bots/linear.py:load``)."""
        if self.name:
            return self.name
        if self.kind == "py":
            module, _, factory = self.target.rpartition(":")
            stem = module.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].removesuffix(".py").rsplit(".", 1)[-1]
            return f"py:{stem}:{factory}"
        if self.kind == "level":
            return f"{self.target}:{self.settings}" if self.settings else self.target
        return f"{self.kind}:{self.target}"


def parse_player(text: str) -> PlayerSpec:
    """Read a player spec (see the module text); a spec that names nothing raises ``ValueError`` saying why."""
    if not isinstance(text, str):
        raise ValueError(f"a player spec is text, not {type(text).__name__}")
    spec = text.strip()
    name: str | None = None
    head, sep, rest = spec.partition("=")
    if sep and _NAME.fullmatch(head.strip()):
        name, spec = head.strip(), rest.strip()
    elif sep and not spec.lower().startswith(_KINDS) and head.partition(":")[0].strip().lower() not in LEVELS:
        raise ValueError(
            f"bad player name {head.strip()!r} in {text.strip()!r}: a name is letters, digits, '_', '-' or '.' "
            "(at most 32), as in mybot=cmd:./mybot"
        )
    key = spec.lower()
    if key.startswith("cmd:"):
        command = spec[4:].strip()
        if not command:
            raise ValueError(f"{text.strip()!r} names no command: write e.g. 'cmd:python3 mybot.py'")
        return PlayerSpec("cmd", command, name)
    if key.startswith("py:"):
        module, colon, factory = spec[3:].strip().rpartition(":")
        if not colon or not module.strip() or not factory.strip().isidentifier():
            raise ValueError(
                f"{text.strip()!r} is not py:MODULE:FACTORY: write e.g. 'py:mypolicy:make_player' "
                "or 'py:path/to/policy.py:make_player'"
            )
        return PlayerSpec("py", f"{module.strip()}:{factory.strip()}", name)
    if key in LEVELS or key in MEASUREMENT_LEVELS:
        return PlayerSpec("level", key, name)
    level, colon, settings = key.partition(":")
    if colon and level.strip() in LEVELS:
        from hearts.players.search_config import parse_variant

        parse_variant(level, settings)  # raises, naming the setting, when one is wrong
        return PlayerSpec("level", level.strip(), name, spec.partition(":")[2].strip())
    raise ValueError(
        f"unknown player level {spec or text!r}: choose one of {', '.join([*LEVELS, *MEASUREMENT_LEVELS])}, "
        "cmd:COMMAND or py:MODULE:FACTORY "
        "(with NAME= in front to name it)"
    )


def bot_spec(command: str) -> str:
    """The spec for ``hearts serve --bot NAME=COMMAND``: a ``py:`` or ``cmd:`` spec as given, else ``cmd:COMMAND``."""
    text = command.strip()
    return text if text.lower().startswith(_KINDS) else f"cmd:{text}"


def make_player(
    level: str | PlayerSpec, seed: int | None = None, time_budget: float | None = None, **options: Any
) -> Player:
    """A new player for a spec (see the module text); a spec that names nothing raises ``ValueError``.

    ``options`` go to the player's constructor (``time_limit=`` for a ``cmd:`` bot), or for a search
    level are settings of its :class:`~hearts.players.search_config.SearchConfig` (``worlds=500``).
    """
    spec = level if isinstance(level, PlayerSpec) else parse_player(level)
    if spec.kind == "cmd":  # an outside program speaking the bot protocol; see players/external.py
        from hearts.players.external import ExternalPlayer

        options.setdefault("label", spec.name)
        return ExternalPlayer(spec.target, seed=seed, time_budget=time_budget, **options)
    if spec.kind == "py":
        return python_player(spec, seed=seed, time_budget=time_budget)
    module, _, cls_name = (LEVELS.get(spec.target) or MEASUREMENT_LEVELS[spec.target]).partition(":")
    made = getattr(importlib.import_module(module), cls_name)
    from hearts.players.search_config import SearchConfig

    if isinstance(made, SearchConfig):  # a search level: its config, with the spec's settings and ``options``
        from hearts.players.search import SearchPlayer
        from hearts.players.search_config import parse_variant

        config = parse_variant(spec.target, spec.settings).replace(**options)
        return SearchPlayer(config, seed=seed, time_budget=time_budget)
    cls: Callable[..., Player] = made
    return cls(seed=seed, time_budget=time_budget, **options)


# -- py:MODULE:FACTORY -----------------------------------------------------------------------------------


class CallablePlayer(Player):
    """A seat played by a function of the view: ``policy(view)`` returns a :class:`Move` (or a :class:`Decision`)."""

    def __init__(self, policy: Callable[[Any], Any], name: str, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.policy = policy
        self.name = name

    def decide(self, view: Any) -> Decision:
        from hearts.core import ChooseMoon, PassCards, PlayCard

        answer = self.policy(view)
        if isinstance(answer, Decision):
            return answer
        if isinstance(answer, (PlayCard, PassCards, ChooseMoon)):
            return Decision(answer, f"{self.name}'s move")
        raise TypeError(f"{self.name} returned {type(answer).__name__}, not a move (PlayCard, PassCards, ChooseMoon)")

    # The base class asks for these; every decision goes through decide() above.
    def choose_pass(self, view: Any) -> Any:
        decision = self.decide(view)
        return decision.move.cards, decision.reason  # type: ignore[union-attr]

    def choose_play(self, view: Any) -> Any:
        decision = self.decide(view)
        return decision.move.card, decision.reason  # type: ignore[union-attr]


def _load_module(module: str) -> Any:
    if module.endswith(".py") or "/" in module or "\\" in module:
        path = Path(module).expanduser().resolve()
        if not path.is_file():
            raise ValueError(f"py: no Python file {module!r}")
        key = f"hearts_py_player_{abs(hash(str(path)))}"
        if key in sys.modules:
            return sys.modules[key]
        loader_spec = importlib.util.spec_from_file_location(key, path)
        assert loader_spec is not None and loader_spec.loader is not None
        loaded = importlib.util.module_from_spec(loader_spec)
        sys.modules[key] = loaded
        try:
            loader_spec.loader.exec_module(loaded)
        except BaseException:
            del sys.modules[key]
            raise
        return loaded
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ValueError(f"py: cannot import {module!r} ({exc}); give a module on PYTHONPATH or a .py path") from None


def python_player(spec: PlayerSpec, seed: int | None = None, time_budget: float | None = None) -> Player:
    """The player of a ``py:MODULE:FACTORY`` spec: FACTORY is called with ``seed`` and ``time_budget`` (those of
    them it accepts) and returns a :class:`Player`, or a callable ``SeatView -> Move`` that is wrapped in one."""
    module_name, _, factory_name = spec.target.rpartition(":")
    module = _load_module(module_name)
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ValueError(f"py: {module_name!r} has no callable {factory_name!r}")
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature: call it bare
        params = {}  # type: ignore[assignment]
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs = {k: v for k, v in (("seed", seed), ("time_budget", time_budget)) if takes_all or k in params}
    made = factory(**kwargs)
    label = spec.label
    if isinstance(made, Player):
        if spec.name:
            made.name = spec.name
        return made
    if callable(made):
        return CallablePlayer(made, label, seed=seed)
    raise ValueError(f"{label}: {factory_name}() returned {type(made).__name__}, not a Player or a callable")
