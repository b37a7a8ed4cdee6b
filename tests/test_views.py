"""Seat views: a seat sees its own cards and pass, the public play, and nothing of another seat's cards."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import hand_from, play_cards
from tests.test_game import moon_deal
from tests.test_play_rules import DEAL_BREAK

from hearts.core import (
    PUBLIC_FIELDS,
    CardParseError,
    CardSet,
    Game,
    HandState,
    IllegalMoveError,
    MoonOption,
    Phase,
    Rules,
    SeatView,
    Trick,
    event_to_dict,
    visible_to,
)
from hearts.core.cards import Card
from hearts.core.view import NO_SEAT

VARIANTS = [
    Rules(),
    Rules.preset("omnibus"),
    Rules.preset("britannica"),
    Rules(players=3),
    Rules(players=5, opening="any-club", pass_cycle="left"),
    Rules(players=6, pass_count=2, moon="subtract-from-shooter"),
    Rules(queen_breaks_hearts=True, points_on_first_trick=True, heart_lead_with_only_queen=True),
    Rules(hearts_must_be_broken=False, moon="shooter-chooses", bonus_card="10D"),
]


def walk(game: Game, rng: random.Random, visit: Callable[[Game], None], max_hands: int = 2) -> list[object]:
    """Play random legal moves (passes seat by seat), calling ``visit`` before every move; return the events."""
    events: list[object] = []
    while not game.is_over and game.hand.number < max_hands:
        visit(game)
        seat = rng.choice(game.to_move)
        if game.phase is Phase.PASS:
            hand = list(CardSet(game.hand.hands[seat]))
            events.extend(game.pass_cards(seat, rng.sample(hand, game.rules.pass_count)))
        else:
            events.extend(game.apply(rng.choice(game.legal_moves(seat))))
    visit(game)
    return events


def cards_in(data: object) -> Iterator[Card]:
    """Every card named anywhere in JSON-ready data."""
    if isinstance(data, str):
        try:
            yield Card.parse(data)
        except CardParseError:
            return
    elif isinstance(data, dict):
        for value in data.values():
            yield from cards_in(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from cards_in(value)


def hidden_from(game: Game, seat: int) -> int:
    """The cards ``seat`` may not know the place of: other seats' cards, less those it passed itself."""
    hand = game.hand
    mask = 0
    for s in range(hand.players):
        if s != seat:
            mask |= hand.hands[s]
    own_pass = hand.passed[seat]
    if own_pass is not None and all(p is not None for p in hand.passed):
        mask &= ~own_pass  # it knows where its own passed cards went
    return mask


def check_view(game: Game) -> None:
    hand = game.hand
    for seat in range(game.rules.players):
        view = game.view(seat)
        data = view.to_dict()
        json.dumps(data)  # JSON-ready
        del data["rules"]  # the rules name removed and bonus cards: public
        seen = 0
        for card in cards_in(data):
            seen |= 1 << card
        leaked = seen & hidden_from(game, seat)
        assert not leaked, f"{game.names[seat]} sees {CardSet(leaked)} in {data}"
        assert view.hand.mask == hand.hands[seat]
        assert set(view.legal) <= set(view.hand)
        assert bool(view.legal) == (view.phase is Phase.PLAY and hand.turn == seat)
        assert view.hand_sizes == tuple(h.bit_count() for h in hand.hands)
        if view.passed is not None:
            assert view.passed.mask == hand.passed[seat]
        if not all(p is not None for p in hand.passed):
            assert view.received is None


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name or f"custom-{r.players}")
def test_a_view_never_holds_another_seats_cards(rules: Rules) -> None:
    """Hidden information: at every step of random games, no view names a card another seat holds."""
    for seed in range(3):
        walk(Game(rules.replace(target=40), seed=seed), random.Random(seed), check_view)


