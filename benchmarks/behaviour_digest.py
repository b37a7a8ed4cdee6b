"""A digest of the engine's observable behaviour, to show that a refactoring changed nothing.

Plays seeded games under every preset and every player count, and hashes what a user of the
engine can observe at each step: the seats to move, each moving seat's view (its legal moves
included), the events of every move, the error message of a set of illegal attempts, and at the
end the record's JSON, the totals and the winners. The random, easy and medium players choose the
moves (their choices are part of the digest too; hard and expert are left out because their
search is bounded by time, so they are not deterministic).

    python benchmarks/behaviour_digest.py --json before.json          # before a change
    python benchmarks/behaviour_digest.py --compare before.json       # after: exit 1 on any difference

A difference names each (preset, players, chooser, seed) game whose digest changed, so a change
that is meant to alter behaviour (an error's wording, say) can be checked to alter only that.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator

from hearts.core import (
    CARDS,
    PRESETS,
    CardSet,
    ChooseMoon,
    Game,
    GameRecord,
    MoonOption,
    Move,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    dumps,
    event_to_dict,
    move_to_dict,
)
from hearts.players import make_player

Chooser = Callable[[Game, int], Move]


def _random_chooser(seed: int) -> Chooser:
    rng = random.Random(f"digest:{seed}")

    def choose(game: Game, seat: int) -> Move:
        return rng.choice(game.legal_moves(seat))

    return choose


def _player_chooser(level: str, seed: int, players: int) -> Chooser:
    seats = [make_player(level, seed=seed * 10 + s) for s in range(players)]

    def choose(game: Game, seat: int) -> Move:
        return seats[seat].decide(game.view(seat)).move

    return choose


def _illegal_attempts(game: Game, seat: int) -> Iterator[Move]:
    """A fixed set of moves that are (mostly) illegal now: each one's error message is digested."""
    hand = game.hand
    others = [s for s in range(game.rules.players) if s != seat]
    held = [c for c in CARDS if hand.hands[seat] >> int(c) & 1]
    not_held = [c for c in CARDS if not hand.hands[seat] >> int(c) & 1]
    if hand.phase is Phase.PLAY:
        legal = set(game.legal_plays())
        yield from (PlayCard(seat, c) for c in held if c not in legal)
        if not_held:
            yield PlayCard(seat, not_held[0])
        if others and held:
            yield PlayCard(others[0], held[0])
    elif hand.phase is Phase.PASS:
        yield PassCards(seat, CardSet(held[:2]))
        if not_held:
            yield PassCards(seat, CardSet([*held[:2], not_held[0]]))
        if others:
            yield PlayCard(seat, held[0])
    elif hand.phase is Phase.MOON_CHOICE:
        yield ChooseMoon(others[0], MoonOption.ADD_TO_OTHERS)


def digest_game(rules: Rules, seed: int, chooser: Chooser, *, max_hands: int = 6) -> str:
    """The sha256 of everything observable in one seeded game (at most ``max_hands`` hands)."""
    sha = hashlib.sha256()

    def feed(item: object) -> None:
        sha.update(json.dumps(item, sort_keys=True, default=str, ensure_ascii=False).encode())
        sha.update(b"\n")

    game = Game(rules, seed=seed)
    while not game.is_over and len(game.finished) < max_hands:
        seats = game.to_move
        feed(["to_move", list(seats)])
        for seat in seats:
            feed(["view", seat, game.view(seat).to_dict()])
        seat = seats[0]
        for bad in _illegal_attempts(game, seat):
            try:
                game.check(bad)
            except ValueError as exc:
                feed(["refused", move_to_dict(bad), type(exc).__name__, str(exc)])
            else:
                feed(["allowed", move_to_dict(bad)])
        move = chooser(game, seat)
        feed(["move", move_to_dict(move)])
        feed(["events", [event_to_dict(e) for e in game.apply(move)]])
    feed(["record", dumps(GameRecord.of(game))])
    feed(["totals", game.totals, list(game.winners)])
    return sha.hexdigest()


def configurations() -> Iterator[tuple[str, Rules]]:
    """Every preset under every player count it allows."""
    for name in PRESETS:
        for players in range(3, 7):
            try:
                yield f"{name}/{players}", Rules.preset(name, players=players)
            except ValueError:
                continue


def digests(seeds: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, rules in configurations():
        n = rules.players
        for seed in range(seeds):
            out[f"{key}/random/{seed}"] = digest_game(rules, seed, _random_chooser(seed))
        for level in ("easy", "medium"):
            out[f"{key}/{level}/0"] = digest_game(rules, 0, _player_chooser(level, 0, n), max_hands=2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="random-move games per configuration")
    parser.add_argument("--json", help="write every game's digest to this file")
    parser.add_argument("--compare", help="compare with a file written by --json; exit 1 on a difference")
    args = parser.parse_args(argv)
    found = digests(args.seeds)
    total = hashlib.sha256("".join(f"{k}={v}\n" for k, v in sorted(found.items())).encode()).hexdigest()
    print(f"{len(found)} games, digest {total}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"total": total, "games": found}, f, indent=1, sort_keys=True)
    if args.compare:
        with open(args.compare) as f:
            before = json.load(f)["games"]
        changed = sorted(k for k in before.keys() | found.keys() if before.get(k) != found.get(k))
        for key in changed:
            print(f"differs: {key}")
        print("same behaviour" if not changed else f"{len(changed)} of {len(found)} games differ")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
