"""The pages and posts that change an event: edit, move, delete, guests.

Each post answers 303 to the page that shows the change, or 400 with the form
again and the messages that name what is wrong (404 for an event the owner
cannot see, 403 for one someone else organizes).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import page_error, read_form, see_other
from proctor.world._kit._time import local, zone_ok
from proctor.world._site import world_of
from proctor.world.apps.calendar._changes import (
    Edit,
    Move,
    apply_delete,
    apply_edit,
    apply_guests,
    apply_move,
    edit_values,
    move_values,
    not_organizer,
    read_edit_form,
    read_guests,
    read_move_form,
)
from proctor.world.apps.calendar._pages import page, zones
from proctor.world.apps.calendar._state import NAME, Calendar, Event

EDIT_FIELDS = ("title", "date", "start", "end", "tz", "location", "description")
MOVE_FIELDS = ("date", "start", "tz")


def _mine(request: Request) -> tuple[Calendar, Event] | Response:
    """The calendar and the event the path names, or the page that refuses to change it."""
    cal = world_of(request).state_of(NAME, Calendar)
    eid = request.path_params["id"]
    event = cal.event(eid)
    if event is None or event.answer_of(cal.owner) is None:
        return page_error(["This event does not exist."], 404, back="/")
    refusal = not_organizer(cal, event)
    if refusal:
        return page_error([refusal], 403, back=f"/event/{eid}", title="Not yours to change")
    return cal, event


def _edit_form(
    cal: Calendar, event: Event, values: dict[str, str], errors: list[str], status: int = 200
) -> Response:
    ctx = {"event": event, "values": values, "errors": errors, "zones": zones(cal)}
    return page("edit.html", cal, status, **ctx)


def _move_form(
    cal: Calendar, event: Event, values: dict[str, str], errors: list[str], status: int = 200
) -> Response:
    minutes = int((event.end - event.start).total_seconds() // 60)
    ctx = {"event": event, "values": values, "errors": errors, "zones": zones(cal)}
    return page("move.html", cal, status, minutes=minutes, **ctx)


def _shown_in(request: Request, event: Event) -> str | Response:
    """The zone a form shows its times in: ``?tz=`` (its zone links), else the event's."""
    tz = request.query_params.get("tz", event.tz)
    if not zone_ok(tz):
        return page_error([f"Unknown time zone {tz!r}."], 400, back=f"/event/{event.id}")
    return tz


async def edit_page(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    tz = _shown_in(request, event)
    if isinstance(tz, Response):
        return tz
    return _edit_form(cal, event, edit_values(event, tz), [])


async def edit_post(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    form = await read_form(request, trim=False)
    values = {key: form.get(key, "") for key in EDIT_FIELDS}
    edit = read_edit_form(values)
    if not isinstance(edit, Edit):
        return _edit_form(cal, event, values, edit, 400)
    apply_edit(cal, event, edit)
    return see_other(f"/event/{event.id}?saved=1")


async def move_page(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    tz = _shown_in(request, event)
    if isinstance(tz, Response):
        return tz
    return _move_form(cal, event, move_values(event, tz), [])


async def move_post(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    form = await read_form(request, trim=False)
    values = {key: form.get(key, "") for key in MOVE_FIELDS}
    move = read_move_form(values)
    if not isinstance(move, Move):
        return _move_form(cal, event, values, move, 400)
    apply_move(cal, event, move)
    return see_other(f"/event/{event.id}?moved=1")


async def delete_post(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    apply_delete(cal, event)
    day = local(event.start, cal.tz).date()
    return see_other(f"/day?date={day.isoformat()}&deleted={event.id}")


async def guests_post(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    form = await read_form(request, trim=False)
    guests = read_guests(form.get("add", ""), form.get("remove", ""), cal, event)
    if isinstance(guests, list):
        return page_error(guests, 400, back=f"/event/{event.id}")
    apply_guests(cal, event, guests)
    return see_other(f"/event/{event.id}?guests=1")
