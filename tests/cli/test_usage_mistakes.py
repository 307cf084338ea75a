"""Every usage mistake is one line naming what was wrong, and exit 2; never a traceback.

The table is what a newcomer types wrong: bad options and values, missing arguments,
unknown commands, zero or negative counts, unknown arm kinds, a missing key, bad YAML,
an unwritable results folder, a resume of nothing, a gate with no baseline. Each goes
through ``proctor.cli.main`` in this process (the entry point the ``proctor`` script
calls), so what is checked is what a terminal gets: the exit code and stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_support import probe, write_scenario
from proctor.cli import main
from proctor.runner._ray import LOCAL_START_TRIES

PROBE = "usage-probe"

# (the arguments, what the one line must name); every one exits 2
MISTAKES: list[tuple[tuple[str, ...], str]] = [
    (("run", "--scenario", "nosuch"), "'nosuch'"),
    (("run", "--repeat", "0"), "--repeat"),
    (("run", "--repeat", "-1"), "--repeat"),
    (("run", "--repeat", "abc"), "--repeat"),
    (("run", "--workers", "0"), "--workers"),
    (("run", "--retries", "-1"), "--retries"),
    (("run", "--capability", "no-such-capability"), "--capability 'no-such-capability'"),
    (("run", "--capability", "browse"), "did you mean 'browser'"),
    (("run", "--bogus"), "--bogus"),
    (("run", "--only", "nosuch"), "'nosuch'"),
    (("run", "--only", "form-fil"), "did you mean 'form-fill'"),
    (("run", "--tier", "nosuch"), "--tier 'nosuch'"),
    (("run", "--arm", "x=bogus:1"), "bogus:1"),
    (("run", "--arm", "noequals"), "noequals"),
    (("run", "--arm", "m=openai:gpt-4o", "--strict"), "OPENAI_API_KEY"),
    (("run", "--scenarios", "bad.yaml"), "bad.yaml"),
    (("run", "--scenarios", "nowhere"), "nowhere"),
    (("run", "--resume"), "--label"),
    (("run", "--resume", "--label", "nolabel"), "nolabel"),
    (("run", "--label", "bad label!"), "--label 'bad label!'"),
    (("run", "--executor", "nosuch"), "--executor 'nosuch'"),
    (("run", "--budget", "-1"), "--budget"),
    (("run", "--retry-delays", "x,y"), "--retry-delays"),
    (("run", "--time-scale", "0"), "--time-scale"),
    (("run", "--targets", "nosuch.toml"), "nosuch.toml"),
    (("run", "--scenarios", "probe", "--only", PROBE, "--arm", "d=decoy:nosuch"), "nosuch"),
    (("run", "--scenarios", "probe", "--only", PROBE, "--results", "afile/x"), "afile"),
    (("run", "--scenarios", "probe", "--only", PROBE, "--label", "taken"), "taken"),
    (("doctor", "--json"), "--json"),
    (("gate",), "--baseline"),
    (("gate", "--candidate", "null"), "--baseline"),
    (("gate", "--baseline", "nolabel", "--candidate", "null"), "'nolabel'"),
    (("refs", "a", "b"), "--repo"),
    (("show",), "LABEL/SCENARIO/ARM-N"),
    (("show", "garbage"), "'garbage'"),
    (("show", "nolabel/x/oracle-1"), "'nolabel'"),
    (("compare", "a"), "Missing argument 'b'"),
    (("compare", "a", "b"), "'a'"),
    (("report", "nolabel"), "'nolabel'"),
    (("tail", "nolabel"), "'nolabel'"),
    (("diagnose", "nolabel"), "'nolabel'"),
    (("promote", "nolabel"), "'nolabel'"),
    (("regrade", "nolabel"), "'nolabel'"),
    (("rejudge", "nolabel"), "--judge"),
    (("models", "openai:x"), "at least two"),
    (("validate", "nosuch.yaml"), "nosuch.yaml"),
    (("inspect", "nosuch"), "'nosuch'"),
    (("manual", "nosuch"), "'nosuch'"),
    (("manual",), "a command is needed"),
    (("lease",), "a command is needed"),
    (("calibrate",), "--scenario"),
    (("list", "--bogus"), "--bogus"),
    (("list", "--capability", "nosuch"), "'nosuch'"),
    (("verify", "--only", "nosuch"), "'nosuch'"),
    (("nosuchcmd",), "nosuchcmd"),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder as a newcomer's: a probe scenario, a bad YAML file, a file where a
    folder should be, a run label already taken, and no model keys."""
    write_scenario(tmp_path / "probe", probe(PROBE))
    (tmp_path / "bad.yaml").write_text("id: x\n  bad: [\n", encoding="utf-8")
    (tmp_path / "afile").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "results" / "taken").mkdir(parents=True)
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("args", "names"), MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_a_usage_mistake_is_one_line_and_exit_2(
    args: tuple[str, ...],
    names: str,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "argv", ["proctor", *args])
    with pytest.raises(SystemExit) as ended:
        main()
    out, err = capsys.readouterr()
    assert ended.value.code == 2, (ended.value.code, out, err)
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert names in lines[0], err


def test_the_table_covers_every_kind_the_issue_named() -> None:
    """At least the 37 kinds of mistake that were tried; each command at least once."""
    assert len(MISTAKES) >= 37
    commands = {args[0] for args, _ in MISTAKES}
    assert {"run", "gate", "refs", "show", "doctor", "compare", "manual", "models"} <= commands


def test_a_ray_that_will_not_start_is_one_line_naming_what_to_do(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ray's start-up timeout is a bare ``Exception``; it once escaped as a traceback."""
    ray = pytest.importorskip("ray")

    calls: list[str] = []

    def timed_out(*args: object, **kwargs: object) -> None:
        calls.append("init")
        raise Exception("The current node timed out during startup. This could happen ...")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("shutdown"))
    argv = ["run", "--scenarios", "probe", "--only", PROBE, "--executor", "ray"]
    monkeypatch.setattr(sys, "argv", ["proctor", *argv])
    with pytest.raises(SystemExit) as ended:
        main()
    out, err = capsys.readouterr()
    assert ended.value.code == 2, (out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in out + err, err
    assert "could not start a local Ray: The current node timed out" in lines[0]
    assert "--executor pool" in lines[0]
    # a loaded machine's missed start is tried again, each failed start's leftovers ended
    assert calls == ["init", "shutdown"] * LOCAL_START_TRIES
