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

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.apps.calendar import _api as api
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
        Route("/invites", pages.invites),
        Route("/new", pages.new_page),
        Route("/events", pages.create_post, methods=["POST"]),
        Route("/freebusy", pages.freebusy_page),
        Route("/api/events", api.api_events),
        Route("/api/events", api.api_create, methods=["POST"]),
        Route("/api/events/{id:str}", api.api_event),
        Route("/api/events/{id:str}/rsvp", api.api_rsvp, methods=["POST"]),
        Route("/api/freebusy", api.api_freebusy),
    ],
    new_state=new_state,
    snapshot=snapshot,
)

__all__ = ["NAME", "SITE", "Calendar", "snapshot"]
