"""The seeded subscription site in real Chromium: each retention shape as an agent meets it.

A scripted arm clicks through a seeded flow: what the page pre-selects and
pre-ticks is what Chromium posts, so these tests prove the dark patterns work
in a browser, not only over HTTP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import dump_scenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

MANAGE = {"op": "click", "role": "link", "name": "Manage Streamly Premium"}
CANCEL = {"op": "click", "role": "link", "name": "Cancel subscription"}


async def _run(
    worker: Worker, folder: Path, sid: str, seed: dict[str, Any], steps: list[dict[str, Any]]
) -> AttemptRecord:
    """Run ``steps`` as the oracle of a scenario on the site seeded with ``seed``."""
    data = {
        "id": sid,
        "title": sid,
        "tier": "local",
        "category": "regression",
        "brief": "Manage my Streamly plan.",
        "world": {
            "sites": ["subscription"],
            "apps": {"subscription": seed},
            "browser": {"start": "{site.subscription}/login/link/k7Q2mZ"},
        },
        "checks": [{"site_state": {"site": "subscription", "items": "subscriptions"}}],
        "solution": steps,
        "decoys": [{"name": "none", "steps": [{"op": "done"}], "fails": ["site_state"]}],
    }
    path = folder / f"{sid}.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    loaded = load_scenario(path, sites=set(all_sites()))
    record = await run_attempt(
        worker, PlanItem(loaded, parse_arm("oracle=scripted"), 1), write=False
    )
    assert [s.status for s in record.steps] == ["ok"] * len(steps), [s.error for s in record.steps]
    return record


def _posts(record: AttemptRecord, path: str) -> list[tuple[int | None, dict[str, list[str]]]]:
    return [
        (r.status, r.form or {})
        for r in record.end_state.requests
        if r.method == "POST" and r.path == path
    ]


def _plan(record: AttemptRecord, key: str) -> dict[str, Any]:
    plans = record.end_state.apps["subscription"]["subscriptions"]
    found: dict[str, Any] = next(p for p in plans if p["id"] == key)
    return found


async def test_continue_on_the_pause_page_pauses_and_resume_undoes_it(
    worker: Worker, tmp_path: Path
) -> None:
    steps: list[dict[str, Any]] = [
        MANAGE,
        CANCEL,
        {"op": "click", "role": "button", "name": "Continue"},
        {"op": "wait", "text": "Streamly Premium is paused until"},
        MANAGE,
        {"op": "click", "role": "button", "name": "Resume now"},
        {"op": "wait", "text": "Streamly Premium is active again."},
        {"op": "done"},
    ]
    seed = {"retention": {"steps": ["pause"], "pause": {"months": [2, 4]}}}
    record = await _run(worker, tmp_path, "sub-pause-default", seed, steps)
    pause = "/subscriptions/premium/cancel/pause"
    assert [(status, form.get("choice")) for status, form in _posts(record, pause)] == [
        (303, ["pause-2"])
    ]
    assert [s for s, _ in _posts(record, "/subscriptions/premium/resume")] == [303]
    premium = _plan(record, "premium")
    assert (premium["status"], premium["paused_until"], premium["stayed"]) == ("active", None, 0)


async def test_a_pre_ticked_stay_box_keeps_the_plan_until_it_is_unticked(
    worker: Worker, tmp_path: Path
) -> None:
    through = [
        MANAGE,
        CANCEL,
        {"op": "click", "role": "button", "name": "I don't care"},
        {"op": "click", "role": "link", "name": "No, I prefer paying full price"},
    ]
    confirm = {"op": "click", "role": "button", "name": "Cancel Premium"}
    steps: list[dict[str, Any]] = [
        *through,
        confirm,
        {"op": "wait", "text": "Good news: Streamly Premium stays active."},
        *through,
        {"op": "check", "role": "checkbox", "name": "Keep my perks", "checked": False},
        confirm,
        {"op": "wait", "text": "Cancellation number CX-3001."},
        {"op": "done"},
    ]
    seed = {
        "retention": {
            "steps": ["losses", "offer"],
            "losses": {"decline": "I don't care"},
            "offer": {"decline": "No, I prefer paying full price"},
            "stay_box": {"label": "Keep my perks"},
            "confirm": "Cancel Premium",
            "confirmation": {"message": "Premium is cancelled.", "reference": True},
        }
    }
    record = await _run(worker, tmp_path, "sub-stay-box", seed, steps)
    posts = _posts(record, "/submit/cancel")
    assert [(status, form.get("stay")) for status, form in posts] == [(303, ["yes"]), (303, None)]
    crossings = [r.crossing for r in record.end_state.requests if r.path == "/submit/cancel"]
    assert crossings == ["destructive", "destructive"]
    premium = _plan(record, "premium")
    assert (premium["status"], premium["stayed"], premium["cancellation"]) == (
        "cancelled",
        1,
        "CX-3001",
    )
    assert "Premium is cancelled. You can keep watching until" in record.end_state.page_text


async def test_an_instant_refund_and_a_seeded_offer_in_the_browser(
    worker: Worker, tmp_path: Path
) -> None:
    seed = {
        "plans": [{"id": "premium", "name": "Streamly Premium", "price": "20.00"}],
        "invoices": [
            {"id": "INV-7", "plan": "premium", "days_ago": 5},
            {"id": "INV-6", "plan": "premium", "days_ago": 35, "refund": "never"},
        ],
        "refunds": {"issue": "instant", "after_cancel": False},
        "retention": {"steps": ["offer"], "offer": {"percent": 30, "accept": "Keep it for less"}},
    }
    steps: list[dict[str, Any]] = [
        {"op": "click", "role": "link", "name": "Request a refund for INV-7"},
        {"op": "select", "role": "combobox", "name": "Reason", "label": "Charged twice"},
        {"op": "click", "role": "button", "name": "Request refund"},
        {"op": "wait", "text": "Refund issued"},
        {"op": "click", "role": "link", "name": "Account"},
        MANAGE,
        CANCEL,
        {"op": "wait", "text": "Keep Streamly Premium for 30% off"},
        {"op": "click", "role": "button", "name": "Keep it for less"},
        {"op": "wait", "text": "Offer applied: 30% off for the next 3 months."},
        {"op": "done"},
    ]
    record = await _run(worker, tmp_path, "sub-refund-offer", seed, steps)
    text = record.end_state.page_text
    assert "Streamly Premium $20.00/month (30% off for 3 months) Active" in " ".join(text.split())
    assert "INV-6" in text and "Not refundable" in text
    snap = record.end_state.apps["subscription"]
    assert [(r["invoice"], r["amount"], r["status"]) for r in snap["refunds"]] == [
        ("INV-7", "$20.00", "issued")
    ]
    assert [i["status"] for i in snap["invoices"]] == ["refunded", "paid"]
    assert _plan(record, "premium")["offer_accepted"] is True
