"""compare_warnings: what differs in how two stored runs were made, beside their numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_records import make, write_run, write_run_info

from proctor.records import AttemptRecord
from proctor.report import (
    CompareWarning,
    compare,
    compare_warnings,
    comparison_json,
    load_run,
    render_compare_html,
    render_compare_markdown,
    summarize,
)

SHA_A = "0e4790" + "1" * 58
SHA_B = "8e5af3" + "2" * 58
SHA_C = "c0ffee" + "3" * 58


def _store(results: Path, label: str, records: list[AttemptRecord], arms: list[str] | None) -> None:
    write_run(results / label, records)
    if arms is not None:
        write_run_info(results / label, label, arms)


def _records(arm: str = "bad", **extra: object) -> list[AttemptRecord]:
    """Two scenarios by the oracle and by ``arm``; ``extra`` fields for ``arm``'s records."""
    return [
        make("alpha", "oracle", 1, "passed"),
        make("alpha", arm, 1, "failed", agent="null", **extra),
        make("beta", "oracle", 1, "passed"),
        make("beta", arm, 1, "failed", agent="null", **extra),
    ]


def _hashed(records: list[AttemptRecord], sha: str) -> list[AttemptRecord]:
    return [r.model_copy(update={"scenario_sha256": sha}) for r in records]


def _warnings(results: Path) -> list[CompareWarning]:
    return compare_warnings(load_run(results, "a"), load_run(results, "b"))


def test_identical_runs_have_no_warning(tmp_path: Path) -> None:
    for label in ("a", "b"):
        _store(tmp_path, label, _records(), ["oracle=scripted", "bad=null"])
    assert _warnings(tmp_path) == []


def test_an_arm_whose_spec_changed_is_named_with_both_specs(tmp_path: Path) -> None:
    _store(tmp_path, "a", _records(), ["oracle=scripted", "bad=null"])
    _store(tmp_path, "b", _records(), ["oracle=scripted", "bad=command:./agent.sh"])
    assert _warnings(tmp_path) == [
        CompareWarning(
            "spec", "bad", "null", "command:./agent.sh",
            "arm bad: spec null in A, command:./agent.sh in B",
        )
    ]  # fmt: skip


def test_without_run_json_the_records_agent_kind_is_compared(tmp_path: Path) -> None:
    _store(tmp_path, "a", _records(), None)
    changed = [
        r.model_copy(update={"agent": "command"}) if r.arm == "bad" else r for r in _records()
    ]
    _store(tmp_path, "b", changed, ["oracle=scripted", "bad=command:./agent.sh"])
    assert [w.text for w in _warnings(tmp_path)] == ["arm bad: agent null in A, command in B"]


def test_a_model_change_is_named_with_both_models(tmp_path: Path) -> None:
    arms = ["oracle=scripted", "gpt=openai:gpt-4.1+key=MY_KEY"]
    _store(tmp_path, "a", _records("gpt", model="gpt-4.1"), arms)
    _store(tmp_path, "b", _records("gpt", model="gpt-4.1-mini"), arms)
    assert [(w.kind, w.subject, w.a, w.b, w.text) for w in _warnings(tmp_path)] == [
        (
            "model",
            "gpt",
            "gpt-4.1",
            "gpt-4.1-mini",
            "arm gpt: model gpt-4.1 in A, gpt-4.1-mini in B",
        )
    ]


def test_a_scenario_whose_file_changed_is_named_with_both_hashes(tmp_path: Path) -> None:
    arms = ["oracle=scripted", "bad=null"]
    _store(tmp_path, "a", _hashed(_records(), SHA_A), arms)
    changed = [
        r.model_copy(update={"scenario_sha256": SHA_B if r.scenario == "alpha" else SHA_A})
        for r in _records()
    ]
    _store(tmp_path, "b", changed, arms)
    assert _warnings(tmp_path) == [
        CompareWarning(
            "scenario", "alpha", SHA_A, SHA_B,
            "scenario alpha: file changed (sha 0e4790… in A, 8e5af3… in B)",
        )
    ]  # fmt: skip


