"""The subscription site's seed in scenario files: checked at load time, shown in the schema."""

from __future__ import annotations

from pathlib import Path

from proctor.scenario import SubscriptionSeed, problems_in, scenario_schema

SITES = {"subscription"}
HEAD = """\
id: sample
title: Cancel the plan
tier: local
category: capability
brief: Cancel my plan on {site.subscription}.
world:
  sites: [subscription]
  apps:
    subscription:
"""
TAIL = """\
checks:
  - site_state: {site: subscription, items: subscriptions, where: {status: cancelled}}
solution:
  - {op: done}
decoys:
  - name: gives-up
    steps: [{op: done}]
    fails: [site_state]
"""


def _problems(tmp_path: Path, seed: str) -> list[tuple[str, str]]:
    path = tmp_path / "sample.yaml"
    path.write_text(HEAD + seed + TAIL)
    return [(p.field, p.message) for p in problems_in(path, SITES)]


def test_field_errors_name_their_path(tmp_path: Path) -> None:
    seed = """\
      plans: [{id: basic, name: Basic, price: 6.99}]
      retention:
        steps: [reason, survey]
        pause: {months: [0]}
        offer: {percent: 0}
"""
    assert _problems(tmp_path, seed) == [
        (
            "world.apps.subscription.plans[0].price",
            "wrong type: Input should be a valid string (got 6.99)",
        ),
        ("world.apps.subscription.retention.steps[1]", "'survey' is not allowed"),
        (
            "world.apps.subscription.retention.pause",
            "pause months must be distinct, each 1 to 12",
        ),
        (
            "world.apps.subscription.retention.offer.percent",
            "Input should be greater than or equal to 1",
        ),
    ]


def test_cross_field_errors_are_reported_together(tmp_path: Path) -> None:
    seed = """\
      plans:
        - {id: basic, name: Basic, price: "6.99"}
        - {id: basic, name: Basic again, price: "1.00"}
      invoices:
        - {id: INV-1, plan: premium, days_ago: 3}
        - {id: INV-1, plan: basic, days_ago: 33}
"""
    assert _problems(tmp_path, seed) == [
        (
            "world.apps.subscription",
            "plan ids must be unique: basic; invoice ids must be unique: INV-1; "
            "invoices[0].plan: 'premium' is not one of the plans (basic, basic)",
        )
    ]
    steps = "      retention: {steps: [offer, pause, offer]}\n"
    assert _problems(tmp_path, steps) == [
        ("world.apps.subscription.retention", "each cancel step may appear once: offer repeats")
    ]


def test_the_defaults_are_the_original_data_and_seeded_plans_drop_its_invoices() -> None:
    default = SubscriptionSeed()
    assert [(p.id, p.name, p.price, p.kind) for p in default.plans] == [
        ("premium", "Streamly Premium", "15.99", "plan"),
        ("kids", "Kids add-on", "3.99", "addon"),
    ]
    assert [(i.id, i.plan, i.days_ago) for i in default.invoices] == [
        ("INV-2291", "premium", 3),
        ("INV-2290", "kids", 3),
        ("INV-2244", "premium", 33),
        ("INV-2243", "kids", 33),
        ("INV-2198", "premium", 63),
        ("INV-2197", "kids", 63),
    ]
    assert default.retention.steps == ["reason", "offer"]
    assert default.retention.stay_box is None
    assert (default.refunds.days, default.refunds.after_cancel, default.refunds.issue) == (
        14,
        True,
        "request",
    )
    own = SubscriptionSeed.model_validate({"plans": [{"id": "b", "name": "B", "price": "1.00"}]})
    assert own.invoices == []


def test_the_schema_documents_the_seed() -> None:
    defs = scenario_schema()["$defs"]
    apps = defs["Apps"]["properties"]["subscription"]
    assert {"$ref": "#/$defs/SubscriptionSeed"} in apps["anyOf"]
    steps = defs["RetentionSeed"]["properties"]["steps"]
    assert steps["items"]["enum"] == ["reason", "losses", "pause", "offer"]
    assert defs["StayBoxSeed"]["properties"]["effect"]["enum"] == ["keep", "pause"]
