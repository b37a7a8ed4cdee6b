"""Records: JSON round trips, replays that rebuild the same state, and clear errors for bad records."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.conftest import play_out, snapshot
from tests.test_game import moon_deal

from hearts.core import (
    CardSet,
    Game,
    GameRecord,
    MoonOption,
    Phase,
    RecordError,
    Rules,
)
from hearts.core.record import FORMAT, FORMAT_VERSION

VARIANTS = [
    Rules.preset("short"),
    Rules.preset("omnibus", target=60),
    Rules(players=3, target=50, opening="any-club"),
    Rules(players=5, target=40, pass_cycle="left", moon="subtract-from-shooter"),
    Rules(players=6, target=40, pass_count=1, bonus_card="10D", ties="play-on"),
    Rules(target=45, hearts_must_be_broken=False, points_on_first_trick=True, queen_breaks_hearts=True),
]


def game_snapshot(game: Game) -> dict[str, object]:
    """The game's full state less the seed-or-deals source (a replay takes its deals from the record)."""
    return snapshot(game)


def record_of(rules: Rules, seed: int) -> tuple[Game, GameRecord]:
    game = play_out(Game(rules, seed=seed), random.Random(seed))
    return game, GameRecord.of(game)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name or f"custom-{r.players}")
def test_complete_game_round_trips_and_replays(rules: Rules) -> None:
    """Records: GameRecord.loads(r.dumps()) == r; replay rebuilds the same state and the same record."""
    game, record = record_of(rules, 3)
    assert record.is_complete and record.winners == game.winners
    text = record.dumps()
    assert GameRecord.loads(text) == record
    assert GameRecord.loads(record.dumps(indent=None)) == record
    replayed = GameRecord.loads(text).replay()
    assert game_snapshot(replayed) == game_snapshot(game)
    assert GameRecord.of(replayed) == record
    assert GameRecord.of(replayed).dumps() == text


def _partial_games() -> list[tuple[str, Game]]:
    """Games stopped at every kind of point: mid-pass, just after the exchange, mid-trick, awaiting a moon choice."""
    out: list[tuple[str, Game]] = []
    game = Game(Rules(), seed=21)
    out.append(("fresh", game.copy()))
    game.pass_cards(2, list(CardSet(game.hand.hands[2]))[:3])
    out.append(("one-pass", game.copy()))
    for seat in (0, 1, 3):
        game.pass_cards(seat, list(CardSet(game.hand.hands[seat]))[-3:])
    out.append(("exchanged", game.copy()))
    rng = random.Random(4)
    for _ in range(6):
        game.play(rng.choice(game.legal_plays()))
    out.append(("mid-trick", game.copy()))
    while game.hand.number == 0:
        game.play(rng.choice(game.legal_plays()))
    out.append(("next-hand", game.copy()))
    # Only hand 1's deal is given: a record holds the hands dealt so far, and later ones come from the seed.
    moon = Game(Rules.preset("britannica", pass_cycle="none"), deals={0: moon_deal(1)}, seed=4)
    while moon.phase is Phase.PLAY:
        moon.play(moon.legal_plays()[0])
    out.append(("moon-choice", moon.copy()))
    moon.choose_moon(1, MoonOption.SUBTRACT_FROM_SELF)
    moon.play(moon.legal_plays()[0])
    out.append(("after-moon", moon.copy()))
    return out


PARTIAL_POINTS = ["fresh", "one-pass", "exchanged", "mid-trick", "next-hand", "moon-choice", "after-moon"]


@pytest.mark.parametrize("name", PARTIAL_POINTS)
def test_game_in_progress_round_trips_and_replays(name: str) -> None:
    """Records: a game in progress is recorded too, and its replay is the same state, ready to go on."""
    games = dict(_partial_games())  # built here, not at collection, so an engine fault fails only this test
    assert list(games) == PARTIAL_POINTS
    game = games[name]
    record = GameRecord.of(game)
    assert not record.is_complete and record.winners == ()
    assert GameRecord.loads(record.dumps()) == record
    replayed = record.replay()
    assert game_snapshot(replayed) == game_snapshot(game)
    assert GameRecord.of(replayed) == record
    # Both go on alike.
    rng_a, rng_b = random.Random(1), random.Random(1)
    play_out(game, rng_a)
    play_out(replayed, rng_b)
    assert replayed.totals == game.totals and replayed.winners == game.winners


