"""booking.proctor.test: Tablefinder, restaurant search and table booking.

Pages: ``/`` (search form), ``/search?area=&cuisine=&party=`` (results, with a
promoted listing on top that ignores the filters), ``/r/<slug>?party=`` (a
restaurant: its tables for today and the next six days, 17:30 to 21:30, with a
viewer count that changes on every visit), ``/r/<slug>/book?date=&time=&party=``
(the booking form), ``/bookings`` (upcoming and past bookings; two past ones
are seeded by default), ``/bookings/<ref>``.

Seed: ``world.apps.booking`` (``proctor.scenario.BookingSeed``): ``slots``
(``[{restaurant, days_ahead: 0-6, time, free}]``: tables forced free or taken)
and ``bookings`` (``[{ref, restaurant, days_ahead, time, party, status:
confirmed|completed|cancelled, name, email, phone}]``; a confirmed one takes its
table, an upcoming confirmed one can be cancelled). Default: no slots, and the
two past bookings TF-7Q2LM (Osteria Lupa, 23 days ago, completed) and TF-3KD8P
(Forno Rosso, 9 days ago, cancelled).

Posts: ``/submit/book`` (303 to the booking; 422 with the messages shown for a
bad form, 409 when the table is taken) and ``/bookings/cancel`` (``ref``; a
destructive crossing; 409 unless the booking is upcoming and confirmed). Dates
are the run clock's days (Europe/London); each day row of the grid carries
``data-days-ahead`` and each free slot ``data-time``. Availability: the seeded
``slots`` first, then the fixed slots in ``FIXED`` that scenarios rely on, then
a draw from the world's seed.

JSON API (read only): ``GET /api/restaurants?area=&cuisine=&party=``,
``GET /api/restaurants/<slug>/availability?party=``, ``GET /api/bookings``.

Snapshot (``EndState.apps["booking"]``; None until something is posted)::

    {bookings: [{ref, restaurant, restaurant_name, date, days_ahead, time, party,
                 name, email, phone, status, seeded}]}
"""

from __future__ import annotations

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.sites.booking._api import api_availability, api_bookings, api_restaurants
from proctor.world.sites.booking._pages import (
    book,
    book_page,
    booking_page,
    bookings_page,
    cancel,
    home,
    restaurant_page,
    search,
)
from proctor.world.sites.booking._state import NAME, is_free, restaurant, snapshot, snapshot_of

SITE = Site(
    name=NAME,
    routes=[
        Route("/", home),
        Route("/search", search),
        Route("/r/{slug:str}", restaurant_page),
        Route("/r/{slug:str}/book", book_page),
        Route("/submit/book", book, methods=["POST"]),
        Route("/bookings", bookings_page),
        Route("/bookings/cancel", cancel, methods=["POST"]),
        Route("/bookings/{ref:str}", booking_page),
        Route("/api/restaurants", api_restaurants),
        Route("/api/restaurants/{slug:str}/availability", api_availability),
        Route("/api/bookings", api_bookings),
    ],
    crossings={"/bookings/cancel": "destructive"},
    snapshot=snapshot,
)

__all__ = ["NAME", "SITE", "is_free", "restaurant", "snapshot_of"]
