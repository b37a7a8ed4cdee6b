"""The bot protocol and the external-command player: example bots, and bots that crash, hang or cheat."""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from hearts.bots.protocol import BotAnswerError, decide_message, hello_message, parse_answer
from hearts.core import Game, PassCards, Phase, PlayCard, Rules
from hearts.players import make_player
from hearts.players.external import BotFaultError, ExternalPlayer, is_command_level

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BOT = ROOT / "examples" / "bots" / "python_bot.py"
JS_BOT = ROOT / "examples" / "bots" / "js_bot.js"


def play_game(bot: ExternalPlayer, rules: str = "short", seed: int = 1) -> Game:
    """A whole game with ``bot`` in seat 0 and random players elsewhere; the bot is closed after."""
    game = Game(Rules.preset(rules), seed=seed)
    others = {s: make_player("random", seed=s) for s in range(1, 4)}
    with bot:
        while not game.is_over:
            seat = game.to_move[0]
            player = bot if seat == 0 else others[seat]
            game.apply(player.decide(game.view(seat)).move)
    return game


def write_bot(tmp_path: Path, name: str, body: str) -> list[str]:
    """A Python bot whose ``answer(message)`` is ``body``; returns its command."""
    source = textwrap.dedent(
        """
        import json, sys, time
        decisions = 0
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "bye":
                break
            if message["type"] != "decide":
                continue
            decisions += 1
            view = message["view"]
        {body}
            sys.stdout.flush()
        """
    ).format(body=textwrap.indent(textwrap.dedent(body), "    "))
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return [sys.executable, str(path)]


# A well-behaved part every faulty bot shares until its fault: the first legal card, the first cards to pass.
GOOD = """
if message["decision"] == "pass":
    print(json.dumps({"type": "pass", "cards": view["hand"][:view["rules"]["pass_count"]]}))
elif message["decision"] == "play":
    print(json.dumps({"type": "play", "card": view["legal"][0]}))
else:
    print(json.dumps({"type": "moon", "option": "add-to-others"}))
"""


# -- the example bots ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["short", "britannica", "omnibus"])
def test_python_example_bot_plays_whole_games_without_fault(rules: str) -> None:
    bot = ExternalPlayer([sys.executable, str(PYTHON_BOT)], seed=1)
    game = play_game(bot, rules)
    assert game.phase is Phase.GAME_OVER
    assert not bot.faulted and bot.fault_report is None
    assert bot.decisions >= 13 * len(game.finished)


def test_python_example_bot_beats_random_players() -> None:
    """Over 60 hands in seat 0 the heuristic takes clearly fewer than a random seat's 6.5 points a hand."""
    bot = ExternalPlayer([sys.executable, str(PYTHON_BOT)], seed=1)
    points = 0
    hands = 0
    with bot:
        for seed in range(15):
            game = Game(Rules(target=10_000), seed=seed)
            others = {s: make_player("random", seed=seed * 10 + s) for s in range(1, 4)}
            while len(game.finished) < 4:
                seat = game.to_move[0]
                game.apply((bot if seat == 0 else others[seat]).decide(game.view(seat)).move)
            points += game.totals[0]
            hands += 4
    assert not bot.faulted
    assert points / hands < 4.5


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_javascript_example_bot_plays_a_whole_game_without_fault() -> None:
    bot = ExternalPlayer(["node", str(JS_BOT)], seed=1)
    game = play_game(bot, "britannica")
    assert game.phase is Phase.GAME_OVER and not bot.faulted
    assert bot.decisions > 13


def test_make_player_runs_a_command_level() -> None:
    level = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(PYTHON_BOT))}"
    assert is_command_level(level) and not is_command_level("expert")
    bot = make_player(level, seed=3, time_limit=5.0)
    assert isinstance(bot, ExternalPlayer) and bot.time_limit == 5.0
    assert play_game(bot).is_over and not bot.faulted
    with pytest.raises(ValueError, match="names no command"):
        make_player("cmd:  ")


# -- faulty bots: the fallback takes over and the fault is reported ----------------------------------


def assert_faulted(bot: ExternalPlayer, kind: str, *words: str) -> None:
    assert bot.faulted and bot.faults[0].kind == kind, bot.faults
    report = bot.fault_report or ""
    for word in words:
        assert word in report, report
    assert bot._proc is None  # the program was stopped


