"""calendar.proctor.test: the user's calendar: day and week views, events, invites, free/busy.

Seed: ``world.apps.calendar`` (``proctor.scenario._apps.CalendarSeed``). The
owner's own answer to an event is ``accepted`` when they organize it, else
their attendee RSVP; invites are events someone else organizes.

Pages: ``/`` (this week), ``/week?date=YYYY-MM-DD``, ``/day?date=``,
``/event/<id>``, ``/invites``, ``/new?date=``, ``/freebusy?emails=&date=``.
Posts: ``/events`` (title, date, start, end as HH:MM, tz, attendees, location,
description) -> 303 ``/event/<id>``; ``/event/<id>/rsvp`` (response accepted,
tentative or declined) -> 303 ``/event/<id>``. Invalid input: 422 with the
messages shown and the form kept.

JSON API: ``GET /api/events?from=&to=`` (ISO; a bare date-time is read in the
calendar's zone), ``GET /api/events/<id>``, ``POST /api/events {title, start,
end, tz?, attendees?, location?, description?}`` (start/end ISO), ``POST
/api/events/<id>/rsvp {response}``, ``GET /api/freebusy?emails=a,b&from=&to=``
-> ``{tz, busy: {email: [{start, end, title?}]}}`` (titles only for the owner).

Snapshot (``EndState.apps["calendar"]``; ``None`` when unseeded and untouched)::

    {now, tz, owner, name,
     events: [{id, title, start, end, tz, location, description, organizer,
               attendees: [{email, name, rsvp}], my_rsvp, seeded}]}
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.errors import WorldError
from proctor.scenario._apps import CalendarSeed
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of
from proctor.world.apps._time import (
    COMMON_ZONES,
    at,
    iso,
    local,
    parse_instant,
    run_now,
    show,
    zone_ok,
)
from proctor.world.apps._web import (
    MAX_TEXT,
    BadJson,
    addresses,
    api_error,
    form_fields,
    fresh_ids,
    json_object,
    page_error,
    see_other,
    text_of,
)

NAME = "calendar"
ANSWERS = ("accepted", "tentative", "declined")
RSVP_WORDS = {  # keys: every Rsvp state
    "needs_action": "Not answered",
    "accepted": "Going",
    "tentative": "Maybe",
    "declined": "Not going",
}


@dataclass
class Attendee:
    email: str
    name: str
    rsvp: str = "needs_action"


@dataclass
class Event:
    id: str
    title: str
    start: dt.datetime
    end: dt.datetime
    tz: str
    organizer: str
    attendees: list[Attendee]
    seeded: bool
    location: str = ""
    description: str = ""

    def answer_of(self, email: str) -> str | None:
        if email == self.organizer:
            return "accepted"
        return next((a.rsvp for a in self.attendees if a.email == email), None)


@dataclass
class Calendar:
    """One attempt's calendar."""

    tz: str
    owner: str
    name: str
    now: dt.datetime
    seeded: bool
    events: list[Event] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    busy: dict[str, list[tuple[dt.datetime, dt.datetime]]] = field(default_factory=dict)
    touched: bool = False
    counter: int = 0

    def event(self, eid: str) -> Event | None:
        return next((e for e in self.events if e.id == eid), None)

    def mine(self) -> list[Event]:
        """Events on the owner's calendar, in start order."""
        picked = [e for e in self.events if e.answer_of(self.owner) is not None]
        return sorted(picked, key=lambda e: (e.start, e.id))

    def between(self, start: dt.datetime, end: dt.datetime) -> list[Event]:
        return [e for e in self.mine() if e.start < end and e.end > start]

    def invites(self) -> list[Event]:
        return [e for e in self.mine() if e.organizer != self.owner]

    def pending(self) -> int:
        return sum(e.answer_of(self.owner) == "needs_action" for e in self.mine())

    def today(self) -> dt.date:
        return local(self.now, self.tz).date()

    def day_bounds(self, day: dt.date) -> tuple[dt.datetime, dt.datetime]:
        zone = ZoneInfo(self.tz)
        start = dt.datetime.combine(day, dt.time(), tzinfo=zone)
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=zone)
        return start.astimezone(dt.UTC), end.astimezone(dt.UTC)

    def busy_of(self, email: str, start: dt.datetime, end: dt.datetime) -> list[dict[str, Any]]:
        """Busy intervals of one person in a window, in start order."""
        out: list[dict[str, Any]] = []
        for event in sorted(self.events, key=lambda e: (e.start, e.id)):
            answer = event.answer_of(email)
            if answer in (None, "declined") or not (event.start < end and event.end > start):
                continue
            item = {"start": iso(event.start), "end": iso(event.end)}
            if email == self.owner:
                item["title"] = event.title
            out.append(item)
        for b_start, b_end in self.busy.get(email, []):
            if b_start < end and b_end > start:
                out.append({"start": iso(b_start), "end": iso(b_end)})
        return sorted(out, key=lambda i: (i["start"], i["end"]))

    def create(
        self,
        title: str,
        start: dt.datetime,
        end: dt.datetime,
        tz: str,
        attendees: list[str],
        location: str,
        description: str,
    ) -> Event:
        taken = {e.id for e in self.events}
        while True:
            self.counter += 1
            eid = f"e{self.counter}"
            if eid not in taken:
                break
        people = [Attendee(a, self.names.get(a, "")) for a in attendees if a != self.owner]
        event = Event(eid, title, start, end, tz, self.owner, people, False, location, description)
        self.events.append(event)
        self.touched = True
        return event

    def data(self, event: Event) -> dict[str, Any]:
        return {
            "id": event.id,
            "title": event.title,
            "start": iso(event.start),
            "end": iso(event.end),
            "tz": event.tz,
            "location": event.location,
            "description": event.description,
            "organizer": event.organizer,
            "attendees": [
                {"email": a.email, "name": a.name, "rsvp": a.rsvp} for a in event.attendees
            ],
            "my_rsvp": event.answer_of(self.owner),
            "seeded": event.seeded,
        }

    def snapshot(self) -> dict[str, Any] | None:
        if not self.seeded and not self.touched:
            return None
        return {
            "now": iso(self.now),
            "tz": self.tz,
            "owner": self.owner,
            "name": self.name,
            "events": [self.data(e) for e in self.events],
        }


