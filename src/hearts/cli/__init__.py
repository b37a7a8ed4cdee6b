"""The ``hearts`` command.

Each sub-command lives in its own module of this package and exposes
``register(app)``; modules are discovered at start-up and must keep their heavy
imports (Textual, FastAPI, numba, matplotlib) inside the command functions so
that ``hearts --help`` stays fast.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

app = typer.Typer(
    name="hearts",
    help="Hearts: play in the browser or the terminal, simulate, run tournaments, replay records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Markdown: a command's docstring paragraphs are re-flowed to the terminal's width, not broken
    # where the source lines break.
    rich_markup_mode="markdown",
)


def version_text() -> str:
    """``hearts X.Y.Z``, from the installed package's metadata (the version in pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"hearts {version('hearts')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "hearts (not installed: no version)"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", "-V", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Hearts: play in the browser or the terminal, simulate, run tournaments, replay records."""


def _register_commands() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_commands()


def main() -> None:
    app()
