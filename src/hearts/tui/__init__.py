"""Play Hearts in the terminal: the Textual table (``hearts play``) and the record viewer (``hearts replay``).

Nothing here knows a rule: every legal move, score and error message comes from
:mod:`hearts.core`. The table only ever draws what the human seat's
:class:`~hearts.core.view.SeatView` holds; whole deals are shown only for
finished hands.
"""
