"""regrade: the current checks over stored end states reproduce verdicts, and follow edits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proctor.cli import app
from proctor.errors import GradingError
from proctor.report import load_run, load_summary

SCENARIO = """\
id: regrade-probe
title: Send a billing question through the contact form
tier: local
category: regression
limits: {seconds: 60, tool_calls: 40, steps: 20}
brief: On {site.forms}/contact send Dana Whitfield's billing question.
world:
  sites: [forms]
  browser: {start: "{site.forms}/contact"}
checks:
  - submitted:
      route: contact
      count: 1
      fields: {name: Dana Whitfield, topic: TOPIC}
  - page_text: {contains: "was accepted", name: confirmation-shown}
  - step: {op: navigate, name: opened-contact, where: {input.url: "{site.forms}/contact"}}
solution:
  - {op: navigate, url: "{site.forms}/contact"}
  - {op: fill, role: textbox, name: Full name, value: Dana Whitfield}
  - {op: fill, role: textbox, name: Email address, value: dana.whitfield@example.test}
  - {op: select, role: combobox, name: Topic, label: Billing question}
  - {op: fill, role: textbox, name: Message, value: Invoice INV-2291 was charged twice.}
  - {op: click, role: button, name: Send message}
  - {op: done}
decoys:
  - name: sales-topic
    steps:
      - {op: navigate, url: "{site.forms}/contact"}
      - {op: fill, role: textbox, name: Full name, value: Dana Whitfield}
      - {op: fill, role: textbox, name: Email address, value: dana.whitfield@example.test}
      - {op: select, role: combobox, name: Topic, label: Talk to sales}
      - {op: fill, role: textbox, name: Message, value: Invoice INV-2291 was charged twice.}
      - {op: click, role: button, name: Send message}
      - {op: done}
    fails: [submitted]
"""


def _verdicts(results: Path, label: str) -> list[tuple[str, str, list[str]]]:
    return [(r.id, r.result, r.failed_checks) for r in load_run(results, label).records]


@pytest.mark.browser
def test_regrade_reproduces_verdicts_then_follows_an_edited_check(tmp_path: Path) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    scenario = folder / "regrade-probe.yaml"
    scenario.write_text(SCENARIO.replace("TOPIC", "billing"))
    results = tmp_path / "results"
    cli = CliRunner()
    common = ["--scenarios", str(folder), "--results", str(results)]

    ran = cli.invoke(
        app,
        ["run", "--only", "regrade-probe", "--arm", "oracle=scripted",
         "--arm", "sales=decoy:sales-topic", "--label", "base", *common],
    )  # fmt: skip
    assert ran.exit_code == 1, ran.output  # the decoy arm fails, as it must
    assert f"report: {results}/base/report.html" in ran.output
    assert "1 failed attempt(s) by cause:" in ran.output
    assert "wrong outcome: 1" in ran.output
    assert (results / "base" / "report.html").is_file()
    original = _verdicts(results, "base")
    assert original == [
        ("regrade-probe/oracle-1", "passed", []),
        ("regrade-probe/sales-1", "failed", ["submitted"]),
    ]

    same = cli.invoke(app, ["regrade", "base", *common])
    assert same.exit_code == 0, same.output
    assert "every verdict of base holds under the current checks" in same.output
    assert _verdicts(results, "base-regrade") == original
    before = {r.id: r.checks for r in load_run(results, "base").records}
    after = {r.id: r.checks for r in load_run(results, "base-regrade").records}
    assert after == before  # every check's expected/actual, not only the verdicts
    regraded_info = json.loads((results / "base-regrade" / "run.json").read_text())
    assert regraded_info["config"]["regraded_from"] == "base"
    assert (results / "base-regrade" / "attempts/regrade-probe/oracle-1/after.png").is_file()

    scenario.write_text(SCENARIO.replace("TOPIC", "sales"))
    edited = cli.invoke(app, ["regrade", "base", "--label", "edited", *common])
    assert edited.exit_code == 1, edited.output  # a verdict changed: a CI job must see it
    assert "2 verdict(s) changed" in edited.output
    assert _verdicts(results, "edited") == [
        ("regrade-probe/oracle-1", "failed", ["submitted"]),
        ("regrade-probe/sales-1", "passed", []),
    ]
    summary = load_summary(results / "edited")
    assert summary is not None
    assert [(r.arm, r.result) for r in summary.rows] == [("oracle", "failed"), ("sales", "passed")]
    assert _verdicts(results, "base") == original  # the source run is never touched

    again = cli.invoke(app, ["regrade", "base", "--label", "edited", *common])
    assert again.exit_code != 0
    assert "never overwritten" in str(again.exception)

    scenario.unlink()
    gone = cli.invoke(app, ["regrade", "base", *common])
    assert isinstance(gone.exception, GradingError)
    assert "regrade-probe (2 attempt(s))" in str(gone.exception)
    assert not (results / "base-regrade-2").exists()
