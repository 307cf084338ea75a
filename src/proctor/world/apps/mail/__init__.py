"""mail.proctor.test: the user's mailbox: inbox, threads, read/unread, compose, drafts.

Seed: ``world.apps.mail`` (``proctor.scenario._apps.MailSeed``). Other sites put
mail in the inbox with ``deliver`` (e.g. a sign-in code).

Pages: ``/`` inbox, ``/folder/{archive,spam}``, ``/message/<id>`` (opening marks
it read), ``/thread/<key>``, ``/message/<id>/attachments/<n>`` (download),
``/compose`` (``?reply=<id>``, ``?forward=<id>``, ``?draft=<id>``), ``/sent``,
``/sent/<id>``, ``/drafts``, ``/search?q=``. Posts: ``/compose`` (action send or
save), ``/message/<id>/unread``, ``/message/<id>/archive``,
``/drafts/<id>/delete``; each answers 303, or 4xx with the messages shown.

JSON API: ``GET /api/messages?folder=inbox|archive|spam|all&unread=true&q=``,
``GET /api/messages/<id>`` (does not mark read), ``POST /api/messages/<id>/read
{read}``, ``GET /api/drafts``, ``POST /api/drafts {to, cc, subject, body, id?,
in_reply_to?}``, ``GET /api/sent``, ``POST /api/send {to, cc, subject, body,
draft?, in_reply_to?}``; ``to``/``cc`` are a list or a comma-separated string.
Errors are ``{"ok": false, "errors": [...]}`` with 400, 404 or 422.

Snapshot (``EndState.apps["mail"]``; ``None`` when unseeded and untouched)::

    {now, tz, address, name,
     messages: [{id, folder, thread, from, from_name, to, cc, subject, body, at,
                 read, attachments: [{name, type, size, sha256}]}],
     drafts: [{id, to, cc, subject, body, at, seeded, edited, in_reply_to}],
     sent: [{id, to, cc, subject, body, at, seeded, in_reply_to, thread}]}

Addresses are lowercase bare addresses; times are UTC ISO 8601.

Noise (seed ``noise: true``): every visit of the inbox page (``/`` or
``/folder/inbox``) first delivers a fresh promotion or notification, ids ``n1``,
``n2``..., stamped with the run clock (``proctor.world.apps._noise``). The JSON
API never adds noise; it lists what the visits delivered, as the snapshot does.
"""

from __future__ import annotations

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.apps.mail import _api as api
from proctor.world.apps.mail import _pages as pages
from proctor.world.apps.mail._seed import new_state
from proctor.world.apps.mail._state import NAME, Mailbox, deliver, mailbox, snapshot

SITE = Site[Mailbox](
    name=NAME,
    routes=[
        Route("/", pages.inbox),
        Route("/folder/{name:str}", pages.folder),
        Route("/message/{id:str}", pages.message_page),
        Route("/message/{id:str}/attachments/{n:int}", pages.attachment),
        Route("/message/{id:str}/unread", pages.mark_unread, methods=["POST"]),
        Route("/message/{id:str}/archive", pages.archive, methods=["POST"]),
        Route("/thread/{key:str}", pages.thread_page),
        Route("/compose", pages.compose_page),
        Route("/compose", pages.compose_post, methods=["POST"]),
        Route("/sent", pages.sent_list),
        Route("/sent/{id:str}", pages.sent_page),
        Route("/drafts", pages.drafts_list),
        Route("/drafts/{id:str}/delete", pages.delete_draft, methods=["POST"]),
        Route("/search", pages.search),
        Route("/api/messages", api.api_messages),
        Route("/api/messages/{id:str}", api.api_message),
        Route("/api/messages/{id:str}/read", api.api_mark, methods=["POST"]),
        Route("/api/messages/{id:str}/attachments/{n:int}", pages.attachment),
        Route("/api/drafts", api.api_drafts),
        Route("/api/drafts", api.api_save_draft, methods=["POST"]),
        Route("/api/sent", api.api_sent),
        Route("/api/send", api.api_send, methods=["POST"]),
    ],
    new_state=new_state,
    snapshot=snapshot,
)

__all__ = ["NAME", "SITE", "Mailbox", "deliver", "mailbox", "snapshot"]
