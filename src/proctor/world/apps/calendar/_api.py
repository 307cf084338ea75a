"""The calendar's JSON API."""

from __future__ import annotations

import datetime as dt

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._kit import (
    BadJson,
    addresses,
    api_error,
    json_object,
    text_of,
)
from proctor.world._kit._time import (
    iso,
    parse_instant,
    zone_ok,
)
from proctor.world._site import world_of
from proctor.world.apps.calendar._state import (
    NAME,
    Calendar,
    answer,
)


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
    cal = world_of(request).state_of(NAME, Calendar)
    window = _window(request, cal)
    if isinstance(window, Response):
        return window
    return JSONResponse({"tz": cal.tz, "events": [cal.data(e) for e in cal.between(*window)]})


async def api_event(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return api_error([f"no event {request.path_params['id']!r}"], 404)
    return JSONResponse(cal.data(event))


async def api_create(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
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
    cal = world_of(request).state_of(NAME, Calendar)
    event = cal.event(request.path_params["id"])
    if event is None or event.answer_of(cal.owner) is None:
        return api_error([f"no event {request.path_params['id']!r}"], 404)
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    problem = answer(cal, event, text_of(body.get("response")))
    if problem:
        return api_error([problem])
    return JSONResponse({"ok": True, "event": cal.data(event)})


async def api_freebusy(request: Request) -> Response:
    cal = world_of(request).state_of(NAME, Calendar)
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
