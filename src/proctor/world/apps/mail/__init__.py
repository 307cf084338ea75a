"""mail.proctor.test: the user's mailbox: folders, labels, rules, threads, compose, drafts.

Seed: ``world.apps.mail`` (``proctor.scenario.MailSeed``): ``tz``,
``address``, ``name``, ``messages`` (each with ``folder``, ``labels``, ``read``,
``thread``, ``attachments``, and ``at`` or ``arrives_after``), ``drafts``,
``sent``, ``folders`` (the user's own), ``labels``, ``rules`` and ``noise``.
Other sites put mail in the inbox with ``deliver`` (e.g. a sign-in code).

Pages: ``/`` inbox, ``/folder/<name>`` (archive, spam, or a folder of the
user's, case-insensitive), ``/label/<name>``, ``/message/<id>`` (opening marks it
read), ``/thread/<key>``, ``/message/<id>/attachments/<n>`` (download),
``/compose`` (``?reply=<id>``, ``?forward=<id>``, ``?draft=<id>``), ``/sent``,
``/sent/<id>``, ``/sent/<id>/attachments/<n>``, ``/drafts``, ``/search?q=``,
``/folders``, ``/labels``, ``/rules``.

Posts (each answers 303 to the page that shows the change, with a notice; or
4xx with the page and each problem named: 400 for a refused organizing form,
422 for a compose form that cannot go, 404 for an unknown message):

- ``/compose`` (multipart: to, cc, subject, body, ``files`` (file input),
  ``keep`` (ticked boxes of a forward's or draft's attachments), action
  send|save; hidden draft, reply_to, forward_of). Attachable: .txt .csv .pdf
  .png .jpg .jpeg .gif .md .json .xml .docx .xlsx .pptx .odt .ods .zip, each
  non-empty and at most 5 MB, ten files and 10 MB in all.
- ``/message/<id>/unread``, ``/message/<id>/archive``, ``/message/<id>/move
  {folder}``, ``/message/<id>/unarchive`` (back to the inbox),
  ``/message/<id>/label {label}``, ``/message/<id>/unlabel {label}``.
- ``/bulk {ids (the list's checkboxes), action archive|inbox|read|unread|move|label,
  folder, label, back}``: the ticked messages of a list; back to that list.
- ``/folders {name}``, ``/labels {name}``: a new folder or label (letters,
  digits, spaces and . & ' ( ) + - _, at most 40, not inbox, archive, spam,
  sent, drafts or all).
- ``/rules {from, to, subject, body (conditions: "contains", case- and
  space-insensitive, all must hold), folder, label, read (actions), existing}``:
  a rule; ``existing=yes`` ("also apply to matching messages already in the
  mailbox") runs it once over the messages in every folder but spam.
  ``/rules/<id>/delete``.
- ``/drafts/<id>/delete``.

Rules act on mail as it arrives (a later seeded message, noise, another site's
``deliver``): every matching rule, in the order saved; labels add up, any one
marks it read, the last with a folder decides the folder. Seeded messages are
never filtered at set-up.

Mail that arrives later (seed ``arrives_after: N``): the mail site counts the
requests it answers in the attempt (every page, post, API call and download of
a mail route; other sites' requests never count). Before answering a request,
it delivers each message whose N is at most the count so far, so the message
is on the page of request N+1 (``arrives_after: 0``: before the first). It is
stamped with its seed ``at``, or the run clock. Mail still due when the
attempt ends is delivered (through the rules as they stand) in the end-state
snapshot only (``delivered: end``): an agent that stops right after saving a
rule is graded on what the rule does; the live mailbox is not changed.

JSON API: ``GET /api/messages?folder=<folder>|all&label=&unread=true&q=``,
``GET /api/messages/<id>`` (does not mark read), ``POST /api/messages/<id>/read
{read}``, ``GET /api/folders`` (folders with counts, labels), ``GET /api/rules``,
``GET /api/drafts``, ``POST /api/drafts {to, cc, subject, body, id?,
in_reply_to?}``, ``GET /api/sent``, ``POST /api/send {to, cc, subject, body,
draft?, in_reply_to?}`` (a draft's attachments go with it; the API attaches no
new files); ``to``/``cc`` are a list or a comma-separated string. Errors are
``{"ok": false, "errors": [...]}`` with 400, 404 or 422.

Snapshot (``EndState.apps["mail"]``, ``proctor.records.MailSnapshot``; ``None``
when unseeded and untouched)::

    {now, tz, address, name,
     messages: [{id, folder, thread, from, from_name, to, cc, subject, body, at,
                 read, attachments: [{name, type, size, sha256}], labels,
                 rules (ids of the rules that acted on it),
                 delivered: setup|attempt|end}],
     drafts: [{id, to, cc, subject, body, at, seeded, edited, in_reply_to, attachments}],
     sent: [{id, to, cc, subject, body, at, seeded, in_reply_to, thread, attachments}],
     folders: [name, ...] (the user's own, as typed), labels: [name, ...],
     rules: [{id, conditions: {from|to|subject|body: text}, folder, label, read,
              seeded, existing (messages it acted on when saved)}]}

Addresses are lowercase bare addresses; times are UTC ISO 8601. A message's
``folder`` is inbox, archive, spam or the folder's name as typed.

Noise (seed ``noise: true``): every visit of the inbox page (``/`` or
``/folder/inbox``) first delivers a fresh promotion or notification, ids ``n1``,
``n2``..., stamped with the run clock (``proctor.world.apps._noise``). The JSON
API never adds noise; it lists what the visits delivered, as the snapshot does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._site import Site, world_of
from proctor.world.apps.mail import _api as api
from proctor.world.apps.mail import _organize as organize
from proctor.world.apps.mail import _pages as pages
from proctor.world.apps.mail import _rule_pages as rules
from proctor.world.apps.mail._seed import new_state
from proctor.world.apps.mail._state import NAME, Mailbox, deliver, mailbox, snapshot

Endpoint = Callable[[Request], Awaitable[Response]]


def _counted(endpoint: Endpoint) -> Endpoint:
    """``endpoint``, after the mailbox counts the request and delivers the mail due."""

    async def run(request: Request) -> Response:
        mailbox(world_of(request)).tick()
        return await endpoint(request)

    run.__name__ = run.__qualname__ = endpoint.__name__
    run.__doc__ = endpoint.__doc__
    return run


def _get(path: str, endpoint: Endpoint) -> Route:
    return Route(path, _counted(endpoint))


def _post(path: str, endpoint: Endpoint) -> Route:
    return Route(path, _counted(endpoint), methods=["POST"])


SITE = Site[Mailbox](
    name=NAME,
    routes=[
        _get("/", pages.inbox),
        _get("/folder/{name:str}", pages.folder),
        _get("/label/{name:str}", organize.label_page),
        _get("/message/{id:str}", pages.message_page),
        _get("/message/{id:str}/attachments/{n:int}", pages.attachment),
        _post("/message/{id:str}/unread", pages.mark_unread),
        _post("/message/{id:str}/archive", pages.archive),
        _post("/message/{id:str}/move", organize.move),
        _post("/message/{id:str}/unarchive", organize.unarchive),
        _post("/message/{id:str}/label", organize.add_label),
        _post("/message/{id:str}/unlabel", organize.remove_label),
        _post("/bulk", organize.bulk),
        _get("/folders", organize.folders_page),
        _post("/folders", organize.create_folder),
        _get("/labels", organize.labels_page),
        _post("/labels", organize.create_label),
        _get("/rules", rules.rules_page),
        _post("/rules", rules.create_rule),
        _post("/rules/{id:str}/delete", rules.delete_rule),
        _get("/thread/{key:str}", pages.thread_page),
        _get("/compose", pages.compose_page),
        _post("/compose", pages.compose_post),
        _get("/sent", pages.sent_list),
        _get("/sent/{id:str}", pages.sent_page),
        _get("/sent/{id:str}/attachments/{n:int}", pages.sent_attachment),
        _get("/drafts", pages.drafts_list),
        _post("/drafts/{id:str}/delete", pages.delete_draft),
        _get("/search", pages.search),
        _get("/api/messages", api.api_messages),
        _get("/api/messages/{id:str}", api.api_message),
        _post("/api/messages/{id:str}/read", api.api_mark),
        _get("/api/messages/{id:str}/attachments/{n:int}", pages.attachment),
        _get("/api/folders", api.api_folders),
        _get("/api/rules", api.api_rules),
        _get("/api/drafts", api.api_drafts),
        _post("/api/drafts", api.api_save_draft),
        _get("/api/sent", api.api_sent),
        _post("/api/send", api.api_send),
    ],
    new_state=new_state,
    snapshot=snapshot,
)

__all__ = ["NAME", "SITE", "Mailbox", "deliver", "mailbox", "snapshot"]
