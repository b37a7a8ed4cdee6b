"""The table server behind ``hearts serve``: FastAPI over HTTP and websockets, SQLAlchemy storage,
and the plain HTML/CSS/JS web page in ``static/``.

``create_app`` is imported lazily so that importing this package stays cheap.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """See :func:`hearts.server.app.create_app`."""
    from hearts.server.app import create_app as make

    return make(*args, **kwargs)
