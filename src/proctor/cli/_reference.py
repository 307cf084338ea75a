"""The generated reference pages under docs/reference/, made from the code itself.

- ``checks.md``: every check kind, from ``proctor.scenario.CHECK_MODELS`` and the argument
  models' fields and docstrings.
- ``actions.md``: every action op (``proctor.computer.ACTION_TYPES``) with its traits,
  the MCP lane's own tools, what a scenario step adds, and the timeline's events.
- ``scenario.md``: every block of a scenario file, from the ``Scenario`` model down.
- ``cli.md``: every command and option, walked from the typer app's click commands.
- ``sites.md``: every site's and app's sign-in details, fixed codes and test data
  (``proctor.world.site_data``) and its seed defaults.

``render_pages()`` is pure: the same code gives the same bytes (sorted, no times, no
absolute paths). ``python -m proctor.cli._reference`` (``make docs``) writes the pages;
``tests/test_reference_docs.py`` fails when a committed page differs.
"""

from __future__ import annotations

import enum
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined, to_jsonable_python

from proctor.computer import ACTION_TYPES, OWN_TOOLS, ActionModel
from proctor.scenario import (
    CHECK_ARGS,
    CHECK_MODELS,
    COMMON_KEYS,
    Apps,
    Check,
    CheckArgs,
    Decoy,
    PlayEvent,
    Scenario,
    load_catalog,
)
from proctor.vocab import is_leaf_check_kind
from proctor.world import DataTable, all_sites, site_data

__all__ = ["PAGES", "render_pages", "write_pages"]

PAGES = ("actions.md", "checks.md", "cli.md", "scenario.md", "sites.md")
"""The pages under docs/reference/, by file name."""

GENERATED = (
    "Generated from the code by `make docs` (`python -m proctor.cli._reference`); "
    "`tests/test_reference_docs.py` fails when this page is out of date. Do not edit it by hand."
)


# --- shared: types, cells, field tables -------------------------------------------------


def doc_of(obj: Any) -> str:
    """An object's own docstring, dedented, with RST ``code`` as markdown `code`."""
    text = inspect.cleandoc(obj.__dict__.get("__doc__") or "") if hasattr(obj, "__dict__") else ""
    return text.replace("``", "`")


def cell(text: str) -> str:
    """Text safe inside a markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def type_name(annotation: Any, link: bool = True) -> str:
    """A short, stable name of a type: models link to their section when ``link``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0], link)
    if origin is typing.Literal:
        return " | ".join(json.dumps(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        members = [typing.get_args(a)[0] if typing.get_origin(a) is typing.Annotated else a
                   for a in args]  # fmt: skip
        for family, word, where in _FAMILIES:
            if all(isinstance(m, type) and issubclass(m, family) for m in members):
                return f"[{word}]({where})" if link else word
        return " | ".join(type_name(a, link) for a in args)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(type_name(a, link) for a in args)}]" if args else name
    if annotation is type(None):
        return "null"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})" if link else (
            annotation.__name__
        )  # fmt: skip
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models a type mentions, in order."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += models_in(arg)
    return found


_FAMILIES: tuple[tuple[type, str, str], ...] = (
    (Check, "check", "checks.md#contents"),
    (ActionModel, "action", "actions.md#actions"),
)
"""Unions of these families show as one word: any check, any action."""

_BOUNDS = (
    ("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<="),
    ("min_length", "min length"), ("max_length", "max length"), ("pattern", "pattern"),
)  # fmt: skip


def constraints(info: FieldInfo) -> str:
    """A field's bounds and pattern, e.g. ``>= 1, <= 3``."""
    parts: list[str] = []
    for item in info.metadata:
        for attr, word in _BOUNDS:
            value = getattr(item, attr, None)
            if value is not None:
                parts.append(f"{word} `{value}`" if attr == "pattern" else f"{word} {value}")
    return ", ".join(parts)


def default_of(info: FieldInfo) -> str:
    """A field's default as JSON, `required` when it has none."""
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    if value is PydanticUndefined:
        return "required"
    if isinstance(value, enum.Enum):
        value = value.value
    text = json.dumps(to_jsonable_python(value, by_alias=True), ensure_ascii=False)
    return f"`{text}`" if len(text) <= 60 else "the defaults of its fields"


