"""The placeholder grammar: slips are errors with a hint; braces in ordinary text are not."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from proctor.scenario import Problem, problems_in, scenario_files, substitute
from proctor.world import all_sites

SITES = {"forms", "shop"}
Edit = Callable[..., Path]
GRAMMAR = (
    "placeholders: {scratch}, {base_url}, {home}, {date} ({date:+3d}, {date:+3d:%A %-d %B}), "
    "{site.forms}; write {{ and }} for literal braces"
)


def brief(scenario: Edit, text: str) -> Path:
    return scenario(
        (
            "brief: On {site.forms}/contact, send a message; keep notes in {scratch}/notes.txt.",
            f"brief: '{text}'",
        )
    )


@pytest.mark.parametrize(
    ("text", "snippet", "reason", "guess"),
    [
        (
            "On {site.forms}}/contact",
            "{site.forms}}",
            "unbalanced brace: one } too many",
            "site.forms",
        ),
        (
            "On { site.forms }/contact",
            "{ site.forms }",
            "spaces inside braces are not allowed",
            "site.forms",
        ),
        ("On {site.}/contact", "{site.}", "nothing after the dot", "site.forms"),
        (
            "On {site.forms.x}/contact",
            "{site.forms.x}",
            "a placeholder has at most one dot: {site.NAME}",
            "site.forms",
        ),
        (
            "Notes in {scratc}}/notes.txt",
            "{scratc}}",
            "unbalanced brace: one } too many; {scratc} is not a placeholder",
            "scratch",
        ),
        ("On {site.forms/contact", "{site.forms", "unbalanced brace: no closing }", "site.forms"),
        ("Notes in {scratch/notes.txt", "{scratch", "unbalanced brace: no closing }", "scratch"),
        (
            "On {{site.forms}/contact",
            "{{site.forms}",
            "unbalanced brace: no opening {",
            "site.forms",
        ),
        ("On site.forms}/contact", "site.forms}", "unbalanced brace: no opening {", "site.forms"),
        ("In {base-url}", "{base-url}", "not a placeholder name", "base_url"),
    ],
)
def test_placeholder_slip_is_an_error_with_a_hint(
    scenario: Edit, text: str, snippet: str, reason: str, guess: str
) -> None:
    path = brief(scenario, text)
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "brief",
            f"malformed placeholder {snippet!r}: {reason}",
            f"did you mean {{{guess}}}? {GRAMMAR}",
        )
    ]


def test_a_slip_in_a_nested_string_names_its_field(scenario: Edit) -> None:
    path = scenario(
        (
            "{op: fill, role: textbox, name: Full name, value: Dana}",
            "{op: navigate, url: '{ home }'}",
        )
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "solution[0].url",
            "malformed placeholder '{ home }': spaces inside braces are not allowed",
            f"did you mean {{home}}? {GRAMMAR}",
        )
    ]


def test_every_slip_in_one_string_is_reported(scenario: Edit) -> None:
    path = brief(scenario, "{site.forms}} and {scratch/x and {home}")
    assert [p.message for p in problems_in(path, SITES)] == [
        "malformed placeholder '{site.forms}}': unbalanced brace: one } too many",
        "malformed placeholder '{scratch': unbalanced brace: no closing }",
    ]


@pytest.mark.parametrize(
    "text",
    [
        'Post {{"route": "contact"}} as JSON',
        'Post {"route": "contact", "n": 2} as JSON',
        "Style: a {color: red} b { margin: 0 }",
        "Match [0-9]{2} or x{1,3} or {}",
        "Write {{site.forms}} literally, then {{{site.forms}}} wrapped",
        "Open {site.forms}}} then }",
        "A site named {site.forms} and a home at {home} and {base_url}",
        "Sitemap {sitemap: 1} and {homepage",
    ],
)
def test_ordinary_braces_are_not_slips(scenario: Edit, text: str) -> None:
    assert problems_in(brief(scenario, text), SITES) == []


def test_an_unknown_but_well_formed_name_keeps_its_message(scenario: Edit) -> None:
    path = brief(scenario, "In {scratc}/notes")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "brief",
            "unknown placeholder {scratc}",
            f"did you mean {{scratch}}? {GRAMMAR}",
        )
    ]


def test_substitute_reads_what_the_grammar_allows() -> None:
    values = {"site.forms": "http://forms.proctor.test", "scratch": "/s"}
    assert substitute("{{site.forms}} {{{scratch}}} {site.forms}}}", values) == (
        "{site.forms} {/s} http://forms.proctor.test}"
    )


def test_the_shipped_suite_has_no_slips() -> None:
    sites = set(all_sites())
    problems = [p for path in scenario_files() for p in problems_in(path, sites)]
    assert problems == []


@pytest.mark.parametrize(
    ("text", "count"), [("a}" * 50_000, 0), ("{ a } " * 20_000, 6), ("site.forms}" * 10_000, 6)]
)
def test_checking_braces_is_linear(scenario: Edit, text: str, count: int) -> None:
    path = brief(scenario, text)
    started = time.process_time()
    problems = problems_in(path, SITES)
    assert time.process_time() - started < 2
    assert len(problems) == count
    if count:  # the first five slips of one text, then one problem saying there are more
        assert problems[-1] == Problem(
            str(path), "brief", "more placeholder problems in this text", "fix these"
        )
