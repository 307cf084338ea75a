"""HTML rendering for fixture sites: one Jinja2 environment over the sites' templates."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.responses import HTMLResponse


@lru_cache(maxsize=1)
def environment() -> Environment:
    return Environment(
        loader=PackageLoader("proctor.world.sites", "templates"),
        autoescape=select_autoescape(("html",)),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """Render ``templates/<template>`` with ``context`` into an HTML response."""
    html = environment().get_template(template).render(**context)
    return HTMLResponse(html, status_code=status)
