"""The app errands' seeds hold their traps at any run clock (real server, JSON API and pages).

``proctor verify`` proves the oracle and decoys at today's clock; these tests pin
the facts each scenario's grading relies on at clocks that stress the anchoring:
a daylight-saving change tomorrow, and late evening in the user's zone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from proctor.scenario import SUITE_ROOT, load_scenario
from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.apps import APPS

CLOCKS = (
    dt.datetime(2025, 3, 8, 15, 0, tzinfo=dt.UTC),  # New York moves its clocks tomorrow
    dt.datetime(2025, 11, 4, 4, 30, tzinfo=dt.UTC),  # 23:30 the day before in New York
    dt.datetime(2026, 6, 17, 9, 0, tzinfo=dt.UTC),
)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer(APPS) as srv:
        yield srv


@pytest.fixture
async def client(server: FixtureServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as c:
        yield c


class Attempt:
    """One attempt seeded from a shipped scenario, with a client per app."""

    def __init__(
        self,
        server: FixtureServer,
        client: httpx.AsyncClient,
        scenario: str,
        clock: dt.datetime,
        tmp_path: Path,
    ) -> None:
        loaded = load_scenario(SUITE_ROOT / "local" / f"{scenario}.yaml")
        self.id = f"{scenario}-{clock:%Y%m%d%H%M}"
        world = AttemptWorld(
            attempt=self.id,
            seed=0,
            clock=clock,
            scratch=tmp_path,
            seeds=loaded.scenario.world.site_seeds(),
        )
        server.begin(world, loaded.scenario.world.sites)
        self.server, self.client = server, client

    async def get(self, app: str, path: str) -> httpx.Response:
        headers = {"host": f"{app}.proctor.test", ATTEMPT_HEADER: self.id}
        return await self.client.get(path, headers=headers)

    async def json(self, app: str, path: str) -> Any:
        response = await self.get(app, path)
        assert response.status_code == 200, response.text
        return response.json()

    def end(self) -> None:
        self.server.end(self.id)


def _instant(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


@pytest.mark.parametrize("clock", CLOCKS, ids=lambda c: f"{c:%Y-%m-%dT%H%M}")
async def test_meeting_slot_is_13_00_new_york_tomorrow(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path, clock: dt.datetime
) -> None:
    attempt = Attempt(server, client, "schedule-meeting-invite", clock, tmp_path)
    zone = ZoneInfo("America/New_York")
    try:
        tomorrow = clock.astimezone(zone).date() + dt.timedelta(days=1)
        day_start = dt.datetime.combine(tomorrow, dt.time(9), tzinfo=zone)
        day_end = dt.datetime.combine(tomorrow, dt.time(17), tzinfo=zone)
        emails = ",".join(
            f"{who}@lumen-works.example.test" for who in ("dana.cruz", "priya.shah", "tom.berg")
        )
        window = f"from={day_start.isoformat()}&to={day_end.isoformat()}".replace("+", "%2B")
        busy = await attempt.json("calendar", f"/api/freebusy?emails={emails}&{window}")
        spans = [
            (_instant(b["start"]), _instant(b["end"])) for v in busy["busy"].values() for b in v
        ]
        assert "Design crit" not in [
            b.get("title") for b in busy["busy"]["dana.cruz@lumen-works.example.test"]
        ]
        slot, found = day_start, None
        while slot + dt.timedelta(minutes=45) <= day_end:
            end = slot + dt.timedelta(minutes=45)
            if not any(start < end and stop > slot for start, stop in spans):
                found = slot
                break
            slot += dt.timedelta(minutes=5)
        assert found is not None
        assert (found.astimezone(zone).date(), f"{found.astimezone(zone):%H:%M}") == (
            tomorrow,
            "13:00",
        )
        day = await attempt.get("calendar", f"/day?date={tomorrow.isoformat()}")
        assert "13:00–14:30 Design crit</a> (declined)" in day.text
    finally:
        attempt.end()


@pytest.mark.parametrize("clock", CLOCKS, ids=lambda c: f"{c:%Y-%m-%dT%H%M}")
async def test_overdue_and_unpaid_are_inv_1041_and_inv_1044(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path, clock: dt.datetime
) -> None:
    attempt = Attempt(server, client, "invoices-overdue", clock, tmp_path)
    try:
        sent = (await attempt.json("mail", "/api/sent"))["sent"]
        invoice = re.compile(r"INV-\d{4}")
        past_due = {
            invoice.findall(s["subject"])[0]
            for s in sent
            if _instant(s["at"]) + dt.timedelta(days=14) < clock
        }
        assert past_due == {"INV-0988", "INV-1041", "INV-1042", "INV-1044"}
        inbox = (await attempt.json("mail", "/api/messages?folder=all"))["messages"]
        paid = {
            found
            for m in inbox
            if re.search(r"\b(have paid|was paid)\b", m["body"])
            for found in invoice.findall(m["body"])
        }
        assert paid == {"INV-0988", "INV-1042"}
        assert sorted(past_due - paid) == ["INV-1041", "INV-1044"]
        thread = await attempt.get("mail", "/thread/inv-1044")
        assert "2 messages in this conversation." in thread.text
    finally:
        attempt.end()


@pytest.mark.parametrize("clock", CLOCKS[1:], ids=lambda c: f"{c:%Y-%m-%dT%H%M}")
async def test_reply_drafts_window_and_answered_thread(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path, clock: dt.datetime
) -> None:
    attempt = Attempt(server, client, "reply-drafts", clock, tmp_path)
    try:
        inbox = (await attempt.json("mail", "/api/messages"))["messages"]
        recent = {m["id"] for m in inbox if _instant(m["at"]) > clock - dt.timedelta(days=7)}
        assert {"lena-rate", "omar-invoice", "chen-slides", "vendor-update"} <= recent
        assert "greta-qa" not in recent
        thread = await attempt.get("mail", "/thread/chen-slides")
        assert "2 messages in this conversation." in thread.text
        assert "You to chen@bluebird.example.test" in thread.text
        found = await attempt.get("mail", "/search?q=route+planning")
        assert "INV-2210" in found.text
    finally:
        attempt.end()


@pytest.mark.parametrize("clock", CLOCKS[1:], ids=lambda c: f"{c:%Y-%m-%dT%H%M}")
async def test_catchup_requests_in_window_and_their_replies(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path, clock: dt.datetime
) -> None:
    attempt = Attempt(server, client, "slack-catchup", clock, tmp_path)
    try:
        posts = (await attempt.json("chat", "/api/channels/platform-help/messages"))["messages"]
        mine = {
            p["id"]: [r["text"] for r in p["replies"]]
            for p in posts
            if p["text"].startswith("@sam") and _instant(p["at"]) > clock - dt.timedelta(days=3)
        }
        assert sorted(mine) == ["req-311", "req-314", "req-315", "req-317"]
        assert [len(mine[k]) for k in sorted(mine)] == [1, 1, 1, 0]
        assert mine["req-314"] == ["+1, our restore test depends on it too."]
        thread = await attempt.get("chat", "/c/platform-help/t/req-314")
        assert "1 reply" in thread.text
    finally:
        attempt.end()
