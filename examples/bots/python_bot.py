#!/usr/bin/env python3
"""A complete Hearts bot for the hearts bot protocol, version 1 (see docs/bot-protocol.md).

Standard library only, so it runs anywhere Python 3.8+ does; it shows every part
of the protocol a bot needs: the hello (version check), one answer line per
``decide`` message, errors, and the bye. Run it in a game with

    hearts tournament --players 'cmd:python3 examples/bots/python_bot.py',easy,easy,easy

Its play is a real, simple heuristic: pass the dangerous high spades and high
hearts and try to void a short minor suit; duck under the winning card when it
can; dump Q♠, then A♠/K♠, then high hearts when it cannot follow; lead low from
suits where others hold lower cards, and lead low spades to flush the queen
when it is safe. Anything it writes on stderr is for its author: the engine
keeps the last lines to show if the bot fails.
"""

import json
import sys

RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
SUPPORTED_VERSION = 1


def rank(card):
    return RANKS[card[:-1]]


def suit(card):
    return card[-1]


def in_play_cards(rules):
    removed = set(rules.get("removed") or [])
    return {r + s for r in RANKS for s in "CDSH"} - removed


def played_cards(view):
    seen = set()
    for trick in view["tricks"]:
        seen.update(trick["cards"])
    seen.update(view["trick"]["cards"])
    return seen


def unseen_cards(view):
    """Cards still in other hands, as far as this seat can tell."""
    known = set(view["hand"]) | played_cards(view)
    if view.get("passed") and view.get("pass_to") not in (None, view["seat"]):
        known |= set(view["passed"])  # we know the receiver holds these (or has played them)
    return in_play_cards(view["rules"]) - known


# -- passing ---------------------------------------------------------------------


def choose_pass(view):
    hand = view["hand"]
    count = view["rules"]["pass_count"]
    spades = [c for c in hand if suit(c) == "S"]
    holds_queen = "QS" in hand

    def danger(card):
        r, s = rank(card), suit(card)
        score = float(r)
        if s == "S" and r >= 12 and len(spades) < 5:
            score += 20  # Q, K, A of spades without long spade cover catch the queen
        if s == "S" and r < 12 and holds_queen:
            score -= 10  # low spades protect the queen we keep
        if s == "H":
            score += 3  # high hearts win tricks full of points
        if s in "CD":
            length = sum(1 for c in hand if suit(c) == s)
            if length <= count:
                score += 6  # passing a short minor suit away leaves a void to discard into
        return score

    ranked = sorted(hand, key=danger, reverse=True)
    return ranked[:count], "pass the most dangerous cards"


# -- playing ------------------------------------------------------------------------


def choose_play(view):
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0], "the only legal card"
    trick = view["trick"]["cards"]
    played = played_cards(view)
    if not trick:
        return choose_lead(view, legal, played)
    led = suit(trick[0])
    winning = max((c for c in trick if suit(c) == led), key=rank)
    last_to_play = len(trick) == view["rules"]["players"] - 1
    if suit(legal[0]) == led and all(suit(c) == led for c in legal):
        under = [c for c in legal if rank(c) < rank(winning)]
        if under:
            return max(under, key=rank), "duck under the winning card"
        if last_to_play:
            safe = [c for c in legal if c != "QS"] or legal
            return max(safe, key=rank), "win the trick with the highest card I can spare"
        return min(legal, key=rank), "play low and hope someone goes higher"
    # Void in the suit led: discard the most dangerous card.
    if "QS" in legal:
        return "QS", "dump the queen of spades"
    if "QS" not in played and "QS" not in view["hand"]:
        high_spades = [c for c in legal if suit(c) == "S" and rank(c) > 12]
        if high_spades:
            return max(high_spades, key=rank), "shed a high spade while the queen is out"
    hearts = [c for c in legal if suit(c) == "H"]
    if hearts:
        return max(hearts, key=rank), "discard my highest heart"
    return max(legal, key=rank), "discard my highest card"


def choose_lead(view, legal, played):
    hand = view["hand"]
    unseen = unseen_cards(view)
    queen_out = "QS" not in played and "QS" not in hand
    if queen_out and "AS" not in hand and "KS" not in hand:
        low_spades = [c for c in legal if suit(c) == "S" and rank(c) < 12]
        if low_spades:
            return max(low_spades, key=rank), "lead a spade to flush the queen"

    def risk(card):
        s, r = suit(card), rank(card)
        lower = sum(1 for c in unseen if suit(c) == s and rank(c) < r)
        others = sum(1 for c in unseen if suit(c) == s)
        penalty = 5 if s == "H" else 0
        if s == "S" and r >= 12 and "QS" not in played:
            penalty += 20  # leading A/K/Q of spades invites the queen
        # Few lower cards out means someone else is likely to win; an empty suit means we win.
        return (lower + penalty + (3 if others == 0 else 0), r)

    best = min(legal, key=risk)
    return best, "lead low where others hold lower cards"


# -- the moon ---------------------------------------------------------------------------


def choose_moon(view):
    rules = view["rules"]
    hearts_in_play = sum(1 for c in in_play_cards(rules) if suit(c) == "H")
    value = hearts_in_play * rules["heart_points"] + rules["queen_points"]
    me = view["seat"]
    totals = view["totals"]
    add = [t + (0 if s == me else value) for s, t in enumerate(totals)]
    sub = [t - (value if s == me else 0) for s, t in enumerate(totals)]
    target = view["rules"]["target"]

    def rank_outcome(scores):
        best_other = min(x for s, x in enumerate(scores) if s != me)
        game_won = max(scores) >= target and scores[me] < best_other
        return (game_won, best_other - scores[me])

    if rank_outcome(sub) > rank_outcome(add):
        return "subtract-from-self", "subtracting keeps me further ahead"
    return "add-to-others", "adding to the others keeps me further ahead"


# -- the protocol ------------------------------------------------------------------------


def answer(message):
    view = message["view"]
    decision = message["decision"]
    if decision == "pass":
        cards, reason = choose_pass(view)
        return {"type": "pass", "cards": cards, "reason": reason}
    if decision == "play":
        card, reason = choose_play(view)
        return {"type": "play", "card": card, "reason": reason}
    option, reason = choose_moon(view)
    return {"type": "moon", "option": option, "reason": reason}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("version") != SUPPORTED_VERSION:
                print(
                    f"python_bot speaks protocol version {SUPPORTED_VERSION}, not {message.get('version')}",
                    file=sys.stderr,
                )
                return 2
        elif kind == "decide":
            sys.stdout.write(json.dumps(answer(message)) + "\n")
            sys.stdout.flush()
        elif kind == "error":
            print(f"the engine refused my answer: {message.get('message')}", file=sys.stderr)
        elif kind == "bye":
            return 0
        # Unknown message types are ignored: later versions may add some.
    return 0


if __name__ == "__main__":
    sys.exit(main())
