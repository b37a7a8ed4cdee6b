"""The names people choose: what a name may be, the key that makes two names the same, and a suggestion.

A name is 2 to 20 characters of letters, digits, spaces and ``-_.'``, trimmed, its inner spaces
collapsed, and normalised (NFKC, so a full-width ``Ａｎｎ`` is ``Ann``). Two names are the same name
when their case-folded forms are equal. A name may never be a computer level's, a registered bot's
or a word the tables use for a seat that is not a person (``computer``, ``spectator`` ...), so that
nobody can pass for ``hard`` on the leaderboard or at a table. That check also sees through
look-alike letters: a Cyrillic ``һ`` or Greek ``Α`` in a Latin word, or an accent, does not make
another name of ``hard`` (:func:`look_alike_key`).

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> name_key("ÅSA") == name_key("åsa")
True
>>> clean_name("Hard", reserved={"hard"})
Traceback (most recent call last):
...
hearts.server.names.NameRefused: "Hard" is the name of a computer player or a bot: choose another
>>> clean_name("һard", reserved={"hard"})
Traceback (most recent call last):
...
hearts.server.names.NameRefused: "һard" looks like "hard", the name of a computer player or a bot: choose another
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

#: Letters of other scripts that look like a Latin letter, as that letter: enough that a reserved name
#: cannot be written with them and pass for the Latin one. Capitals and small letters each on their
#: own: a Cyrillic ``Н`` looks like ``H``, though its small ``н`` looks like no Latin letter.
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
        "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ԁ": "D", "Һ": "H", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W",
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
        "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
        # Latin letters that pass for plainer ones
        "ı": "i", "ȷ": "j", "ſ": "s", "ɡ": "g",
    }
)  # fmt: skip

_ADJECTIVES = ("Quiet", "Lucky", "Brave", "Clever", "Swift", "Calm", "Bold", "Merry", "Sly", "Keen", "Gentle", "Wild")
_NOUNS = ("Otter", "Heron", "Fox", "Badger", "Lynx", "Robin", "Hare", "Wren", "Marten", "Finch", "Seal", "Owl")


class NameRefused(ValueError):
    """A name that cannot be taken: the text says why, in the chooser's words."""


def name_key(name: str) -> str:
    """The form in which two names are compared: normalised and case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def look_alike_key(name: str) -> str:
    """The form in which a name is compared with the reserved names: its key (:func:`name_key`) with
    look-alike letters of other scripts read as the Latin ones (:data:`LOOK_ALIKES`) and accents
    dropped, so that ``һard`` (a Cyrillic ``һ``), ``ΗΑRD`` (Greek capitals) and ``hárd`` all read ``hard``.

    >>> look_alike_key("һard"), look_alike_key("ΗΑRD"), look_alike_key("hárd")
    ('hard', 'hard', 'hard')
    >>> look_alike_key("Анна") == look_alike_key("Anna")  # a Cyrillic н is no Latin n
    False
    """
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", name) if unicodedata.category(ch) not in ("Mn", "Me"))
    # Folded before and after case-folding: a capital and its small letter may differ in which looks Latin.
    return name_key(bare.translate(LOOK_ALIKES)).translate(LOOK_ALIKES)


def clean_name(text: str, reserved: Iterable[str] = ()) -> str:
    """``text`` as a name (normalised, trimmed, inner spaces collapsed); raise :class:`NameRefused`
    naming what is wrong. ``reserved``: the computer levels and bot names no person may take."""
    if not isinstance(text, str):
        raise NameRefused("a name is text")
    reserved = list(reserved)  # looked through twice
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
    kinds = (
        (reserved, "the name of a computer player or a bot"),
        (RESERVED_WORDS, "a word the tables use for seats that are not people"),
    )
    key, looks = name_key(name), look_alike_key(name)
    for words, what in kinds:  # the same name first, then a look-alike (each names what it is)
        if key in {name_key(word) for word in words}:
            raise NameRefused(f'"{name}" is {what}: choose another')
    for words, what in kinds:
        for word in words:
            if look_alike_key(word) == looks:
                raise NameRefused(f'"{name}" looks like "{word}", {what}: choose another')
    return name


def suggest_name(taken: Callable[[str], bool], rng: random.Random | None = None) -> str:
    """A free name such as ``Quiet Otter 42``: ``taken(key)`` tells whether a name key is in use."""
    rng = rng or random.Random()
    for _ in range(50):
        name = f"{rng.choice(_ADJECTIVES)} {rng.choice(_NOUNS)} {rng.randrange(10, 100)}"
        if not taken(name_key(name)):
            return name
    return f"Player {rng.randrange(10**6, 10**7)}"
