"""report.html opened in the real Chromium: table, plot, transcript and screenshot show, offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_records import failing_check, make, step, write_run

from proctor.computer.browser import launch
from proctor.report import summarize, write_reports


def _records() -> list:
    ok_steps = [step(0, "navigate", "url /contact"), step(1, "click", "button 'Send'")]
    bad_steps = [
        step(0, "navigate", "url /contact", input={"op": "navigate", "url": "/contact"}),
        step(
            1,
            "click",
            "button 'Send'",
            status="error",
            error="no element matches role=button name='Send'",
            input={"op": "click", "role": "button", "name": "Send"},
        ),
    ]
    return [
        *[make("alpha", "oracle", n, "passed", steps=ok_steps, seconds=1.0 + n) for n in (1, 2, 3)],
        make("alpha", "agent", 1, "passed", steps=ok_steps, cost_usd=0.01, seconds=3.0),
        make("alpha", "agent", 2, "passed", steps=ok_steps, cost_usd=0.02, seconds=4.0),
        make(
            "alpha",
            "agent",
            3,
            "failed",
            steps=bad_steps,
            checks=[failing_check()],
            failed_checks=["submitted"],
            cost_usd=None,
            seconds=9.0,
        ),
    ]


@pytest.mark.browser
async def test_report_html_shows_table_plot_transcript_and_screenshot(tmp_path: Path) -> None:
    run_dir = tmp_path / "results" / "r1"
    records = _records()
    write_run(run_dir, records, screenshots=True)
    summary = summarize("r1", records, 1700000000.0, 1700000030.0)
    paths = write_reports(run_dir, summary, records)
    assert paths.html == run_dir / "report.html"

    host = await launch(9, "proctor.test")
    try:
        page = await host.browser.new_page()
        problems: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        await page.goto(paths.html.resolve().as_uri())

        table = page.locator("#results-table")
        assert await table.is_visible()
        rows = await table.locator("tbody tr").all_inner_texts()
        assert [r.split("\t")[0] for r in rows] == ["oracle", "agent"]
        assert "67% [20.8–93.9]" not in rows[1]  # pct shows one decimal when not whole
        assert "66.7% [20.8–93.9]" in rows[1]
        bars = await page.locator("#bars-table tbody tr").all_inner_texts()
        assert "✗ n/a" in bars[1]  # agent's median $ is unknown: n/a, never ✓

        plot = page.locator('svg[data-plot="success-by-arm"]')
        assert await plot.is_visible()
        box = await plot.locator("rect.bar").first.bounding_box()
        assert box is not None and box["width"] > 100

        attempt = page.locator("#a-alpha--agent-3")
        transcript = attempt.locator("table.transcript")
        assert not await transcript.is_visible()  # collapsed until opened
        await attempt.locator(":scope > summary").click()
        assert await transcript.is_visible()
        steps = await transcript.locator("tbody tr").all_inner_texts()
        assert len(steps) == 2
        assert "no element matches role=button name='Send'" in steps[1]
        assert '"name": "Send"' in steps[1]
        assert "17 ms" in steps[1]  # latency of step 1
        checks = await attempt.locator("table.checks tbody tr").all_inner_texts()
        assert "no accepted post to /submit/contact" in checks[0]

        shot = attempt.locator("img.shot").first
        assert await shot.is_visible()
        width = await shot.evaluate("img => img.complete ? img.naturalWidth : -1")
        assert width == 64  # the PNG decoded from its data URI

        assert problems == []
        assert all(u.startswith(("file:", "data:")) for u in requests), requests
    finally:
        await host.close()