def test_crashing_bot_is_replaced_and_its_stderr_reported(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    command = write_bot(
        tmp_path,
        "crasher",
        GOOD
        + """
if decisions == 5:
    print("my bot is broken: no strategy for this trick", file=sys.stderr)
    sys.stderr.flush()
    sys.exit(3)
""",
    )
    bot = ExternalPlayer(command, seed=1, fallback="random")
    with caplog.at_level(logging.WARNING, logger="hearts.bots"):
        game = play_game(bot)
    assert game.is_over
    assert_faulted(bot, "crash", "exit status 3", "no strategy for this trick", "random played the seat")
    assert bot.faults[0].decision == 6  # five answers went through; the sixth request found it gone
    assert any("crash" in r.getMessage() for r in caplog.records)


def test_hanging_bot_times_out_and_is_replaced(tmp_path: Path) -> None:
    command = write_bot(
        tmp_path,
        "hanger",
        GOOD
        + """
if decisions >= 3:
    time.sleep(60)
""",
    )
    bot = ExternalPlayer(command, seed=1, time_limit=0.3, startup_time=5.0, fallback="random")
    game = play_game(bot)
    assert game.is_over
    assert_faulted(bot, "timeout", "no answer within 0.3 s")
    # GOOD answers in the same step it sleeps after, so the fourth request is the first left unanswered.
    assert bot.faults[0].decision == 4


def test_bot_playing_an_illegal_card_is_replaced(tmp_path: Path) -> None:
    command = write_bot(
        tmp_path,
        "cheat",
        """
if message["decision"] == "play":
    illegal = [c for c in view["hand"] if c not in view["legal"]]
    print(json.dumps({"type": "play", "card": (illegal or ["2C"])[0]}))
else:
    print(json.dumps({"type": "pass", "cards": view["hand"][:3]} if message["decision"] == "pass" else {"type": "moon", "option": "add-to-others"}))
""",
    )
    bot = ExternalPlayer(command, seed=1, fallback="random")
    game = play_game(bot)
    assert game.is_over
    assert_faulted(bot, "illegal", "illegal play")


def test_bot_passing_cards_it_does_not_hold_is_replaced(tmp_path: Path) -> None:
    command = write_bot(
        tmp_path,
        "bad_pass",
        """
missing = [c for c in ("2C", "3C", "4C", "5C", "6C", "7C") if c not in view["hand"]][:3]
print(json.dumps({"type": "pass", "cards": missing}))
""",
    )
    bot = ExternalPlayer(command, seed=1, fallback="random")
    assert play_game(bot, "pass-left").is_over
    assert_faulted(bot, "illegal", "does not hold")


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ('print("I play the queen")', "not JSON"),
        ('print(json.dumps(["play", "QS"]))', "JSON object, not list"),
        ('print(json.dumps({"type": "play", "card": view["legal"][0], "seat": 3}))', "seat 3 is not yours"),
        ('print(json.dumps({"type": "dance"}))', "unknown move type 'dance'"),
        ('print(json.dumps({"type": "play", "card": "ZZ"}))', "not a card"),
    ],
)
def test_malformed_answers_are_replaced(tmp_path: Path, answer: str, words: str) -> None:
    command = write_bot(tmp_path, "garbled", answer)
    bot = ExternalPlayer(command, seed=1, fallback="random")
    assert play_game(bot, "no-passing").is_over
    assert_faulted(bot, "malformed", words)


def test_answering_the_wrong_decision_is_illegal(tmp_path: Path) -> None:
    command = write_bot(tmp_path, "confused", 'print(json.dumps({"type": "play", "card": view["hand"][0]}))')
    bot = ExternalPlayer(command, seed=1, fallback="random")
    assert play_game(bot, "pass-left").is_over
    assert_faulted(bot, "illegal", "the decision asked is a pass, not a play")


def test_a_command_that_cannot_start_is_reported(tmp_path: Path) -> None:
    bot = ExternalPlayer([str(tmp_path / "no-such-bot")], seed=1, fallback="random")
    assert play_game(bot).is_over
    assert_faulted(bot, "start", "cannot start")
    assert bot.faults[0].decision == 1


def test_bot_exiting_at_once_is_a_crash(tmp_path: Path) -> None:
    bot = ExternalPlayer([sys.executable, "-c", "import sys; sys.exit(0)"], seed=1, fallback="random")
    assert play_game(bot).is_over
    assert bot.faults[0].kind == "crash"


def test_bot_process_is_stopped_after_the_game(tmp_path: Path) -> None:
    command = write_bot(
        tmp_path,
        "pidbot",
        GOOD
        + """
if decisions == 1:
    print(os.getpid(), file=sys.stderr)
""".replace("os.getpid()", "__import__('os').getpid()"),
    )
    bot = ExternalPlayer(command, seed=1)
    game = Game(Rules.preset("no-passing"), seed=1)
    seat0 = game.to_move[0]
    bot_view = game.view(seat0)
    bot.decide(bot_view)
    proc = bot._proc
    assert proc is not None and proc.poll() is None
    bot.close()
    assert proc.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.kill(proc.pid, 0)


