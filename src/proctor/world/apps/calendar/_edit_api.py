"""The JSON API's verbs that change an event: PATCH, move, DELETE, attendees.

Each answers ``{"ok": true, "event": ...}`` (DELETE: ``{"ok": true, "deleted": id}``),
or ``{"ok": false, "errors": [...]}`` with 400 for input that is wrong, 403 for
an event someone else organizes and 404 for one the owner cannot see.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._kit import BadJson, api_error, json_object, text_of
from proctor.world._site import world_of
from proctor.world.apps.calendar._changes import (
    Edit,
    Move,
    apply_delete,
    apply_edit,
    apply_guests,
    apply_move,
    not_organizer,
    read_edit_json,
    read_guests,
    read_move_json,
)
from proctor.world.apps.calendar._state import NAME, Calendar, Event


def _mine(request: Request) -> tuple[Calendar, Event] | Response:
    cal = world_of(request).state_of(NAME, Calendar)
    eid = request.path_params["id"]
    event = cal.event(eid)
    if event is None or event.answer_of(cal.owner) is None:
        return api_error([f"no event {eid!r}"], 404)
    refusal = not_organizer(cal, event)
    if refusal:
        return api_error([refusal], 403)
    return cal, event


async def _body(request: Request) -> dict[str, Any] | Response:
    try:
        return await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)


async def api_patch(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    body = await _body(request)
    if isinstance(body, Response):
        return body
    edit = read_edit_json(body, event)
    if not isinstance(edit, Edit):
        return api_error(edit, 400)
    apply_edit(cal, event, edit)
    return JSONResponse({"ok": True, "event": cal.data(event)})


async def api_move(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    body = await _body(request)
    if isinstance(body, Response):
        return body
    move = read_move_json(body, event)
    if not isinstance(move, Move):
        return api_error(move, 400)
    apply_move(cal, event, move)
    return JSONResponse({"ok": True, "event": cal.data(event)})


async def api_delete(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    apply_delete(cal, event)
    return JSONResponse({"ok": True, "deleted": event.id})


async def api_attendees(request: Request) -> Response:
    found = _mine(request)
    if isinstance(found, Response):
        return found
    cal, event = found
    body = await _body(request)
    if isinstance(body, Response):
        return body
    unknown = [f"unknown field {key!r}" for key in body if key not in ("add", "remove")]
    guests = read_guests(text_of(body.get("add")), text_of(body.get("remove")), cal, event)
    if unknown or isinstance(guests, list):
        return api_error(unknown + (guests if isinstance(guests, list) else []), 400)
    apply_guests(cal, event, guests)
    return JSONResponse({"ok": True, "event": cal.data(event)})
