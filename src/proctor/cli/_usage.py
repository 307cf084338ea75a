"""Usage mistakes as one line: the command, what was wrong, where to look.

typer 0.29 bundles its own copy of click (``typer._click``) whose exceptions are not
click's: a handler that caught ``click.ClickException`` let every bad option through
as a 40-line traceback with exit 1, the code the README keeps for "a scenario
failed". Both families are read here by what they carry (a message, an exit code, the
command's context), so neither typer's copy nor the real click escapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import typer

EXIT_USAGE = 2


@runtime_checkable
class _ClickLike(Protocol):
    """What click's ``ClickException`` and typer's bundled copy of it both have."""

    def format_message(self) -> str: ...


def _usage_classes() -> tuple[type[BaseException], ...]:
    classes: list[type[BaseException]] = [typer.TyperException]
    try:
        import click
    except ImportError:  # typer no longer needs click; proctor never imports it otherwise
        return tuple(classes)
    classes.append(click.ClickException)
    return tuple(classes)


USAGE_ERRORS = _usage_classes()
"""Exceptions a command line parser raises for a mistake in the invocation."""


@dataclass(frozen=True)
class Usage:
    """A usage mistake as it is printed: one line, or the help the user asked for."""

    line: str
    exit_code: int
    help_text: str | None = None


def _command_path(exc: BaseException) -> str:
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    return path if isinstance(path, str) and path else "proctor"


def _help_of(exc: BaseException) -> str | None:
    ctx = getattr(exc, "ctx", None)
    get_help = getattr(ctx, "get_help", None)
    if get_help is None:
        return None
    text = get_help()
    return text if isinstance(text, str) else None


def usage_of(exc: BaseException) -> Usage | None:
    """The one-line usage error ``exc`` stands for, or None when it is not one.

    A group called with no command (``proctor manual``) carries the help it should
    show; every other mistake is one line naming the command and pointing at its
    ``--help``.
    """
    if not isinstance(exc, USAGE_ERRORS) or not isinstance(exc, _ClickLike):
        return None
    command = _command_path(exc)
    if type(exc).__name__ == "NoArgsIsHelpError":
        return Usage(
            f"{command}: a command is needed; `{command} --help` lists them",
            EXIT_USAGE,
            help_text=_help_of(exc),
        )
    message = " ".join(exc.format_message().split()).rstrip(".")
    return Usage(f"{command}: {message}; `{command} --help` shows the usage", EXIT_USAGE)


__all__ = ["EXIT_USAGE", "USAGE_ERRORS", "Usage", "usage_of"]