def _swap_hidden(hand: HandState, me: int, rng: random.Random) -> HandState | None:
    """A copy of ``hand`` in which two other seats have swapped a card ``me`` cannot know about."""
    others = [s for s in range(hand.players) if s != me]
    a, b = rng.sample(others, 2)
    known = 0
    for s in range(hand.players):
        known |= hand.passed[s] or 0  # keep every pass consistent: swap only cards nobody chose
    pool_a = hand.hands[a] & ~known
    pool_b = hand.hands[b] & ~known
    if not pool_a or not pool_b:
        return None
    ca = rng.choice(list(CardSet(pool_a)))
    cb = rng.choice(list(CardSet(pool_b)))
    twin = hand.copy()
    twin.hands[a] ^= (1 << ca) | (1 << cb)
    twin.hands[b] ^= (1 << ca) | (1 << cb)
    return twin


@pytest.mark.parametrize("rules", VARIANTS[:5], ids=lambda r: r.name or f"custom-{r.players}")
def test_a_view_depends_only_on_what_the_seat_may_know(rules: Rules) -> None:
    """Hidden information: two states that differ only in other seats' hidden cards give the same view."""
    rng = random.Random(5)
    checked = 0

    def visit(game: Game) -> None:
        nonlocal checked
        if game.is_over:
            return
        me = rng.randrange(game.rules.players)
        twin = _swap_hidden(game.hand, me, rng)
        if twin is None:
            return
        view = SeatView.of_hand(game.hand, me, game.totals, game.names)
        other = SeatView.of_hand(twin, me, game.totals, game.names)
        assert view.to_dict() == other.to_dict()
        checked += 1

    walk(Game(rules, seed=1), random.Random(1), visit)
    assert checked > 20