def new_state(world: AttemptWorld) -> dict[str, Any]:
    raw = world.seeds.get(NAME)
    seed = CalendarSeed.model_validate(raw if raw is not None else {})
    cal = Calendar(seed.tz, seed.owner, seed.name, run_now(world), seeded=raw is not None)
    cal.names[seed.owner] = seed.name
    for person in seed.people:
        cal.names[person.email] = person.name or ""
        cal.busy[person.email] = [
            (at(s.start, world, seed.tz), at(s.end, world, seed.tz)) for s in person.busy
        ]
    ids = fresh_ids("e", {e.id for e in seed.events if e.id})
    for e in seed.events:
        start = at(e.start, world, seed.tz)
        end = at(e.end, world, seed.tz) if e.end else start + dt.timedelta(minutes=e.minutes or 0)
        for a in e.attendees:
            if a.name:
                cal.names.setdefault(a.email, a.name)
        attendees = [
            Attendee(a.email, a.name or cal.names.get(a.email, ""), a.rsvp) for a in e.attendees
        ]
        cal.events.append(
            Event(
                id=e.id or next(ids),
                title=e.title,
                start=start,
                end=end,
                tz=e.tz or seed.tz,
                organizer=e.organizer or seed.owner,
                attendees=attendees,
                seeded=True,
                location=e.location,
                description=e.description,
            )
        )
    return {"calendar": cal}


def calendar_of(world: AttemptWorld) -> Calendar:
    """The attempt's calendar.

    Raises:
        WorldError: the calendar app is not served to this attempt.
    """
    cal = world.sites.get(NAME, {}).get("calendar")
    if not isinstance(cal, Calendar):
        raise WorldError(f"attempt {world.attempt}: the calendar app is not on this server")
    return cal


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return calendar_of(world).snapshot()


@dataclass
class Draft:
    """A new event as typed, with what is wrong with it."""

    values: dict[str, str]
    errors: list[str]
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    attendees: list[str] = field(default_factory=list)


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d$")


