"""proctor compare through the real CLI: warnings first, compare.md/.html written, --json, --out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_support import Invoke, Proctor, output
from proctor.cli import app
from proctor.computer.browser import launch
from proctor.errors import RunError
from proctor.records import AttemptRecord
from report.report_records import make, write_run, write_run_info

WARNING = "warning: arm bad: spec null in A, command:./agent.sh in B"


def _store(results: Path, label: str, bad_spec: str, bad_arm: str = "bad") -> None:
    """A run of two scenarios by the oracle and by ``bad_arm`` (the null agent's records)."""
    records = [
        make("alpha", "oracle", 1, "passed"),
        make("alpha", bad_arm, 1, "failed", agent="null"),
        make("beta", "oracle", 1, "passed"),
        make("beta", bad_arm, 1, "failed", agent="null"),
    ]
    write_run(results / label, records)
    write_run_info(results / label, label, ["oracle=scripted", f"{bad_arm}={bad_spec}"])


def _two_runs(results: Path, b_spec: str = "command:./agent.sh") -> None:
    _store(results, "a", "null")
    _store(results, "b", b_spec)


def test_an_arm_whose_spec_changed_is_warned_before_the_tables(
    invoke: Invoke, results: Path
) -> None:
    _two_runs(results)
    out = invoke("compare", "a", "b", "--results", results)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == WARNING
    assert lines[1].startswith("A = a   B = b")  # the tables come after the warning
    assert (
        "0 of 4 scenario row(s) differ; 0 of 2 arm row(s) differ; 1 warning(s): "
        "the runs were not made the same way" in out.output
    )


def test_the_warning_is_yellow(results: Path) -> None:
    _two_runs(results)
    args = ["compare", "a", "b", "--results", str(results)]
    done = CliRunner().invoke(app, args, env={"FORCE_COLOR": "1"})
    assert done.exit_code == 0, done.output
    first = done.stdout.splitlines()[0]
    assert first.startswith("\x1b[33m" + WARNING), repr(first)


def test_compare_md_and_html_hold_the_warning_and_the_rows(invoke: Invoke, results: Path) -> None:
    _two_runs(results)
    out = invoke("compare", "a", "b", "--results", results)
    assert out.exit_code == 0, out.output
    folder = results / "compare-a-b"
    md, html = folder / "compare.md", folder / "compare.html"
    assert f"compare: {html}" in out.output.splitlines()
    assert f"         {md}" in out.output.splitlines()

    lines = md.read_text().splitlines()
    assert "- arm bad: spec null in A, command:./agent.sh in B" in lines
    head = lines.index("| arm | metric | A | B |  |")
    assert lines[head + 2] == "| bad | success | 0% | 0% |  |"
    assert "| alpha | bad | ✗ 0/1 | ✗ 0/1 |  |" in lines

    page = html.read_text()
    assert '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';' in page
    assert '<li data-kind="spec">arm bad: spec null in A, command:./agent.sh in B</li>' in page
    assert '<table class="rows" id="rows-table">' in page
    assert '<td class="arm">bad</td>' in page and '<td class="arm">oracle</td>' in page
    assert "http://" not in page and "https://" not in page and "src=" not in page


def test_json_prints_one_document_of_the_documented_shape(proctor: Proctor, results: Path) -> None:
    _two_runs(results)
    done = proctor("compare", "a", "b", "--results", results, "--json")
    assert done.returncode == 0, output(done)
    document = json.loads(done.stdout)  # stdout holds the document and nothing else
    assert list(document) == ["a", "b", "scenario_sets", "warnings", "rows", "scenarios", "changed"]
    assert (document["a"], document["b"]) == ("a", "b")
    assert document["scenario_sets"] == {"shared": ["alpha", "beta"], "only_a": [], "only_b": []}
    assert document["warnings"] == [
        {
            "kind": "spec",
            "subject": "bad",
            "a": "null",
            "b": "command:./agent.sh",
            "text": "arm bad: spec null in A, command:./agent.sh in B",
        }
    ]
    assert [row["row"] for row in document["rows"]] == ["bad", "oracle"]
    assert document["rows"][1]["cells"][0] == {
        "metric": "success",
        "a": "100%",
        "b": "100%",
        "mark": "",
    }
    assert document["scenarios"][0] == {
        "scenario": "alpha",
        "row": "bad",
        "a": "✗ 0/1",
        "b": "✗ 0/1",
        "mark": "",
        "change": 0.0,
    }
    assert document["changed"] == {"rows": 0, "scenarios": 0}
    assert str(results / "compare-a-b" / "compare.html") in done.stderr
    assert (results / "compare-a-b" / "compare.md").is_file()


def test_out_names_the_folder(invoke: Invoke, results: Path, tmp_path: Path) -> None:
    _two_runs(results)
    out = invoke("compare", "a", "b", "--results", results, "--out", tmp_path / "mine")
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["compare.html", "compare.md"]
    assert not (results / "compare-a-b").exists()


def test_a_run_named_like_the_default_folder_is_never_written_into(
    invoke: Invoke, results: Path
) -> None:
    _two_runs(results)
    _store(results, "compare-a-b", "null")
    out = invoke("compare", "a", "b", "--results", results)
    assert isinstance(out.exception, RunError), out.output
    assert "is a run's folder, not a comparison's; pass --out DIR" in str(out.exception)
    assert not (results / "compare-a-b" / "compare.md").exists()


def test_a_spec_with_markup_and_escapes_is_shown_escaped(proctor: Proctor, results: Path) -> None:
    spec = "command:./agent.sh [bold red]loud[/] \x1b[2J\x07\u202eevil"
    _two_runs(results, spec)
    done = proctor("compare", "a", "b", "--results", results)
    assert done.returncode == 0, output(done)
    first = done.stdout.splitlines()[0]
    assert first == (
        "warning: arm bad: spec null in A, "
        "command:./agent.sh [bold red]loud[/] \\x1b[2J\\x07\\u202eevil in B"
    )
    assert not any(c in done.stdout for c in ("\x1b", "\x07", "\u202e"))
    page = (results / "compare-a-b" / "compare.html").read_text()
    assert "[bold red]loud[/] \\x1b[2J\\x07\\u202eevil in B</li>" in page
    assert not any(c in page for c in ("\x1b", "\x07", "\u202e"))


@pytest.mark.browser
async def test_compare_html_fits_an_800_px_window(invoke: Invoke, results: Path) -> None:
    wide = "an-arm-with-a-very-long-name-" + "x" * 71  # 100 characters, no place to break
    _store(results, "a", "null", wide)
    _store(results, "b", "command:./agent.sh", wide)
    assert invoke("compare", "a", "b", "--results", results).exit_code == 0
    html = results / "compare-a-b" / "compare.html"

    host = await launch(9, "proctor.test")
    try:
        page = await host.browser.new_page(viewport={"width": 800, "height": 600})
        await page.goto(html.resolve().as_uri())
        assert await page.locator("#warnings li").count() == 1
        page_width = await page.evaluate("document.documentElement.scrollWidth")
        assert page_width <= 800
        box = page.locator("#rows-table").locator("xpath=..")
        inner, outer = await box.evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert inner > outer  # the table is wider than the window: its box scrolls, not the page
    finally:
        await host.close()


def _store_records(results: Path, label: str, records: list[AttemptRecord]) -> None:
    write_run(results / label, records)
    write_run_info(results / label, label, ["m=scripted"])


def test_runs_of_different_scenario_sets_compare_only_the_shared_ones(
    invoke: Invoke, proctor: Proctor, results: Path
) -> None:
    """50 scenarios (48 passed) against 2 (both failed, and both passed in A): 0% -> 0%
    on the 2 shared, never 96% -> 0%; the sets' difference is warned in every output."""
    big = [make(f"s{n:02d}", "m", 1, "passed" if n >= 2 else "failed") for n in range(50)]
    small = [make("s00", "m", 1, "failed"), make("s01", "m", 1, "passed")]
    _store_records(results, "a", big)
    _store_records(results, "b", small)
    warning = (
        "scenario sets differ, compared on 2 shared scenario(s); 48 only in A, 0 only in B; "
        "only in A: s02, s03, s04, s05, s06, … (+43)"
    )
    out = invoke("compare", "a", "b", "--results", results)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == f"warning: {warning}"
    assert "compared on 2 shared scenario(s); 48 only in A, 0 only in B; " in out.output
    folder = results / "compare-a-b"
    md = (folder / "compare.md").read_text().splitlines()
    assert f"- {warning}" in md
    assert "| m | success | 0% | 50% | ▲ |" in md  # over s00 and s01 in both runs
    assert not any("s02" in line for line in md if line.startswith("| s"))
    page = (folder / "compare.html").read_text()
    assert f'<li data-kind="scenarios">{warning}</li>' in page
    assert "<td>s02</td>" not in page

    done = proctor("compare", "a", "b", "--results", results, "--json")
    assert done.returncode == 0, output(done)
    document = json.loads(done.stdout)
    assert document["scenario_sets"] == {
        "shared": ["s00", "s01"],
        "only_a": [f"s{n:02d}" for n in range(2, 50)],
        "only_b": [],
    }
    assert document["warnings"][0]["kind"] == "scenarios"
    assert document["warnings"][0]["text"] == warning
    assert document["rows"][0]["cells"][0] == {"metric": "success", "a": "0%", "b": "50%",
                                               "mark": "▲"}  # fmt: skip
    assert [s["scenario"] for s in document["scenarios"]] == ["s01", "s00"]


def test_the_scenario_table_lists_the_largest_change_first(invoke: Invoke, results: Path) -> None:
    """Per scenario: a 3/3 -> 0/3 drop before a 1/3 -> 2/3 rise, before the unchanged."""

    def runs(passes: dict[str, int]) -> list[AttemptRecord]:
        return [
            make(sid, "m", n, "passed" if n <= passed else "failed")
            for sid, passed in passes.items()
            for n in (1, 2, 3)
        ]

    _store_records(results, "a", runs({"same": 3, "small": 1, "big": 3}))
    _store_records(results, "b", runs({"same": 3, "small": 2, "big": 0}))
    out = invoke("compare", "a", "b", "--results", results)
    assert out.exit_code == 0, out.output
    md = (results / "compare-a-b" / "compare.md").read_text().splitlines()
    head = md.index("| scenario | arm | A | B |  |")
    assert md[head + 2 : head + 5] == [
        "| big | m | ✓ 3/3 | ✗ 0/3 | ▼ broke |",
        "| small | m | ✗ 1/3 ~ | ✗ 2/3 ~ | ≠ |",
        "| same | m | ✓ 3/3 | ✓ 3/3 |  |",
    ]
    assert "compared on 3 shared scenario(s); 0 only in A, 0 only in B" in out.output
    assert "warning" not in out.output
    table = out.output[out.output.index("per scenario") :]
    assert table.index("big") < table.index("small") < table.index("same")
