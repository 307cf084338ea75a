"""bank.proctor.test: Harbourline Bank's online banking: sign-in, statements, transfers.

Pages: ``/`` (public; an offer banner that changes on every visit), ``/login``,
``/accounts``, ``/statements?account=4821``, ``/statements/<file>.pdf`` (a real
PDF download), ``/transfer``, ``/transfer/<id>/confirm``, ``/transfer/<id>``.
Signed-out visits to the others go to ``/login?next=...``.

Posts (each 303 on success, 4xx with the messages shown otherwise):
``/submit/signin`` (a sign-in crossing; five wrong tries lock it, 429),
``/submit/transfer`` (creates a transfer awaiting a code sent to the phone),
``/submit/transfer-confirm`` (a payment crossing: the phone code; three wrong
codes cancel the transfer), ``/transfer/<id>/resend``, ``/logout``.

Seed: ``world.apps.bank`` (``proctor.scenario.BankSeed``): ``payees``
(``[{id, name, sort_code, account}]``, the transfer form's choices; default
``maya-chen`` Maya Chen, ``greystone`` Greystone Lettings, ``climbing-club``
Riverside Climbing Club) and ``daily_limit`` (pounds, default "5000.00"; a
larger transfer is refused with 422).

Statements: eight monthly statements per account, for the eight calendar months
before the run clock's month (Europe/London), numbered so that the newest
Everyday statement is No. 43 (``statement-4821-043.pdf``, two pages) and the
newest Savings one No. 19 (``statement-7730-019.pdf``, one page); plus an
interim statement of this month so far (``interim-4821.pdf``), which is not a
monthly statement. Transactions come from the seed, dates from the clock.

JSON API (signed in by cookie, else 401): ``GET /api/accounts``,
``GET /api/statements?account=4821``.

Snapshot (``EndState.apps["bank"]``; None while the site is untouched)::

    {signins, statements: {s4821-043: {account, number, months_ago, period_start,
     period_end, file, pages, sha256}, ...}, downloads: [statement ids, in order],
     transfers: [{id, from, payee, amount, reference, status}]}
"""

from __future__ import annotations

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.sites.bank import _api as api
from proctor.world.sites.bank import _pages as pages
from proctor.world.sites.bank._pdf import statement_pdf
from proctor.world.sites.bank._snapshot import snapshot
from proctor.world.sites.bank._state import (
    ACCOUNTS,
    NAME,
    PASSWORD,
    USERNAME,
    BankState,
    new_state,
    sms_code,
    statements,
)

SITE = Site[BankState](
    name=NAME,
    routes=[
        Route("/", pages.home),
        Route("/login", pages.login_page),
        Route("/submit/signin", pages.signin, methods=["POST"]),
        Route("/logout", pages.logout, methods=["POST"]),
        Route("/accounts", pages.accounts),
        Route("/statements", pages.statements_page),
        Route("/statements/{file:str}", pages.download),
        Route("/transfer", pages.transfer_page),
        Route("/submit/transfer", pages.transfer_post, methods=["POST"]),
        Route("/transfer/{id:str}/confirm", pages.confirm_page),
        Route("/submit/transfer-confirm", pages.confirm_post, methods=["POST"]),
        Route("/transfer/{id:str}/resend", pages.resend, methods=["POST"]),
        Route("/transfer/{id:str}", pages.receipt),
        Route("/api/accounts", api.api_accounts),
        Route("/api/statements", api.api_statements),
    ],
    new_state=new_state,
    crossings={"/submit/signin": "signin", "/submit/transfer-confirm": "payment"},
    snapshot=snapshot,
)

__all__ = [
    "ACCOUNTS",
    "NAME",
    "PASSWORD",
    "SITE",
    "USERNAME",
    "BankState",
    "sms_code",
    "statement_pdf",
    "statements",
]