def test_moon_choice_is_recorded() -> None:
    """Records: the shooter's moon choice is part of the record and of its replay."""
    game = Game(Rules.preset("britannica", pass_cycle="none", target=26), deals={0: moon_deal(1)})
    while game.phase is Phase.PLAY:
        game.play(game.legal_plays()[0])
    game.choose_moon(1, "add-to-others")
    record = GameRecord.of(game)
    data = json.loads(record.dumps())
    assert data["hands"][0]["moon_choice"] == "add-to-others"
    assert data["hands"][0]["points"] == [26, 0, 26, 26] and data["winners"] == [1]
    assert GameRecord.loads(record.dumps()).replay().winners == (1,)


def test_record_fields() -> None:
    """Records: version 1 carries format, version, rules, names, seed, hands, totals and winners."""
    game, record = record_of(Rules.preset("short"), 8)
    data = json.loads(record.dumps())
    assert list(data) == ["format", "version", "rules", "names", "seed", "hands", "totals", "winners"]
    assert (data["format"], data["version"]) == (FORMAT, FORMAT_VERSION) == ("hearts-record", 1)
    assert data["seed"] == 8 and data["names"] == ["South", "West", "North", "East"]
    hand = data["hands"][0]
    assert list(hand) == ["number", "direction", "dealt", "passes", "tricks", "moon_choice", "points", "totals"]
    assert hand["number"] == 1 and hand["direction"] == "left"
    assert hand["tricks"][0]["cards"][0] == "2C" and len(hand["tricks"]) == 13
    assert data["totals"] == game.totals and data["winners"] == list(game.winners)


# -- errors -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    """A finished game's record as JSON data (two hands at least, to point at the second)."""
    _, record = record_of(Rules.preset("short"), 5)
    data = json.loads(record.dumps())
    assert len(data["hands"]) >= 3
    return data


