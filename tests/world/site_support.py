"""What the site tests share: a real server per module, an attempt's client, the usual checks.

A site test serves its sites with ``server = serve(site.SITE, ...)``, opens an
attempt with ``async with attempt(server, tmp_path, "x-1", "site") as site:``
and drives it over HTTP as a browser would. The checks compare exact values:
``refused`` asserts the status and returns the messages shown, ``accepted``
asserts the 303 and its location and returns the page it leads to. A test whose
attempts must share one cookie jar opens ``async with browser(server) as client:``
and passes ``client=client`` to each ``attempt``.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, Site

CLOCK = dt.datetime(2025, 3, 4, tzinfo=dt.UTC)
"""The run clock of the site tests unless a test names its own."""


def serve(*sites: Site) -> Any:
    """A module-scoped ``server`` fixture: a real fixture server with ``sites``."""

    @pytest.fixture(scope="module", name="server")
    async def server() -> AsyncIterator[FixtureServer]:
        async with FixtureServer(sites) as srv:
            yield srv

    return server


class Visitor:
    """One attempt's HTTP client on one site: every request carries its host and attempt."""

    def __init__(self, client: httpx.AsyncClient, world: AttemptWorld, site: str) -> None:
        self.client = client
        self.world = world
        self.host = f"{site}.{DOMAIN}"

    @property
    def attempt(self) -> str:
        return self.world.attempt

    @property
    def headers(self) -> dict[str, str]:
        return {"host": self.host, ATTEMPT_HEADER: self.attempt}

    def on(self, site: str) -> Visitor:
        """The same attempt on another site."""
        return Visitor(self.client, self.world, site)

    async def get(
        self, path: str, *, cookie: str | None = None, params: dict[str, str] | None = None
    ) -> httpx.Response:
        headers = self.headers if cookie is None else {**self.headers, "cookie": cookie}
        return await self.client.get(path, headers=headers, params=params)

    async def post(
        self,
        path: str,
        data: dict[str, str] | None = None,
        *,
        json: Any = None,
        files: dict[str, tuple[str, bytes, str]] | None = None,
        cookie: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = {**self.headers, **(headers or {})}
        if cookie is not None:
            sent["cookie"] = cookie
        return await self.client.post(path, data=data, json=json, files=files, headers=sent)


@asynccontextmanager
async def browser(server: FixtureServer) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client on ``server``; one cookie jar for every attempt it is passed to."""
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        yield client


@asynccontextmanager
async def attempt(
    server: FixtureServer,
    tmp_path: Path,
    attempt_id: str,
    site: str,
    *,
    clock: dt.datetime = CLOCK,
    client: httpx.AsyncClient | None = None,
    **world: Any,
) -> AsyncIterator[Visitor]:
    """An attempt (seed 0) whose client starts on ``site``; ended when the block ends.

    Every site on the server gets fresh state for it. The client is a new one
    unless ``client`` (from ``browser``) is given. ``world`` passes further
    ``AttemptWorld`` fields (``seeds``, ``revoke``).
    """
    state = AttemptWorld(attempt=attempt_id, seed=0, clock=clock, scratch=tmp_path, **world)
    server.begin(state, [site])
    try:
        if client is not None:
            yield Visitor(client, state, site)
        else:
            async with browser(server) as own:
                yield Visitor(own, state, site)
    finally:
        server.end(attempt_id)


def page_text(page: str) -> str:
    """A page's words with the tags taken out, single-spaced."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def messages(page: str) -> list[str]:
    """The text of every list item on a page: the messages of an error box."""
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def refused(
    site: Visitor,
    path: str,
    data: dict[str, str] | None = None,
    *,
    files: dict[str, tuple[str, bytes, str]] | None = None,
    status: int = 422,
) -> list[str]:
    """Post input the site must refuse: asserts the status, returns the messages shown."""
    answer = await site.post(path, data, files=files)
    assert answer.status_code == status, f"POST {path}: {answer.status_code}, wanted {status}"
    return messages(answer.text)


async def accepted(
    site: Visitor,
    path: str,
    data: dict[str, str] | None = None,
    *,
    location: str,
    files: dict[str, tuple[str, bytes, str]] | None = None,
) -> httpx.Response:
    """Post input the site must take: asserts ``303 -> location``, returns the page there."""
    answer = await site.post(path, data, files=files)
    assert (answer.status_code, answer.headers.get("location")) == (303, location)
    return await site.get(location)


async def follow(site: Visitor, answer: httpx.Response, hops: int) -> httpx.Response:
    """Follow ``hops`` redirects from ``answer`` (each must be a redirect)."""
    for _ in range(hops):
        assert answer.is_redirect, f"{answer.request.url}: {answer.status_code}, not a redirect"
        answer = await site.get(answer.headers["location"])
    return answer
