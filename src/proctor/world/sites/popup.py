"""popup.proctor.test: an account page whose terms notice opens in a new tab.

The notice link has ``target=_blank``; acknowledging the notice is a generic
``/submit/notice-ack`` post that needs the "I have read" box ticked. The
account page then shows the notice as acknowledged.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required, world_of

ACCOUNT_REF = "ACC-88412"
NOTICE_ID = "TN-2024-07"
ACK_ROUTE = "notice-ack"


def _ack_rule(form: Mapping[str, list[str]]) -> list[str]:
    errors = []
    notice = (form.get("notice") or [""])[0].strip()
    if notice and notice != NOTICE_ID:
        errors.append(f"Notice {notice} is not open for acknowledgement.")
    if form.get("read") != ["yes"]:
        errors.append('Tick "I have read the updated terms" before you acknowledge.')
    return errors


def _acknowledged(request: Request) -> bool:
    return any(
        sub.route == ACK_ROUTE and sub.fields.get("notice") == [NOTICE_ID]
        for sub in world_of(request).submissions
    )


async def account(request: Request) -> Response:
    return render(
        "popup/account.html",
        account=ACCOUNT_REF,
        notice=NOTICE_ID,
        acknowledged=_acknowledged(request),
    )


async def notice(request: Request) -> Response:
    if request.path_params["notice"] != NOTICE_ID:
        return render(
            "_shared/error.html",
            404,
            title="Notice not found",
            messages=[f"There is no notice {request.path_params['notice']}."],
            back="/account",
        )
    return render("popup/notice.html", notice=NOTICE_ID, acknowledged=_acknowledged(request))


SITE = Site(
    name="popup",
    routes=[Route("/account", account), Route("/notices/{notice:str}", notice)],
    forms={ACK_ROUTE: all_of(required("notice"), _ack_rule)},
)
