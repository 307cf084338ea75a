"""Output for scripts (--json) and tables that never cut an id or a label."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import Proctor, probe

LONG = "probe-with-a-long-identifier-that-a-narrow-terminal-would-cut"
SCENARIOS = [probe(LONG)]


def test_list_json_has_every_field_and_the_whole_id(scenarios: Path, proctor: Proctor) -> None:
    done = proctor("list", "--scenarios", scenarios, "--json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert listing["count"] == len(listing["scenarios"])
    (mine,) = [s for s in listing["scenarios"] if s["id"] == LONG]
    assert set(mine) == {"id", "tier", "category", "status", "title", "capabilities", "path"}
    assert mine["path"] == str(scenarios / f"{LONG}.yaml")


def test_a_narrow_table_never_cuts_an_id(scenarios: Path, proctor: Proctor) -> None:
    done = proctor("list", "--scenarios", scenarios, env={"COLUMNS": "60"})
    assert done.returncode == 0, done.stderr
    assert LONG in done.stdout


def test_runs_json_lists_each_run(scenarios: Path, results: Path, proctor: Proctor) -> None:
    empty = proctor("runs", "--results", results, "--json")
    assert json.loads(empty.stdout) == {"runs": []}
    ran = proctor("run", "--scenarios", scenarios, "--only", LONG, "--results", results,
                  "--label", "a-label-that-is-long-enough-to-be-cut-in-a-narrow-table")  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    listing = json.loads(proctor("runs", "--results", results, "--json").stdout)
    (run,) = listing["runs"]
    assert run["label"] == "a-label-that-is-long-enough-to-be-cut-in-a-narrow-table"
    assert run["arms"] == ["oracle"] and run["scenarios"] == 1
    narrow = proctor("runs", "--results", results, env={"COLUMNS": "50"})
    assert "a-label-that-is-long-enough-to-be-cut-in-a-narrow-table" in narrow.stdout
