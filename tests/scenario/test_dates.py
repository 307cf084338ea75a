"""Date placeholders: the grammar's slips are errors with a hint; values follow the run clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from proctor.scenario import (
    CLOCK_KEY,
    ZONE_KEY,
    Problem,
    date_values,
    load_scenario,
    problems_in,
    substitute,
)
from proctor.scenario._dates import DATE_HINT

SITES = {"forms", "mail", "calendar"}
Edit = Callable[..., Path]
BRIEF = "brief: On {site.forms}/contact, send a message; keep notes in {scratch}/notes.txt."


def brief(scenario: Edit, text: str) -> Path:
    return scenario((BRIEF, f"brief: '{text}'"))


@pytest.mark.parametrize(
    ("text", "snippet", "reason", "guess"),
    [
        ("{date:3d}", "{date:3d}", "offset '3d' needs a sign: +3d or -3d", "{date:+3d}"),
        ("{date:+3days}", "{date:+3days}", "offset '+3days': write the unit as d", "{date:+3d}"),
        ("{date:+3}", "{date:+3}", "offset '+3' has no unit: d, w, h or min", "{date:+3d}"),
        ("{date:+3x}", "{date:+3x}", "offset '+3x': 'x' is not a unit: d, w, h or min", ""),
        (
            "{date:+1m}",
            "{date:+1m}",
            "offset '+1m': 'm' is not a unit; months and years vary in length (minutes are "
            "min): write days or weeks",
            "",
        ),
        (
            "{date:+123456d}",
            "{date:+123456d}",
            "offset '+123456d' is too far: at most 5 digits",
            "",
        ),
        (
            "{date:}",
            "{date:}",
            "nothing where the offset goes: write one, e.g. +0d for today",
            "{date:+0d}",
        ),
        (
            "{date:%A}",
            "{date:%A}",
            "'%A' reads as a format, and the offset comes first: +0d for today",
            "{date:+0d:%A}",
        ),
        (
            "{date:+1d:}",
            "{date:+1d:}",
            "nothing after the last colon: give a format, or drop the colon",
            "",
        ),
        (
            "{date:+1d:%A %Q}",
            "{date:+1d:%A %Q}",
            "format '%A %Q': %Q is not a directive (write %% for a literal %)",
            "",
        ),
        (
            "{date:+1d:tomorrow}",
            "{date:+1d:tomorrow}",
            "format 'tomorrow' has no directive, so it would print as it is",
            "{date:+1d:%A %-d %B}",
        ),
        ("{date: +1d}", "{date: +1d}", "spaces inside braces are not allowed", "{date:+1d}"),
        ("{ date:+1d }", "{ date:+1d }", "spaces inside braces are not allowed", "{date:+1d}"),
        ("{dat:+1d}", "{dat:+1d}", "not a placeholder name", "{date:+1d}"),
        ("{Date:-2w:%A}", "{Date:-2w:%A}", "not a placeholder name", "{date:-2w:%A}"),
    ],
)
def test_a_bad_date_placeholder_is_an_error_with_a_hint(
    scenario: Edit, text: str, snippet: str, reason: str, guess: str
) -> None:
    path = brief(scenario, f"Book it for {text} please")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "brief",
            f"malformed placeholder {snippet!r}: {reason}",
            (f"did you mean {guess}? " if guess else "") + DATE_HINT,
        )
    ]


def test_a_bad_date_in_a_step_or_a_check_names_its_field(scenario: Edit) -> None:
    path = scenario(
        ("value: Dana}", "value: 'Dana {date:+1}'}"),
        ("fields: {name: Dana}", "fields: {name: 'Dana {date:+1q}'}"),
    )
    assert [(p.field, p.message) for p in problems_in(path, SITES)] == [
        ("checks[0].submitted.fields.name", "malformed placeholder '{date:+1q}': offset '+1q': "
         "'q' is not a unit: d, w, h or min"),
        ("solution[0].value", "malformed placeholder '{date:+1}': offset '+1' has no unit: d, w, "
         "h or min"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "Due {date}, or {date:+3d}, or {date:-1w:%A %-d %B}, at {date:+90min:%H:%M}",
        "Literally {{date:+3d}} and {{date}}",
        "Post {data: [1, 2]} or {sitemap: 1} or {update:+1}",
        "Open at {date:+2h:%-I %p} (100%% sure: {date:+0d:%j})",
    ],
)
def test_good_dates_and_lookalikes_are_not_slips(scenario: Edit, text: str) -> None:
    assert problems_in(brief(scenario, text), SITES) == []


# 2025-03-29 23:30 UTC: London is on GMT until 01:00 UTC on the 30th, then BST.
CLOCK = dt.datetime(2025, 3, 29, 23, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("zone", "text", "expected"),
    [
        ("Europe/London", "{date}", "2025-03-29"),
        ("Europe/London", "{date:+1d}", "2025-03-30"),
        # days move the calendar: the same wall-clock time the next day, across the change
        ("Europe/London", "{date:+1d:%A %-d %B %Y, %H:%M}", "Sunday 30 March 2025, 23:30"),
        # hours move the instant: two hours on is 01:30 UTC, 02:30 BST
        ("Europe/London", "{date:+2h:%Y-%m-%d %H:%M}", "2025-03-30 02:30"),
        ("Europe/London", "{date:-90min:%-H:%M %p}", "22:00 PM"),
        ("Europe/London", "{date:-2w:%a %-d %b (%j) %y}", "Sat 15 Mar (074) 25"),
        ("Europe/London", "{date:+0d:%-I o'clock, 100%%}", "11 o'clock, 100%"),
        ("Asia/Tokyo", "{date}", "2025-03-30"),  # already Sunday 08:30 there
        ("America/Los_Angeles", "{date:+1w:%A %d %B}", "Saturday 05 April"),
    ],
)
def test_a_date_is_the_run_clock_in_the_users_zone(zone: str, text: str, expected: str) -> None:
    values = {"scratch": "/s"} | date_values(CLOCK, zone)
    assert substitute(f"[{text}]", values) == f"[{expected}]"


def test_the_clock_and_zone_are_reserved_values_and_without_them_a_date_stays() -> None:
    assert date_values(CLOCK, "Asia/Tokyo") == {
        CLOCK_KEY: "2025-03-29T23:30:00+00:00",
        ZONE_KEY: "Asia/Tokyo",
    }
    assert substitute("{date:+1d} {scratch}", {"scratch": "/s"}) == "{date:+1d} /s"
    assert substitute("{{date:+1d}}", date_values(CLOCK, "UTC")) == "{date:+1d}"


APPS = """\
  apps:
    mail: {{tz: {mail}}}
    calendar: {{tz: {calendar}}}