def test_each_hash_of_a_scenario_edited_during_a_run_is_listed(tmp_path: Path) -> None:
    arms = ["oracle=scripted", "bad=null"]
    # In A, alpha was edited between its two attempts; in B it ran as last edited.
    first = _hashed(_records(), SHA_A)
    edited = [
        r.model_copy(update={"scenario_sha256": SHA_B}) if r.id == "alpha/oracle-1" else r
        for r in first
    ]
    _store(tmp_path, "a", edited, arms)
    _store(tmp_path, "b", _hashed(_records(), SHA_B), arms)
    texts = [w.text for w in _warnings(tmp_path)]
    assert texts == [
        "scenario alpha: file changed (sha 0e4790…, 8e5af3… in A, 8e5af3… in B)",
        "scenario beta: file changed (sha 0e4790… in A, 8e5af3… in B)",
    ]
    # The same two hashes in both runs: still not one file.
    _store(tmp_path, "c", edited, arms)
    same = compare_warnings(load_run(tmp_path, "a"), load_run(tmp_path, "c"))
    assert [w.text for w in same] == [
        "scenario alpha: file changed within each run (sha 0e4790…, 8e5af3… in A, "
        "0e4790…, 8e5af3… in B)"
    ]


def test_arms_or_scenarios_in_only_one_run_warn_nothing(tmp_path: Path) -> None:
    _store(tmp_path, "a", _hashed(_records(), SHA_A), ["oracle=scripted", "bad=null"])
    other = [make("gamma", "new", 1, "passed", scenario_sha256=SHA_C)]
    _store(tmp_path, "b", other, ["new=command:./x"])
    assert _warnings(tmp_path) == []


def test_a_secret_in_a_spec_is_redacted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-" + "Z" * 30
    monkeypatch.setenv("AGENT_API_KEY", secret)
    _store(tmp_path, "a", _records(), ["oracle=scripted", "bad=null"])
    # Written raw (as by a process whose environment lacked the key), shown redacted.
    (tmp_path / "b").mkdir(exist_ok=True)
    write_run(tmp_path / "b", _records())
    info = (
        (tmp_path / "a" / "run.json")
        .read_text()
        .replace('"bad=null"', f'"bad=command:KEY={secret} ./agent.sh"')
    )
    (tmp_path / "b" / "run.json").write_text(info)
    (warning,) = _warnings(tmp_path)
    assert warning.b == "command:KEY=[redacted:AGENT_API_KEY] ./agent.sh"
    assert secret not in warning.text


def test_warnings_reach_every_output(tmp_path: Path) -> None:
    _store(tmp_path, "a", _records(), ["oracle=scripted", "bad=null"])
    _store(tmp_path, "b", _records(), ["oracle=scripted", "bad=command:./agent.sh <b>"])
    runs = load_run(tmp_path, "a"), load_run(tmp_path, "b")
    summaries = [summarize(r.label, r.records, r.started_at, r.finished_at) for r in runs]
    result = compare(*summaries, warnings=compare_warnings(*runs))
    text = "arm bad: spec null in A, command:./agent.sh <b> in B"
    assert [w.text for w in result.warnings] == [text]
    assert result.changed_rows == 0  # the numbers alone would say nothing changed
    md = render_compare_markdown(result)
    assert f"- {text}" in md.splitlines()
    html = render_compare_html(result)
    assert "command:./agent.sh &lt;b&gt; in B" in html and "<b> in B" not in html
    document = comparison_json(result)
    assert document["warnings"] == [
        {"kind": "spec", "subject": "bad", "a": "null", "b": "command:./agent.sh <b>", "text": text}
    ]
    assert document["changed"] == {"rows": 0, "scenarios": 0}
