"""An arm skipped for a missing key is unknown, not failed: its bars read n/a, never a red ✗,
and its label is shown whole in a terminal of 80 columns."""

from __future__ import annotations

import io
import re
from pathlib import Path

from report_records import make, write_run
from rich.console import Console

from proctor.records import AttemptRecord
from proctor.report import print_metrics, summarize
from proctor.report._html import render_html
from proctor.report._markdown import render_markdown

LABEL = "m · gpt-4.1-mini-2025-04-14"
RED = "\x1b[31m"


def _records() -> list[AttemptRecord]:
    skipped = {
        "agent": "loop",
        "model": "gpt-4.1-mini-2025-04-14",
        "stop_reason": "skipped",
        "stop_detail": "OPENAI_API_KEY is not set",
    }
    return [
        *[make(sid, "oracle", 1, "passed") for sid in ("alpha", "beta")],
        *[make(sid, "m", 1, "skipped", **skipped) for sid in ("alpha", "beta")],
    ]


def _terminal(width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system="standard")
    print_metrics(summarize("r", _records(), 0.0, 1.0), console)
    return out.getvalue()


def _rows(text: str) -> list[list[str]]:
    """The table's body rows, each the cells of its lines joined (a folded cell is whole)."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    body = plain.split("┡", 1)[1].splitlines()[1:]
    rows: list[list[str]] = []
    for line in body:
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells[0] and (not rows or cells[1]):  # a row starts where the n column is filled
            rows.append(cells)
        else:
            rows[-1] = [a + b for a, b in zip(rows[-1], cells, strict=True)]
    return rows


def test_a_skipped_arm_reads_n_a_never_a_red_cross_in_the_terminal() -> None:
    text = _terminal(80)
    oracle, skipped = _rows(text)
    assert oracle[0] == "oracle" and oracle[3] == "✓ 100%"
    assert skipped[1:] == ["0", "n/a", "n/a", "–", "–", "–", "n/a"]
    (line,) = [ln for ln in text.splitlines() if "m ·" in ln]
    assert RED not in line and "✗" not in text


def test_the_label_is_never_cut_at_80_columns() -> None:
    text = _terminal(80)
    assert "…" not in text
    _, skipped = _rows(text)
    assert skipped[0].replace(" ", "") == LABEL.replace(" ", "")


def test_report_md_and_html_show_the_skipped_arm_as_unknown(tmp_path: Path) -> None:
    records = _records()
    summary = summarize("r", records, 0.0, 1.0)
    lines = render_markdown(summary, records).splitlines()
    assert f"| {LABEL} | n/a | – | – | – | n/a | n/a |" in lines
    write_run(tmp_path, records)
    html = render_html(summary, records, tmp_path)
    table = html.split('id="bars-table"', 1)[1].split("</table>", 1)[0]
    (row,) = [tr for tr in table.split("<tr>") if tr.startswith(f"<td>{LABEL}</td>")]
    assert re.findall(r'<td class="([^"]*)">', row) == ["num muted"] * 5 + ["num"]
    assert "unmet" not in row and "✗" not in row