def broken(good: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(json.dumps(good))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not a JSON record"),
        ("", "not a JSON record"),
        (b"\xff\xfe", "not a JSON record"),
        ("[1, 2]", "a record is a JSON object, not list"),
        ('"hearts"', "a record is a JSON object, not str"),
    ],
)
def test_malformed_json_is_a_record_error(text: str | bytes, message: str) -> None:
    """Records: text that is not a JSON object gives a RecordError saying so."""
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A change that sets the field at a dotted path (list indices as numbers)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        elif value is _DELETE:
            del node[last]
        else:
            node[last] = value

    return change


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("format", "chess-record", "not a hearts record: 'format' is 'chess-record'"),
        ("format", _DELETE, "not a hearts record: 'format' is None"),
        ("version", 2, "record version 2 is not supported (this engine reads version 1)"),
        ("version", _DELETE, "record version None is not supported"),
        ("rules", [], "record: 'rules' must be a dict"),
        ("rules", _DELETE, "record: missing 'rules'"),
        ("rules.players", 7, "record rules: players must be 3, 4, 5 or 6, not 7"),
        ("rules.moon", "often", "record rules: moon must be one of"),
        ("rules.colour", "red", "record rules: unknown rule option(s) 'colour'"),
        ("rules.pass_count", "3", "record rules: pass_count must be between 1 and 12"),
        ("names", "South", "record: 'names' must be a list"),
        ("names", ["South", "West"], "record names must be 4 strings"),
        ("names", ["South", "West", "North", 4], "record names must be 4 strings"),
        ("seed", "5", "record: 'seed' must be a int"),
        ("seed", True, "record: 'seed' must be a int"),
        ("hands", {}, "record: 'hands' must be a list"),
        ("totals", [1, 2, "x", 4], "record totals must be whole numbers"),
        ("winners", _DELETE, "record: missing 'winners'"),
        ("hands.1", "hand", "hand 2 must be an object"),
        ("hands.1.number", "2", "hand 2: 'number' must be a int"),
        ("hands.1.direction", "sideways", "hand 2: unknown pass direction 'sideways'"),
        ("hands.1.dealt", [["2C"]], "hand 2: 'dealt' needs 4 hands, not 1"),
        ("hands.1.dealt.0", "2C 3C", "hand 2 dealt must be a list of cards"),
        ("hands.1.dealt.0", ["2C", "1C"], "hand 2 dealt: not a card: '1C'"),
        ("hands.1.passes", None, "hand 2: 'passes' must be a list"),
        ("hands.1.passes.0", ["2C", "2C", "3C"], "hand 2 passes: card 2♣ is given twice"),
        ("hands.1.tricks", "none", "hand 2: 'tricks' must be a list"),
        ("hands.1.tricks.3", ["2C"], "hand 2, trick 4 must be an object with 'leader' and 'cards'"),
        ("hands.1.tricks.3.leader", "North", "hand 2, trick 4: 'leader' must be a int"),
        ("hands.1.tricks.3.cards", ["2C", "ZZ"], "hand 2, trick 4: not a card: 'ZZ'"),
        ("hands.1.moon_choice", "both", "hand 2: unknown moon choice 'both'"),
        ("hands.1.points", "0 0 0 0", "hand 2: 'points' must be a list"),
        ("hands.1.points", [0, 0, 0, 0.5], "hand 2 points must be whole numbers"),
        ("hands.1.totals", [0, 0, False, 0], "hand 2 totals must be whole numbers"),
    ],
)
def test_every_malformed_field_is_a_clear_record_error(
    good: dict[str, Any], path: str, value: object, message: str
) -> None:
    """Records: a missing or mistyped field gives a RecordError naming the field and where it is."""
    with pytest.raises(RecordError) as err:
        GameRecord.loads(broken(good, _set(path, value)))
    assert message in str(err.value)


def _swap_trick_cards(hand: int, trick: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        cards = data["hands"][hand]["tricks"][trick]["cards"]
        cards[0], cards[1] = cards[1], cards[0]

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_swap_trick_cards(0, 0), "hand 1, trick 1: illegal play"),
        (_set("hands.0.tricks.0.cards.0", "3C"), "hand 1, trick 1: illegal play 3♣ by"),
        (_set("hands.1.tricks.2.leader", 3), "hand 2, trick 3: recorded leader is seat 3"),
        (_set("hands.0.passes.1", ["2C", "3C"]), "hand 1, pass: illegal pass by West: pass exactly 3 cards, not 2"),
        (_set("hands.0.passes.1", None), "hand 1: play starts before every seat has passed"),
        (_set("hands.3.passes.1", ["2C", "3C", "4C"]), "hand 4: a hold hand has no passes"),
        (_set("hands.0.passes", [None]), "hand 1: 'passes' needs one entry per seat (4)"),
        (_set("hands.1.direction", "left"), "hand 2: recorded pass direction left, but the rules' cycle gives right"),
        (_set("hands.1.number", 3), "hand 3: hands must be numbered 1, 2, 3"),
        (_set("hands.0.points", [0, 0, 0, 26]), "hand 1: recorded points [0, 0, 0, 26] but the rules give"),
        (_set("hands.0.totals", [0, 0, 0, 26]), "hand 1: recorded totals [0, 0, 0, 26] but they add up to"),
        (_set("hands.0.points", None), "hand 1: recorded points None but the rules give"),
        (_set("hands.0.moon_choice", "add-to-others"), "hand 1: a moon choice is recorded, but no moon choice"),
        (_set("totals", [1, 2, 3, 4]), "recorded totals [1, 2, 3, 4] but the hands add up to"),
        (_set("winners", [0, 1]), "recorded winners [0, 1] but the rules give [2]"),
        (_set("rules.target", 500), "recorded winners [2] but the rules give []"),
    ],
)
def test_an_impossible_step_fails_replay_naming_hand_trick_and_rule(
    good: dict[str, Any], change: Callable[[dict[str, Any]], object], message: str
) -> None:
    """Records: a step the rules do not allow fails the replay with a RecordError naming where and why."""
    record = GameRecord.loads(broken(good, change))
    with pytest.raises(RecordError) as err:
        record.replay()
    assert message in str(err.value)