def field_rows(model: type[BaseModel], skip: tuple[str, ...] = ()) -> list[str]:
    """A markdown table of a model's fields: name, type, default, description."""
    rows = ["| field | type | default | description |", "|---|---|---|---|"]
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in skip:
            continue
        what = info.description or ""
        bounds = constraints(info)
        if bounds:
            what = f"{what} ({bounds})" if what else f"({bounds})"
        rows.append(
            f"| `{key}` | {cell(type_name(info.annotation))} | {cell(default_of(info))} "
            f"| {cell(what.replace('``', '`')) or '–'} |"
        )
    return rows if len(rows) > 2 else ["No fields."]


def model_section(model: type[BaseModel], level: str = "###") -> list[str]:
    """A model's heading (its class name), docstring and field table."""
    parts = [f"{level} {model.__name__}", ""]
    doc = doc_of(model)
    if doc:
        parts += [doc, ""]
    return parts + field_rows(model) + [""]


def reachable(
    roots: list[type[BaseModel]], stop: frozenset[type[BaseModel]] = frozenset()
) -> list[type[BaseModel]]:
    """Every model the roots' fields mention, transitively, roots and ``stop`` excluded."""
    seen: list[type[BaseModel]] = []
    todo = list(roots)
    while todo:
        model = todo.pop(0)
        for info in model.model_fields.values():
            for inner in models_in(info.annotation):
                if inner not in seen and inner not in roots and inner not in stop:
                    seen.append(inner)
                    todo.append(inner)
    return sorted(seen, key=lambda m: m.__name__)


def page(title: str, intro: str, body: list[str]) -> str:
    """A whole page: title, the generated note, intro, then the body; one final newline."""
    text = "\n".join([f"# {title}", "", GENERATED, "", intro.strip(), "", *body])
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


# --- checks.md -------------------------------------------------------------------------


def checks_page() -> str:
    """Every check kind: what it holds, its arguments, and the argument types they use."""
    kinds = sorted(CHECK_MODELS)
    body = ["## Contents", ""]
    body += [f"- [{kind}](#{kind})" for kind in kinds]
    body += ["- [Argument types](#argument-types)", ""]
    args_models: list[type[BaseModel]] = []
    for kind in kinds:
        model = CHECK_MODELS[kind]
        args = CHECK_ARGS[kind] if is_leaf_check_kind(kind) else None
        body += [f"## {kind}", ""]
        if args is not None:
            body += [doc_of(args) or doc_of(model), ""]
            reads = getattr(args, "reads_site", None)
            if reads:
                body += [f"Reads the site `{reads}`: list it in `world.sites`.", ""]
            body += [*field_rows(args, skip=COMMON_KEYS), ""]
            args_models.append(args)
        elif kind in ("all", "any"):
            shape = f"`{{{kind}: [CHECK, ...], name, safety}}`"
            body += [doc_of(model), "", f"{shape}: a list of at least one check, with `name` "
                     "and `safety` beside the list.", ""]  # fmt: skip
        else:
            inner = models_in(model.model_fields[kind].annotation)[0]
            body += [doc_of(inner) or doc_of(model), ""]
            body += [*field_rows(inner, skip=COMMON_KEYS), ""]
            args_models.append(inner)
    body += ["## Argument types", "", "Models the check arguments above refer to.", ""]
    stop: frozenset[type[BaseModel]] = frozenset({CheckArgs, *CHECK_MODELS.values()})
    for shared in reachable(args_models, stop=stop):
        body += model_section(shared)
    common = ", ".join(f"`{k}`" for k in COMMON_KEYS)
    intro = (
        "A check is a one-key mapping from its kind to its arguments, e.g. "
        "`{submitted: {route: contact, count: 1}}`. Checks read the end state only "
        f"(requests, files, apps, the page, the trace), never the agent's claims. Every kind "
        f"also takes {common}:\n\n" + "\n".join(field_rows(CheckArgs)) + "\n\nA decoy's `fails` "
        "names checks by `name` (default: the kind). See [the scenarios guide](../scenarios.md) "
        "for how checks are used."
    )
    return page("Checks", intro, body)


# --- actions.md ------------------------------------------------------------------------


def traits(model: type[ActionModel]) -> str:
    """The traits of an action, in words."""
    parts = [f"surfaces: {', '.join(sorted(model.surfaces))}"]
    parts.append("an input" if model.is_input else "not an input")
    if not model.needs_lease:
        parts.append("allowed after the lease is revoked")
    if model.user_op:
        parts.append("answered by the simulated user (no page touched)")
    if model.timeline_op:
        parts.append("offered only with a timeline (`play:`)")
    return "; ".join(parts) + "."


