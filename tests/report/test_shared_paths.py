"""Files people share hold no absolute path of this machine.

report.md, report.html, summary.json and gate-verdict.json travel; the targets file and
the gate file they name are shown relative to the proctor package (shipped files), the
current folder or the results root, never as ``/home/...`` or a temp folder.
"""

from __future__ import annotations

from pathlib import Path

from report_records import WIDE_ARMS, WIDE_SCENARIO, failing_check, make, wide_records, write_run

from proctor.compare import Side, gate_verdict
from proctor.records import AttemptRecord
from proctor.report import DEFAULT_TARGETS, load_targets, summarize, write_reports
from proctor.runner.gate import GateJob, GateOutcome, Role, RunSide

SRC = Path(__file__).resolve().parents[2] / "src"
SHIPPED_GATE = SRC / "proctor" / "suite" / "gate.json"


def _machine_paths(tmp_path: Path) -> list[str]:
    """Absolute folders of this machine a shared file must not name."""
    return [str(tmp_path), str(SRC), str(SRC.parent), str(Path.cwd())]


def _records() -> list[AttemptRecord]:
    return [
        make("alpha", "oracle", 1, "passed"),
        make("alpha", "agent", 1, "failed", checks=[failing_check()], failed_checks=["submitted"]),
    ]


def test_the_shipped_targets_file_is_named_from_the_package(tmp_path: Path) -> None:
    run_dir = tmp_path / "results" / "r1"
    records = _records()
    write_run(run_dir, records, screenshots=True)
    assert DEFAULT_TARGETS.is_absolute()  # what the report used to print
    paths = write_reports(run_dir, summarize("r1", records, 0.0, 1.0), records)
    md, html = paths.markdown.read_text(), paths.html.read_text()
    summary = paths.summary.read_text()
    assert "Bars (from proctor/report/targets.toml):" in md.splitlines()
    assert " · targets: proctor/report/targets.toml</div>" in html
    for text in (md, html, summary):
        for machine in _machine_paths(tmp_path):
            assert machine not in text, machine


def test_a_targets_file_elsewhere_is_named_without_its_folder(tmp_path: Path) -> None:
    bars = tmp_path / "team" / "bars.toml"
    bars.parent.mkdir()
    bars.write_text('[[bars]]\nmetric = "success"\nop = ">="\ntarget = 0.5\n')
    summary = summarize("r1", _records(), 0.0, 1.0, load_targets(bars))
    assert summary.targets == "bars.toml"


def test_a_path_under_a_given_root_is_shown_from_there(tmp_path: Path) -> None:
    from proctor.records import shared_path

    assert shared_path(tmp_path / "team" / "bars.toml", tmp_path) == "team/bars.toml"
    assert shared_path(DEFAULT_TARGETS) == "proctor/report/targets.toml"


def test_gate_verdict_names_its_gate_file_relatively(tmp_path: Path) -> None:
    records = wide_records()
    base, cand = WIDE_ARMS[0], WIDE_ARMS[1]
    roles: tuple[tuple[Role, str], ...] = (("baseline", base), ("candidate", cand))
    sides = [
        RunSide(role, "r", arm, tuple(r for r in records if r.arm == arm), None)
        for role, arm in roles
    ]
    gate = {WIDE_SCENARIO: "ab" * 32}
    verdict = gate_verdict(
        Side(base, list(sides[0].records)), Side(cand, list(sides[1].records)), gate
    )
    job = GateJob(sides[0], sides[1], scenarios=(), canary=None, gate=gate, repeat=6)
    outcome = GateOutcome(verdict, [], (), 0.0, 1.0)
    shipped = outcome.file(job, "r", SHIPPED_GATE)
    assert shipped.gate_file == "proctor/suite/gate.json"
    elsewhere = outcome.file(job, "r", tmp_path / "gates" / "gate.json")
    assert elsewhere.gate_file == "gate.json"
    for text in (shipped.model_dump_json(), elsewhere.model_dump_json()):
        for machine in _machine_paths(tmp_path):
            assert machine not in text, machine