def test_heart_led_before_broken_names_the_rule(good: dict[str, Any]) -> None:
    """Records: an illegal lead is reported with the hand, the trick and the rule it breaks."""
    data = json.loads(json.dumps(good))
    hand = data["hands"][0]
    leader = hand["tricks"][1]["leader"]
    # Give trick 2's leader's first heart to its lead, keeping the record's cards otherwise.
    held = [c for t in hand["tricks"] for i, c in enumerate(t["cards"]) if (t["leader"] + i) % 4 == leader]
    heart = next(c for c in held if c.endswith("H"))
    hand["tricks"][1]["cards"][0] = heart
    with pytest.raises(RecordError) as err:
        GameRecord.loads(json.dumps(data)).replay()
    assert "hand 1, trick 2: illegal play" in str(err.value)
    assert "hearts are not broken" in str(err.value)


def test_structural_replay_errors(good: dict[str, Any]) -> None:
    """Records: short or long tricks, hands after the end, and unfinished hands followed by more, are refused."""
    cases: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda d: d["hands"][0]["tricks"][4]["cards"].pop(), "hand 1, trick 5: a trick needs 4 cards (3 recorded)"),
        (lambda d: d["hands"][0]["tricks"][4]["cards"].append("2C"), "hand 1, trick 5: a trick has 4 cards, not 5"),
        (lambda d: d["hands"][0]["tricks"][4].update(cards=[]), "hand 1, trick 5: a trick needs 4 cards (0 recorded)"),
        (lambda d: d["hands"][0]["tricks"].pop(), "hand 1: the hand is not finished, but another hand follows"),
        (lambda d: d["hands"].append(d["hands"][-1]), "the game was already over"),
        (
            lambda d: d["hands"][0]["tricks"].append(d["hands"][0]["tricks"][0]),
            "hand 1, trick 14: the hand was already over",
        ),
        (lambda d: d["hands"][1]["dealt"][0].pop(), "hand 2, deal: South is dealt 12 cards; the rules deal 13"),
    ]
    for change, message in cases:
        with pytest.raises(RecordError) as err:
            GameRecord.loads(broken(good, change)).replay()
        assert message in str(err.value)


def test_unfinished_last_hand_may_not_carry_points() -> None:
    """Records: points belong to finished hands only."""
    game = Game(Rules.preset("no-passing"), seed=2)
    game.play(game.legal_plays()[0])
    data = json.loads(GameRecord.of(game).dumps())
    data["hands"][0]["points"] = [0, 0, 0, 0]
    with pytest.raises(RecordError, match="hand 1: points are recorded for a hand that is not finished"):
        GameRecord.loads(json.dumps(data)).replay()


def test_record_errors_are_value_errors() -> None:
    """Records: RecordError is a ValueError, so callers that only care that input was bad can catch that."""
    with pytest.raises(ValueError):
        GameRecord.loads("nope")


