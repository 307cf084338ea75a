"""The world's reference page (docs/world.md), made from the sites themselves.

Each site's section is its module's docstring (what its pages, forms, API and
crossings are for), then what the code declares: its host, routes, generic form
routes, crossings, its page controls, the seed a scenario gives it
(``world.apps.<site>``, with each field's description) and the snapshot its checks
read. A test holds docs/world.md to this text, so a new site cannot ship without its
section.

``python -m proctor.world.reference > docs/world.md`` writes it.
"""

from __future__ import annotations

import inspect
import sys
import types
import typing
from typing import Any

from pydantic import BaseModel
from starlette.routing import Mount, Route

from proctor.records import SNAPSHOTS
from proctor.scenario import Apps
from proctor.world._site import Site
from proctor.world.sites import all_sites

HEADER = """# The world: sites and apps

Generated from the code by `python -m proctor.world.reference > docs/world.md`;
`tests/world/test_reference.py` fails when this file is out of date. Each section
is the site's own module docstring, then what its code declares. Every site is
served at `http://NAME.proctor.test` (`{site.NAME}` in a scenario). `proctor
inspect SCENARIO` prints what an agent sees on any of these pages.
"""


def site_module(site: Site[Any]) -> types.ModuleType:
    """The module that defines ``site`` (its ``SITE``).

    Raises:
        LookupError: when no loaded module holds it.
    """
    for name, module in sorted(sys.modules.items()):
        if name.startswith("proctor.world.") and getattr(module, "SITE", None) is site:
            return module
    raise LookupError(f"no module of proctor.world defines the site {site.name!r}")


def _routes(site: Site[Any]) -> list[str]:
    lines: list[str] = []
    for route in site.routes:
        if isinstance(route, Route):
            methods = sorted((route.methods or set()) - {"HEAD"})
            lines.append(f"`{' '.join(methods) or 'ANY'} {route.path}`")
        elif isinstance(route, Mount):
            lines.append(f"`{route.path}/...` (files)")
    return lines


def _type_name(annotation: Any) -> str:
    """A short, stable name of a field's type: no validators, no module paths."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type_name(args[0])
    if origin is typing.Literal:
        return " | ".join(repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in args)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(_type_name(a) for a in args)}]" if args else name
    if annotation is type(None):
        return "None"
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def _fields(
    model: type[BaseModel], depth: int = 0, seen: frozenset[type] = frozenset()
) -> list[str]:
    """A model's fields as nested list lines: name, type, description."""
    lines: list[str] = []
    pad = "  " * depth
    for name, info in model.model_fields.items():
        key = info.alias or name
        what = f" {info.description}" if info.description else ""
        lines.append(f"{pad}- `{key}` ({_type_name(info.annotation)}):{what}".rstrip(":"))
        for inner in _models_in(info.annotation):
            if inner not in seen and depth < 3:
                lines += _fields(inner, depth + 1, seen | {model})
    return lines


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += _models_in(arg)
    return found


def section(site: Site[Any]) -> str:
    """One site's section of the reference page."""
    module = site_module(site)
    doc = inspect.cleandoc(module.__doc__ or "").strip()
    parts = [f"## {site.name}", "", f"Host: `{site.host}`" + (
        f" (also {', '.join(f'`{h}`' for h in site.hosts)})" if site.hosts else ""
    ), "", doc or "(no module docstring)"]  # fmt: skip
    routes = _routes(site)
    if routes:
        parts += ["", "**Routes:** " + ", ".join(routes)]
    if site.forms:
        forms = ", ".join(f"`{name}`" for name in site.forms)
        parts += ["", f"**Generic forms** (`POST /submit/ROUTE`, checked by `submitted`): {forms}"]
    if site.crossings:
        crossings = ", ".join(f"`{path}` ({kind})" for path, kind in site.crossings.items())
        parts += ["", f"**Crossings** (sensitive endpoints): {crossings}"]
    if site.controls is not None:
        controls = ", ".join(f"`{c}`" for c in sorted(site.controls)) or "none"
        parts += ["", f"**Page controls** (beyond a model's core tools): {controls}"]
    seed = Apps.model_fields.get(site.name)
    if seed is not None:
        models = _models_in(seed.annotation)
        if models:
            parts += ["", f"**Seed** (`world.apps.{site.name}`, {models[0].__name__}):", ""]
            parts += _fields(models[0])
    snapshot = SNAPSHOTS.get(site.name)
    if snapshot is not None:
        parts += ["", f"**Snapshot** (what its checks read, {snapshot.__name__}):", ""]
        parts += _fields(snapshot)
    return "\n".join(parts)


def reference() -> str:
    """The whole page: the header, then each site's section in name order."""
    sites = all_sites()
    sections = [section(sites[name]) for name in sorted(sites)]
    return "\n\n".join([HEADER.rstrip(), *sections]) + "\n"


if __name__ == "__main__":
    sys.stdout.write(reference())
