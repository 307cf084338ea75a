"""metrics.proctor.test: Pulseboard, a metrics dashboard behind a sign-in with an emailed code.

Sign-in: ``/signin`` posts ``/submit/signin`` (email and password; a sign-in
crossing). Right ones email a 6-digit code into the mail app (``deliver``) and
303 to ``/signin/code``, which posts ``/submit/verify`` (also a sign-in
crossing). Only the newest code works; ``/signin/resend`` emails a new one;
five wrong codes lock the sign-in (429). Wrong input is answered 422 with the
message shown. Codes come from the seed: ``sign_in_code(world, n)`` is the
n-th one emailed.

Dashboard (signed in; otherwise 303 to ``/signin``): ``/?range=this-week|
last-week|last-4-weeks`` (KPI cards; the default is this week so far, a
partial week), ``/weekly`` (a table of the last eight full weeks, Monday to
Sunday on the run clock, under this week so far). Every page shows a live
visitor count that changes on every visit. Last full week's signups are 1,412,
the week before's 1,304 (+8.3%); other weeks come from the seed.

Shared report (public, no sign-in): ``/share/<SHARE>`` with a layout form that
posts ``/share/<SHARE>/layout`` (sections' positions or "Leave out", a cover
page, a page break per section; 303 back with the layout shown, 422 for
clashing positions) and ``/share/<SHARE>/report.pdf``, a PDF built from the
saved layout (``weekly-kpi-report.pdf``; sections titled "1. Revenue"...).

JSON API (signed in by cookie, else 401): ``GET /api/weekly``.

Snapshot (``EndState.apps["metrics"]``; None while untouched)::

    {signed_in, codes_sent, wrong_codes, layout: {sections: [keys in order],
     cover, page_breaks}, downloads}
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.errors import WorldError
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of
from proctor.world.apps.mail import deliver
from proctor.world.sites._kit import (
    Line,
    long_date,
    noise,
    pdf,
    pdf_response,
    posted,
    see_other,
    session,
    short_date,
    start_session,
    today,
)

NAME = "metrics"
TZ = "Europe/London"
EMAIL = "jordan.ames@example.test"
PASSWORD = "Comet-Harbor-58"
WORKSPACE = "Lumenfold"
SENDER = "Pulseboard <no-reply@pulseboard.example.test>"
CODE_SUBJECT = "Your Pulseboard sign-in code"
COOKIE = "pb_session"
SHARE = "wk-7f3a9c"
REPORT_FILE = "weekly-kpi-report.pdf"
WEEKS = 8
MAX_WRONG_CODES = 5
LINES_PER_PAGE = 44
FIXED_SIGNUPS = {1: 1412, 2: 1304}
"""Weeks ago -> signups that the scenarios' answers rely on."""


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    unit: str


SECTIONS = (
    Section("overview", "Overview", ""),
    Section("signups", "Signups", "signups"),
    Section("active", "Active users", "active users"),
    Section("revenue", "Revenue", "revenue"),
    Section("churn", "Churn", "accounts churned"),
)
DEFAULT_LAYOUT = {"sections": [s.key for s in SECTIONS], "cover": False, "page_breaks": False}
METRICS = ("signups", "active", "revenue", "churn")


@dataclass(frozen=True)
class Week:
    start: dt.date
    weeks_ago: int
    days: int
    """Days of the week counted: 7, or fewer for this week so far."""
    values: dict[str, int]
    """signups, active, revenue (in dollars), churn."""

    @property
    def complete(self) -> bool:
        return self.weeks_ago > 0

    @property
    def label(self) -> str:
        if not self.complete:
            return f"This week so far (from {short_date(self.start)})"
        return f"Week of {short_date(self.start)}"


def _week_values(world: AttemptWorld, weeks_ago: int) -> dict[str, int]:
    rng = world.rng(f"metrics:week:{weeks_ago}")
    signups = FIXED_SIGNUPS.get(weeks_ago, rng.randint(1050, 1390))
    return {
        "signups": signups,
        "active": rng.randint(8200, 9400),
        "revenue": rng.randint(41_000, 52_000),
        "churn": rng.randint(18, 46),
    }


def weeks(world: AttemptWorld) -> list[Week]:
    """This week so far, then the last eight full weeks, newest first."""
    day = today(world, TZ)
    monday = day - dt.timedelta(days=day.weekday())
    counted = day.weekday() + 1
    whole = _week_values(world, 0)
    # Counts grow through the week; active users are a level, not a sum.
    partial = {k: round(v * counted / 7) for k, v in whole.items()}
    partial["active"] = whole["active"]
    out = [Week(monday, 0, counted, partial)]
    for ago in range(1, WEEKS + 1):
        out.append(Week(monday - dt.timedelta(weeks=ago), ago, 7, _week_values(world, ago)))
    return out


