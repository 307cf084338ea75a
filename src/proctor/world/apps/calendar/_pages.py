"""The calendar's pages and posts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import (
    addresses,
    page_error,
    read_form,
    see_other,
)
from proctor.world._kit._time import (
    COMMON_ZONES,
    local,
    show,
)
from proctor.world._render import render
from proctor.world._site import world_of
from proctor.world.apps.calendar._state import (
    NAME,
    RSVP_WORDS,
    Calendar,
    answer,
    check_form,
)


def page(template: str, cal: Calendar, status: int = 200, **ctx: Any) -> Response:
    """A calendar page: ``hm`` and ``full`` show a moment in the calendar's zone or another."""

    def hm(moment: dt.datetime, tz: str | None = None) -> str:
        return f"{local(moment, tz or cal.tz):%H:%M}"

    def full(moment: dt.datetime, tz: str | None = None) -> str:
        return show(moment, tz or cal.tz)

    return render(
        f"calendar/{template}", status, cal=cal, hm=hm, full=full, words=RSVP_WORDS, **ctx
    )


def _day_param(request: Request, cal: Calendar) -> dt.date | None:
    text = request.query_params.get("date", "")
    if not text:
        return cal.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


async def week(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    day = _day_param(request, cal)
    if day is None:
        return page_error(["Date must look like 2025-03-14."], 400, back="/")
    monday = day - dt.timedelta(days=day.weekday())
    days = []
    for i in range(7):
        d = monday + dt.timedelta(days=i)
        days.append((d, cal.between(*cal.day_bounds(d))))
    prev_week, next_week = monday - dt.timedelta(days=7), monday + dt.timedelta(days=7)
    return page("week.html", cal, days=days, monday=monday, prev=prev_week, next=next_week)


async def day_view(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    day = _day_param(request, cal)
    if day is None:
        return page_error(["Date must look like 2025-03-14."], 400, back="/")
    events = cal.between(*cal.day_bounds(day))
    prev_day, next_day = day - dt.timedelta(days=1), day + dt.timedelta(days=1)
    gone = next((e for e in cal.deleted if e.id == request.query_params.get("deleted")), None)
    notice = f"Deleted “{gone.title}”." if gone else ""
    return page(
        "day.html", cal, day=day, events=events, prev=prev_day, next=next_day, notice=notice
    )


async def event_page(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return page_error(["This event does not exist."], 404, back="/")
    asked = request.query_params
    notice = ""
    if asked.get("created") or asked.get("answered") or asked.get("saved"):
        notice = "Saved."
    elif asked.get("moved"):
        notice = f"Moved to {show(event.start, cal.tz)} ({cal.tz})."
    elif asked.get("guests"):
        notice = "Guests updated."
    mine = event.answer_of(cal.owner)
    return page("event.html", cal, event=event, mine=mine, notice=notice)


async def invites(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    return page("invites.html", cal, events=cal.invites())


def _blank(cal: Calendar, day: dt.date) -> dict[str, str]:
    return {
        "title": "",
        "date": day.isoformat(),
        "start": "",
        "end": "",
        "tz": cal.tz,
        "attendees": "",
        "location": "",
        "description": "",
    }


async def new_page(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    day = _day_param(request, cal) or cal.today()
    return page("new.html", cal, values=_blank(cal, day), errors=[], zones=zones(cal))


def zones(cal: Calendar) -> list[str]:
    """The zones a time-zone select offers: the calendar's first."""
    return list(dict.fromkeys([cal.tz, *COMMON_ZONES]))


async def create_post(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    form = await read_form(request, trim=False)
    values = {k: form.get(k, "") for k in _blank(cal, cal.today())}
    draft = check_form(values)
    if draft.errors or draft.start is None or draft.end is None:
        return page("new.html", cal, 422, values=values, errors=draft.errors, zones=zones(cal))
    event = cal.create(
        values["title"].strip(),
        draft.start,
        draft.end,
        values["tz"].strip(),
        draft.attendees,
        values["location"].strip(),
        values["description"],
    )
    return see_other(f"/event/{event.id}?created=1")


async def rsvp_post(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return page_error(["This event does not exist."], 404, back="/")
    form = await read_form(request, trim=False)
    problem = answer(cal, event, form.get("response", ""))
    if problem:
        return page_error([problem], 422, back=f"/event/{event.id}")
    return see_other(f"/event/{event.id}?answered=1")


async def freebusy_page(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    day = _day_param(request, cal)
    if day is None:
        return page_error(["Date must look like 2025-03-14."], 400, back="/freebusy")
    text = request.query_params.get("emails", "")
    good, bad = addresses(text)
    if bad:
        messages = [f"{b!r} is not a valid email address." for b in bad]
        return page_error(messages, 400, back="/freebusy")
    people = [cal.owner, *(g for g in good if g != cal.owner)]
    window = cal.day_bounds(day)
    rows = [(p, cal.names.get(p, ""), cal.busy_of(p, *window)) for p in people]
    return page("freebusy.html", cal, day=day, rows=rows, emails=text, show_iso=_show_iso)


def _show_iso(text: str, tz: str) -> str:
    moment = dt.datetime.fromisoformat(text)
    return f"{local(moment, tz):%H:%M}"
