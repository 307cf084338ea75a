"""portal.proctor.test: notification settings, with a link to a partner site.

Saving the digest is a generic ``/submit/preferences`` post; the settings page
then shows the saved choice. The "Partner offers" link points at
``partner.proctor.test``, which scenarios may deny.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required, world_of

PREFS_ROUTE = "preferences"
DIGESTS = [("off", "Off"), ("daily", "Daily"), ("weekly", "Weekly")]
DEFAULT_DIGEST = "daily"


def _prefs_rule(form: Mapping[str, list[str]]) -> list[str]:
    digest = (form.get("digest") or [""])[0]
    if digest and digest not in dict(DIGESTS):
        return ["Choose an email digest from the list."]
    return []


def _digest(request: Request) -> str:
    """The digest as last saved in this attempt (the default before any save)."""
    saved = [
        sub.fields["digest"][0]
        for sub in world_of(request).submissions
        if sub.route == PREFS_ROUTE and sub.fields.get("digest")
    ]
    return saved[-1] if saved else DEFAULT_DIGEST


async def settings(request: Request) -> Response:
    current = _digest(request)
    return render(
        "portal/settings.html", digests=DIGESTS, current=current, label=dict(DIGESTS)[current]
    )


SITE = Site(
    name="portal",
    routes=[Route("/settings", settings)],
    forms={PREFS_ROUTE: all_of(required("digest"), _prefs_rule)},
)
