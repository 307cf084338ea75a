# ruff: noqa: E501 (the table of test names reads best one cell a line)
"""The exit-code table of docs/results.md, row by row: every cell it fills names a test that checks it.

The cells that need a real run are checked where that run already happens (the
test named for them); the rest are checked here, through the real CLI.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_support import Invoke, Proctor, output, probe, write_scenario
from proctor.compare import GateEntry, GateFile, save_gate
from proctor.records import AttemptRecord, write_model_atomic
from proctor.scenario import load_scenario

TESTS = Path(__file__).resolve().parents[1]
TABLE = TESTS.parent / "docs" / "results.md"

COVERED: dict[tuple[str, str], str] = {
    ("run", "0"): "cli.test_run::test_run_writes_the_results_tree_and_never_overwrites_a_label",
    ("run", "1"): "cli.test_run::test_a_failing_scenario_exits_1",
    ("run", "2"): "cli.test_exit_codes::test_an_unknown_tier_is_a_usage_error",
    ("run", "3"): "cli.test_safe_output::test_run_exits_3_when_every_attempt_is_an_infra_error",
    ("gate", "0"): "cli.test_gate::test_two_oracle_arms_give_go_canary_first",
    ("gate", "1"): "cli.test_gate::test_scripted_candidate_failing_ten_attempts_is_no_go_then_demoted",
    ("gate", "2"): "cli.test_exit_table::test_gate_usage_errors_exit_2",
    ("gate", "3"): "cli.test_exit_table::test_require_power_makes_an_underpowered_go_exit_3",
    ("regrade", "0"): "report.test_regrade::test_regrade_reproduces_verdicts_then_follows_an_edited_check",
    ("regrade", "1"): "report.test_regrade::test_regrade_reproduces_verdicts_then_follows_an_edited_check",
    ("regrade", "2"): "cli.test_exit_table::test_regrade_of_an_unknown_run_exits_2",
    ("review", "0"): "cli.test_review_rejudge::test_review_writes_a_user_eyed_rating_beside_the_checks_and_never_in_them",
    ("review", "2"): "cli.test_exit_table::test_review_and_rejudge_of_an_unknown_run_exit_2",
    ("list", "0"): "cli.test_exit_table::test_list_validate_and_verify_exit_0_when_all_is_well",
    ("list", "1"): "cli.test_json_outputs::test_verify_json_lists_every_obligation_and_exits_1_on_a_violation",
    ("list", "2"): "cli.test_exit_codes::test_an_unknown_tier_is_a_usage_error",
    ("any", "2"): "cli.test_usage_mistakes::test_a_usage_mistake_is_one_line_and_exit_2",
    ("any", "3"): "runner.test_kill_resume::test_ctrl_c_ends_the_attempts_in_flight_reaps_and_exits_130",
}  # fmt: skip
"""(command, exit code) -> the test of that cell, as tests/<package>/<module>::<function>.
``list`` stands for its row (list, verify, validate); ``any`` for the Ctrl-C row."""


def _table() -> list[tuple[str, str]]:
    """The filled cells of the exit-code table as (first command of the row, code)."""
    text = TABLE.read_text(encoding="utf-8")
    block = text[text.index("## Exit codes") :]
    lines = block.splitlines()[2:]
    rows = lines[: next(i for i, line in enumerate(lines) if not line.startswith("|"))]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    cells = []
    for line in rows[2:]:
        parts = [c.strip() for c in line.strip("|").split("|")]
        command = re.findall(r"`([a-z-]+)`", parts[0])
        name = command[0] if command else parts[0].split()[0]
        cells += [(name, code) for code, cell in zip(header[1:], parts[1:], strict=True) if cell]
    return cells


def test_every_filled_cell_of_the_readme_table_names_a_test_that_exists() -> None:
    cells = _table()
    assert ("run", "3") in cells and ("gate", "3") in cells and ("regrade", "1") in cells
    missing = [cell for cell in cells if cell not in COVERED]
    assert not missing, f"exit-code cells of docs/results.md with no test in COVERED: {missing}"
    for cell, where in COVERED.items():
        module, _, function = where.partition("::")
        source = (TESTS / f"{module.replace('.', '/')}.py").read_text(encoding="utf-8")
        assert re.search(rf"^(async )?def {function}\(", source, re.M), f"{cell}: no {where}"


SCENARIOS = [probe("exit-probe")]


def _passes(sid: str, sha: str, n: int) -> list[AttemptRecord]:
    return [
        AttemptRecord(
            id=f"{sid}/agent-{i}",
            scenario=sid,
            scenario_sha256=sha,
            tier="local",
            category="regression",
            arm="agent",
            agent="scripted",
            repeat=i,
            result="passed",
            stop_reason="done",
            started_at=1700000000.0 + i,
            seconds=1.0,
        )
        for i in range(1, n + 1)
    ]


def _store(results: Path, label: str, records: list[AttemptRecord]) -> None:
    for r in records:
        write_model_atomic(results / label / "attempts" / r.id / "attempt.json", r)
    (results / label / "summary.json").write_text("{}")


def test_require_power_makes_an_underpowered_go_exit_3(
    scenarios: Path, results: Path, tmp_path: Path, invoke: Invoke
) -> None:
    loaded = load_scenario(scenarios / "exit-probe.yaml")
    for label in ("a", "b"):
        _store(results, label, _passes("exit-probe", loaded.sha256, 3))
    gate = tmp_path / "gate.json"
    entry = GateEntry(
        scenario="exit-probe", sha256=loaded.sha256, proven_by="p", attempts=5, promoted_at=0.0
    )
    save_gate(gate, GateFile(scenarios=(entry,)))
    common = ["--baseline", "a", "--candidate", "b", "--gate", str(gate)]
    common += ["--scenarios", str(scenarios), "--results", str(results)]
    plain = invoke("gate", *common)
    assert plain.exit_code == 0, plain.output
    assert "GO" in plain.output and "underpowered" in plain.output
    strict = invoke("gate", *common, "--require-power")
    assert strict.exit_code == 3, strict.output
    assert "INCONCLUSIVE" in strict.output and "--require-power" in strict.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--baseline", "nope-run", "--candidate", "null"], "--baseline 'nope-run': no run"),
        (["--baseline", "scripted", "--candidate", "scripted", "--tier", "bogus"], "not a tier"),
    ],
)
def test_gate_usage_errors_exit_2(
    args: list[str], says: str, results: Path, proctor: Proctor
) -> None:
    done = proctor("gate", *args, "--results", results)
    assert done.returncode == 2, output(done)
    assert says in done.stderr


def test_regrade_of_an_unknown_run_exits_2(results: Path, proctor: Proctor) -> None:
    done = proctor("regrade", "no-such-run", "--results", results)
    assert done.returncode == 2, output(done)
    assert "no run 'no-such-run'" in done.stderr


def test_review_and_rejudge_of_an_unknown_run_exit_2(results: Path, proctor: Proctor) -> None:
    judge = "openai-compatible:judge-model@http://127.0.0.1:9/v1"
    for command in ("review", "rejudge"):
        done = proctor(command, "no-such-run", "--judge", judge, "--results", results)
        assert done.returncode == 2, output(done)
        assert "no run 'no-such-run'" in done.stderr


def test_list_validate_and_verify_exit_0_when_all_is_well(
    scenarios: Path, invoke: Invoke, tmp_path: Path
) -> None:
    assert invoke("list", "--scenarios", str(scenarios)).exit_code == 0
    good = write_scenario(tmp_path / "good", probe("good-one"))
    assert invoke("validate", str(good)).exit_code == 0
    verified = invoke("verify", "--scenarios", str(scenarios), "--only", "exit-probe")
    assert verified.exit_code == 0, verified.output
