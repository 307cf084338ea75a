"""calendar.proctor.test: the user's calendar: views, events, invites, free/busy, changes.

Seed: ``world.apps.calendar`` (``proctor.scenario.CalendarSeed``): ``tz``
(the user's zone), ``owner``, ``name``, ``people`` (``email``, ``name``,
``busy`` spans) and ``events`` (``id``, ``title``, ``start``, ``end`` or
``minutes``, ``tz``, ``location``, ``description``, ``organizer``,
``attendees`` with ``rsvp``). Times are ``When``s on the run clock: ``at`` is a
time in the event's own ``tz`` (default the calendar's), ``days`` count from
today in the calendar's zone, so ``{tz: Asia/Tokyo, start: {days: 1, at:
"10:30"}}`` is 10:30 in Tokyo on the user's tomorrow, shown at its local time
in the calendar's zone. An event without ``id`` gets ``e1``, ``e2``... The
owner's own answer to an event is ``accepted`` when they organize it, else
their attendee RSVP; invites are events someone else organizes.

Pages: ``/`` (this week), ``/week?date=YYYY-MM-DD``, ``/day?date=``,
``/event/<id>`` (its times in the calendar's zone and, when it differs, in
the event's own), ``/invites``, ``/new?date=``, ``/freebusy?emails=&date=``,
``/event/<id>/edit``, ``/event/<id>/move``.

Posts:

- ``/events`` (title, date, start, end as HH:MM, tz, attendees, location,
  description) -> 303 ``/event/<id>?created=1``; invalid: 422, the form kept.
- ``/event/<id>/rsvp`` (response accepted, tentative or declined) -> 303
  ``/event/<id>?answered=1``; invalid: 422.

The owner changes events they organize (403 for an invite: answer it instead;
404 for an event they cannot see); invalid input is 400, the form shown again
with messages that name the problem:

- ``/event/<id>/edit`` (the new-event fields without attendees; the form opens
  with the times in the event's own zone) -> 303 ``/event/<id>?saved=1``.
- ``/event/<id>/move`` (date, start as HH:MM, tz; the form opens in the event's
  zone; the event keeps its length) -> 303 ``/event/<id>?moved=1``, which says
  "Moved to <day, time> (<calendar zone>)."
- ``/event/<id>/delete`` -> 303 ``/day?date=<its day>&deleted=<id>``, which says
  "Deleted “<title>”."
- ``/event/<id>/guests`` (``add``: addresses, comma-separated; ``remove``: one
  guest's address) -> 303 ``/event/<id>?guests=1``; an unknown guest or a bad
  address: 400.

JSON API: ``GET /api/events?from=&to=`` (ISO; a bare date-time is read in the
calendar's zone), ``GET /api/events/<id>``, ``POST /api/events {title, start,
end, tz?, attendees?, location?, description?}`` (start/end ISO), ``POST
/api/events/<id>/rsvp {response}``, ``GET /api/freebusy?emails=a,b&from=&to=``
-> ``{tz, busy: {email: [{start, end, title?}]}}`` (titles only for the owner).
Changes, with the same rules and 400 for bad input: ``PATCH /api/events/<id>
{title?, start?, end?, tz?, location?, description?}`` (a bare start/end is read
in ``tz``, else the event's zone), ``POST /api/events/<id>/move {start, tz?}``
(keeps the length), ``DELETE /api/events/<id>`` -> ``{ok, deleted: id}``,
``POST /api/events/<id>/attendees {add?, remove?}`` (lists or comma-separated);
the others answer ``{ok, event}``.

Snapshot (``EndState.apps["calendar"]``; ``None`` when unseeded and untouched)::

    {now, tz, owner, name,
     events: [{id, title, start, end, tz, location, description, organizer,
               attendees: [{email, name, rsvp}], my_rsvp, seeded,
               original_start, original_end}],
     deleted: [the same, as each event was when deleted]}

``original_start``/``original_end`` are where the event was when the attempt
began (seeded) or when it was created; times are UTC ISO. The checks
``event_exists``, ``event_moved`` and ``event_deleted`` read it.
"""

from __future__ import annotations

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.apps.calendar import _api as api
from proctor.world.apps.calendar import _edit_api as edit_api
from proctor.world.apps.calendar import _edit_pages as edit_pages
from proctor.world.apps.calendar import _pages as pages
from proctor.world.apps.calendar._state import NAME, Calendar, new_state, snapshot

SITE = Site[Calendar](
    name=NAME,
    routes=[
        Route("/", pages.week),
        Route("/week", pages.week),
        Route("/day", pages.day_view),
        Route("/event/{id:str}", pages.event_page),
        Route("/event/{id:str}/rsvp", pages.rsvp_post, methods=["POST"]),
        Route("/event/{id:str}/edit", edit_pages.edit_page),
        Route("/event/{id:str}/edit", edit_pages.edit_post, methods=["POST"]),
        Route("/event/{id:str}/move", edit_pages.move_page),
        Route("/event/{id:str}/move", edit_pages.move_post, methods=["POST"]),
        Route("/event/{id:str}/delete", edit_pages.delete_post, methods=["POST"]),
        Route("/event/{id:str}/guests", edit_pages.guests_post, methods=["POST"]),
        Route("/invites", pages.invites),
        Route("/new", pages.new_page),
        Route("/events", pages.create_post, methods=["POST"]),
        Route("/freebusy", pages.freebusy_page),
        Route("/api/events", api.api_events),
        Route("/api/events", api.api_create, methods=["POST"]),
        Route("/api/events/{id:str}", api.api_event),
        Route("/api/events/{id:str}", edit_api.api_patch, methods=["PATCH"]),
        Route("/api/events/{id:str}", edit_api.api_delete, methods=["DELETE"]),
        Route("/api/events/{id:str}/rsvp", api.api_rsvp, methods=["POST"]),
        Route("/api/events/{id:str}/move", edit_api.api_move, methods=["POST"]),
        Route("/api/events/{id:str}/attendees", edit_api.api_attendees, methods=["POST"]),
        Route("/api/freebusy", api.api_freebusy),
    ],
    new_state=new_state,
    snapshot=snapshot,
)

__all__ = ["NAME", "SITE", "Calendar", "snapshot"]
