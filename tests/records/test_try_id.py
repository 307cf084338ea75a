"""records.TryId: the one format of a try's id, and its readers."""

from __future__ import annotations

import pytest

from proctor.records import TryId


def test_a_try_id_is_written_and_read_back_in_the_runners_form() -> None:
    try_id = TryId("form-fill/oracle-3", 2)
    assert str(try_id) == "form-fill/oracle-3#2"
    assert TryId.parse(str(try_id)) == try_id
    assert try_id.folder_name == "form-fill--oracle-3-t2"


@pytest.mark.parametrize("tag", ["hard-1", "form-fill/oracle-3", "a#", "#2", "a#0", "a#x", "a#1#2"])
def test_a_tag_that_names_no_try_parses_to_none(tag: str) -> None:
    assert TryId.parse(tag) is None


@pytest.mark.parametrize(
    ("tag", "attempt"),
    [("form-fill/oracle-3#2", "form-fill/oracle-3"), ("form-fill/oracle-3", "form-fill/oracle-3")],
)
def test_the_attempt_of_a_tag_is_what_comes_before_the_try(tag: str, attempt: str) -> None:
    assert TryId.attempt_of(tag) == attempt


@pytest.mark.parametrize(("attempt", "number"), [("", 1), ("a#1", 2), ("s/a-1", 0)])
def test_a_try_id_that_would_not_read_back_is_refused(attempt: str, number: int) -> None:
    with pytest.raises(ValueError, match="a try id needs"):
        TryId(attempt, number)
