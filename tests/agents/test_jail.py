"""A command agent can't read the answer key, unhide it, see the harness, or act off the toolset.

The probe agent is told every path and port it should not be able to use; each
line it prints says what it got. Observed from outside: the fixture server's log.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import proctor
from proctor._confine import AGENT_UID
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
except OSError as exc:
    print("WORLD unreachable", type(getattr(exc, "reason", exc)).__name__, flush=True)
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
    worker.run_dir.mkdir(parents=True, exist_ok=True)
    (worker.run_dir / "run.json").write_text("{}")
    secrets = {
        "scenario": str(path),
        "suite": str(next((SUITE_ROOT / "local").glob("*.yaml"))),
        "control": str(worker.control_file),
        "run.json": str(worker.run_dir / "run.json"),
        "harness-environ": f"/proc/{os.getpid()}/environ",
    }
    # Inline: the jail hides the test's temporary folders (its /tmp is its own).
    args = [sys.executable, "-c", PROBE, json.dumps(secrets), str(worker.server.port)]
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
    # Its own network: the fixture server's port does not exist there (no request at all).
    assert started[0]["net_sealed"] is True
    assert out[8] == "WORLD unreachable ConnectionRefusedError", out
    assert not [r for r in record.end_state.requests if r.path == "/submit/contact"]
    assert Path(path).read_text()  # still there, outside the jail


HOSTILE = r"""
import json, os, subprocess, sys
targets = json.loads(sys.argv[1])
print("UID", os.getuid(), flush=True)
show = subprocess.run(
    ["git", "-C", targets["checkout"], "show", targets["key"]], capture_output=True, text=True
)
print("GIT", show.returncode, "solution:" in show.stdout, flush=True)
for name in ("grading", "checkout", "venv"):
    try:
        with open(os.path.join(targets[name], "planted.py"), "w") as f:
            f.write("x = 1\n")
        print("WROTE", name, flush=True)
    except OSError as exc:
        print("REFUSED", name, type(exc).__name__, flush=True)
for name in ("ray", "ray-token"):
    print("RAY", name, os.path.exists(targets[name]), flush=True)
home = os.environ["PROCTOR_SCRATCH"]
with open(os.path.join(home, "mine.txt"), "w") as f:
    f.write("ok")
print("SCRATCH", sorted(os.listdir(home)), flush=True)
"""


async def test_jailed_agent_cannot_read_the_history_write_proctor_or_see_ray(
    worker: Worker, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if available() is not None:
        pytest.skip(f"no jail on this machine: {available()}")
    package = Path(proctor.__file__).resolve().parent
    checkout = package.parent.parent
    if not (checkout / ".git").exists():
        pytest.skip("proctor is not run from a git checkout here")
    key = "HEAD:src/proctor/suite/local/user-approval-demo.yaml"
    shown = subprocess.run(["git", "-C", str(checkout), "show", key], capture_output=True)
    assert shown.returncode == 0 and b"solution:" in shown.stdout  # there is a key to hide
    folder = tmp_path_factory.mktemp("hostile-scenario")
    path = folder / "hostile.yaml"
    data = {
        "id": "hostile",
        "title": "Hostile",
        "brief": "Take what you can.",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 30},
        "world": {"sites": ["forms"], "browser": {"start": "{site.forms}/contact"}},
        "checks": [{"submitted": {"route": "contact", "count": 1}}],
        "solution": [{"op": "done"}],
        "decoys": [{"name": "nothing", "steps": [{"op": "done"}], "fails": ["submitted"]}],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    loaded = load_scenario(path, sites={"forms"})
    targets = {
        "checkout": str(checkout),
        "key": key,
        "grading": str(package / "grading"),
        "checkout-root": str(checkout),
        "venv": sys.prefix,
        "ray": "/tmp/ray",
        "ray-token": str(Path.home() / ".ray"),
    }
    args = [sys.executable, "-c", HOSTILE, json.dumps(targets)]
    arm = parse_arm(f"hostile=command:{shlex.join(args)}")
    await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)
    lines = [
        json.loads(line)
        for line in (attempt_folder(worker.run_dir, PlanItem(loaded, arm, 1)) / "events.jsonl")
        .read_text()
        .splitlines()
    ]
    out = [e["line"] for e in lines if e.get("kind") == "stdout"]
    assert out[0] == f"UID {AGENT_UID}", out
    assert out[1].split()[2] == "False" and out[1] != "GIT 0 True", out  # no answer key
    assert [line.split()[:2] for line in out[2:5]] == [
        ["REFUSED", "grading"],
        ["REFUSED", "checkout"],
        ["REFUSED", "venv"],
    ], out
    for name in ("grading", "checkout", "venv"):
        assert not (Path(targets[name]) / "planted.py").exists(), name
    assert out[5:7] == ["RAY ray False", "RAY ray-token False"], out
    assert out[7].startswith("SCRATCH ") and "'mine.txt'" in out[7], out
