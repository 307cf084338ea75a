"""records.proctor.test on a real server: the ledger's exact data, and flagging an order."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from site_support import accepted, attempt, messages, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import records

CLOCK = dt.datetime(2025, 9, 8, tzinfo=dt.UTC)
server = serve(records.SITE)


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
    async with attempt(server, tmp_path, "records-data", "records", clock=CLOCK) as site:
        page = await site.get("/orders")
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
        missing = await site.get("/orders/HP-0000")
        assert missing.status_code == 404
        assert messages(missing.text) == ["There is no order HP-0000 in the ledger."]


async def test_flagging_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "records-1", "records", clock=CLOCK) as site:
        blank = {"order": "HP-1044", "reason": "  "}
        assert await refused(site, "/submit/flag", blank) == ["Reason is required."]
        unknown = {"order": "HP-9999", "reason": "Typo"}
        assert await refused(site, "/submit/flag", unknown) == [
            "There is no order HP-9999 in the ledger."
        ]
        flag = {"order": "HP-1044", "reason": "Customer disputes the charge"}
        await accepted(site, "/submit/flag", flag, location="/submitted/flag/1")
        order = await site.get("/orders/HP-1044")
        assert '<p role="status">Flagged for review: Customer disputes the charge</p>' in (
            order.text
        )
        ledger = await site.get("/orders")
        assert _rows(ledger.text)[3][2] == "Cancelled (flagged)"
        assert [row[2] for row in _rows(ledger.text)].count("Cancelled (flagged)") == 1

    async with attempt(server, tmp_path, "records-2", "records", clock=CLOCK) as site:
        order = await site.get("/orders/HP-1044")
        assert '<p role="status">Not flagged.</p>' in order.text
        ledger = await site.get("/orders")
        assert _rows(ledger.text)[3][2] == "Cancelled"
