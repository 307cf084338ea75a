"""An attempt's view, and how report.html shows it: planner calls, text turns, a crash, the gate."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from report_records import (
    REPLY,
    STDERR,
    WIDE_SCENARIO,
    make,
    planner_call,
    wide_records,
    write_gate_verdict,
    write_run,
)

from proctor.errors import RunError
from proctor.report import attempt_view, find_attempt, render_html, summarize

EVIL = "<script>alert(1)</script> & \x1b[31m"


def _html(run_dir: Path, records: list) -> str:
    write_run(run_dir, records)
    return render_html(
        summarize(run_dir.name, records, 1700000000.0, 1700000100.0), records, run_dir
    )


def _details(html: str, attempt_id: str) -> str:
    anchor = "a-" + re.sub(r"[^A-Za-z0-9_-]", "--", attempt_id)
    start = html.index(f'<details class="attempt" id="{anchor}"')
    ends = [html.find(mark, start + 1) for mark in ('<details class="attempt"', "</section>")]
    return html[start : min(e for e in ends if e != -1)]


def test_the_view_lists_calls_and_only_replies_with_text() -> None:
    record = make(
        "s",
        "m",
        1,
        "failed",
        stop_reason="planner_error",
        planner=[
            planner_call(1, reply_text="first"),
            planner_call(2, reply_text="  \n"),
            planner_call(3, tokens={}, cost_usd=None, tool=None, reply_text="third"),
        ],
    )
    view = attempt_view(record)
    assert [(t.call, t.text) for t in view.turns] == [(1, "first"), (3, "third")]
    assert [c.tokens for c in view.calls] == ["1001/51/200", "1002/52/200", "-"]
    assert view.calls[2].tool == "" and view.calls[2].cost_usd is None
    assert view.cause == "planner error: no usable tool call"
    assert not view.crashed


def test_find_attempt_names_the_run_and_the_ids_of_that_scenario(tmp_path: Path) -> None:
    records = [make("s", "a", n, "passed") for n in (1, 2)] + [make("t", "a", 1, "passed")]
    assert find_attempt(records, "s/a-2", tmp_path / "r1").id == "s/a-2"
    with pytest.raises(RunError) as caught:
        find_attempt(records, "s/b-1", tmp_path / "r1")
    assert "no attempt 's/b-1' in run 'r1'" in str(caught.value)
    assert "e.g. s/a-1, s/a-2;" in str(caught.value)


def test_report_html_shows_the_per_call_table_and_the_text_turns(tmp_path: Path) -> None:
    records = wide_records()
    html = _html(tmp_path / "r1", records)
    model = _details(html, f"{WIDE_SCENARIO}/model-1")
    table = model[model.index('<table class="planner">') : model.index("</table>")]
    head = re.findall(r"<th>(.*?)</th>", table)
    assert head == [
        "#", "purpose", "status", "tool", "latency", "retries", "tokens in/out/cached", "$", "error"
    ]  # fmt: skip
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr.*?</tr>", table)]
    assert rows[1:] == [
        ["1", "act", "ok", "click", "401 ms", "0", "1001/51/200", "$0.0010", ""],
        ["2", "act", "no_tool", "", "402 ms", "2", "1002/52/200", "$0.0020", "no tool call"],
    ]
    turns = re.findall(r'<div class="turn" data-call="(\d+)">.*?<pre>(.*?)</pre>', model, re.S)
    assert turns == [("1", REPLY)]
    # The command agent's attempt has no planner table, and the oracle's neither.
    assert '<table class="planner">' not in _details(html, f"{WIDE_SCENARIO}/cmd-1")


def test_report_html_shows_a_crash_and_escapes_agent_text(tmp_path: Path) -> None:
    crashed = make(
        "s",
        "cmd",
        1,
        "failed",
        agent="command",
        stop_reason="exited",
        exit_code=-9,
        stderr_tail=STDERR + EVIL,
        planner=[planner_call(1, reply_text=EVIL)],
    )
    quiet = make("s", "ok", 1, "passed")
    html = _html(tmp_path / "r1", [crashed, quiet])
    shown = _details(html, "s/cmd-1")
    assert '<strong class="exit-code">-9</strong> (killed by signal 9)' in shown
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; \x1b[31m"
    stderr = re.search(r'<pre class="stderr">(.*?)</pre>', shown, re.S)
    assert stderr is not None
    assert stderr.group(1) == STDERR.replace("<", "&lt;") + escaped
    assert f"<pre>{escaped}</pre>" in shown  # the text turn
    assert "<script>alert" not in html
    assert "agent died" not in html.split('id="a-s--ok-1"')[1]
    assert 'class="agent-exit"' not in html.split('id="a-s--ok-1"')[1]


def test_the_gate_block_needs_gate_verdict_json_and_refuses_a_damaged_one(
    tmp_path: Path,
) -> None:
    records = wide_records()
    run_dir = tmp_path / "r1"
    html = _html(run_dir, records)
    assert 'id="gate"' not in html and 'href="#gate"' not in html

    path = write_gate_verdict(run_dir, records)
    html = _html(run_dir, records)
    assert 'href="#gate"' in html
    assert '<span class="verdict failed" id="gate-decision">NO-GO</span>' in html
    assert "rule (a), a drop on a gate scenario" in html

    path.write_text('{"version": 1, "decision": "GO"}')
    with pytest.raises(RunError) as caught:
        _html(run_dir, records)
    assert str(path) in str(caught.value) and "rule" in str(caught.value)

    path.write_text("{not json")
    with pytest.raises(RunError, match=re.escape(f"{path} is not JSON")):
        _html(run_dir, records)

    path.write_text('{"version": 9}')
    with pytest.raises(RunError, match="version 9, newer than"):
        _html(run_dir, records)
