"""Evaluators of the desktop checks: they read the desktop's end state, never the transcript."""

from __future__ import annotations

import math
import re

from proctor.errors import GradingError
from proctor.grading._outcome import CheckOutcome
from proctor.records import DesktopAppState, DesktopControl, EndState
from proctor.scenario import DesktopAlive, DesktopFrontmost, DesktopValue, arithmetic


def _app(state: EndState, name: str) -> DesktopAppState:
    if state.desktop is None:
        raise GradingError(
            f"desktop check on app {name!r}, but the attempt has no desktop end state "
            "(the scenario has no world.desktop)"
        )
    app = state.desktop.app(name)
    if app is None:
        names = ", ".join(a.name for a in state.desktop.apps)
        raise GradingError(f"desktop check names app {name!r}; the attempt's apps: {names}")
    return app


def _as_number(text: str) -> float | None:
    """A display's text as a number: spaces, thin spaces and thousands commas ignored."""
    cleaned = re.sub(r"[\s\u2009\u202f,]", "", text).replace("−", "-")
    try:
        return float(cleaned)
    except ValueError:
        return None


def desktop_value(args: DesktopValue, state: EndState) -> CheckOutcome:
    app = _app(state, args.app)
    expected: dict[str, object] = {
        "app": args.app,
        "role": args.role,
        **({"label": args.label} if args.label is not None else {}),
        **{k: v for k, v in (("equals", args.equals), ("contains", args.contains),
                             ("matches", args.matches), ("number", args.number)) if v is not None},
    }  # fmt: skip
    if not app.alive:
        return CheckOutcome(False, expected, None, f"{args.app} was not running at the end")
    hits: list[DesktopControl] = [
        c
        for c in app.controls
        if c.role == args.role
        and (args.label is None or c.name == args.label)
        and (args.window is None or c.window == args.window)
    ]
    what = f"{args.role}" + (f" {args.label!r}" if args.label is not None else "")
    if not hits:
        roles = sorted({c.role for c in app.controls})
        return CheckOutcome(
            False, expected, None, f"{args.app} has no {what}; its roles: {', '.join(roles)}"
        )
    if len(hits) > 1:
        shown = [c.value for c in hits[:5]]
        return CheckOutcome(
            False,
            expected,
            shown,
            f"{len(hits)} controls of {args.app} are {what}: name one by label or window",
        )
    value = hits[0].value
    if value is None:
        return CheckOutcome(False, expected, None, f"{what} of {args.app} holds no value")
    if args.equals is not None:
        return CheckOutcome(value == args.equals, expected, value, "")
    if args.contains is not None:
        return CheckOutcome(args.contains in value, expected, value, "")
    if args.matches is not None:
        return CheckOutcome(re.search(args.matches, value) is not None, expected, value, "")
    assert args.number is not None
    want = arithmetic(args.number)
    got = _as_number(value)
    if got is None:
        return CheckOutcome(False, expected, value, f"{value!r} is not a number")
    ok = math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)
    return CheckOutcome(ok, {**expected, "value": want}, value, "")


def desktop_frontmost(args: DesktopFrontmost, state: EndState) -> CheckOutcome:
    _app(state, args.app)
    front = state.desktop.frontmost if state.desktop is not None else None
    return CheckOutcome(front == args.app, args.app, front, "")


def desktop_alive(args: DesktopAlive, state: EndState) -> CheckOutcome:
    app = _app(state, args.app)
    running = app.alive and bool(app.windows)
    return CheckOutcome(running == args.alive, args.alive, running, "")