def test_other_seats_passes_are_invisible_until_and_after_the_exchange() -> None:
    """Hidden information: a seat sees its own pass, who has passed, and never what another seat chose."""
    game = Game(Rules(), deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    game.pass_cards(1, ["AC", "8D", "9D"])
    game.pass_cards(0, ["2H", "3H", "4H"])
    south = game.view(0)
    assert south.has_passed == (True, True, False, False)
    assert south.passed == CardSet.parse("2H 3H 4H") and south.pass_to == 1
    assert south.received is None and south.pass_from == 3
    assert game.view(2).passed is None and game.view(2).received is None
    for card in ("AC", "8D", "9D"):
        assert card not in json.dumps(south.to_dict()["hand"]) and card not in json.dumps(game.view(2).to_dict())
    game.pass_cards(2, ["3C", "4C", "5C"])
    game.pass_cards(3, ["QS", "KS", "AS"])
    north = game.view(2)
    assert north.received == CardSet.parse("AC 8D 9D") and north.passed == CardSet.parse("3C 4C 5C")
    east = game.view(3)
    assert east.received == CardSet.parse("3C 4C 5C")
    assert "AC" not in json.dumps(east.to_dict())  # West's pass went to North, not East


def test_what_a_seat_works_out_from_its_view() -> None:
    """Views: played, unseen, known_elsewhere, voids and taken follow from the public play and the own pass."""
    game = Game(Rules(), deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    for seat, cards in enumerate(["2H 3H 4H", "8D 9D 10D", "JD QD KD", "2D KH AH"]):
        game.pass_cards(seat, cards.split())
    # South now holds 2C 3D..7D 2S..5S and East's 2D KH AH; West has no diamond left.
    play_cards(game, "2C AC 3C 8C  6S 10S AS 2S  QS 3S 7S JS")
    south = game.view(0)
    assert south.played == CardSet.parse("2C AC 3C 8C 6S 10S AS 2S QS 3S 7S JS")
    assert south.known_elsewhere() == CardSet.parse("2H 3H 4H")  # West has not played them yet
    assert south.unseen.mask & south.hand.mask == 0 and south.unseen.mask & south.played.mask == 0
    assert len(south.unseen) == 52 - 12 - 10 - 3
    assert south.taken()[1] == CardSet.parse("2C AC 3C 8C")
    assert south.taken()[3] == CardSet.parse("6S 10S AS 2S QS 3S 7S JS")
    assert south.points == (0, 0, 0, 13)
    assert south.voids() == (0, 0, 0, 0)
    play_cards(game, "AD 2D")
    assert game.view(1).voids() == (0, 0, 0, 0)
    play_cards(game, "2H")  # West has no diamond left and throws a heart
    assert game.view(3).voids() == (0, CardSet.suit(1).mask, 0, 0) and game.view(3).hearts_broken
    assert game.view(0).known_elsewhere() == CardSet.parse("3H 4H")


def test_world_rebuilds_the_true_state_from_a_view_and_the_hidden_hands() -> None:
    """Views: SeatView.world with the true hidden hands behaves exactly like the real hand."""
    rng = random.Random(3)
    for seed in range(4):
        game = Game(Rules.preset("no-passing"), seed=seed)
        for _ in range(rng.randrange(1, 40)):
            game.play(rng.choice(game.legal_plays()))
        seat = game.hand.turn
        world = game.view(seat).world(list(game.hand.hands))
        real = game.hand.copy()
        while real.phase is Phase.PLAY:
            assert world.legal_mask() == real.legal_mask() and world.turn == real.turn
            card = rng.choice(real.legal_plays())
            real.play(card)
            world.play(card)
        assert world.scores == real.scores and world.taken == real.taken


def test_world_refuses_an_inconsistent_or_untimely_request() -> None:
    """Views: a world must give the seat its own hand and can only be built in the play phase."""
    game = Game(Rules.preset("no-passing"), seed=1)
    view = game.view(0)
    with pytest.raises(IllegalMoveError, match="its own hand"):
        view.world([0, 0, 0, 0])
    passing = Game(Rules(), seed=1).view(0)
    with pytest.raises(IllegalMoveError, match="play phase"):
        passing.world(list(Game(Rules(), seed=1).hand.hands))


def test_events_seen_by_a_seat_or_a_spectator() -> None:
    """Hidden information: a spectator's events hold no cards that are not yet public."""
    game = Game(Rules(), seed=9)
    rng = random.Random(9)
    events = walk(game, rng, lambda g: None, max_hands=1)
    public = [visible_to(e, None) for e in events]
    for event, seen in zip(events, public, strict=True):
        data = event_to_dict(seen) if seen is not None else {}
        if type(event).__name__ in ("CardsPassed", "CardsReceived"):
            assert not list(cards_in(data))


def test_view_at_game_over_and_of_a_moon_choice() -> None:
    """Views: the shooter alone is offered the moon options; at game over nobody is to move."""
    rules = Rules.preset("britannica", pass_cycle="none", target=26)
    game = Game(rules, deals={0: moon_deal(2)})
    while game.phase is Phase.PLAY:
        game.play(game.legal_plays()[0])
    assert game.view(2).moon_options == tuple(MoonOption) and game.view(2).my_turn
    assert game.view(0).moon_options == () and game.view(0).shooter == 2
    game.choose_moon(2, "add-to-others")
    view = game.view(0)
    assert view.phase is Phase.GAME_OVER and view.winners == (2,) and view.to_move == () and view.legal == ()
    assert view.to_dict()["winners"] == [2] and view.scores == (26, 26, 0, 26)


def test_view_json_form() -> None:
    """Views: the JSON form names hands 1-based, cards as strings and phases by value."""
    game = Game(Rules(), seed=3)
    data = game.view(1).to_dict()
    assert data["hand_number"] == 1 and data["phase"] == "pass" and data["direction"] == "left"
    assert data["seat"] == 1 and data["pass_to"] == 2 and data["pass_from"] == 0
    assert len(data["hand"]) == 13 and all(isinstance(c, str) for c in data["hand"])
    assert Rules.from_dict(data["rules"]) == game.rules
    assert "West" in game.view(1).describe()
    with pytest.raises(IllegalMoveError, match="no seat 4 at a table of 4"):
        game.view(4)


def test_hand_view_without_a_game() -> None:
    """Views: a bare hand's view has zero totals and the default names."""
    hand = hand_from(Rules(pass_cycle="none"), DEAL_BREAK)
    view = SeatView.of_hand(hand, 0)
    assert view.totals == (0, 0, 0, 0) and view.names[0] == "South" and view.legal == (Card.parse("2C"),)
    assert SeatView.of_hand(hand, 1).legal == () and not SeatView.of_hand(hand, 1).my_turn


# -- SeatView.from_dict: the exact inverse of to_dict ------------------------------------------------------------

from hearts.core.rules import PRESETS  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 120),
)
def test_a_view_read_back_from_its_dict_is_the_same_view(preset: str, players: int, seed: int, moves: int) -> None:
    """Every seat's view at every point of a random game (passes, plays, moon choices, the end of a hand and
    of the game) survives to_dict -> JSON -> from_dict unchanged, under every preset at 3 to 6 seats."""
    game = Game(Rules.preset(preset, players=players, target=30), seed=seed)
    rng = random.Random(seed)

    def check(g: Game) -> None:
        for seat in range(g.rules.players):
            view = g.view(seat)
            back = SeatView.from_dict(json.loads(json.dumps(view.to_dict())))
            assert back == view
            assert back.to_dict() == view.to_dict()

    count = 0

    def visit(g: Game) -> None:
        nonlocal count
        if count <= moves or g.is_over:
            check(g)
        count += 1

    walk(game, rng, visit, max_hands=20)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("hand"), "needs 'hand'"),
        (lambda d: d.update(hand=["ZZ"]), "ZZ"),
        (lambda d: d.update(seat=7), "seat 7"),
        (lambda d: d.update(seat=True), "'seat' must hold int"),
        (lambda d: d.update(phase="dancing"), "'phase' must be one of pass, play"),
        (lambda d: d.update(points=[0, 0]), "'points' must have 4 entries"),
        (lambda d: d.update(trick={"leader": 0}), "'trick' holds tricks as"),
        (lambda d: d.update(hand_number=0), "'hand_number' must be at least 1"),
    ],
)
def test_a_malformed_view_dict_is_refused_naming_the_field(change: Callable[[dict], object], words: str) -> None:
    data = Game(Rules(), seed=1).view(0).to_dict()
    change(data)
    with pytest.raises(ValueError, match=re.escape(words)):
        SeatView.from_dict(data)
    with pytest.raises(ValueError, match="JSON object"):
        SeatView.from_dict([1, 2])

