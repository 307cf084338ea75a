"""cli.md: every command and option, walked from the typer app's click commands."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Iterator
from typing import Any

import typer

from proctor.cli._reference._tables import (
    cell,
    page,
    type_name,
)


def commands(group: Any, path: str = "proctor") -> Iterator[tuple[str, Any]]:
    """(full name, click command) of every command under ``group``, depth first, sorted."""
    for name in sorted(getattr(group, "commands", {})):
        command = group.commands[name]
        if getattr(command, "hidden", False):
            continue
        full = f"{path} {name}"
        yield full, command
        yield from commands(command, full)


def _hints(command: Any) -> dict[str, Any]:
    callback = getattr(command, "callback", None)
    if callback is None:
        return {}
    try:
        return typing.get_type_hints(inspect.unwrap(callback))
    except (NameError, TypeError):
        return {}


def _param_type(param: Any, hints: dict[str, Any]) -> str:
    if getattr(param, "is_flag", False):
        return "flag"
    annotation = hints.get(param.name)
    if annotation is None:
        return "text"
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if typing.get_origin(annotation) is list:
        annotation = typing.get_args(annotation)[0]
    return type_name(annotation, link=False).lower().replace("posixpath", "path")


def _param_default(param: Any) -> str:
    default = getattr(param, "default", None)
    if callable(default) or default in (None, False, (), []) or getattr(param, "required", False):
        return "–"
    if isinstance(default, list | tuple):
        default = ",".join(str(d) for d in default)
    return f"`{default}`"


def _param_row(param: Any, hints: dict[str, Any]) -> str:
    if getattr(param, "param_type_name", "") == "argument":
        name = f"`{param.name.upper()}`"
    else:
        name = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
    help_text = " ".join((getattr(param, "help", None) or "").split())
    notes = []
    if getattr(param, "required", False):
        notes.append("Required.")
    if getattr(param, "multiple", False) and "repeatable" not in help_text:
        notes.append("Repeatable.")
    if getattr(param, "nargs", 1) == -1:
        notes.append("Any number.")
    envvar = getattr(param, "envvar", None)
    if envvar:
        notes.append(f"Env: `{envvar}`.")
    what = cell(" ".join([help_text, *notes]).strip())
    kind = _param_type(param, hints)
    return f"| {name} | {kind} | {_param_default(param)} | {what or '–'} |"


def cli_page(app: typer.Typer) -> str:
    """Every command and option of ``app``, walked from its click commands."""
    root = typer.main.get_command(app)
    found = list(commands(root))
    body = ["## Contents", ""]
    body += [f"- [{full}](#{full.replace(' ', '-')})" for full, _ in found]
    body += [""]
    for full, command in found:
        body += [f"## {full}", ""]
        help_text = inspect.cleandoc(getattr(command, "help", None) or "").replace("``", "`")
        if help_text:
            body += [help_text, ""]
        hints = _hints(command)
        params = [p for p in command.params if not getattr(p, "hidden", False)]
        if hasattr(command, "commands"):
            subs = ", ".join(f"`{full} {n}`" for n in sorted(command.commands))
            body += [f"Commands: {subs}.", ""]
        if params:
            body += ["| option | type | default | description |", "|---|---|---|---|"]
            body += [_param_row(p, hints) for p in params]
            body += [""]
        elif not hasattr(command, "commands"):
            body += ["No options.", ""]
    intro = (
        "Every `proctor` command and its options, as `proctor COMMAND --help` shows them. "
        "Every command also takes `--help`. Exit codes and the JSON shapes are in "
        "[the results guide](../results.md)."
    )
    return page("Command line", intro, body)
