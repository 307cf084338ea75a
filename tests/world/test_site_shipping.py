"""shipping.proctor.test on a real server: labels are shown, codes are stored and shown back."""

from __future__ import annotations

import re
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import shipping

server = serve(shipping.SITE)


def _options(html: str) -> list[tuple[str, str, bool]]:
    """(value, label, selected) of every option of the delivery select."""
    found = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', html)
    return [(value, label, bool(selected)) for value, selected, label in found]


async def test_delivery_speed_is_stored_by_code_and_shown_by_label(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "ship-1", "shipping") as site:
        page = await site.get("/checkout/delivery")
        assert page.status_code == 200
        assert _options(page.text) == [
            ("", "Choose a delivery speed", False),
            ("SHIP_ECO", "Economy — 8 to 12 business days ($0.00)", False),
            ("SHIP_STD", "Standard — 5 to 7 business days ($4.95)", False),
            ("SHIP_P2", "Priority — 2 business days ($9.50)", False),
            ("SHIP_PP", "Priority Plus — next day ($24.00)", False),
        ]

        label = {"delivery_speed": "Priority — 2 business days ($9.50)"}
        assert await refused(site, "/submit/shipping", label) == [
            "Choose a delivery speed from the list."
        ]
        assert await refused(site, "/submit/shipping", {"delivery_speed": ""}) == [
            "Delivery speed is required."
        ]

        chosen = {"delivery_speed": "SHIP_P2"}
        result = await accepted(site, "/submit/shipping", chosen, location="/submitted/shipping/1")
        assert result.status_code == 200
        assert "Order NW-48213 will ship with Priority — 2 business days ($9.50)." in result.text
        assert "Order total: $62.00" in result.text
        again = await site.get("/checkout/delivery")
        assert [v for v, _, selected in _options(again.text) if selected] == ["SHIP_P2"]
        assert "Current delivery: Priority — 2 business days." in again.text

    async with attempt(server, tmp_path, "ship-2", "shipping") as site:
        fresh = await site.get("/checkout/delivery")
        assert [v for v, _, selected in _options(fresh.text) if selected] == []
        assert "Current delivery:" not in fresh.text
