"""The bench's world: a one-page site and a trivial scenario that does nothing on it."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.scenario import LoadedScenario, load_scenario
from proctor.world import Site

SITE_NAME = "bench"
PAGE_TEXT = "Bench page"

_PAGE = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>Bench</title></head>"
    f"<body><h1>{PAGE_TEXT}</h1><p>Nothing to do here.</p></body></html>"
)

SCENARIO_YAML = f"""\
id: bench-trivial
title: Open one page and do nothing (harness overhead benchmark)
tier: local
category: regression
limits: {{seconds: 30, tool_calls: 5, steps: 5}}
brief: Look at {{site.{SITE_NAME}}}/ and stop.
world:
  sites: [{SITE_NAME}]
  browser: {{start: "{{site.{SITE_NAME}}}/"}}
checks:
  - page_text: {{contains: "{PAGE_TEXT}", name: page-shown}}
  - stop_reason: {{in: [done, "null"]}}
solution:
  - {{op: done}}
decoys:
  - name: navigates-away
    steps:
      - {{op: navigate, url: "about:blank"}}
      - {{op: done}}
    fails: [page-shown]
"""


async def _page(request: Request) -> Response:
    return HTMLResponse(_PAGE)


SITE = Site(name=SITE_NAME, routes=[Route("/", _page)])
"""A test-only site: one static page, served like every fixture site."""


def page_url() -> str:
    """The bench page, as the browser reaches it (mapped to the fixture server)."""
    return f"http://{SITE.host}/"


def write_scenario(folder: Path) -> LoadedScenario:
    """Write the trivial scenario into ``folder`` and load it like any scenario file."""
    path = folder / "bench-trivial.yaml"
    path.write_text(SCENARIO_YAML, encoding="utf-8")
    return load_scenario(path, sites={SITE_NAME})
