"""What ``validate`` can see before a run: the names a scenario's checks refer to.

A scenario that is valid field by field can still name what its world does not
hold, and that only shows when the run grades it: a check reading a site that
``world.sites`` does not list (``host``, ``site``, ``app``, an app check), a
workbook or sheet the seed does not create, a dotted path into a snapshot that
names no site or no field of its snapshot. Each is a ``Problem`` naming the
check's place (``checks[2].sheet_cells.workbook``) and the fix.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from pydantic import BaseModel

from proctor.records import SNAPSHOTS
from proctor.scenario._check_args import CheckArgs
from proctor.scenario._check_args_live import LiveRead
from proctor.scenario._checks import (
    AfterEventCheck,
    AllCheck,
    AnyCheck,
    check_args,
    check_kind,
)
from proctor.scenario._errors import Problem, closest
from proctor.scenario._spec import Scenario

_HOST = re.compile(r"^(?:https?://)?(?:\{site\.([a-z0-9_-]+)\}|([a-z0-9_-]+)\.proctor\.test)")


def walk_checks(checks: list[Any], where: str = "checks") -> Iterator[tuple[str, str, Any]]:
    """Every check with its place and kind, those inside ``all``/``any`` included."""
    for i, check in enumerate(checks):
        here = f"{where}[{i}]"
        if isinstance(check, AllCheck):
            yield from walk_checks(list(check.all), f"{here}.all")
        elif isinstance(check, AnyCheck):
            yield from walk_checks(list(check.any), f"{here}.any")
        elif isinstance(check, AfterEventCheck):
            yield from walk_checks([check.after_event.check], f"{here}.after_event.check")
        else:
            kind = check_kind(check)
            yield f"{here}.{kind}", kind, check_args(check)


def _site_of_host(host: str) -> str | None:
    match = _HOST.match(host.strip())
    return (match.group(1) or match.group(2)) if match else None


def reference_problems(
    scenario: Scenario, file: str, sites: Collection[str] | None = None
) -> list[Problem]:
    """The names the checks use that this scenario's world cannot hold."""
    declared = set(scenario.world.sites)
    problems: list[Problem] = []

    def need(site: str, where: str, why: str) -> None:
        if site in declared:
            return
        if sites is not None and site not in sites:
            guess = closest(site, sites)
            hint = f"did you mean {guess!r}?" if guess else f"sites: {', '.join(sorted(sites))}"
            problems.append(Problem(file, where, f"{why} names the unknown site {site!r}", hint))
            return
        problems.append(
            Problem(
                file,
                where,
                f"{why} reads the site {site!r}, which world.sites does not list",
                f"add {site} to world.sites",
            )
        )

    for where, kind, args in walk_checks(list(scenario.checks)):
        if not isinstance(args, CheckArgs):
            continue
        if args.reads_site is not None:
            need(args.reads_site, where, "the check")
        host = getattr(args, "host", None)
        if isinstance(host, str):
            site = _site_of_host(host)
            if site is not None:
                need(site, f"{where}.host", f"host {host!r}")
        site = getattr(args, "site", None)
        if isinstance(site, str):
            need(site, f"{where}.site", f"site {site!r}")
        app = getattr(args, "app", None)
        if isinstance(app, str) and kind.startswith("desktop_"):
            problems += _desktop_app(scenario, file, f"{where}.app", app)
        elif isinstance(app, str):
            need(app, f"{where}.app", f"app {app!r}")
        problems += _seed_problems(scenario, file, where, args)
        problems += _event_problems(scenario, file, where, kind, args)
        problems += _path_problems(file, where, args, need)
        if isinstance(args, LiveRead):
            problems += _live_problems(scenario, file, where, args)
    return problems


def _live_problems(scenario: Scenario, file: str, where: str, args: LiveRead) -> list[Problem]:
    """A live_read check reads a page of one of the scenario's public hosts."""
    live = scenario.world.live
    if live is None:
        return [Problem(file, where, "a live_read check reads a public page, and this scenario "
                        "has no world.live", "live_read is for tier: live scenarios")]  # fmt: skip
    if live.allows(args.url):
        return []
    return [
        Problem(
            file,
            f"{where}.url",
            f"url {args.url!r} is not on a host of world.live ({', '.join(live.hosts)})",
            "add its host to world.live.hosts, or read a page of a listed host",
        )
    ]


