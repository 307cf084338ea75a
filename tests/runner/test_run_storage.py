"""A disk that fills while a run records stops it with the path; no half file is left."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from cli_support import probe, write_scenario
from proctor.errors import StorageError
from proctor.runner import RunOptions, execute, make_plan, parse_arm
from proctor.scenario import load_scenario

pytestmark = pytest.mark.browser


async def test_a_full_disk_at_attempt_json_stops_the_run_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_scenario(tmp_path, probe("storage-probe"))
    plan = make_plan([load_scenario(path)], [parse_arm("oracle=scripted")], 1)
    run_dir = tmp_path / "results" / "L"

    real_mkstemp = tempfile.mkstemp
    temps: list[str] = []

    def mkstemp(*args: Any, **kwargs: Any) -> tuple[int, str]:
        fd, name = real_mkstemp(*args, **kwargs)
        temps.append(name)
        return fd, name

    def fsync(fd: int) -> None:
        # The temp file of attempt.json was written; the disk fills before it is on disk.
        if Path(temps[-1]).name.startswith(".attempt.json."):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(os, "fsync", fsync)
    options = RunOptions(screenshots=False, retry_delays=(0.0,), infra_retries=0)
    with pytest.raises(StorageError) as info:
        await execute(plan, run_dir, "L", options)
    folder = run_dir / "attempts" / "storage-probe" / "oracle-1"
    assert str(info.value) == (
        f"cannot write {folder / 'attempt.json'}: the disk is full; "
        "free disk space or pass --results on another disk, then run again"
    )
    # attempt.json is written last: without it the attempt is not done (resume redoes it).
    assert [p.name for p in folder.iterdir()] == ["events.jsonl"]
    assert any(Path(t).name.startswith(".attempt.json.") for t in temps)
    assert not any(Path(t).exists() for t in temps)
