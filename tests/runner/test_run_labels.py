"""Run labels and arm names name folders: a strict rule, one error naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from proctor.errors import RunError, StorageError
from proctor.records import LABEL_RULE, check_label, is_label
from proctor.runner import new_run_dir, parse_arm


@pytest.mark.parametrize("label", ["L", "20261129-230701", "nightly.v2_base-1", "x" * 100, "0"])
def test_valid_labels_make_their_folder(tmp_path: Path, label: str) -> None:
    assert new_run_dir(tmp_path, label) == (label, tmp_path / label)
    assert (tmp_path / label).is_dir()


@pytest.mark.parametrize(
    "label",
    [
        "two words",
        "new\nline",
        "tab\there",
        "semi;colon",
        "$(touch x)",
        "`x`",
        "a|b",
        "a&b",
        "a>b",
        "a*b",
        "a/b",
        "a\\b",
        "é",
        ".",
        "..",
        ".hidden",
        "-looks-like-an-option",
        "esc\x1b[2J",
    ],
)
def test_bad_labels_are_refused_naming_the_rule(tmp_path: Path, label: str) -> None:
    assert not is_label(label)
    with pytest.raises(RunError) as info:
        new_run_dir(tmp_path, label)
    message = str(info.value)
    assert message == f"--label {label!r} is not a valid label: use {LABEL_RULE}"
    assert "\n" not in message and "\x1b" not in message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("size", [101, 300])
def test_a_long_label_says_its_length(size: int) -> None:
    with pytest.raises(RunError) as info:
        check_label("y" * size, option="--candidate")
    assert str(info.value) == (
        f"--candidate {'y' * 40 + '…'!r} ({size} characters) is not a valid label: use {LABEL_RULE}"
    )


def test_the_default_label_is_valid(tmp_path: Path) -> None:
    label, run_dir = new_run_dir(tmp_path, None)
    assert is_label(label) and run_dir == tmp_path / label


def test_a_results_path_that_is_a_file(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.write_text("x")
    with pytest.raises(StorageError) as info:
        new_run_dir(results, "L")
    assert str(info.value) == (
        f"--results {results} is a file, not a folder; move it or pass --results another folder"
    )


def test_resume_needs_a_run_folder(tmp_path: Path) -> None:
    (tmp_path / "L").write_text("not a run")
    with pytest.raises(RunError, match=r"^results/L already exists"):
        new_run_dir(tmp_path, "L")
    with pytest.raises(RunError, match=r"^--resume L: there is no results/L to resume"):
        new_run_dir(tmp_path, "L", resume=True)


@pytest.mark.parametrize("text", ["a;b=null", "$(x)=null", "x.y|z=scripted", f"{'a' * 101}=null"])
def test_arm_names_follow_the_label_rule(text: str) -> None:
    name = text.partition("=")[0]
    with pytest.raises(RunError) as info:
        parse_arm(text)
    assert str(info.value) == (f"--arm {text!r}: arm name {name!r} is not valid: use {LABEL_RULE}")


def test_arm_names_that_follow_the_rule() -> None:
    assert parse_arm("v1.2_base-x=null").name == "v1.2_base-x"
    assert parse_arm("decoy:goes-back").name == "decoy-goes-back"