def _check_form(values: dict[str, str]) -> Draft:
    draft = Draft(values, [])
    errors = draft.errors
    title = values["title"].strip()
    if not title:
        errors.append("Title is required.")
    elif len(title) > 200:
        errors.append("Title is too long.")
    tz = values["tz"].strip()
    if not zone_ok(tz):
        errors.append(f"Unknown time zone {tz!r}.")
    day: dt.date | None = None
    if not _DATE.match(values["date"].strip()):
        errors.append("Date must look like 2025-03-14.")
    else:
        try:
            day = dt.date.fromisoformat(values["date"].strip())
        except ValueError:
            errors.append("Date is not a real day.")
    times = []
    for key, label in (("start", "Start time"), ("end", "End time")):
        text = values[key].strip()
        if not _TIME.match(text):
            errors.append(f"{label} must look like 14:30.")
        else:
            hour, minute = text.split(":")
            times.append(dt.time(int(hour), int(minute)))
    if day is not None and len(times) == 2 and zone_ok(tz):
        zone = ZoneInfo(tz)
        draft.start = dt.datetime.combine(day, times[0], tzinfo=zone).astimezone(dt.UTC)
        draft.end = dt.datetime.combine(day, times[1], tzinfo=zone).astimezone(dt.UTC)
        if draft.end <= draft.start:
            errors.append("End time must be after the start time.")
    good, bad = addresses(values["attendees"])
    errors.extend(f"{b!r} is not a valid email address." for b in bad)
    draft.attendees = good
    if len(values["description"]) > MAX_TEXT:
        errors.append("Description is too long.")
    return draft


# pages


def _page(template: str, cal: Calendar, status: int = 200, **ctx: Any) -> Response:
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
    cal = calendar_of(world_of(request))
    day = _day_param(request, cal)
    if day is None:
        return page_error(["Date must look like 2025-03-14."], 400, back="/")
    monday = day - dt.timedelta(days=day.weekday())
    days = []
    for i in range(7):
        d = monday + dt.timedelta(days=i)
        days.append((d, cal.between(*cal.day_bounds(d))))
    prev_week, next_week = monday - dt.timedelta(days=7), monday + dt.timedelta(days=7)
    return _page("week.html", cal, days=days, monday=monday, prev=prev_week, next=next_week)