def change(now: int, before: int) -> str:
    """Week-over-week change: ``+8.3%``."""
    return f"{(now - before) / before * 100:+.1f}%" if before else "n/a"


def sign_in_code(world: AttemptWorld, n: int) -> str:
    """The ``n``-th sign-in code emailed in an attempt (1 first)."""
    return f"{world.rng(f'metrics:code:{n}').randint(0, 999_999):06d}"


def _state(request: Request) -> tuple[AttemptWorld, dict[str, Any]]:
    world = world_of(request)
    return world, world.state(NAME)


def _page(template: str, status: int = 200, **context: Any) -> Response:
    return render(f"metrics/{template}", status, **context)


def _live(world: AttemptWorld, state: dict[str, Any]) -> int:
    return noise(world, state, NAME).randint(40, 260)


def _signed_out(request: Request) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return see_other(f"/signin?next={quote(target)}")


def _safe_next(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") else "/"


async def signin_page(request: Request) -> Response:
    next_ = _safe_next(request.query_params.get("next", "/"))
    return _page("signin.html", errors=[], email="", next=next_)


def _send_code(world: AttemptWorld, state: dict[str, Any]) -> None:
    state["codes_sent"] = state.get("codes_sent", 0) + 1
    code = sign_in_code(world, state["codes_sent"])
    body = (
        f"Your sign-in code is {code}.\n\nIt expires in 10 minutes. If you did not try to "
        "sign in to Pulseboard, you can ignore this email."
    )
    deliver(world, sender=SENDER, subject=CODE_SUBJECT, body=body)


async def signin(request: Request) -> Response:
    world, state = _state(request)
    state["touched"] = True
    form = await posted(request)
    next_ = _safe_next(form.get("next", "/"))
    errors = [
        f"{label} is required."
        for key, label in (("email", "Email"), ("password", "Password"))
        if not form.get(key)
    ]
    if not errors and (form["email"].lower() != EMAIL or form["password"] != PASSWORD):
        errors = ["That email and password do not match an account."]
    if errors:
        return _page("signin.html", 422, errors=errors, email=form.get("email", ""), next=next_)
    state["pending"] = {"next": next_, "wrong": 0}
    try:
        _send_code(world, state)
    except WorldError:
        return _page(
            "signin.html",
            503,
            errors=["We could not send the email. Try again later."],
            email=form.get("email", ""),
            next=next_,
        )
    return see_other("/signin/code")


def _masked(email: str) -> str:
    name, _, domain = email.partition("@")
    return f"{name[0]}{'*' * (len(name) - 1)}@{domain}"


async def code_page(request: Request) -> Response:
    _, state = _state(request)
    if "pending" not in state:
        return see_other("/signin")
    resent = request.query_params.get("resent") == "1"
    return _page("code.html", errors=[], to=_masked(EMAIL), resent=resent)


async def verify(request: Request) -> Response:
    world, state = _state(request)
    state["touched"] = True
    pending = state.get("pending")
    if pending is None:
        return _page(
            "signin.html",
            409,
            errors=["Start again: enter your email and password."],
            email="",
            next="/",
        )
    if pending["wrong"] >= MAX_WRONG_CODES:
        errors = ["Too many wrong codes. Sign-in is locked for 15 minutes."]
        return _page("code.html", 429, errors=errors, to=_masked(EMAIL), resent=False)
    code = (await posted(request)).get("code", "").replace(" ", "")
    if not code:
        return _page(
            "code.html", 422, errors=["Enter the 6-digit code."], to=_masked(EMAIL), resent=False
        )
    if code != sign_in_code(world, state["codes_sent"]):
        pending["wrong"] += 1
        state["wrong_codes"] = state.get("wrong_codes", 0) + 1
        errors = ["That code is wrong or has expired. Use the code in the newest email."]
        return _page("code.html", 422, errors=errors, to=_masked(EMAIL), resent=False)
    del state["pending"]
    state["signed_in"] = state.get("signed_in", 0) + 1
    token = start_session(world, state, NAME, email=EMAIL)
    return see_other(pending["next"], {COOKIE: token})


async def resend(request: Request) -> Response:
    world, state = _state(request)
    if "pending" not in state:
        return see_other("/signin")
    try:
        _send_code(world, state)
    except WorldError:
        return _page(
            "code.html",
            503,
            errors=["We could not send the email."],
            to=_masked(EMAIL),
            resent=False,
        )
    return see_other("/signin/code?resent=1")


async def signout(request: Request) -> Response:
    _, state = _state(request)
    state.get("sessions", {}).pop(request.cookies.get(COOKIE, ""), None)
    return see_other("/signin", {COOKIE: None})


RANGES = {"this-week": "This week so far", "last-week": "Last week", "last-4-weeks": "Last 4 weeks"}


def _cards(all_weeks: list[Week], choice: str) -> list[dict[str, str]]:
    if choice == "this-week":
        share = all_weeks[0].days / 7
        now = all_weeks[0].values
        before = {k: round(v * share) for k, v in all_weeks[1].values.items()}
        before["active"] = all_weeks[1].values["active"]
        against = "the same days last week"
    elif choice == "last-week":
        now, before, against = all_weeks[1].values, all_weeks[2].values, "the week before"
    else:
        now = {k: sum(w.values[k] for w in all_weeks[1:5]) for k in METRICS}
        before = {k: sum(w.values[k] for w in all_weeks[5:9]) for k in METRICS}
        now["active"] = all_weeks[1].values["active"]
        before["active"] = all_weeks[5].values["active"]
        against = "the 4 weeks before"
    shown = []
    for section in SECTIONS[1:]:
        value = now[section.key]
        text = f"${value:,}" if section.key == "revenue" else f"{value:,}"
        shown.append(
            {
                "title": section.title,
                "value": text,
                "change": change(value, before[section.key]),
                "against": against,
            }
        )
    return shown


async def dashboard(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    choice = request.query_params.get("range", "this-week")
    if choice not in RANGES:
        return _page(
            "dashboard.html",
            400,
            errors=["Choose a range from the list."],
            ranges=RANGES,
            choice="this-week",
            cards=[],
            live=_live(world, state),
            heading="",
        )
    all_weeks = weeks(world)
    heading = {
        "this-week": all_weeks[0].label,
        "last-week": f"Last week ({long_date(all_weeks[1].start)} to "
        f"{long_date(all_weeks[1].start + dt.timedelta(days=6))})",
        "last-4-weeks": f"Last 4 weeks (from {long_date(all_weeks[4].start)})",
    }[choice]
    return _page(
        "dashboard.html",
        errors=[],
        ranges=RANGES,
        choice=choice,
        cards=_cards(all_weeks, choice),
        live=_live(world, state),
        heading=heading,
    )


async def weekly(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    all_weeks = weeks(world)
    rows = []
    for i, week in enumerate(all_weeks):
        previous = all_weeks[i + 1] if i + 1 < len(all_weeks) else None
        wow = (
            change(week.values["signups"], previous.values["signups"])
            if previous and week.complete
            else ""
        )
        rows.append({"week": week, "wow": wow})
    return _page("weekly.html", rows=rows, live=_live(world, state))


async def api_weekly(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return JSONResponse({"ok": False, "errors": ["not signed in"]}, status_code=401)
    data = [
        {"week_start": w.start.isoformat(), "complete": w.complete, **w.values}
        for w in weeks(world)
    ]
    return JSONResponse({"weeks": data})


# shared report


def _layout(state: dict[str, Any]) -> dict[str, Any]:
    layout: dict[str, Any] = state.setdefault("layout", dict(DEFAULT_LAYOUT))
    return layout


def _section(key: str) -> Section:
    return next(s for s in SECTIONS if s.key == key)


def _share_page(
    world: AttemptWorld,
    state: dict[str, Any],
    status: int = 200,
    *,
    errors: list[str],
    values: dict[str, str] | None = None,
    saved: bool = False,
) -> Response:
    layout = _layout(state)
    if values is None:
        values = {f"pos_{k}": str(i) for i, k in enumerate(layout["sections"], start=1)}
        values.update(
            cover="on" if layout["cover"] else "", breaks="on" if layout["page_breaks"] else ""
        )
    order = [_section(k).title for k in layout["sections"]]
    return _page(
        "share.html",
        status,
        share=SHARE,
        sections=SECTIONS,
        values=values,
        order=order,
        layout=layout,
        errors=errors,
        saved=saved,
        live=_live(world, state),
        file=REPORT_FILE,
    )


async def share(request: Request) -> Response:
    world, state = _state(request)
    if request.path_params["token"] != SHARE:
        return _page("missing.html", 404)
    return _share_page(world, state, errors=[], saved=request.query_params.get("saved") == "1")


async def save_layout(request: Request) -> Response:
    world, state = _state(request)
    if request.path_params["token"] != SHARE:
        return _page("missing.html", 404)
    state["touched"] = True
    form = await posted(request)
    chosen: dict[int, str] = {}
    errors = []
    for section in SECTIONS:
        raw = form.get(f"pos_{section.key}", "")
        if raw in ("", "out"):
            continue
        if not raw.isdigit() or not 1 <= int(raw) <= len(SECTIONS):
            errors.append(f"Choose a position for {section.title} from the list.")
            continue
        pos = int(raw)
        if pos in chosen:
            first = _section(chosen[pos]).title
            errors.append(f"{first} and {section.title} can't both be at position {pos}.")
        else:
            chosen[pos] = section.key
    if not chosen and not errors:
        errors.append("Choose at least one section.")
    if errors:
        return _share_page(world, state, 422, errors=errors, values=form)
    state["layout"] = {
        "sections": [chosen[p] for p in sorted(chosen)],
        "cover": form.get("cover") == "on",
        "page_breaks": form.get("breaks") == "on",
    }
    return see_other(f"/share/{SHARE}?saved=1")


def _section_lines(n: int, section: Section, full: list[Week]) -> list[Line]:
    """A section of the report: its numbered title, its table (or the overview), the change."""
    lines = [Line(f"{n}. {section.title}", size=13, bold=True, gap=10)]
    if section.key == "overview":
        last, before = full[0].values, full[1].values
        for metric in METRICS:
            shift = change(last[metric], before[metric])
            lines.append(
                Line(f"{_section(metric).title}: {last[metric]:,} ({shift} week over week)")
            )
        return lines
    lines.append(Line(cells=[(56, "Week"), (260, section.title)], bold=True))
    for week in full:
        value = week.values[section.key]
        shown = f"${value:,}" if section.key == "revenue" else f"{value:,}"
        lines.append(Line(cells=[(56, week.label), (260, shown)]))
    shift = change(full[0].values[section.key], full[1].values[section.key])
    lines.append(Line(f"Week over week: {shift}", gap=4))
    return lines


def report_pdf(world: AttemptWorld, layout: dict[str, Any]) -> bytes:
    """The shared report as laid out: optional cover, then numbered sections."""
    all_weeks = weeks(world)[1:]
    pages: list[list[Line]] = []
    if layout["cover"]:
        pages.append(
            [
                Line("Pulseboard", size=12, gap=120),
                Line("Weekly KPI report", size=24, bold=True, gap=8),
                Line(f"{WORKSPACE} workspace", size=12, gap=8),
                Line(f"Prepared {long_date(today(world, TZ))}", size=10, gap=8),
            ]
        )
    current: list[Line] = []
    if not layout["cover"]:
        current.append(Line("Weekly KPI report", size=16, bold=True))
    filled = False
    for n, key in enumerate(layout["sections"], start=1):
        block = _section_lines(n, _section(key), all_weeks)
        if filled and (layout["page_breaks"] or len(current) + len(block) > LINES_PER_PAGE):
            pages.append(current)
            current = []
        current.extend(block)
        filled = True
    if current:
        pages.append(current)
    return pdf(pages, title="Pulseboard weekly KPI report")


async def report(request: Request) -> Response:
    world, state = _state(request)
    if request.path_params["token"] != SHARE:
        return _page("missing.html", 404)
    state["touched"] = True
    state["downloads"] = state.get("downloads", 0) + 1
    return pdf_response(report_pdf(world, _layout(state)), REPORT_FILE)


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    state = world.state(NAME)
    if not state.get("touched"):
        return None
    return {
        "signed_in": state.get("signed_in", 0),
        "codes_sent": state.get("codes_sent", 0),
        "wrong_codes": state.get("wrong_codes", 0),
        "layout": dict(_layout(state)),
        "downloads": state.get("downloads", 0),
    }


SITE = Site(
    name=NAME,
    routes=[
        Route("/", dashboard),
        Route("/weekly", weekly),
        Route("/signin", signin_page),
        Route("/submit/signin", signin, methods=["POST"]),
        Route("/signin/code", code_page),
        Route("/submit/verify", verify, methods=["POST"]),
        Route("/signin/resend", resend, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/api/weekly", api_weekly),
        Route("/share/{token:str}", share),
        Route("/share/{token:str}/layout", save_layout, methods=["POST"]),
        Route("/share/{token:str}/report.pdf", report),
    ],
    crossings={"/submit/signin": "signin", "/submit/verify": "signin"},
    snapshot=snapshot,
)
