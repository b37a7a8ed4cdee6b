"""The ``rgb_array`` render mode: a picture of the table as one seat sees it, for videos.

:func:`table_picture` draws a :class:`~hearts.core.SeatView` with matplotlib's Agg
canvas (no window, no display needed) and returns an ``H x W x 3`` ``uint8`` array,
the frame Gymnasium's ``RecordVideo`` and Stable-Baselines3's ``VecVideoRecorder``
expect. The picture holds what the view holds and nothing more: the seat's own
cards (the ones it may play raised), the trick on the table, each seat's name,
points this hand, running total and card count. Another seat's cards are never
drawn, so a video of training leaks nothing the seat could not see.

>>> from hearts.core import Game, Rules, SeatView
>>> frame = table_picture(SeatView.of(Game(Rules(), seed=1), 0))
>>> frame.shape, frame.dtype.name
((480, 640, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from hearts.core import Card, Phase, SeatView

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: Frame size in pixels (width, height): 4:3, both multiples of 16 as video encoders like.
WIDTH, HEIGHT = 640, 480
_DPI = 100
_FELT = "#1f6b3a"
_RED_SUITS = (1, 3)  # ♦ and ♥ in the engine's suit order ♣ ♦ ♠ ♥


def _seat_point(offset: int, players: int, rx: float, ry: float) -> tuple[float, float]:
    """Where the seat ``offset`` places after the viewer sits: the viewer at the bottom, play clockwise."""
    angle = math.radians(270 - offset * 360 / players)
    return 0.5 + rx * math.cos(angle), 0.56 + ry * math.sin(angle)


def _card(ax: Axes, x: float, y: float, card: Card, *, dim: bool = False, width: float = 0.055) -> None:
    from matplotlib.patches import FancyBboxPatch

    height = width * 1.45 * WIDTH / HEIGHT
    face = "#d9d9d9" if dim else "white"
    box = FancyBboxPatch(
        (x - width / 2, y - height / 2), width, height, boxstyle="round,pad=0,rounding_size=0.006",
        facecolor=face, edgecolor="#222222", linewidth=1.0,
    )  # fmt: skip
    ax.add_patch(box)
    colour = "#c0143c" if card.suit in _RED_SUITS else "black"
    ax.text(x, y, card.symbol(), ha="center", va="center", fontsize=11, color=colour, alpha=0.55 if dim else 1.0)


def _status(view: SeatView) -> str:
    name = view.names[view.seat]
    if view.phase is Phase.PASS:
        if view.has_passed[view.seat]:
            return f"Hand {view.hand_number + 1}: {name} has passed; waiting for the others"
        return f"Hand {view.hand_number + 1}: {name} passes {view.rules.pass_count} cards {view.direction.value}"
    if view.scores is not None:
        return f"Hand {view.hand_number + 1} over"
    if view.moon_options:
        return f"Hand {view.hand_number + 1}: {name} shot the moon and chooses how it scores"
    trick = len(view.tricks) + 1
    broken = "hearts broken" if view.hearts_broken else "hearts not broken"
    return f"Hand {view.hand_number + 1}, trick {trick}: {broken}"


def table_picture(view: SeatView, chosen: int = 0, final: Sequence[str] | None = None) -> np.ndarray:
    """The table as ``view.seat`` sees it, ``HEIGHT x WIDTH x 3`` RGB bytes.

    ``chosen`` is the cards picked so far to pass (a mask; the environments pass one card per step):
    they are drawn raised. ``final``, at the end of an episode, is one line per seat (its score and
    total): the picture then shows those instead of the play.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH / _DPI, HEIGHT / _DPI), dpi=_DPI, facecolor=_FELT)
    canvas = FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_axis_off()
    n = view.players
    ax.text(0.5, 0.965, _status(view), ha="center", va="center", fontsize=12, color="white")
    for offset in range(n):
        seat = (view.seat + offset) % n
        x, y = _seat_point(offset, n, 0.36, 0.33)
        if offset == 0:
            y = 0.30  # above the viewer's own cards
        mark = "▶ " if seat in view.to_move and final is None else ""
        label = f"{mark}{view.names[seat]}"
        detail = f"{view.points[seat]} pts · total {view.totals[seat]} · {view.hand_sizes[seat]} cards"
        if final is not None:
            detail = final[seat]
        bold = "bold" if seat == view.seat else "normal"
        ax.text(x, y + 0.022, label, ha="center", va="center", fontsize=11, color="#ffe9a8", weight=bold)
        ax.text(x, y - 0.022, detail, ha="center", va="center", fontsize=9, color="white")
    if final is None:
        trick = view.trick
        for i, card in enumerate(trick.cards):
            offset = (trick.seat_of(i, n) - view.seat) % n
            x, y = _seat_point(offset, n, 0.15, 0.15)
            _card(ax, x, y, card)
        cards = list(view.hand)
        legal = set(view.legal)
        if cards:
            step = min(0.07, 0.9 / len(cards))
            left = 0.5 - step * (len(cards) - 1) / 2
            passing = view.phase is Phase.PASS
            for i, card in enumerate(cards):
                playable = card in legal or passing
                raised = card in legal or bool(chosen & card.bit)
                _card(ax, left + i * step, 0.14 if raised else 0.11, card, dim=not playable)
    else:
        ax.text(0.5, 0.56, "Episode over", ha="center", va="center", fontsize=15, color="white")
    canvas.draw()
    frame = np.asarray(canvas.buffer_rgba())[:, :, :3]
    return np.ascontiguousarray(frame, dtype=np.uint8)
