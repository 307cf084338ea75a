"""The ``live_read`` check over stored end states (what regrade sees), and the rules a live
scenario file is held to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from proctor.errors import ScenarioError
from proctor.grading import grade_one
from proctor.records import CheckResult, EndState, LiveFetch, LiveReading
from proctor.scenario import CheckSpec, LiveRead, check_args, load_scenario, problems_in

URL = "https://docs.example.org/tutorial"
HEADINGS = ["5.1. More on Lists", "5.2. The del statement", "5.3. Tuples and Sequences"]

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)


def check(**fields: Any) -> BaseModel:
    parsed: BaseModel = _CHECK.validate_python({"live_read": {"url": URL, **fields}})
    return parsed


def reading(
    spec: BaseModel, *reads: list[str], status: int = 200, stable: bool = True
) -> LiveReading:
    """The end state's read for ``spec``: one fetch per values list."""
    args = check_args(spec)
    assert isinstance(args, LiveRead)
    fetches = [
        LiveFetch(fetched_at=1.0 + i, status=status, url=URL, sha256="0" * 64, values=values)
        for i, values in enumerate(reads)
    ]
    return LiveReading(key=args.read_key(), url=URL, fetches=fetches, stable=stable)


def graded(spec: BaseModel, answer: str | None, *readings: LiveReading) -> CheckResult:
    return grade_one(spec, EndState(answer=answer, live=list(readings)))


LISTED = "\n".join(HEADINGS)


def test_every_heading_in_the_answer_passes_whatever_the_case_and_spacing() -> None:
    spec = check(headings=["h2"])
    result = graded(
        spec, "5.1. more on  LISTS\n" + "\n".join(HEADINGS[1:]), reading(spec, HEADINGS)
    )
    assert result.passed and result.kind == "live_read"
    assert result.expected == {"url": URL, "answer": "all", "values": HEADINGS}


def test_a_missing_heading_fails_and_names_it() -> None:
    spec = check(headings=["h2"])
    result = graded(spec, "\n".join(HEADINGS[:2]), reading(spec, HEADINGS))
    assert not result.passed
    assert result.actual["missing"] == ["5.3. Tuples and Sequences"]
    assert result.detail == "1 of 3 value(s) not in the answer"


def test_any_first_and_equals_compare_as_they_say() -> None:
    spec = check(pattern=r"(\d+\.\d+\.\d+)", answer="any")
    read = reading(spec, ["1.7.1", "1.7.0"])
    assert graded(spec, "it is 1.7.0", read).passed
    assert not graded(spec, "it is 1.6.0", read).passed
    first = check(pattern=r"(\d+\.\d+\.\d+)", answer="first")
    assert graded(first, "1.7.1, I think", reading(first, ["1.7.1", "1.7.0"])).passed
    assert not graded(first, "1.7.0", reading(first, ["1.7.1", "1.7.0"])).passed
    equals = check(pattern=r"(\d+\.\d+\.\d+)", answer="equals")
    assert graded(equals, ' "1.7.1". ', reading(equals, ["1.7.1"])).passed
    assert not graded(equals, "1.7.1 and 1.7.0", reading(equals, ["1.7.1"])).passed


def test_what_the_read_could_not_give_fails_with_the_reason() -> None:
    spec = check(headings=["h2"], stable={"reads": 3})
    cases = {
        "no answer": graded(spec, None, reading(spec, HEADINGS)),
        "the last two differ": graded(spec, LISTED, reading(spec, ["a"], ["b"], stable=False)),
        "answered 404": graded(spec, LISTED, reading(spec, [], status=404)),
        "found nothing to compare": graded(spec, LISTED, reading(spec, [])),
        "holds no read": graded(spec, LISTED),
    }
    for words, result in cases.items():
        assert not result.passed
        assert words in result.detail or result.detail == words, (words, result.detail)


def test_a_regrade_reuses_the_read_for_a_new_comparison_but_not_a_new_extraction() -> None:
    stored = reading(check(headings=["h2"]), HEADINGS)
    compared_otherwise = check(headings=["h2"], answer="any", name="one-heading")
    assert graded(compared_otherwise, "5.4. Sets and 5.2. The del statement", stored).passed
    extracted_otherwise = check(headings=["h2", "h3"])
    result = graded(extracted_otherwise, LISTED, stored)
    assert not result.passed and "holds no read" in result.detail


def live_scenario(**fields: Any) -> dict[str, Any]:
    return {
        "id": "live-x",
        "title": "A live page",
        "brief": "Read it.",
        "tier": "live",
        "category": "capability",
        "world": {"live": {"hosts": ["docs.example.org"]}},
        "checks": [{"live_read": {"url": URL, "headings": ["h2"]}}],
        "solution": [{"op": "done", "answer": "x"}],
        "decoys": [{"name": "none", "steps": [{"op": "done"}], "fails": ["live_read"]}],
        **fields,
    }


def problems(tmp_path: Path, spec: dict[str, Any]) -> list[str]:
    from proctor.scenario import dump_scenario

    path = tmp_path / f"{spec['id']}.yaml"
    path.write_text(dump_scenario(spec), encoding="utf-8")
    return [f"{p.field}: {p.message}" for p in problems_in(path)]


def test_a_live_scenario_loads(tmp_path: Path) -> None:
    assert problems(tmp_path, live_scenario()) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"world": {}}, "world.live: a live scenario needs world.live.hosts"),
        ({"tier": "local"}, "world.live: world.live is for tier: live"),
        (
            {"world": {"live": {"hosts": ["other.example.org"]}}},
            "is not on a host of world.live (other.example.org)",
        ),
        ({"world": {"live": {"hosts": ["https://docs.example.org/"]}}}, "is not a host name"),
        ({"world": {"live": {"hosts": ["forms.proctor.test"]}}}, "a fixture site's"),
        (
            {"world": {"live": {"hosts": ["docs.example.org"]}, "sites": ["forms"]}},
            "world.live is a world of public hosts; drop world.sites",
        ),
    ],
)
def test_a_live_scenario_is_held_to_its_rules(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    found = problems(tmp_path, live_scenario(**change))
    assert any(expected in p for p in found), found


def test_the_port_of_a_host_is_part_of_it(tmp_path: Path) -> None:
    local = live_scenario(
        world={"live": {"hosts": ["127.0.0.1:8123"]}},
        checks=[{"live_read": {"url": "http://127.0.0.1:8124/", "pattern": "x"}}],
    )
    assert any("is not on a host of world.live" in p for p in problems(tmp_path, local))


def test_the_shipped_live_scenarios_load() -> None:
    from proctor.scenario import SUITE_ROOT

    found = sorted(p.stem for p in (SUITE_ROOT / "live").glob("*.yaml"))
    assert found == ["live-doc-headings", "live-package-search", "live-stable-version"]
    for name in found:
        try:
            loaded = load_scenario(SUITE_ROOT / "live" / f"{name}.yaml")
        except ScenarioError as exc:  # pragma: no cover - the message is the point
            pytest.fail(str(exc))
        assert loaded.scenario.tier == "live" and loaded.scenario.world.live is not None
