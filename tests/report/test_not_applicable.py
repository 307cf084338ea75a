"""A number that does not apply to a row reads –, never 0 or $0.00, in every view.

Planner calls, tokens and $ do not apply to an agent with no model that reports no
usage (the scripted oracle here): its records hold 0 calls and $0.00, which is no
usage, not a free run. The model arm beside it shows its numbers.
"""

from __future__ import annotations

import re
from pathlib import Path

from report_records import make, planner_call, write_run

from proctor.compare import compare_models, models_page
from proctor.records import AttemptRecord
from proctor.report import compare, comparison_json, render_compare_markdown, summarize
from proctor.report._html import render_html
from proctor.report._markdown import render_markdown
from proctor.report._plots import cost_vs_success

TOKENS = {"input": 1000, "output": 50}


def _records() -> list[AttemptRecord]:
    model = {"agent": "loop", "model": "gpt-4.1-mini", "tokens": TOKENS, "planner_calls": 3}
    return [
        *[make(sid, "oracle", 1, "passed", cost_usd=0.0) for sid in ("alpha", "beta")],
        make("alpha", "llm", 1, "passed", cost_usd=0.02, planner=[planner_call(1)], **model),
        make("beta", "llm", 1, "failed", cost_usd=0.04, planner=[planner_call(1)], **model),
    ]


def _cells(html: str, table_class: str, row: str) -> list[str]:
    """The cells of the row named ``row`` in the table of class ``table_class``."""
    table = re.search(rf'<table class="{table_class}"[^>]*>(.*?)</table>', html, re.S)
    assert table is not None, table_class
    for tr in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        if cells and cells[0] == row:
            return cells
    raise AssertionError(f"no row {row!r} in table {table_class}")


def test_report_md_shows_dashes_for_the_scripted_arm() -> None:
    records = _records()
    lines = render_markdown(summarize("r", records, 0.0, 1.0), records).splitlines()
    assert "| oracle | 2 | 2 | 100% [34.2–100.0] | 100% | – | – | – | 1 s | n/a | 0 | 0 |" in lines
    llm = "| llm · gpt-4.1-mini | 2 | 2 | 50% [9.5–90.5] | 50% | 3 | 1050 | $0.03 | 1 s | n/a |"
    assert f"{llm} 0 | 0 |" in lines
    totals = lines.index(
        "| arm | planner calls | invalid calls | read from text | tokens | $ | time |"
    )
    assert lines[totals + 2 : totals + 4] == [
        "| oracle | – | – | – | – | – | 2 s |",
        "| llm · gpt-4.1-mini | 6 | 0 | 0 | 2100 | $0.06 | 2 s |",
    ]


def test_report_html_shows_dashes_in_tables_attempts_and_the_cost_plot(tmp_path: Path) -> None:
    records = _records()
    write_run(tmp_path, records)
    html = render_html(summarize("r", records, 0.0, 1.0), records, tmp_path)
    assert _cells(html, "results", "oracle")[5:8] == ["–", "–", "–"]
    assert _cells(html, "results", "llm · gpt-4.1-mini")[5:8] == ["3", "1050", "$0.03"]
    assert _cells(html, "totals", "oracle")[1:6] == ["–", "–", "–", "–", "–"]
    assert _cells(html, "totals", "llm · gpt-4.1-mini")[1:6] == ["6", "0", "0", "2100", "$0.06"]
    assert "planner calls – · tokens – · cost – · tool calls" in html
    assert "planner calls 3 · tokens 1050 · cost $0.02 · tool calls" in html
    assert "planner calls 0" not in html and "cost $0.00" not in html


def test_the_cost_plot_never_puts_an_arm_without_usage_at_zero() -> None:
    summary = summarize("r", _records(), 0.0, 1.0)
    svg = cost_vs_success(summary.metrics, None)
    points = re.findall(r'<circle class="point"[^>]*><title>(.*?)</title>', svg)
    assert points == ["llm · gpt-4.1-mini: $0.03, 50.0%"]
    assert "$ – (no model, no usage): oracle</text>" in svg


def test_compare_shows_dashes_not_zeros() -> None:
    summary = summarize("a", _records(), 0.0, 1.0)
    result = compare(summary, summary.model_copy(update={"label": "b"}))
    oracle = {c.metric: (c.a, c.b, c.mark) for c in result.rows[0].cells}
    assert result.rows[0].row == "oracle"
    assert [oracle[m] for m in ("med calls", "med tokens", "med $")] == [("–", "–", "")] * 3
    assert "|  | med $ | – | – |  |" in render_compare_markdown(result).splitlines()
    cells = comparison_json(result)["rows"][1]["cells"]  # the model arm keeps its numbers
    assert {c["metric"]: c["a"] for c in cells}["med tokens"] == "1050"


def test_proctor_models_shows_dashes_for_an_arm_without_usage() -> None:
    arms = {"oracle": "scripted", "llm": "openai:gpt-4.1-mini"}
    arms_table = models_page(compare_models("r", _records(), arms, 1)).sections[0]
    assert arms_table.header == ("metric", "oracle", "llm")
    cells = {row[0]: row[1:] for row in arms_table.rows}
    assert cells["planner calls"] == ("–", "6")
    assert cells["tokens"] == ("–", "2100")
    assert cells["$"] == ("–", "$0.06")
    assert cells["$ per success"] == ("–", "$0.06")


def test_the_totals_count_replies_read_from_text() -> None:
    model = {"agent": "loop", "model": "qwen", "tokens": TOKENS, "planner_calls": 3}
    calls = [planner_call(1, parsed_from_text=True), planner_call(2)]
    calls.append(planner_call(3, parsed_from_text=True))
    records = [make("alpha", "local", 1, "passed", cost_usd=None, planner=calls, **model)]
    summary = summarize("r", records, 0.0, 1.0)
    assert [m.total_text_calls for m in summary.metrics] == [2]
    lines = render_markdown(summary, records).splitlines()
    at = lines.index("| arm | planner calls | invalid calls | read from text | tokens | $ | time |")
    assert lines[at + 2].startswith("| local · qwen | 3 | 0 | 2 |")
