"""bank.proctor.test seeded (``world.apps.bank``): the payees and the daily transfer limit.

Over HTTP on a real server, then in real Chromium: the transfer form offers the
seeded payees only, and a transfer to one reaches the code page under its name.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from site_support import Visitor, attempt, page_text, refused, serve

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import BankSeed, dump_scenario, load_scenario
from proctor.world import FixtureServer, all_sites
from proctor.world.sites import bank

CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)
server = serve(bank.SITE)
SEED = {
    "payees": [
        {"id": "jo-ortiz", "name": "Jo Ortiz", "sort_code": "11-22-33", "account": "12345678"},
        {"id": "jo-ortiz-old", "name": "Jo Ortiz", "sort_code": "99-88-77", "account": "87654321"},
    ],
    "daily_limit": "250.00",
}


async def _log_in(site: Visitor) -> None:
    form = {"username": bank.USERNAME, "password": bank.PASSWORD}
    assert (await site.post("/submit/signin", form)).status_code == 303


async def test_seeded_payees_and_limit(server: FixtureServer, tmp_path: Path) -> None:
    seeds = {"bank": BankSeed.model_validate(SEED)}
    async with attempt(server, tmp_path, "bank-seed-1", "bank", clock=CLOCK, seeds=seeds) as site:
        await _log_in(site)
        form = await site.get("/transfer")
        assert re.findall(r'<option value="([a-z-]+)">([^<]+)</option>', form.text) == [
            ("jo-ortiz", "Jo Ortiz (11-22-33, 12345678)"),
            ("jo-ortiz-old", "Jo Ortiz (99-88-77, 87654321)"),
        ]
        pay = {"from": "4821", "payee": "maya-chen", "amount": "25.00", "reference": "Rent"}
        assert await refused(site, "/submit/transfer", pay) == ["Choose a payee."]
        big = {**pay, "payee": "jo-ortiz", "amount": "250.01"}
        assert await refused(site, "/submit/transfer", big) == [
            "The daily transfer limit is £250.00."
        ]
        made = await site.post("/submit/transfer", {**big, "amount": "250.00"})
        assert made.headers["location"] == "/transfer/T1/confirm"
        confirm = page_text((await site.get("/transfer/T1/confirm")).text)
        assert 'Send £250.00 to Jo Ortiz from the account ending 4821, reference "Rent".' in confirm
        snap = server.snapshot(site.world)["bank"]["transfers"]
        assert [(t["payee"], t["amount"], t["status"]) for t in snap] == [
            ("jo-ortiz", "250.00", "awaiting_code")
        ]

    async with attempt(server, tmp_path, "bank-seed-2", "bank", clock=CLOCK) as site:
        await _log_in(site)
        form = await site.get("/transfer")
        assert re.findall(r'<option value="([a-z-]+)">', form.text) == [
            "maya-chen",
            "greystone",
            "climbing-club",
        ]
        over = {"from": "4821", "payee": "maya-chen", "amount": "5000.01", "reference": "x"}
        assert "The daily transfer limit is £5,000.00." in await refused(
            site, "/submit/transfer", over
        )


@pytest.mark.browser
async def test_a_transfer_to_a_seeded_payee_in_the_browser(worker: Worker, tmp_path: Path) -> None:
    steps: list[dict[str, Any]] = [
        {"op": "fill", "role": "textbox", "name": "Username", "value": bank.USERNAME},
        {"op": "fill", "role": "textbox", "name": "Password", "value": bank.PASSWORD},
        {"op": "click", "role": "button", "name": "Log in"},
        {"op": "navigate", "url": "http://bank.proctor.test/transfer"},
        {"op": "select", "role": "combobox", "name": "To", "value": "jo-ortiz-old"},
        {"op": "fill", "role": "textbox", "name": "Amount (£)", "value": "40"},
        {"op": "fill", "role": "textbox", "name": "Reference", "value": "Tickets"},
        {"op": "click", "role": "button", "name": "Continue"},
        {"op": "wait", "text": "Send £40.00 to Jo Ortiz"},
        {"op": "done"},
    ]
    data = {
        "id": "bank-seeded-payee",
        "title": "Pay a seeded payee",
        "tier": "local",
        "category": "regression",
        "brief": "Pay Jo.",
        "world": {
            "sites": ["bank"],
            "apps": {"bank": SEED},
            "browser": {"start": "{site.bank}/login"},
        },
        "checks": [{"site_state": {"site": "bank", "items": "transfers"}}],
        "solution": steps,
        "decoys": [{"name": "none", "steps": [{"op": "done"}], "fails": ["site_state"]}],
    }
    path = tmp_path / "bank-seeded-payee.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    loaded = load_scenario(path, sites=set(all_sites()))
    record: AttemptRecord = await run_attempt(
        worker, PlanItem(loaded, parse_arm("oracle=scripted"), 1), write=False
    )
    assert [s.status for s in record.steps] == ["ok"] * len(steps), [s.error for s in record.steps]
    (post,) = [r for r in record.end_state.requests if r.path == "/submit/transfer"]
    assert (post.status, post.form["payee"]) == (303, ["jo-ortiz-old"])
    snap = record.end_state.apps["bank"]["transfers"]
    assert [(t["payee"], t["amount"]) for t in snap] == [("jo-ortiz-old", "40.00")]
