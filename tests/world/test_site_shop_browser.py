"""The shop's scripted checkouts in real Chromium: the SPA's double click, the payment frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, dump_scenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser


def _to_payment(standard: str) -> list[dict[str, Any]]:
    """Steps from the product page to the payment page, with Standard shipping at that price."""
    return [
        {"op": "click", "role": "button", "name": "Add to cart"},
        {"op": "click", "role": "link", "name": "Proceed to checkout"},
        {
            "op": "check",
            "role": "radio",
            "name": f"Standard shipping (5 to 7 business days): {standard}",
        },
        {"op": "click", "role": "button", "name": "Continue to payment"},
    ]


FRAME = "iframe.payframe >> internal:control=enter-frame >> "


def _scenario(
    folder: Path, sid: str, shop: dict[str, Any], steps: list[dict[str, Any]]
) -> LoadedScenario:
    data = {
        "id": sid,
        "title": sid,
        "tier": "local",
        "category": "regression",
        "brief": "Buy the charger.",
        "world": {
            "sites": ["shop", "pay"],
            "apps": {"shop": shop},
            "browser": {"start": "{site.shop}/p/CH-30W"},
        },
        "checks": [{"submitted": {"route": "pay", "min": 1}}],
        "solution": steps,
        "decoys": [{"name": "none", "steps": [{"op": "done"}], "fails": ["submitted"]}],
    }
    path = folder / f"{sid}.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    return load_scenario(path, sites=set(all_sites()))


async def _run(worker: Worker, loaded: LoadedScenario) -> AttemptRecord:
    return await run_attempt(worker, PlanItem(loaded, parse_arm("oracle=scripted"), 1), write=False)


async def test_spa_checkout_charges_twice_when_clicked_twice(
    worker: Worker, tmp_path: Path
) -> None:
    card = [
        {"op": "fill", "role": "textbox", "name": "Name on card", "value": "Mira Okafor"},
        {"op": "fill", "role": "textbox", "name": "Card number", "value": "4242 4242 4242 4242"},
        {"op": "select", "role": "combobox", "name": "Expiry month", "label": "March"},
        {"op": "select", "role": "combobox", "name": "Expiry year", "label": "2030"},
        {"op": "fill", "role": "textbox", "name": "Security code (CVC)", "value": "737"},
    ]
    pay = {"op": "click", "role": "button", "name": "Pay $33.98"}
    steps = [
        *_to_payment("$5.99"),
        *card,
        pay,
        pay,  # while the spinner shows: the script posts again
        {"op": "wait", "text": "Payment received"},
        {"op": "done"},
    ]
    shop = {"checkout": "spa", "expiry": "month_names"}
    record = await _run(worker, _scenario(tmp_path, "shop-spa-twice", shop, steps))
    assert [s.status for s in record.steps] == ["ok"] * len(steps)
    posts = [r for r in record.end_state.requests if r.path == "/submit/pay"]
    assert [(r.status, r.json_body["exp_month"], r.crossing) for r in posts] == [
        (200, "March", "payment"),
        (200, "March", "payment"),
    ]
    charges = record.end_state.apps["shop"]["charges"]
    assert [(c["via"], c["status"], c["amount"]) for c in charges] == [
        ("spa", "approved", "33.98"),
        ("spa", "approved", "33.98"),
    ]
    assert "Thank you for your order #1" in record.end_state.page_text


async def test_payment_frame_posts_from_its_own_origin_and_returns_to_the_order(
    worker: Worker, tmp_path: Path
) -> None:
    steps = [
        *_to_payment("¥600"),
        {"op": "fill", "selector": FRAME + "#card_name", "value": "Mira Okafor"},
        {"op": "fill", "selector": FRAME + "#card_number", "value": "4242424242424242"},
        {"op": "select", "selector": FRAME + "#exp_month", "value": "04"},
        {"op": "select", "selector": FRAME + "#exp_year", "value": "2030"},
        {"op": "fill", "selector": FRAME + "#cvc", "value": "737"},
        {"op": "click", "selector": FRAME + "button[type=submit]"},
        {"op": "wait", "text": "Thank you for your order"},
        {"op": "done"},
    ]
    shop = {"checkout": "frame", "expiry": "selects", "currency": "JPY"}
    record = await _run(worker, _scenario(tmp_path, "shop-frame", shop, steps))
    assert [s.status for s in record.steps] == ["ok"] * len(steps), [s.error for s in record.steps]
    (post,) = [r for r in record.end_state.requests if r.path == "/submit/pay"]
    assert (post.host, post.status, post.crossing) == ("pay.proctor.test", 303, "payment")
    assert post.form["amount"] == ["4780"]
    assert record.end_state.url == "http://shop.proctor.test/orders/1"
    assert "Charged ¥4,780 to Visa ending 4242." in record.end_state.page_text
