"""The manual commands through the CLI: each refuses under CI; a summary of no case is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import output, run_proctor
from proctor.manual._plan import CI_VARIABLES


@pytest.mark.parametrize(
    ("variable", "args"),
    [
        ("CI", ["plan", "--arms", "a,b"]),
        ("GITHUB_ACTIONS", ["pin"]),
        ("CI", ["prepare", "case", "a", "contact-form", "1"]),
        ("CI", ["serve", "case"]),
        ("CI", ["summary", "."]),
    ],
)
def test_every_manual_command_refuses_under_ci(
    variable: str, args: list[str], tmp_path: Path
) -> None:
    # Only this variable marks the machine (the real CI sets CI too: it is blanked here).
    env = {name: "" for name in CI_VARIABLES} | {variable: "true"}
    done = run_proctor("manual", *args, cwd=tmp_path, env=env)
    assert done.returncode == 2, output(done)
    assert (
        f"error: proctor manual does not run under CI ({variable}='true' is set): the manual "
        "comparison is run by an operator, by hand; unset it on the operator's machine"
    ) in " ".join(output(done).split())
    assert not (tmp_path / "case").exists()


def test_summary_of_a_folder_with_no_case_says_so_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "cases" / "notes").mkdir(parents=True)  # a folder, but no case.json under it
    env = {name: "" for name in CI_VARIABLES}
    done = run_proctor("manual", "summary", "cases", cwd=tmp_path, env=env)
    assert done.returncode == 2, output(done)
    assert done.stdout == ""
    assert " ".join(done.stderr.split()) == (
        "error: no case folder (one holding case.json) in cases; name the folder that holds "
        "the cases, or make one with `proctor manual prepare FOLDER ARM TASK REPETITION`"
    )
