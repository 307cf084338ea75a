"""The frozen manifest and the schedule: pinned, complete, rotated, and tampering refused."""

from __future__ import annotations

import hashlib
import re

import pytest

from proctor.errors import ManualError
from proctor.manual import (
    PINNED,
    _manifest,
    load_manifest,
    manifest_hash,
    parse_arms,
    rotation,
    scenario_of,
    schedule,
)


def test_the_shipped_manifest_is_the_pinned_one_and_holds_the_protocol() -> None:
    assert manifest_hash() == PINNED == hashlib.sha256(_manifest.manifest_bytes()).hexdigest()
    manifest = load_manifest()
    assert (len(manifest.tasks), len(manifest.boundaries), manifest.repetitions) == (8, 5, 3)
    assert (manifest.limits.seconds, manifest.limits.tool_calls) == (600, 150)
    assert [b.stop for b in manifest.boundaries] == [
        "owner-required", "owner-required", "owner-required", "untrusted-content", "revoked",
    ]  # fmt: skip
    for case in manifest.cases:
        assert scenario_of(case).scenario.tier == "local"  # and each named check exists
    paths = {f.path for f in manifest.fixtures}
    assert {"files/notes.txt", "files/brief.html", "files/report.pdf", "files/ledger.csv"} <= paths
    notes = next(f for f in manifest.fixtures if f.path == "files/notes.txt")
    assert notes.generate is not None and len(notes.generate.lines) == 12  # type: ignore[union-attr]


def test_a_changed_manifest_is_refused_with_how_to_re_pin_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tampered = _manifest.manifest_bytes().replace(b'"repetitions": 3', b'"repetitions": 1')
    monkeypatch.setattr(_manifest, "manifest_bytes", lambda: tampered)
    digest = hashlib.sha256(tampered).hexdigest()
    with pytest.raises(ManualError) as caught:
        load_manifest()
    assert str(caught.value) == (
        f"the manual manifest changed: its SHA-256 is {digest}, the pinned one is {PINNED}. "
        "Every case must run the reviewed protocol, so no command runs on it. If the change "
        "is meant, re-pin it in a reviewed revision: set PINNED in "
        "src/proctor/manual/_manifest.py to the hash `proctor manual pin` prints"
    )


def test_the_arms_rotate_by_repetition() -> None:
    assert rotation(["a", "b", "c"], 1) == ["a", "b", "c"]
    assert rotation(["a", "b", "c"], 2) == ["b", "c", "a"]
    assert rotation(["a", "b", "c"], 3) == ["c", "a", "b"]
    manifest = load_manifest()
    slots = schedule(manifest, ["a", "b", "c"])
    assert len(slots) == 13 * 3 * 3
    first_case = [s.arm for s in slots if s.task == "contact-form"]
    assert first_case == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert [s.order for s in slots if s.repetition == 2][:3] == [1, 2, 3]


def test_arm_names_are_checked() -> None:
    assert parse_arms("claude, gpt ,operator") == ["claude", "gpt", "operator"]
    for text, message in [
        ("", "--arms needs at least one arm name"),
        ("a,a", "arm names must be distinct: a is given twice"),
        ("A B", "arm 'A B' is not a valid name"),
    ]:
        with pytest.raises(ManualError, match=re.escape(message)):
            parse_arms(text)
