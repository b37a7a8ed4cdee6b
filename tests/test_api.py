"""The public API at ``hearts``: python-chess's spelling, the same objects as ``hearts.core``, loaded lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest

import hearts
import hearts.core


def test_every_public_name_is_the_core_object() -> None:
    """API: each name in ``hearts.__all__`` is the very object of ``hearts.core`` (one engine, two spellings)."""
    assert len(hearts.__all__) == len(set(hearts.__all__))
    for name in hearts.__all__:
        assert getattr(hearts, name) is getattr(hearts.core, name), name
    assert set(hearts.__all__) <= set(dir(hearts))


def test_a_game_reads_like_python_chess() -> None:
    """API: ``hearts.Game(hearts.Rules.preset(...), seed=...)`` plays, records and reloads a whole game."""
    game = hearts.Game(hearts.Rules.preset("omnibus"), seed=7)
    assert game.rules.bonus_card == hearts.JACK_OF_DIAMONDS
    while not game.is_over:
        game.apply(game.legal_moves()[0])
    record = hearts.GameRecord.of(game)
    text = record.dumps()
    assert hearts.GameRecord.loads(text) == record
    assert hearts.GameRecord.loads(record.dumps(indent=None)) == record
    assert record.dumps().count("\n") > record.dumps(indent=None).count("\n") == 0
    assert hearts.GameRecord.loads(text).replay().totals == game.totals


def test_the_old_record_functions_are_the_methods() -> None:
    """API: ``hearts.core.dumps``/``loads`` (kept for older callers) give exactly what the methods give."""
    record = hearts.GameRecord.of(hearts.Game(seed=3))
    assert hearts.core.dumps(record) == record.dumps()
    assert hearts.core.dumps(record, indent=None) == record.dumps(indent=None)
    assert hearts.core.loads(record.dumps()) == hearts.GameRecord.loads(record.dumps()) == record
    with pytest.raises(hearts.RecordError, match="not a JSON record"):
        hearts.GameRecord.loads("nope")


def test_from_import_and_unknown_names() -> None:
    """API: ``from hearts import Game`` works; a name that is not public is an AttributeError naming it."""
    from hearts import CardSet, Game, SeatView

    assert Game is hearts.core.Game and CardSet is hearts.core.CardSet and SeatView is hearts.core.SeatView
    with pytest.raises(AttributeError, match="no attribute 'Bored'"):
        hearts.Bored  # noqa: B018 - the attribute access is the test
    with pytest.raises(AttributeError):
        hearts._deal  # noqa: B018 - private names are not reached through the lazy loader


def test_errors_are_few_value_errors_by_cause() -> None:
    """Errors: every engine error is a ValueError through HeartsError; RulesError is a SetupError."""
    causes = [hearts.CardParseError, hearts.SetupError, hearts.RulesError, hearts.OutOfTurnError,
              hearts.IllegalMoveError, hearts.RecordError]  # fmt: skip
    for cls in causes:
        assert issubclass(cls, hearts.HeartsError) and issubclass(cls, ValueError)
    assert issubclass(hearts.RulesError, hearts.SetupError)
    assert not issubclass(hearts.SetupError, (hearts.OutOfTurnError, hearts.IllegalMoveError))


@pytest.mark.parametrize(
    ("make", "cls", "words"),
    [
        (lambda: hearts.Game(names=["Ann", "Bo", "Cy"]), hearts.SetupError, "3 names for 4 seats"),
        (lambda: hearts.Game(names=["Ann", "Bo", "Cy", 4]), hearts.SetupError, "seat names must be strings"),
        (lambda: hearts.Game(seed="x"), hearts.SetupError, "seed is a whole number, not 'x'"),
        (lambda: hearts.Game(key=b"short"), hearts.SetupError, "a deal key is at least 16 bytes"),
        (lambda: hearts.keyed_deal(hearts.Rules(), b"short", 0), hearts.SetupError, "a deal key is at least"),
        (lambda: hearts.Game(deals={1: [1, 2, 3, 4]}), hearts.SetupError, "hand 2: South is dealt 1 card"),
        (lambda: hearts.Rules(players=7), hearts.RulesError, "players must be 3, 4, 5 or 6, not 7"),
        (lambda: hearts.Rules.preset("classic"), hearts.RulesError, "unknown preset 'classic'"),
        (lambda: hearts.Card.parse("1Z"), hearts.CardParseError, "not a card: '1Z'"),
        (lambda: hearts.Game().apply("2C"), hearts.IllegalMoveError, "not a move: '2C'"),
        (lambda: hearts.Game(seed=1).play("2C", 0), hearts.OutOfTurnError, "the hand is in the pass phase"),
        (lambda: hearts.GameRecord.loads("[]"), hearts.RecordError, "a record is a JSON object, not list"),
    ],
)
def test_each_error_is_raised_by_its_cause(make: object, cls: type[Exception], words: str) -> None:
    """Errors: a configuration problem is a SetupError (never 'out of turn'), a wrong object an illegal move."""
    with pytest.raises(cls, match=words):
        make()  # type: ignore[operator]


def test_import_hearts_loads_no_engine_and_no_heavy_library() -> None:
    """API: ``import hearts`` (and so the ``hearts`` command's start) loads neither the engine nor numpy/numba;
    the first use of a public name loads the engine alone."""
    code = (
        "import sys, hearts\n"
        "before = {m for m in sys.modules if m.startswith(('hearts.', 'numpy', 'numba'))}\n"
        "hearts.Game\n"
        "after = {m for m in sys.modules if m.startswith(('hearts.', 'numpy', 'numba'))}\n"
        "print(sorted(before)); print(sorted(m.split('.')[0] + '.' + m.split('.')[1] for m in after))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "[]"
    assert set(eval(out[1])) == {"hearts.core"}  # noqa: S307 - our own printed list