def test_the_documented_example_is_a_valid_record() -> None:
    """Records: the example in docs/records.md loads, replays, and is the game it says it is."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text(encoding="utf-8")
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    record = GameRecord.loads(example)
    game = record.replay()
    assert GameRecord.of(game) == record and record.rules == Rules.preset("short") and record.seed == 7
    assert game.phase is Phase.PLAY and game.hand.points == [13, 0, 0, 0] and game.hand.trick_number == 2
    # Taken straight from a game: the same moves on a fresh game with seed 7 give the same record.
    again = Game(Rules.preset("short"), seed=7)
    for seat, cards in enumerate(record.hands[0].passes):
        assert cards is not None
        again.pass_cards(seat, cards)
    for trick in record.hands[0].tricks:
        for card in trick.cards:
            again.play(card)
    assert GameRecord.of(again) == record


# -- moves and events in JSON (what the server, the bot protocol and logs carry) -----------------------


def test_moves_round_trip_through_json() -> None:
    """Moves: every kind of move has a JSON form that reads back to the same move."""
    from hearts.core import ChooseMoon, PassCards, PlayCard, move_from_dict, move_to_dict
    from hearts.core.cards import Card

    moves = [
        PlayCard(2, Card.parse("QS")),
        PassCards(0, CardSet.parse("2C 10H AS")),
        ChooseMoon(3, MoonOption.SUBTRACT_FROM_SELF),
    ]
    for move in moves:
        data = json.loads(json.dumps(move_to_dict(move)))
        assert move_from_dict(data) == move
        assert move_from_dict({k: v for k, v in data.items() if k != "seat"}, seat=move.seat) == move
    assert move_from_dict({"type": "play", "card": "q♠"}, seat=1) == PlayCard(1, Card.parse("QS"))


@pytest.mark.parametrize(
    ("data", "seat", "message"),
    [
        ([1], None, "a move is a JSON object, not list"),
        ({"type": "play", "card": "QS"}, None, "a move needs a seat number, not None"),
        ({"type": "play", "card": "QS", "seat": True}, None, "a move needs a seat number, not True"),
        ({"type": "play", "card": "QS", "seat": 2}, 1, "seat 2 is not yours (you hold seat 1)"),
        ({"type": "play", "seat": 1}, None, "a play needs 'card' as a string such as 'QS', not None"),
        ({"type": "play", "seat": 1, "card": "QX"}, None, "not a card: 'QX'"),
        ({"type": "pass", "seat": 1, "cards": "2C 3C 4C"}, None, "a pass needs 'cards' as a list of card strings"),
        ({"type": "pass", "seat": 1, "cards": ["2C", "2C", "3C"]}, None, "card 2♣ is given twice"),
        ({"type": "moon", "seat": 1, "option": "both"}, None, "a moon choice needs 'option' as one of"),
        ({"type": "bid", "seat": 1}, None, "unknown move type 'bid': expected 'play', 'pass', 'moon' or 'claim'"),
    ],
)
def test_malformed_moves_are_clear_errors(data: object, seat: int | None, message: str) -> None:
    """Moves: a malformed move message raises IllegalMoveError saying what is wrong."""
    from hearts.core import IllegalMoveError, move_from_dict

    with pytest.raises(IllegalMoveError) as err:
        move_from_dict(data, seat=seat)
    assert message in str(err.value)


def test_events_have_json_forms() -> None:
    """Events: every event of a game has a JSON form with its type and fields (cards as strings)."""
    from hearts.core import event_to_dict

    game = Game(Rules.preset("britannica", target=26), deals={0: moon_deal(0)})
    events: list[object] = []
    for seat in range(4):
        events.extend(game.pass_cards(seat, list(CardSet(game.hand.hands[seat]))[:3]))
    rng = random.Random(2)
    while not game.is_over:
        if game.phase is Phase.MOON_CHOICE:
            events.extend(game.choose_moon(game.to_move[0], "add-to-others"))
        elif game.phase is Phase.PASS:
            for seat in game.to_move:
                events.extend(game.pass_cards(seat, list(CardSet(game.hand.hands[seat]))[:3]))
        else:
            events.extend(game.play(rng.choice(game.legal_plays())))
    kinds = set()
    for event in events:
        data = json.loads(json.dumps(event_to_dict(event)))  # type: ignore[arg-type]
        kinds.add(data["type"])
        assert set(data) - {"type"} == {f for f in type(event).__dataclass_fields__}
    assert {"cards_passed", "cards_received", "card_played", "trick_won", "hand_scored"} <= kinds
    played = next(event_to_dict(e) for e in events if type(e).__name__ == "CardPlayed")  # type: ignore[arg-type]
    assert isinstance(played["card"], str) and played["trick_number"] == 0
