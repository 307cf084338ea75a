"""widget.proctor.test: the approval widget that frames.proctor.test embeds in an iframe.

A separate host, so that a click that really reaches the frame shows up in the
request log as a post to this host (``POST /submit/frame-approve``).
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required
from proctor.world.sites.frames import APPROVE_ROUTE, AUDIT_ID, known_audit


def _figures_rule(form: Mapping[str, list[str]]) -> list[str]:
    figures = (form.get("figures") or [""])[0]
    if figures and figures != "approved":
        return ["The figures can only be approved from this widget."]
    return []


async def approve(request: Request) -> Response:
    audit = request.query_params.get("audit", AUDIT_ID)
    return render("widget/approve.html", audit=audit)


SITE = Site(
    name="widget",
    routes=[Route("/approve", approve)],
    forms={APPROVE_ROUTE: all_of(required("audit", "figures"), known_audit, _figures_rule)},
)
