"""The typed snapshots: one model per site that snapshots its state, exact in its shape."""

from __future__ import annotations

import pytest

from proctor.errors import GradingError
from proctor.records import SNAPSHOTS, BookingSnapshot, EndState, TwosignSnapshot, read_snapshot
from proctor.world.sites import all_sites


def test_every_site_with_a_snapshot_has_a_model_and_no_model_lacks_a_site() -> None:
    snapshotting = {name for name, site in all_sites().items() if site.snapshot is not None}
    assert set(SNAPSHOTS) == snapshotting


def test_models_are_frozen_and_exact() -> None:
    signins = {"signins": [{"method": "sso", "account": "dana"}]}
    snap = EndState(apps={"twosign": signins}).app(TwosignSnapshot)
    assert snap is not None
    assert snap.signins[0].method == "sso"
    with pytest.raises(ValueError, match="frozen"):
        snap.signins = []  # type: ignore[misc]
    extra = {"signins": [{"method": "sso", "account": "dana", "at": "now"}]}
    with pytest.raises(GradingError, match=r"twosign snapshot .*signins\.0\.at: Extra inputs"):
        read_snapshot({"twosign": extra}, TwosignSnapshot)


def test_a_wrong_value_names_the_site_the_model_and_the_field() -> None:
    with pytest.raises(GradingError) as info:
        read_snapshot({"booking": {"bookings": "none"}}, BookingSnapshot)
    assert str(info.value).startswith(
        "the booking snapshot in the end state does not have the shape grading reads "
        "(BookingSnapshot): bookings: Input should be a valid list"
    )
