"""shipping.proctor.test on a real server: labels are shown, codes are stored and shown back."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import shipping

HOST = "shipping.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([shipping.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["shipping"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _options(html: str) -> list[tuple[str, str, bool]]:
    """(value, label, selected) of every option of the delivery select."""
    found = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', html)
    return [(value, label, bool(selected)) for value, selected, label in found]


async def test_delivery_speed_is_stored_by_code_and_shown_by_label(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "ship-1")
        try:
            page = await client.get("/checkout/delivery", headers=headers)
            assert page.status_code == 200
            assert _options(page.text) == [
                ("", "Choose a delivery speed", False),
                ("SHIP_ECO", "Economy — 8 to 12 business days ($0.00)", False),
                ("SHIP_STD", "Standard — 5 to 7 business days ($4.95)", False),
                ("SHIP_P2", "Priority — 2 business days ($9.50)", False),
                ("SHIP_PP", "Priority Plus — next day ($24.00)", False),
            ]

            label = {"delivery_speed": "Priority — 2 business days ($9.50)"}
            bad = await client.post("/submit/shipping", data=label, headers=headers)
            assert bad.status_code == 422
            assert "Choose a delivery speed from the list." in bad.text
            blank = await client.post(
                "/submit/shipping", data={"delivery_speed": ""}, headers=headers
            )
            assert blank.status_code == 422
            assert "Delivery speed is required." in blank.text

            chosen = await client.post(
                "/submit/shipping", data={"delivery_speed": "SHIP_P2"}, headers=headers
            )
            assert chosen.status_code == 303
            assert chosen.headers["location"] == "/submitted/shipping/1"
            result = await client.get(chosen.headers["location"], headers=headers)
            assert result.status_code == 200
            assert (
                "Order NW-48213 will ship with Priority — 2 business days ($9.50)." in result.text
            )
            assert "Order total: $62.00" in result.text
            again = await client.get("/checkout/delivery", headers=headers)
            assert [v for v, _, selected in _options(again.text) if selected] == ["SHIP_P2"]
            assert "Current delivery: Priority — 2 business days." in again.text
        finally:
            server.end("ship-1")

        headers = _begin(server, tmp_path, "ship-2")
        try:
            fresh = await client.get("/checkout/delivery", headers=headers)
            assert [v for v, _, selected in _options(fresh.text) if selected] == []
            assert "Current delivery:" not in fresh.text
        finally:
            server.end("ship-2")
