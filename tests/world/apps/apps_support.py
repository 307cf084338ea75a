"""Helpers for the app tests: one real fixture server with the four apps, a client per app."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer

CLOCK = dt.datetime(2025, 3, 4, 10, 0, tzinfo=dt.UTC)
"""The run clock of these tests: Tuesday 4 March 2025, 10:00 UTC (11:00 in Paris)."""


def begin(
    server: FixtureServer,
    tmp_path: Path,
    attempt: str,
    seeds: dict[str, Any],
    clock: dt.datetime = CLOCK,
) -> AttemptWorld:
    """Start an attempt whose apps are seeded with ``seeds`` (raw YAML-like data)."""
    world = AttemptWorld(attempt=attempt, seed=0, clock=clock, scratch=tmp_path, seeds=seeds)
    server.begin(world, list(seeds))
    return world


class App:
    """A client for one app of one attempt (host and attempt headers set)."""

    def __init__(self, client: httpx.AsyncClient, app: str, attempt: str) -> None:
        self.client = client
        self.headers = {"host": f"{app}.proctor.test", ATTEMPT_HEADER: attempt}

    async def get(self, path: str) -> httpx.Response:
        return await self.client.get(path, headers=self.headers)

    async def post(self, path: str, data: dict[str, str]) -> httpx.Response:
        return await self.client.post(path, data=data, headers=self.headers)

    async def post_json(self, path: str, body: Any) -> httpx.Response:
        return await self.client.post(path, json=body, headers=self.headers)

    async def post_raw(self, path: str, content: bytes) -> httpx.Response:
        headers = {**self.headers, "content-type": "application/json"}
        return await self.client.post(path, content=content, headers=headers)


def alerts(html: str) -> list[str]:
    """The messages of a page's error box."""
    box = re.search(r'<div class="errors" role="alert">(.*?)</div>', html, re.S)
    return [unescape(m) for m in re.findall(r"<li>(.*?)</li>", box.group(1))] if box else []


def status_text(html: str) -> str | None:
    found = re.search(r'role="status">(.*?)</p>', html, re.S)
    return unescape(found.group(1)) if found else None


def posts(html: str) -> list[tuple[str, str]]:
    """(id, text) of each chat post on a page, in order."""
    found = re.findall(
        r'<article class="post" id="([^"]+)".*?<div class="text">(.*?)</div>', html, re.S
    )
    return [(pid, unescape(text)) for pid, text in found]
