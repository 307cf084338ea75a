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

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.sites.metrics._pages import api_weekly, dashboard, save_layout, share, weekly
from proctor.world.sites.metrics._report import report
from proctor.world.sites.metrics._signin import (
    code_page,
    resend,
    signin,
    signin_page,
    signout,
    verify,
)
from proctor.world.sites.metrics._state import (
    EMAIL,
    NAME,
    PASSWORD,
    SHARE,
    sign_in_code,
    snapshot,
    weeks,
)

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

__all__ = ["EMAIL", "NAME", "PASSWORD", "SHARE", "SITE", "sign_in_code", "weeks"]
