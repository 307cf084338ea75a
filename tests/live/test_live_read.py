"""The live tier's independent read: deterministic extraction, and reads until stable,
over a stand-in fetcher (no network)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import TypeAdapter

from proctor.errors import LiveFault
from proctor.scenario import CheckSpec, LiveRead
from proctor.world import Fetched, extract, headings_of, read_live, read_page, visible_text

PAGE = """<!doctype html>
<html><head><title>5.1. Not a heading</title>
<script>var h = "<h2>fake</h2>";</script><style>h2 { color: red }</style></head>
<body>
<nav><h3>Table of contents</h3></nav>
<h1>5. Data Structures<a class="headerlink" href="#ds">¶</a></h1>
<h2>5.1. More on <em>Lists</em><a class="headerlink" href="#lists">¶</a></h2>
<p>Value: <b>4</b>2 units</p>
<h2>5.2. The  del
 statement§</h2>
<template><h2>hidden</h2></template>
<noscript><h2>no script</h2></noscript>
<h2>   </h2>
<ul><li>one</li><li>two</li></ul>
</body></html>
"""

_ARGS: TypeAdapter[LiveRead] = TypeAdapter(LiveRead)


def args(**fields: Any) -> LiveRead:
    """A live_read check's arguments, validated as a scenario's would be."""
    return _ARGS.validate_python({"url": "https://example.org/page", **fields})


def test_headings_are_read_in_page_order_without_anchor_signs_or_hidden_ones() -> None:
    assert headings_of(PAGE, frozenset({"h2"})) == ["5.1. More on Lists", "5.2. The del statement"]
    assert headings_of(PAGE, frozenset({"h1", "h3"})) == ["Table of contents", "5. Data Structures"]


def test_visible_text_leaves_out_head_scripts_and_styles_and_keeps_inline_runs_whole() -> None:
    text = visible_text(PAGE)
    assert "Value: 42 units" in text  # <b>4</b>2 is one word, as a reader sees it
    assert "one two" in text  # list items do not run together
    assert "fake" not in text and "color" not in text and "Not a heading" not in text
    assert visible_text("plain 1  2", "text/plain") == "plain 1  2"  # not HTML: as it is


def test_a_pattern_gives_its_first_group_or_the_match_and_first_cuts_the_list() -> None:
    page = "<p>v1.2 then v1.3 and v2.0</p>"
    assert extract(args(pattern=r"v(\d+\.\d+)"), page, "text/html") == ["1.2", "1.3", "2.0"]
    assert extract(args(pattern=r"v\d+\.\d+", first=2), page, "text/html") == ["v1.2", "v1.3"]
    # body: the markup as it came; text: what a reader sees
    assert extract(args(pattern=r"<p>(v[\d.]+)", source="body"), page, "text/html") == ["v1.2"]
    assert extract(args(pattern=r"<p>(v[\d.]+)"), page, "text/html") == []
    assert extract(args(headings=["h2"]), '{"h2": 1}', "application/json") == []


def test_the_arguments_need_one_extraction_and_an_http_url() -> None:
    for bad in (
        {"url": "https://example.org/"},
        {"url": "https://example.org/", "headings": ["h2"], "pattern": "x"},
        {"url": "ftp://example.org/", "pattern": "x"},
        {"url": "https://example.org/", "pattern": "("},
        {"url": "https://example.org/", "headings": []},
    ):
        with pytest.raises(ValueError):
            _ARGS.validate_python(bad)


def test_the_read_key_is_the_extraction_not_the_comparison() -> None:
    base = args(pattern=r"(\d+)")
    assert base.read_key() == args(pattern=r"(\d+)", answer="equals", name="x").read_key()
    assert base.read_key() != args(pattern=r"(\d+)", first=1).read_key()


class Site:
    """A stand-in fetcher: each read answers the next of ``pages`` (status, text)."""

    def __init__(self, *pages: tuple[int, str]) -> None:
        self.pages: Iterator[tuple[int, str]] = iter(pages)
        self.reads = 0

    async def __call__(self, url: str) -> Fetched:
        self.reads += 1
        status, text = next(self.pages)
        return Fetched(url, status, "text/html; charset=utf-8", text, f"{self.reads:064x}")


def value(n: int) -> tuple[int, str]:
    return 200, f"<p>Latest: {n}</p>"


VALUE = {"pattern": r"Latest: (\d+)"}


async def test_one_read_unless_stable_is_asked() -> None:
    site = Site(value(1), value(2))
    reading = await read_page(args(**VALUE), site)
    assert (site.reads, reading.values, reading.stable, reading.status) == (1, ["1"], True, 200)
    assert reading.fetches[0].url == "https://example.org/page"


async def test_a_changing_value_is_read_until_two_reads_in_a_row_agree() -> None:
    site = Site(value(1), value(2), value(2), value(3))
    stable = {"reads": 5, "seconds": 30, "interval": 0}
    reading = await read_page(args(**VALUE, stable=stable), site)
    assert site.reads == 3
    assert [f.values for f in reading.fetches] == [["1"], ["2"], ["2"]]
    assert reading.stable and reading.values == ["2"]


async def test_a_value_that_never_settles_is_read_at_most_reads_times() -> None:
    site = Site(*(value(n) for n in range(10)))
    stable = {"reads": 4, "seconds": 30, "interval": 0}
    reading = await read_page(args(**VALUE, stable=stable), site)
    assert site.reads == 4 and not reading.stable
    assert reading.values == ["3"]


async def test_no_read_starts_after_the_deadline() -> None:
    site = Site(*(value(n) for n in range(10)))
    ticks = iter(float(t) for t in range(100))  # each look at the clock: a second later
    stable = {"reads": 10, "seconds": 2.5, "interval": 0}
    reading = await read_page(args(**VALUE, stable=stable), site, clock=lambda: next(ticks))
    assert site.reads == 3 and not reading.stable  # reads begun at 0 s, 1 s and 2 s


async def test_a_server_error_or_rate_limit_is_an_infra_fault_and_a_404_is_recorded() -> None:
    for status in (503, 429):
        with pytest.raises(LiveFault, match=f"answered {status}"):
            await read_page(args(**VALUE), Site((status, "busy")))
    reading = await read_page(args(**VALUE), Site((404, "<p>Latest: 9</p>")))
    assert (reading.status, reading.values) == (404, [])


async def test_a_fetch_that_fails_stops_the_read_as_a_live_fault() -> None:
    async def down(url: str) -> Fetched:
        raise LiveFault(f"the live page {url} could not be read: ConnectError")

    with pytest.raises(LiveFault, match="could not be read"):
        await read_page(args(**VALUE, stable={"interval": 0}), down)


async def test_checks_that_share_a_read_key_share_one_read_through_all_and_any() -> None:
    checks = TypeAdapter(list[CheckSpec]).validate_python(
        [
            {"live_read": {"url": "https://example.org/", **VALUE, "answer": "equals"}},
            {"any": [{"live_read": {"url": "https://example.org/", **VALUE, "name": "same"}}]},
            {"all": [{"live_read": {"url": "https://example.org/", "headings": ["h2"]}}]},
            {"answer": {"contains": "1"}},
        ]
    )
    site = Site(value(1), (200, "<h2>A</h2>"))
    readings = await read_live(checks, site)
    assert site.reads == 2
    assert [r.values for r in readings] == [["1"], ["A"]]