# -- the public view: what a spectator is sent -------------------------------------------------


def played_mask(game: Game) -> int:
    """Every card played so far this hand, the trick in progress included: public."""
    mask = 0
    for t in (*game.hand.tricks, Trick(game.hand.leader, tuple(game.hand.trick))):
        for c in t.cards:
            mask |= 1 << c
    return mask


def check_public_view(game: Game) -> None:
    view = game.public_view()
    assert tuple(f.name for f in dataclasses.fields(view)) == PUBLIC_FIELDS
    data = view.to_dict()
    json.dumps(data)
    assert set(data) == set(PUBLIC_FIELDS) | set(NO_SEAT)
    assert {k: data[k] for k in NO_SEAT} == NO_SEAT
    del data["rules"]  # the rules name removed and bonus cards: public
    seen = 0
    for card in cards_in(data):
        seen |= 1 << card
    unplayed = 0
    for held in game.hand.hands:
        unplayed |= held
    assert not seen & unplayed, f"the public view names {CardSet(seen & unplayed)}, still in a hand"
    assert seen & ~played_mask(game) == 0
    for seat in range(game.rules.players):  # every seat's view agrees with it on every public field
        assert game.view(seat).public() == view


@settings(max_examples=40, derandomize=True, deadline=None)
@given(rules=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_the_public_view_names_no_card_still_in_a_hand(rules: Rules, seed: int) -> None:
    """Hidden information: at every step of random games the public view (what spectators get)
    names only cards already played, and holds exactly the allow-listed fields."""
    walk(Game(rules.replace(target=40), seed=seed), random.Random(seed), check_public_view, max_hands=1)


def test_a_new_private_field_of_a_seat_view_never_reaches_the_public_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hidden information: the public view is built from its allow-list, not by emptying a seat's view,
    so whatever a seat's view gains stays out of it."""
    game = Game(Rules(), seed=4)
    leaky = SeatView.to_dict

    def with_secret(self: SeatView) -> dict[str, object]:
        return {**leaky(self), "west_hand": CardSet(game.hand.hands[1]).names()}

    monkeypatch.setattr(SeatView, "to_dict", with_secret)
    assert "west_hand" in game.view(0).to_dict()
    public = game.public_view().to_dict()
    assert "west_hand" not in public and not list(cards_in({k: v for k, v in public.items() if k != "rules"}))
    # and a field that is not on the allow-list is not in the public view's fields either
    assert {"hand", "passed", "received", "legal", "moon_options"}.isdisjoint(PUBLIC_FIELDS)