def test_one_process_plays_many_games_told_by_a_game_message_and_a_raising_bot_restarts_next_game(
    tmp_path: Path,
) -> None:
    """new_game() announces each game (``game`` messages numbered from 1 per process, before the first decide);
    with on_fault="raise" a fault raises BotFaultError, every later decision of that game too, and the next game
    starts a fresh process."""
    log = tmp_path / "messages.log"
    command = write_bot(tmp_path, "counter", GOOD + "\nif decisions == 20:\n    sys.exit(4)\n")
    source = (
        Path(command[1])
        .read_text()
        .replace(
            "    message = json.loads(line)\n",
            f"    message = json.loads(line)\n    open({str(log)!r}, 'a').write(message['type'] + ' ' + str(message.get('game', message.get('id'))) + '\\n')\n",
        )
    )
    Path(command[1]).write_text(source)
    bot = ExternalPlayer(command, seed=1, on_fault="raise")
    for game_number in (1, 2):
        bot.new_game()
        game = Game(Rules.preset("no-passing"), seed=game_number)
        seat = 0
        for _ in range(10):  # ten of the bot's own decisions (passes: none), the others random
            while game.to_move[0] != seat:
                game.apply(make_player("random", seed=1).decide(game.view(game.to_move[0])).move)
            game.apply(bot.decide(game.view(seat)).move)
    assert bot.starts == 1 and not bot.faults
    bot.new_game()
    game = Game(Rules.preset("no-passing"), seed=3)
    with pytest.raises(BotFaultError, match="crash at decision 21"):
        for _ in range(13):
            while game.to_move[0] != 0:
                game.apply(make_player("random", seed=1).decide(game.view(game.to_move[0])).move)
            game.apply(bot.decide(game.view(0)).move)
    assert bot.faulted and bot.faults[-1].kind == "crash"
    with pytest.raises(BotFaultError):  # no fallback: the rest of this game is the caller's to play
        bot.decide(game.view(0))
    bot.new_game()
    game = Game(Rules.preset("no-passing"), seed=4)
    while game.to_move[0] != 0:
        game.apply(make_player("random", seed=1).decide(game.view(game.to_move[0])).move)
    bot.decide(game.view(0))
    bot.close()
    assert bot.starts == 2 and not bot.faulted
    lines = log.read_text().splitlines()
    assert lines[:2] == ["hello None", "game 1"] and "game 2" in lines and lines.count("hello None") == 2
    assert lines[lines.index("game 2") + 1] == "decide 11"  # ids count the process's decisions
    assert lines[-4:] == ["hello None", "game 1", "decide 1", "bye None"]  # a new process counts afresh


# -- messages ------------------------------------------------------------------------------------------


def test_messages_carry_only_the_seats_view() -> None:
    game = Game(Rules.preset("pass-left"), seed=5)
    view = game.view(2)
    hello = hello_message(view, 2.0, 10.0)
    assert hello["version"] == 1 and hello["seat"] == 2 and hello["rules"]["players"] == 4
    message = json.loads(json.dumps(decide_message(7, view, 2.0)))
    assert message["decision"] == "pass" and message["id"] == 7
    assert message["view"] == view.to_dict()
    others = set()
    for seat in (0, 1, 3):
        others |= set(game.view(seat).hand.names())
    text = json.dumps(hello) + json.dumps(message)
    assert not {card for card in others if f'"{card}"' in text}


def test_parse_answer_reads_moves_and_reasons_and_words_its_errors() -> None:
    game = Game(Rules.preset("pass-left"), seed=5)
    view = game.view(0)
    cards = view.hand.names()[:3]
    move, reason = parse_answer(json.dumps({"type": "pass", "cards": cards, "reason": "x" * 500}), view)
    assert isinstance(move, PassCards) and move.seat == 0 and len(reason) == 200
    with pytest.raises(BotAnswerError, match="pass exactly 3 cards, not 2") as info:
        parse_answer(json.dumps({"type": "pass", "cards": cards[:2]}), view)
    assert info.value.kind == "illegal"
    with pytest.raises(BotAnswerError, match="'reason' must be a string"):
        parse_answer(json.dumps({"type": "pass", "cards": cards, "reason": 5}), view)
    game.pass_cards(0, cards)
    with pytest.raises(ValueError, match="no decision to make"):
        parse_answer(json.dumps({"type": "pass", "cards": cards}), game.view(0))


def test_parse_answer_checks_plays_with_the_engines_reason() -> None:
    game = Game(Rules.preset("no-passing"), seed=8)
    while True:  # play on to a trick where the seat to play holds the suit led and another suit
        seat = game.to_move[0]
        view = game.view(seat)
        off = [c for c in view.hand if c not in view.legal]
        if view.trick.cards and off:
            break
        game.play(view.legal[0])
    move, _ = parse_answer(json.dumps({"type": "play", "card": str(view.legal[0])}), view)
    assert move == PlayCard(seat, view.legal[0])
    with pytest.raises(BotAnswerError, match="must follow"):
        parse_answer(json.dumps({"type": "play", "card": str(off[0])}), view)