"""


def with_apps(scenario: Edit, mail: str, calendar: str, text: str, user: str = "") -> Path:
    return scenario(
        (BRIEF, f"brief: '{text}'"),
        ("  sites: [forms]\n", "  sites: [forms, mail, calendar]\n" + APPS.format(
            mail=mail, calendar=calendar)),
        prepend=user,
    )  # fmt: skip


def test_the_zone_is_user_tz_else_the_zone_the_apps_share_else_utc(scenario: Edit) -> None:
    shared = load_scenario(with_apps(scenario, "Asia/Tokyo", "Asia/Tokyo", "By {date:+1d}"))
    assert shared.scenario.zone == "Asia/Tokyo"
    mine = "user: {tz: Europe/Paris}\n"
    told = load_scenario(with_apps(scenario, "Asia/Tokyo", "UTC", "By {date:+1d}", user=mine))
    assert told.scenario.zone == "Europe/Paris"
    # apps that disagree are fine while no date placeholder needs a zone
    plain = load_scenario(with_apps(scenario, "Asia/Tokyo", "UTC", "No dates here"))
    assert plain.scenario.zone == "UTC"


def test_dates_with_apps_in_two_zones_need_user_tz(scenario: Edit) -> None:
    path = with_apps(scenario, "Asia/Tokyo", "UTC", "By {date:+1d}")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "user.tz",
            "date placeholders need the user's time zone, and the seeded apps' zones differ "
            "(mail Asia/Tokyo, calendar UTC)",
            "set user.tz, e.g. user: {tz: Europe/Paris}",
        )
    ]
    bad = scenario(prepend="user: {tz: Mars/Olympus}\n")
    (problem,) = problems_in(bad, SITES)
    assert (problem.field, problem.message) == (
        "user.tz",
        "unknown time zone 'Mars/Olympus'; use an IANA name like Europe/Paris",
    )
