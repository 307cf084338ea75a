"""report.html of a wide gate run in the real Chromium: nothing overflows, jumps land below the nav.

One browser for the module; each test opens its own page at the widths it checks.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Page
from report_records import WIDE_SCENARIO, wide_records, write_gate_verdict, write_run

from proctor.computer.browser import BrowserHost, launch
from proctor.report import summarize, write_reports
from proctor.report._html import anchor

pytestmark = pytest.mark.browser

WIDTHS = (1280, 800)

OVERFLOW = """() => {
  const width = window.innerWidth;
  // An element inside a box that scrolls sideways may be wider than the page: the box scrolls.
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll") { return true; }
    }
    return false;
  };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }
    if (box.right > width + 0.5 && !scrolls(el)) {
      out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(box.right)}`);
    }
  }
  // Text in a plot stays inside the plot (an SVG cuts what runs past its edge).
  const cut = [];
  for (const svg of document.querySelectorAll("svg.plot")) {
    const b = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5) {
        cut.push(t.textContent.slice(0, 40));
      }
    }
  }
  return {scroll: document.documentElement.scrollWidth, inner: width, over: out.slice(0, 10), cut};
}"""


def _run(root: Path, label: str, gate: bool) -> Path:
    run_dir = root / label
    records = wide_records()
    write_run(run_dir, records)
    if gate:
        write_gate_verdict(run_dir, records)
    summary = summarize(label, records, 1700000000.0, 1700000100.0)
    return write_reports(run_dir, summary, records).html


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("results")
    return {"gate": _run(root, "gate-run", True), "plain": _run(root, "plain-run", False)}


@pytest.fixture(scope="module")
async def host() -> AsyncIterator[BrowserHost]:
    browser = await launch(9, "proctor.test")
    try:
        yield browser
    finally:
        await browser.close()


async def _open(host: BrowserHost, html: Path, width: int, fragment: str = "") -> Page:
    page = await host.browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    await page.goto(html.resolve().as_uri() + fragment)
    assert problems == []
    return page


@pytest.mark.parametrize("width", WIDTHS)
async def test_nothing_overflows_the_viewport_with_every_attempt_open(
    host: BrowserHost, reports: dict[str, Path], width: int
) -> None:
    page = await _open(host, reports["gate"], width)
    try:
        await page.click("#expand")
        await page.evaluate(
            "() => document.querySelectorAll('details').forEach(d => d.open = true)"
        )
        found = await page.evaluate(OVERFLOW)
        assert found["scroll"] <= found["inner"] == width, found
        assert found["over"] == [], found
        assert found["cut"] == [], found
        note = page.locator("svg[data-plot='cost-vs-success'] text.na")
        assert (await note.all_text_contents())[0].startswith(
            "$ – (no model, no usage): candidate-arm-2"
        )
        # The wide tables are there, scrolling in their own boxes.
        results = await page.evaluate(
            "() => { const t = document.querySelector('#results-table');"
            " return [t.scrollWidth, t.parentElement.clientWidth]; }"
        )
        assert results[0] > results[1], results
    finally:
        await page.close()


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_jump_to_an_attempt_opens_it_below_the_sticky_nav(
    host: BrowserHost, reports: dict[str, Path], width: int
) -> None:
    target = anchor(f"{WIDE_SCENARIO}/cmd-1")
    page = await _open(host, reports["gate"], width)
    try:
        # A click on a link in the page (the causes list links every failed attempt).
        await page.click(f"#causes a[href='#{target}']")
        # hashchange is a task queued after the click: wait (bounded) for its handler.
        await page.wait_for_function(
            "(id) => document.getElementById(id).open", arg=target, timeout=5_000
        )
        place = await page.evaluate(
            """(id) => {
              const el = document.getElementById(id);
              const summary = el.querySelector(':scope > summary').getBoundingClientRect();
              const nav = document.querySelector('nav').getBoundingClientRect();
              return {open: el.open, top: summary.top, bottom: summary.bottom,
                      nav: nav.bottom, height: window.innerHeight, y: window.scrollY};
            }""",
            target,
        )
        assert place["open"] is True, place
        assert place["y"] > 0, place  # it did scroll
        assert place["nav"] <= place["top"] < place["bottom"] <= place["height"], place
    finally:
        await page.close()

    # Opened from the address bar (a link from elsewhere), the same.
    page = await _open(host, reports["gate"], width, f"#{target}")
    try:
        place = await page.evaluate(
            """(id) => {
              const el = document.getElementById(id);
              const top = el.querySelector(':scope > summary').getBoundingClientRect().top;
              const nav = document.querySelector('nav').getBoundingClientRect().bottom;
              return {open: el.open, top, nav};
            }""",
            target,
        )
        assert place["open"] is True, place
        assert place["nav"] <= place["top"], place
        text = await page.locator(f"#{target} .agent-exit").inner_text()
        assert "exit code 3" in text
        assert "RuntimeError: agent died" in text
    finally:
        await page.close()


async def test_the_gate_block_shows_the_decision_and_only_with_a_verdict(
    host: BrowserHost, reports: dict[str, Path]
) -> None:
    page = await _open(host, reports["gate"], 1280)
    try:
        block = page.locator("section#gate")
        assert await block.is_visible()
        assert await page.locator("#gate-decision").inner_text() == "NO-GO"
        text = await block.inner_text()
        assert "rule (a), a drop on a gate scenario" in text
        assert "rule a" in text
        rows = await block.locator("table.gate-scenarios tbody tr").all_inner_texts()
        assert len(rows) == 1 and "6/6" in rows[0] and "1/6" in rows[0], rows
        assert await page.locator("nav a[href='#gate']").count() == 1
        await page.click("nav a[href='#gate']")
        top = await block.evaluate("el => el.getBoundingClientRect().top")
        nav = await page.locator("nav").evaluate("el => el.getBoundingClientRect().bottom")
        assert top >= nav
    finally:
        await page.close()

    page = await _open(host, reports["plain"], 1280)
    try:
        assert await page.locator("#gate").count() == 0
        assert await page.locator("nav a[href='#gate']").count() == 0
    finally:
        await page.close()
