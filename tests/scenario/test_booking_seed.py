"""The booking site's seed in scenario files: checked at load time, with the field's path."""

from __future__ import annotations

from pathlib import Path

from proctor.scenario import problems_in

HEAD = """\
id: sample
title: Book a table
tier: local
category: capability
brief: Book a table on {site.booking}.
world:
  sites: [booking]
  apps:
    booking:
"""
TAIL = """\
checks:
  - site_state: {site: booking, items: bookings, where: {seeded: false}}
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
    return [(p.field, p.message) for p in problems_in(path, {"booking"})]


def test_unknown_restaurants_and_times_are_refused(tmp_path: Path) -> None:
    seed = """\
      slots: [{restaurant: moon-diner, days_ahead: 7, time: "19:15", free: true}]
"""
    assert _problems(tmp_path, seed) == [
        ("world.apps.booking.slots[0].restaurant", "'moon-diner' is not allowed"),
        ("world.apps.booking.slots[0].days_ahead", "Input should be less than or equal to 6"),
        ("world.apps.booking.slots[0].time", "'19:15' is not allowed"),
    ]


def test_refs_and_slots_are_unique(tmp_path: Path) -> None:
    seed = """\
      slots:
        - {restaurant: kumo, days_ahead: 1, time: "19:00", free: true}
        - {restaurant: kumo, days_ahead: 1, time: "19:00", free: false}
      bookings:
        - {ref: TF-AAAAA, restaurant: kumo, days_ahead: 1, time: "19:00", party: 2}
        - {ref: TF-AAAAA, restaurant: kumo, days_ahead: -1, time: "19:00", party: 2}
"""
    assert _problems(tmp_path, seed) == [
        (
            "world.apps.booking",
            "booking refs must be unique: TF-AAAAA; slot kumo +1 days 19:00 is given twice",
        )
    ]
