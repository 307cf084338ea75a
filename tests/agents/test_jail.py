"""A command agent can't read the answer key, unhide it, see the harness, or act off the toolset.

The probe agent is told every path and port it should not be able to use; each
line it prints says what it got. Observed from outside: the fixture server's log.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from proctor.agents._jail import available
from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import SUITE_ROOT, load_scenario

pytestmark = pytest.mark.browser

PROBE = r"""
import json, os, sys, urllib.request
paths, port, scratch = json.loads(sys.argv[1]), int(sys.argv[2]), os.environ["PROCTOR_SCRATCH"]
for name, path in paths.items():
    try:
        with open(path, "rb") as f:
            f.read(1)
        print("READ", name, flush=True)
    except OSError as exc:
        print("HIDDEN", name, type(exc).__name__, flush=True)
print("SCRATCH", sorted(os.listdir(scratch)), flush=True)
print("PROCS", len([p for p in os.listdir("/proc") if p.isdigit()]), flush=True)
cover = os.path.dirname(paths["run.json"])
print("UMOUNT", os.system("umount " + cover + " 2>/dev/null"), flush=True)
request = urllib.request.Request(
    f"http://127.0.0.1:{port}/submit/contact",
    data=b"name=x", method="POST",
    headers={"host": "forms.proctor.test", "x-proctor-attempt": os.environ["PROCTOR_ATTEMPT"]},
)
try:
    urllib.request.urlopen(request, timeout=10)
    print("WORLD reached", flush=True)
except urllib.error.HTTPError as exc:
    print("WORLD", exc.code, flush=True)
"""


async def test_jailed_agent_sees_no_answer_key_and_cannot_act_off_the_toolset(
    worker: Worker, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if available() is not None:
        pytest.skip(f"no jail on this machine: {available()}")
    assert worker.seal.level == "sealed", worker.seal.detail
    folder = tmp_path_factory.mktemp("jail-scenario")
    path = folder / "jail-probe.yaml"
    data = {
        "id": "jail-probe",
        "title": "Jail probe",
        "brief": "Probe the jail.",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 30},
        "world": {
            "sites": ["forms"],
            "files": [{"path": "notes.txt", "text": "hello"}],
            "browser": {"start": "{site.forms}/contact"},
        },
        "checks": [{"submitted": {"route": "contact", "count": 1}}],
        "solution": [{"op": "done"}],
        "decoys": [{"name": "nothing", "steps": [{"op": "done"}], "fails": ["submitted"]}],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    loaded = load_scenario(path, sites={"forms"})
    probe = tmp_path_factory.mktemp("jail-agent") / "probe.py"
    probe.write_text(PROBE)
    worker.run_dir.mkdir(parents=True, exist_ok=True)
    (worker.run_dir / "run.json").write_text("{}")
    secrets = {
        "scenario": str(path),
        "suite": str(next((SUITE_ROOT / "local").glob("*.yaml"))),
        "control": str(worker.control_file),
        "run.json": str(worker.run_dir / "run.json"),
        "harness-environ": f"/proc/{os.getpid()}/environ",
    }
    args = [sys.executable, str(probe), json.dumps(secrets), str(worker.server.port)]
    arm = parse_arm(f"probe=command:{shlex.join(args)}")
    record: AttemptRecord = await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)
    lines = [
        json.loads(line)
        for line in (attempt_folder(worker.run_dir, PlanItem(loaded, arm, 1)) / "events.jsonl")
        .read_text()
        .splitlines()
    ]
    out = [e["line"] for e in lines if e.get("kind") == "stdout"]
    started = [e for e in lines if e.get("kind") == "command"]
    assert started and started[0]["jailed"] is True
    assert [line.split()[:2] for line in out[:5]] == [
        ["HIDDEN", name] for name in ("scenario", "suite", "control", "run.json", "harness-environ")
    ], out
    assert out[5].startswith("SCRATCH ['notes.txt'")  # its own folder is there
    assert int(out[6].split()[1]) < 10  # only the jail's processes, not the machine's
    assert out[7] != "UMOUNT 0"  # no capability to take the covers off
    assert out[8] == "WORLD 403"
    refused = [r for r in record.end_state.requests if r.refused == "host_lane"]
    assert [(r.method, r.path) for r in refused] == [("POST", "/submit/contact")]
    assert not [
        r for r in record.end_state.requests if r.path == "/submit/contact" and not r.refused
    ]
    assert Path(path).read_text()  # still there, outside the jail
