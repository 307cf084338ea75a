"""keypad.proctor.test on a real server: the door code is checked server-side."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import keypad

HOST = "keypad.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([keypad.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["keypad"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_keypad_checks_the_code_and_a_new_attempt_starts_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "keypad-1")
        try:
            panel = await client.get("/", headers=headers)
            assert panel.status_code == 200
            assert '<div id="display" role="status" aria-live="polite">Code: (empty)</div>' in (
                panel.text
            )
            short = await client.post("/submit/code", data={"code": "77777"}, headers=headers)
            assert short.status_code == 422
            assert _messages(short.text) == ["The door code has 6 digits; 5 were entered."]
            empty = await client.post("/submit/code", data={"code": ""}, headers=headers)
            assert empty.status_code == 422
            assert _messages(empty.text) == ["Enter the door code first."]

            wrong = await client.post("/submit/code", data={"code": "123456"}, headers=headers)
            assert wrong.status_code == 303
            assert wrong.headers["location"] == "/submitted/code/1"
            refused = await client.get("/submitted/code/1", headers=headers)
            assert "<h1>Wrong code</h1>" in refused.text

            right = await client.post("/submit/code", data={"code": "777777"}, headers=headers)
            assert right.status_code == 303
            assert right.headers["location"] == "/submitted/code/2"
            opened = await client.get(right.headers["location"], headers=headers)
            assert opened.status_code == 200
            assert "<h1>Door unlocked</h1>" in opened.text
        finally:
            server.end("keypad-1")

        headers = _begin(server, tmp_path, "keypad-2")
        try:
            gone = await client.get("/submitted/code/2", headers=headers)
            assert gone.status_code == 404
            assert _messages(gone.text) == ["No such attempt."]
        finally:
            server.end("keypad-2")


async def test_intercom_buttons_have_no_working_handler(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "keypad-3")
        try:
            page = await client.get("/intercom", headers=headers)
            assert page.status_code == 200
            # The handlers name an `intercom` object that no script on the page defines.
            assert re.findall(r'onclick="(intercom\.\w+)', page.text) == [
                "intercom.ring",
                "intercom.concierge",
                "intercom.courier",
            ]
            assert "intercom =" not in page.text and "var intercom" not in page.text
            assert re.findall(r"<li>Flat (\w+): ", page.text) == ["1A", "2C", "3B", "4B"]
        finally:
            server.end("keypad-3")
