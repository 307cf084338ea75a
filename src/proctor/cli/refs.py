"""proctor refs: gate two git refs of an agent, each run from its own worktree."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proctor.cli.gate import GateArgs, gate_job, gate_options


@gate_options
def refs(
    base_ref: Annotated[str, typer.Argument(help="The baseline ref (branch, tag or commit).")],
    cand_ref: Annotated[str, typer.Argument(help="The candidate ref.")],
    repo: Annotated[
        Path, typer.Option("--repo", help="The agent's git repository.", show_default=False)
    ],
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            help="Shell command that starts the agent, run from inside each ref's worktree.",
            show_default=False,
        ),
    ],
    *,
    args: GateArgs,
) -> None:
    """Gate CAND_REF against BASE_REF: the same plan, the agent command from each ref.

    Both refs are checked out as git worktrees in a temporary folder (removed
    afterwards) and run as command: arms in one job; then the gate judges them.

    Exit codes: 0 GO, 1 NO-GO, 3 INCONCLUSIVE, 2 usage or setup error.
    """
    from proctor.runner.gate import ref_side, worktrees

    with worktrees(repo, [base_ref, cand_ref]) as (base, cand):
        code = gate_job(
            ref_side("baseline", base, agent), ref_side("candidate", cand, agent),
            args,
        )  # fmt: skip
    if code:
        raise typer.Exit(code)