def _desktop_app(scenario: Scenario, file: str, where: str, app: str) -> list[Problem]:
    """A desktop check's app must be one that world.desktop launches."""
    desktop = scenario.world.desktop
    names = [a.name for a in desktop.apps] if desktop is not None else []
    if app in names:
        return []
    if not names:
        return [Problem(file, where, f"app {app!r}: this scenario launches no desktop app",
                        "add world.desktop.apps, or drop the desktop check")]  # fmt: skip
    guess = closest(app, names)
    return [
        Problem(
            file,
            where,
            f"app {app!r} is not one world.desktop launches ({', '.join(names)})",
            f"did you mean {guess!r}?" if guess else "",
        )
    ]


MOVES_SEEDED = ("event_moved", "event_deleted")
"""Calendar checks about an event that was there when the attempt began."""


def _event_problems(
    scenario: Scenario, file: str, where: str, kind: str, args: BaseModel
) -> list[Problem]:
    """A moved or deleted event named by id must be one the calendar seed makes."""
    event = getattr(args, "id", None)
    if kind not in MOVES_SEEDED or not isinstance(event, str):
        return []
    seed = scenario.world.apps.calendar
    ids = [e.id or f"e{i}" for i, e in enumerate(seed.events, 1)] if seed is not None else []
    if event in ids:
        return []
    guess = closest(event, ids) if ids else ""
    return [
        Problem(
            file,
            f"{where}.id",
            f"event {event!r} is not one world.apps.calendar seeds "
            f"(seeded: {', '.join(ids) or 'none'})",
            f"did you mean {guess!r}?" if guess else "",
        )
    ]


def _seed_problems(scenario: Scenario, file: str, where: str, args: BaseModel) -> list[Problem]:
    """Workbook and sheet names the sheets seed does not hold (it makes no new ones)."""
    workbook = getattr(args, "workbook", None)
    if getattr(args, "reads_site", None) != "sheets" or not isinstance(workbook, str):
        return []
    seed = scenario.world.apps.sheets
    books = {w.id: w for w in seed.workbooks} if seed is not None else {}
    if workbook not in books:
        seeded = ", ".join(sorted(books)) or "none"
        return [
            Problem(
                file,
                f"{where}.workbook",
                f"workbook {workbook!r} is not in world.apps.sheets (seeded: {seeded})",
                "the sheets app makes no new workbooks: seed it, or name a seeded one",
            )
        ]
    sheet = getattr(args, "sheet", None)
    names = [s.name for s in books[workbook].sheets]
    if isinstance(sheet, str) and sheet not in names:
        return [
            Problem(
                file,
                f"{where}.sheet",
                f"workbook {workbook!r} has no sheet {sheet!r} (its sheets: {', '.join(names)})",
            )
        ]
    return []


def _path_problems(file: str, where: str, args: BaseModel, need: Any) -> list[Problem]:
    """A dotted path into the snapshots must start with a listed site and one of its
    snapshot's fields; past that, what it selects is known only at the end."""
    problems: list[Problem] = []
    for field in ("sha256_from",):
        value = getattr(args, field, None)
        if not isinstance(value, str) or not value:
            continue
        head, _, rest = value.partition(".")
        head = head.split("[", 1)[0]
        need(head, f"{where}.{field}", f"path {value!r}")
        snapshot = SNAPSHOTS.get(head)
        if snapshot is None or not rest:
            continue
        first = re.split(r"[.\[]", rest, maxsplit=1)[0]
        known = list(snapshot.model_fields) + [
            f.alias for f in snapshot.model_fields.values() if f.alias
        ]
        if first not in known:
            guess = closest(first, known)
            problems.append(
                Problem(
                    file,
                    f"{where}.{field}",
                    f"path {value!r}: the {head} snapshot has no field {first!r}",
                    (f"did you mean {guess!r}? " if guess else "")
                    + f"its fields: {', '.join(snapshot.model_fields)}",
                )
            )
    return problems