def actions_page() -> str:
    """Every action op, the lane's own tools, scenario steps and timeline events."""
    ops = sorted(ACTION_TYPES)
    body = ["## Contents", ""]
    body += [f"- [{op}](#{op})" for op in ops]
    body += [f"- [{tool}](#{tool}) (MCP tool)" for tool in sorted(OWN_TOOLS)]
    body += [
        "- [Scenario steps](#scenario-steps)",
        "- [Timeline events](#timeline-events)",
        "- [Argument types](#argument-types)",
        "",
        "## Actions",
        "",
    ]
    used: list[type[BaseModel]] = []
    for op in ops:
        model = ACTION_TYPES[op]
        body += [f"### {op}", "", doc_of(model), "", f"*{traits(model)}*", ""]
        for surface, text in sorted(model.surface_doc.items()):
            body += [f"On the {surface}: {text}", ""]
        for surface, hidden in sorted(model.surface_hidden.items()):
            names = ", ".join(f"`{n}`" for n in sorted(hidden))
            body += [f"Not offered on the {surface}: {names}.", ""]
        body += [*field_rows(model, skip=("op",)), ""]
        used.append(model)
    body += [
        "## MCP tools",
        "",
        "Besides one tool per action, the MCP lane offers these. Each counts as one tool call "
        "(a batch counts once per member it runs); none is a step.",
        "",
    ]
    for tool in sorted(OWN_TOOLS):
        tool_model = OWN_TOOLS[tool]
        body += [f"### {tool}", "", doc_of(tool_model), ""]
        for surface, text in sorted(getattr(tool_model, "surface_doc", {}).items()):
            body += [f"On the {surface}: {text}", ""]
        body += [*field_rows(tool_model), ""]
        used.append(tool_model)
    marks = [Decoy.model_fields[name] for name in ("expect_error", "expect_refused")]
    body += [
        "## Scenario steps",
        "",
        "A scenario's `solution`, each decoy's `steps` and a desktop app's `setup` are lists "
        "of the actions above, written as mappings with their `op`, e.g. "
        "`{op: click, role: button, name: Send}`. The user ops (`ask_user`, "
        "`request_approval`, `schedule`) are steps too: the simulated user answers them. "
        "A decoy step may also say how it is meant to end, `expect: error` or "
        "`expect: refused` (`expect_error: true` is the older spelling of `expect: error`); "
        "any other decoy step must run ok:",
        "",
        f"- `expect: error` (`expect_error`): {marks[0].description}",
        f"- `expect: refused` (`expect_refused`): {marks[1].description}",
        "",
        "## Timeline events",
        "",
        doc_of(PlayEvent),
        "",
        *field_rows(PlayEvent),
        "",
    ]
    body += ["## Argument types", "", "Models the actions and events above refer to.", ""]
    stop: frozenset[type[BaseModel]] = frozenset(
        {*ACTION_TYPES.values(), *OWN_TOOLS.values(), PlayEvent}
    )
    for shared in reachable([*used, PlayEvent], stop=stop):
        body += model_section(shared)
    intro = (
        "Everything an agent may do to the computer is one typed action, named by its `op`. "
        "The action's docstring is the tool description agents see, and its fields are the "
        "tool's arguments. An element is addressed by `ref` (from the snapshot), `role` and "
        "`name`, a CSS `selector`, or `x`/`y`; when several are given the first of that order "
        "is used and the rest is recorded in the step's `facts.ignored`. See "
        "[the agents guide](../agents.md) for how agents get these tools."
    )
    return page("Actions", intro, body)


# --- scenario.md -----------------------------------------------------------------------


def scenario_page() -> str:
    """Every block of a scenario file, from the ``Scenario`` model down."""
    stop: frozenset[type[BaseModel]] = frozenset(
        {*CHECK_MODELS.values(), *CHECK_ARGS.values(), CheckArgs, *ACTION_TYPES.values()}
    )
    models = reachable([Scenario], stop=stop)
    body = ["## Contents", "", "- [Scenario](#scenario)"]
    body += [f"- [{m.__name__}](#{m.__name__.lower()})" for m in models]
    body += ["", *model_section(Scenario, "##")]
    for model in models:
        body += model_section(model, "##")
    intro = (
        "Every field of a scenario file, from the top (`Scenario`) down: the world "
        "(`World`, its sites' seeds under `Apps`, the desktop and live worlds), the simulated "
        "user (`User`), the timeline (`PlayEvent`), limits, decoys and judge criteria. "
        "Checks are in [checks.md](checks.md) and steps in [actions.md](actions.md); "
        "[the scenarios guide](../scenarios.md) shows how they fit together. "
        "`proctor schema` prints the same as a JSON Schema."
    )
    return page("Scenario files", intro, body)


