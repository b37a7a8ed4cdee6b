"""Options shared by several ``hearts`` commands.

``--seats N`` is the number of seats everywhere; ``--players`` names the players
(levels, ``cmd:`` bots) in ``simulate`` and ``tournament``. ``play`` and ``rules``
once took ``--players N`` for the count: that spelling still works there, hidden
from ``--help``, with a note on stderr.
"""

from __future__ import annotations

import typer

#: The hidden ``--players N`` of ``play`` and ``rules`` (the number of seats, the old spelling of ``--seats``).
OLD_PLAYERS_HELP = "Old spelling of --seats."


def seats_from(seats: int | None, old_players: int | None) -> int | None:
    """The seat count from ``--seats`` or the old ``--players N``, with a deprecation note for the latter.

    >>> seats_from(5, None)
    5
    """
    if old_players is None:
        return seats
    typer.echo(
        f"note: --players {old_players} is now --seats {old_players} (--players names the players in "
        "'hearts simulate' and 'hearts tournament'); the old spelling will be removed.",
        err=True,
    )
    if seats is not None and seats != old_players:
        raise typer.BadParameter(f"--seats {seats} and --players {old_players} disagree: give only --seats")
    return old_players
