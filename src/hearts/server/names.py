"""The names people choose: what a name may be, the key that makes two names the same, and a suggestion.

A name is 2 to 20 characters of letters, digits, spaces and ``-_.'``, trimmed, its inner spaces
collapsed, and normalised (NFKC, so a full-width ``Ａｎｎ`` is ``Ann``). Two names are the same name
when their case-folded forms are equal. A name may never be a computer level's, a registered bot's
or a word the tables use for a seat that is not a person (``computer``, ``spectator`` ...), so that
nobody can pass for ``hard`` on the leaderboard or at a table.

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> name_key("ÅSA") == name_key("åsa")
True
>>> clean_name("Hard", reserved={"hard"})
Traceback (most recent call last):
...
hearts.server.names.NameRefused: "Hard" is the name of a computer player or a bot: choose another
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterable

MIN_NAME = 2
MAX_NAME = 20
#: Characters a name may hold besides letters, digits and spaces.
NAME_MARKS = "-_.'"
#: Words the tables use for seats that are not a person: no person may be called so.
RESERVED_WORDS = frozenset({"computer", "bot", "stand-in", "standin", "spectator", "you", "nobody", "admin", "server"})

_ADJECTIVES = ("Quiet", "Lucky", "Brave", "Clever", "Swift", "Calm", "Bold", "Merry", "Sly", "Keen", "Gentle", "Wild")
_NOUNS = ("Otter", "Heron", "Fox", "Badger", "Lynx", "Robin", "Hare", "Wren", "Marten", "Finch", "Seal", "Owl")


class NameRefused(ValueError):
    """A name that cannot be taken: the text says why, in the chooser's words."""


def name_key(name: str) -> str:
    """The form in which two names are compared: normalised and case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_name(text: str, reserved: Iterable[str] = ()) -> str:
    """``text`` as a name (normalised, trimmed, inner spaces collapsed); raise :class:`NameRefused`
    naming what is wrong. ``reserved``: the computer levels and bot names no person may take."""
    if not isinstance(text, str):
        raise NameRefused("a name is text")
    name = " ".join(unicodedata.normalize("NFKC", text).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    marks = 0  # combining marks in a row: a letter may carry two (Devanagari, Vietnamese), no more
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        marks = marks + 1 if cat in ("Mn", "Mc") else 0
        if cat in ("Mn", "Mc") and marks <= 2 and i > marks - 1 and name[i - marks] != " ":
            continue
        if not (ch == " " or ch in NAME_MARKS or cat.startswith("L") or cat == "Nd"):
            shown = ch if cat[0] not in "CZM" else f"U+{ord(ch):04X}"
            raise NameRefused(f"a name may hold letters, digits, spaces and {' '.join(NAME_MARKS)} only, not {shown!r}")
    if len(name) < MIN_NAME:
        raise NameRefused(f"a name needs at least {MIN_NAME} characters")
    if len(name) > MAX_NAME:
        raise NameRefused(f"a name has at most {MAX_NAME} characters, not {len(name)}")
    key = name_key(name)
    if key in {name_key(r) for r in reserved}:
        raise NameRefused(f'"{name}" is the name of a computer player or a bot: choose another')
    if key in RESERVED_WORDS:
        raise NameRefused(f'"{name}" is a word the tables use for seats that are not people: choose another')
    return name


def suggest_name(taken: Callable[[str], bool], rng: random.Random | None = None) -> str:
    """A free name such as ``Quiet Otter 42``: ``taken(key)`` tells whether a name key is in use."""
    rng = rng or random.Random()
    for _ in range(50):
        name = f"{rng.choice(_ADJECTIVES)} {rng.choice(_NOUNS)} {rng.randrange(10, 100)}"
        if not taken(name_key(name)):
            return name
    return f"Player {rng.randrange(10**6, 10**7)}"