# --- cli.md ----------------------------------------------------------------------------


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


# --- sites.md --------------------------------------------------------------------------


def table_lines(table: DataTable) -> list[str]:
    """A site data table as markdown: its title, note and rows."""
    lines = [f"**{table.title}.** {table.note}", ""]
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "---|" * len(table.columns))
    lines += ["| " + " | ".join(cell(v) or "–" for v in row) + " |" for row in table.rows]
    return [*lines, ""]


def seed_defaults(name: str) -> list[str]:
    """The default seed of a site that takes one (``world.apps.NAME``), as JSON."""
    seed = Apps.model_fields.get(name)
    if seed is None:
        return []
    models = models_in(seed.annotation)
    if not models:
        return []
    value = to_jsonable_python(models[0](), by_alias=True)
    if not any(v not in (None, [], {}, "", False) for v in value.values()):
        return []
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    return [
        f"**Seed defaults** (`world.apps.{name}`, {models[0].__name__}): what the site holds "
        "when the scenario does not seed it.",
        "",
        "```json",
        text,
        "```",
        "",
    ]


def desktop_apps() -> list[str]:
    """The desktop apps the shipped scenarios launch, with their commands."""
    rows: dict[tuple[str, str], list[str]] = {}
    for loaded in load_catalog().scenarios.values():
        desktop = loaded.scenario.world.desktop
        if desktop is None:
            continue
        for launched in desktop.apps:
            key = (launched.name, " ".join(launched.command[:1]))
            rows.setdefault(key, []).append(loaded.scenario.id)
    lines = [
        "## Desktop apps",
        "",
        "The desktop tier drives real programs; none has an account. Each starts in a fresh "
        "HOME under the attempt's scratch folder. The apps the shipped scenarios launch:",
        "",
        "| name | program | scenarios |",
        "|---|---|---|",
    ]
    for (name, program), ids in sorted(rows.items()):
        lines.append(f"| `{name}` | `{program}` | {', '.join(sorted(set(ids)))} |")
    return [*lines, ""]


def sites_page() -> str:
    """Every site: host, sign-in details, fixed codes, test data and seed defaults."""
    sites = all_sites()
    data = site_data()
    unknown = sorted(set(data) - set(sites))
    if unknown:
        raise LookupError(f"site data names sites that do not exist: {', '.join(unknown)}")
    body = ["## Contents", ""]
    body += [f"- [{name}](#{name})" for name in sorted(sites)]
    body += ["- [Desktop apps](#desktop-apps)", ""]
    for name in sorted(sites):
        site = sites[name]
        body += [f"## {name}", "", f"Host: `{site.host}` (`{{site.{name}}}` in a scenario). "
                 f"Pages, forms and snapshot: [world.md](../world.md#{name}).", ""]  # fmt: skip
        tables = data.get(name, [])
        for table in tables:
            body += table_lines(table)
        defaults = seed_defaults(name)
        body += defaults
        if not tables and not defaults:
            body += ["No accounts, codes or test data beyond what its pages show.", ""]
    body += desktop_apps()
    intro = (
        "What a scenario author needs to know about each fixture site and app: the accounts "
        "and passwords its sign-in accepts, its fixed codes, and its test data (cards, "
        "catalogs, accounts). Everything here is synthetic. Codes drawn from `world.seed` "
        "differ per scenario seed but are the same on every run of one scenario. What the "
        "pages, forms and snapshots are is in [world.md](../world.md)."
    )
    return page("Sites: accounts, codes and test data", intro, body)


# --- the pages -------------------------------------------------------------------------


def render_pages() -> dict[str, str]:
    """Path relative to the repository root -> the page's markdown, for every reference page."""
    from proctor.cli import app

    pages = {
        "docs/reference/actions.md": actions_page(),
        "docs/reference/checks.md": checks_page(),
        "docs/reference/cli.md": cli_page(app),
        "docs/reference/scenario.md": scenario_page(),
        "docs/reference/sites.md": sites_page(),
    }
    return dict(sorted(pages.items()))


def write_pages(root: Path) -> list[Path]:
    """Write every page under ``root`` (the repository root); the paths written."""
    written = []
    for relative, text in render_pages().items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    repository = Path(sys.argv[1]) if len(sys.argv) > 1 else Path()
    for path in write_pages(repository):
        sys.stdout.write(f"wrote {path}\n")
