"""Two git refs of an agent's repository as two arms: a worktree each, the same command.

The worktrees live in a temporary folder for the length of the job and are
removed afterwards (``git worktree remove --force``, then ``git worktree
prune``), whatever happened in between.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from proctor.errors import RunError
from proctor.runner._plan import parse_arm
from proctor.runner._sides import ArmSide
from proctor.vocab import SideRole

GIT_TIMEOUT = 120.0
"""Seconds one git command may take (a worktree checkout of a large repository)."""


@dataclass(frozen=True)
class Worktree:
    """One ref checked out in its own folder."""

    ref: str
    commit: str
    path: Path


def _git(repo: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunError(f"git {' '.join(args)} in {repo} did not run: {exc}") from exc
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise RunError(
            f"git {' '.join(args)} in {repo} failed: {detail[-1] if detail else done.returncode}"
        )
    return done.stdout.strip()


def resolve_ref(repo: Path, ref: str) -> str:
    """The commit ``ref`` names in ``repo``.

    Raises:
        RunError: when ``repo`` is not a git repository or ``ref`` names no commit.
    """
    if not repo.is_dir():
        raise RunError(f"--repo {repo}: no such folder; give the agent's git repository")
    _git(repo, "rev-parse", "--git-dir")
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except RunError as exc:
        raise RunError(
            f"{ref!r} names no commit in {repo}; `git -C {repo} log --oneline` shows them"
        ) from exc


def _worktree_base() -> Path | None:
    """Where the worktrees go: a command agent's jail gives it a private, empty ``/tmp``
    (``agents/_jail.py``), so a worktree there would be out of its reach. ``/var/tmp``
    is shown to it read-only; None (the temp folder) where the machine has none."""
    base = Path("/var/tmp")
    return base if base.is_dir() and os.access(base, os.W_OK) else None


@contextmanager
def worktrees(repo: Path, refs: Sequence[str]) -> Iterator[list[Worktree]]:
    """Check each ref out in a fresh worktree; remove them all on the way out.

    Raises:
        RunError: when a ref names no commit or a worktree cannot be made.
    """
    repo = repo.resolve()
    commits = [resolve_ref(repo, ref) for ref in refs]
    root = Path(tempfile.mkdtemp(prefix="proctor-refs-", dir=_worktree_base()))
    root.chmod(0o755)  # the jailed agent runs as another user: it reads its code from here
    made: list[Worktree] = []
    try:
        for i, (ref, commit) in enumerate(zip(refs, commits, strict=True)):
            path = root / f"ref{i}-{commit[:12]}"
            _git(repo, "worktree", "add", "--detach", str(path), commit)
            made.append(Worktree(ref, commit, path))
        yield made
    finally:
        for tree in made:
            # A worktree git cannot remove is pruned below once its folder is gone.
            with suppress(RunError):
                _git(repo, "worktree", "remove", "--force", str(tree.path))
        shutil.rmtree(root, ignore_errors=True)
        with suppress(RunError):
            _git(repo, "worktree", "prune")


def ref_side(role: SideRole, tree: Worktree, agent: str) -> ArmSide:
    """An arm running ``agent`` (a shell command line) from inside ``tree``."""
    if not agent.strip():
        raise RunError("--agent is empty; give the command that starts the agent")
    arm = parse_arm(f"{role}=command:cd {shlex.quote(str(tree.path))} && {agent}")
    return ArmSide(role, arm, title=f"{tree.ref} ({tree.commit[:12]})")
