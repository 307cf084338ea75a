"""records.proctor.test on a real server: the ledger's exact data, and flagging an order."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import records

HOST = "records.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([records.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 9, 8, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["records"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _rows(page: str) -> list[list[str]]:
    """The ledger's body rows as cell texts (links reduced to their text)."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


async def test_ledger_serves_the_exact_synthetic_data(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "records-data")
        try:
            page = await client.get("/orders", headers=headers)
            assert page.status_code == 200
            assert _rows(page.text) == [
                ["HP-1041", "Mara Linden", "Paid", "128.40", "9.95"],
                ["HP-1042", "Oskar Brandt", "Refunded", "54.00", "4.50"],
                ["HP-1043", "Ines Okafor", "Paid", "312.75", "0.00"],
                ["HP-1044", "Theo Marchetti", "Cancelled", "89.99", "6.25"],
                ["HP-1045", "Yuki Sato", "Paid", "46.10", "12.40"],
                ["HP-1046", "Rafael Duarte", "Pending", "230.00", "8.00"],
            ]
            assert '<table id="ledger" aria-label="Orders" data-warehouse="RTM-2"' in page.text
            assert "<td>Total</td><td></td><td></td><td>861.24</td>" in page.text
            assert "Ledger reference code: LDG-3307." in page.text
            assert re.findall(r'href="([^"]+)"', page.text) == [
                f"/orders/HP-104{n}" for n in range(1, 7)
            ]
            missing = await client.get("/orders/HP-0000", headers=headers)
            assert missing.status_code == 404
            assert _messages(missing.text) == ["There is no order HP-0000 in the ledger."]
        finally:
            server.end("records-data")


async def test_flagging_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "records-1")
        try:
            blank = await client.post(
                "/submit/flag", data={"order": "HP-1044", "reason": "  "}, headers=headers
            )
            assert blank.status_code == 422
            assert _messages(blank.text) == ["Reason is required."]
            unknown = await client.post(
                "/submit/flag", data={"order": "HP-9999", "reason": "Typo"}, headers=headers
            )
            assert unknown.status_code == 422
            assert _messages(unknown.text) == ["There is no order HP-9999 in the ledger."]

            ok = await client.post(
                "/submit/flag",
                data={"order": "HP-1044", "reason": "Customer disputes the charge"},
                headers=headers,
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/flag/1"
            order = await client.get("/orders/HP-1044", headers=headers)
            assert '<p role="status">Flagged for review: Customer disputes the charge</p>' in (
                order.text
            )
            ledger = await client.get("/orders", headers=headers)
            assert _rows(ledger.text)[3][2] == "Cancelled (flagged)"
            assert [row[2] for row in _rows(ledger.text)].count("Cancelled (flagged)") == 1
        finally:
            server.end("records-1")

        headers = _begin(server, tmp_path, "records-2")
        try:
            order = await client.get("/orders/HP-1044", headers=headers)
            assert '<p role="status">Not flagged.</p>' in order.text
            ledger = await client.get("/orders", headers=headers)
            assert _rows(ledger.text)[3][2] == "Cancelled"
        finally:
            server.end("records-2")