async def day_view(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    day = _day_param(request, cal)
    if day is None:
        return page_error(["Date must look like 2025-03-14."], 400, back="/")
    events = cal.between(*cal.day_bounds(day))
    prev_day, next_day = day - dt.timedelta(days=1), day + dt.timedelta(days=1)
    return _page("day.html", cal, day=day, events=events, prev=prev_day, next=next_day)


async def event_page(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return page_error(["This event does not exist."], 404, back="/")
    flash = request.query_params.get("created") or request.query_params.get("answered")
    return _page("event.html", cal, event=event, mine=event.answer_of(cal.owner), flash=flash)


async def invites(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    return _page("invites.html", cal, events=cal.invites())


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
    cal = calendar_of(world_of(request))
    day = _day_param(request, cal) or cal.today()
    return _page("new.html", cal, values=_blank(cal, day), errors=[], zones=_zones(cal))


def _zones(cal: Calendar) -> list[str]:
    return list(dict.fromkeys([cal.tz, *COMMON_ZONES]))


async def create_post(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    form = await form_fields(request)
    values = {k: form.get(k, "") for k in _blank(cal, cal.today())}
    draft = _check_form(values)
    if draft.errors or draft.start is None or draft.end is None:
        return _page("new.html", cal, 422, values=values, errors=draft.errors, zones=_zones(cal))
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


def _answer(cal: Calendar, event: Event, response: str) -> str | None:
    """Record the owner's RSVP; the message to show when it cannot be."""
    if response not in ANSWERS:
        return "Choose Going, Maybe or Not going."
    if event.organizer == cal.owner:
        return "You organize this event; there is nothing to answer."
    mine = next((a for a in event.attendees if a.email == cal.owner), None)
    if mine is None:
        return "You are not invited to this event."
    mine.rsvp = response
    cal.touched = True
    return None


async def rsvp_post(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return page_error(["This event does not exist."], 404, back="/")
    form = await form_fields(request)
    problem = _answer(cal, event, form.get("response", ""))
    if problem:
        return page_error([problem], 422, back=f"/event/{event.id}")
    return see_other(f"/event/{event.id}?answered=1")


async def freebusy_page(request: Request) -> Response:
    cal = calendar_of(world_of(request))
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
    return _page("freebusy.html", cal, day=day, rows=rows, emails=text, show_iso=_show_iso)


def _show_iso(text: str, tz: str) -> str:
    moment = dt.datetime.fromisoformat(text)
    return f"{local(moment, tz):%H:%M}"


# JSON API


def _window(request: Request, cal: Calendar) -> tuple[dt.datetime, dt.datetime] | Response:
    bounds: list[dt.datetime | None] = []
    for key, default in (("from", None), ("to", None)):
        text = request.query_params.get(key, "")
        if not text:
            bounds.append(default)
            continue
        moment = parse_instant(text, cal.tz)
        if moment is None:
            return api_error([f"{key} must be an ISO date-time, e.g. 2025-03-14T09:00"], 400)
        bounds.append(moment)
    start = bounds[0] or dt.datetime.min.replace(tzinfo=dt.UTC)
    end = bounds[1] or dt.datetime.max.replace(tzinfo=dt.UTC)
    return start, end


async def api_events(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    window = _window(request, cal)
    if isinstance(window, Response):
        return window
    return JSONResponse({"tz": cal.tz, "events": [cal.data(e) for e in cal.between(*window)]})


async def api_event(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return api_error([f"no event {request.path_params['id']!r}"], 404)
    return JSONResponse(cal.data(event))


async def api_create(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    tz = text_of(body.get("tz")) or cal.tz
    errors = [] if zone_ok(tz) else [f"unknown time zone {tz!r}"]
    title = text_of(body.get("title")).strip()
    if not title:
        errors.append("title is required")
    moments = []
    for key in ("start", "end"):
        moment = parse_instant(text_of(body.get(key)), tz) if zone_ok(tz) else None
        if moment is None:
            errors.append(f"{key} must be an ISO date-time, e.g. 2025-03-14T14:00")
        moments.append(moment)
    start, end = moments
    if start is not None and end is not None and end <= start:
        errors.append("end must be after start")
    good, bad = addresses(text_of(body.get("attendees")))
    errors.extend(f"{b!r} is not a valid email address" for b in bad)
    if errors or start is None or end is None:
        return api_error(errors)
    event = cal.create(
        title,
        start,
        end,
        tz,
        good,
        text_of(body.get("location")).strip(),
        text_of(body.get("description")),
    )
    return JSONResponse({"ok": True, "event": cal.data(event)}, 201)


async def api_rsvp(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return api_error([f"no event {request.path_params['id']!r}"], 404)
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    problem = _answer(cal, event, text_of(body.get("response")))
    if problem:
        return api_error([problem])
    return JSONResponse({"ok": True, "event": cal.data(event)})


async def api_freebusy(request: Request) -> Response:
    cal = calendar_of(world_of(request))
    good, bad = addresses(request.query_params.get("emails", "") or cal.owner)
    if bad:
        return api_error([f"{b!r} is not a valid email address" for b in bad], 400)
    window = _window(request, cal)
    if isinstance(window, Response):
        return window
    if "from" not in request.query_params and "to" not in request.query_params:
        window = (cal.now, cal.now + dt.timedelta(days=7))
    busy = {email: cal.busy_of(email, *window) for email in good}
    return JSONResponse({"tz": cal.tz, "from": iso(window[0]), "to": iso(window[1]), "busy": busy})


SITE = Site(
    name=NAME,
    routes=[
        Route("/", week),
        Route("/week", week),
        Route("/day", day_view),
        Route("/event/{id:str}", event_page),
        Route("/event/{id:str}/rsvp", rsvp_post, methods=["POST"]),
        Route("/invites", invites),
        Route("/new", new_page),
        Route("/events", create_post, methods=["POST"]),
        Route("/freebusy", freebusy_page),
        Route("/api/events", api_events),
        Route("/api/events", api_create, methods=["POST"]),
        Route("/api/events/{id:str}", api_event),
        Route("/api/events/{id:str}/rsvp", api_rsvp, methods=["POST"]),
        Route("/api/freebusy", api_freebusy),
    ],
    new_state=new_state,
    snapshot=snapshot,
)
