"""The README's main job from a fresh copy of the repository, as a newcomer runs it.

Every other test hands proctor an absolute temp folder; a newcomer runs `make run`,
which uses the default relative ``results``. Relative paths once reached agents and
apps joined twice (two oracles failed, every time), and no test saw it.

The local scenarios that name the scratch folder (uploads, downloads, files written)
are the ones a relative path can break; they run here, the rest of the tier in
`make run` itself (``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import output

REPO = Path(__file__).resolve().parents[1]
LOCAL_TIER_TIMEOUT = 1200


def copy_repository(into: Path) -> Path:
    """The files a clone would have (tracked, and new files not ignored), copied to
    ``into/proctor``."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=False,
        timeout=60,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout: nothing says which files a clone has")
    root = into / "proctor"
    for name in listed.stdout.decode().split("\0"):
        if not name:
            continue
        source = REPO / name
        if not source.is_file():  # deleted in the work tree, not yet committed
            continue
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return root


@pytest.mark.slow
@pytest.mark.browser
def test_the_local_tier_passes_from_a_copy_with_the_default_relative_results(
    tmp_path: Path,
) -> None:
    root = copy_repository(tmp_path)
    local = sorted((root / "src" / "proctor" / "suite" / "local").glob("*.yaml"))
    pathed = [p.stem for p in local if "scratch" in p.read_text()]
    assert pathed, "no local scenario names the scratch folder: this test would prove nothing"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(PYTHONPATH=str(root / "src"), COLUMNS="200")
    done = subprocess.run(
        [sys.executable, "-m", "proctor", "run", "--tier", "local", "--only", ",".join(pathed)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=LOCAL_TIER_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, output(done)
    assert " 0 failed" in done.stdout, output(done)
    runs = [p for p in (root / "results").iterdir() if p.is_dir()]
    assert len(runs) == 1, runs
    # the copy ran, not the checkout it came from
    assert (runs[0] / "run.json").is_file()
    assert not (REPO / "results" / runs[0].name).exists()
