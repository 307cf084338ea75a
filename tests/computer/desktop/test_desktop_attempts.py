"""Desktop attempts end to end: the runner, the MCP lane, faults, orphans and the seal.

Each is checked from outside the agent: the calculator's own display read by the
harness, the run's files, the processes left on the machine.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shlex
import shutil
import signal
import struct
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from cli_support import output, run_proctor
from proctor.agents import Computer, Outcome, ScriptedAgent
from proctor.agents._jail import available
from proctor.computer import actions as a
from proctor.computer.actions import Target, ops_on
from proctor.computer.desktop import (
    DesktopSession,
    Node,
    Outline,
    Window,
    _end_state,
    _observing,
    _tree,
    missing_stack,
)
from proctor.computer.desktop._app import App
from proctor.computer.desktop._attempt_apps import AttemptApps
from proctor.computer.mcp_lane import McpLane
from proctor.records import AttemptRecord
from proctor.runner import Arm, PlanItem, RunOptions, Worker, parse_arm, run_attempt
from proctor.scenario import SUITE_ROOT, LoadedScenario, Scenario, load_scenario

pytestmark = [pytest.mark.desktop, pytest.mark.browser]

CALC = "desktop-calculator-deterministic"


def calc() -> LoadedScenario:
    return load_scenario(SUITE_ROOT / "desktop" / f"{CALC}.yaml")


def display(record: AttemptRecord) -> str | None:
    """The calculator's display at the end, as the harness read it."""
    assert record.end_state is not None and record.end_state.desktop is not None
    app = record.end_state.desktop.app("calc")
    assert app is not None
    return next(c.value for c in app.controls if c.role == "text")


@pytest.fixture
async def desk_worker(session: DesktopSession, tmp_path: Path) -> AsyncIterator[Worker]:
    """A worker whose desktop is this process's session (``session`` skips without it)."""
    async with Worker(tmp_path / "results" / "run", RunOptions(retry_delays=(0.0,))) as w:
        yield w


async def test_the_oracle_passes_with_desktop_steps_and_screens(desk_worker: Worker) -> None:
    record = await run_attempt(desk_worker, PlanItem(calc(), parse_arm("oracle=scripted"), 1))
    assert record.result == "passed", record.failed_checks
    assert display(record) == "7006652"
    assert {s.tool for s in record.steps} == {"desktop"}
    assert [s.op for s in record.steps].count("press") == 10
    folder = desk_worker.run_dir / "attempts" / CALC / "oracle-1"
    for name in ("before.png", "after.png"):
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    assert (folder / "before.png").read_bytes() != (folder / "after.png").read_bytes()


async def test_an_app_killed_mid_attempt_is_an_infra_fault_retried_never_scored(
    desk_worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_INJECT", f"{CALC}:app@3")
    record = await run_attempt(
        desk_worker, PlanItem(calc(), parse_arm("oracle=scripted"), 1), write=False
    )
    assert [(f.try_number, f.kind) for f in record.infra_faults] == [(1, "desktop")]
    assert "exited during the attempt" in record.infra_faults[0].message
    assert record.result == "passed"  # the second try, on a fresh app
    assert display(record) == "7006652"


async def test_every_try_killed_ends_in_error_not_failure(
    desk_worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_INJECT", f"{CALC}:app@2x*")
    record = await run_attempt(
        desk_worker, PlanItem(calc(), parse_arm("oracle=scripted"), 1), write=False
    )
    assert record.result == "error"
    assert record.stop_reason == "infra"
    assert [f.kind for f in record.infra_faults] == ["desktop"] * 3


class LaneAgent:
    """Drives the desktop through the MCP lane with the SDK's client, in this loop."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = calls
        self.listed: list[types.Tool] = []
        self.results: list[types.CallToolResult] = []

    @property
    def kind(self) -> str:
        return "lane-test"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        async with McpLane(computer) as lane, Client(lane.url) as client:
            self.listed = (await client.list_tools()).tools
            for name, args in self.calls:
                self.results.append(await client.call_tool(name, args))
        return Outcome(stop_reason="done")


async def test_the_mcp_lane_serves_the_desktop_verbs(desk_worker: Worker) -> None:
    digits = [("press", {"role": "toggle button", "name": d}) for d in "1234"]
    tail = [("press", {"role": "toggle button", "name": d}) for d in "*5678="]
    agent = LaneAgent(
        [
            ("observe", {}),
            ("screenshot", {}),
            ("batch", {"actions": [{"op": "press", "role": "toggle button", "name": "9"}]}),
            ("press", {"role": "toggle button", "name": "AC"}),
            *digits,
            *tail,
            ("read", {"role": "text", "name": ""}),
            ("navigate", {"url": "http://example.test/"}),
            ("done", {}),
        ]
    )

    def factory(scenario: Scenario) -> LaneAgent:
        return agent

    arm = Arm(name="lane", spec="lane", factory=factory)
    record = await run_attempt(desk_worker, PlanItem(calc(), arm, 1), write=False)
    untimed = [op for op in ops_on("desktop") if op != "schedule"]  # only with a timeline
    assert [t.name for t in agent.listed] == [*untimed, "observe", "screenshot", "batch"]
    observed = "".join(getattr(c, "text", "") for c in agent.results[0].content)
    assert observed.startswith("app: calc\nwindow: galculator")
    assert "[ref=d" in observed and 'toggle button "7"' in observed
    image, said = agent.results[1].content
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    width, height = struct.unpack(">II", base64.b64decode(image.data)[16:24])
    assert getattr(said, "text", "") == (
        f"screenshot: the screen, {width} x {height} pixels. The desktop tools act on "
        "controls by ref (from observe), not at coordinates."
    )
    assert agent.results[1].structured_content == {
        "screen": {"width": width, "height": height},
        "image": {"width": width, "height": height},
    }
    read = agent.results[-3]
    assert read.structured_content is not None and read.structured_content["data"] == "7006652"
    refused = "".join(getattr(c, "text", "") for c in agent.results[-2].content)
    assert agent.results[-2].is_error and "there is no tool 'navigate'" in refused
    assert record.result == "passed", record.failed_checks
    assert display(record) == "7006652"


def _marked(owner_pid: int) -> list[str]:
    """Live processes that carry the owner mark of the run process ``owner_pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if any(v.startswith(f"PROCTOR_OWNER={owner_pid}:".encode()) for v in environ):
            found.append(f"{entry.name} {comm}")
    return found


def _desktop_processes() -> set[int]:
    names = {"Xvfb", "dbus-daemon", "at-spi-bus-laun", "at-spi2-registr", "galculator"}
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    pids.add(int(entry.name))
            except OSError:
                continue
    return pids


def test_a_desktop_run_leaves_no_process_and_keeps_its_screens(
    session: DesktopSession, tmp_path: Path
) -> None:
    before = _desktop_processes()
    done = run_proctor(
        "run", "--tier", "desktop", "--only", CALC, "--results", tmp_path, "--label", "d",
        "--arm", "oracle=scripted", "--arm", "null",
        cwd=tmp_path, timeout=240,
    )  # fmt: skip
    assert done.returncode == 1, output(done)  # the null arm's failure fails the run
    run = tmp_path / "d"
    legs = json.loads((run / "run.json").read_text())["legs"]
    owner = legs[-1]["pid"]
    assert _marked(owner) == []
    # Nothing the run started outlived it: every desktop process now was there before,
    # or belongs to another test's session running beside this one.
    after = _desktop_processes() - before
    for pid in after:
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue  # another test's process that ended meanwhile: it runs on no more
        assert f"PROCTOR_OWNER={owner}:".encode() not in environ
    oracle = json.loads((run / "attempts" / CALC / "oracle-1" / "attempt.json").read_text())
    assert oracle["result"] == "passed"
    assert (run / "attempts" / CALC / "oracle-1" / "after.png").stat().st_size > 1000
    null = json.loads((run / "attempts" / CALC / "null-1" / "attempt.json").read_text())
    assert null["result"] == "failed"


def test_without_the_stack_desktop_scenarios_skip_and_strict_refuses(tmp_path: Path) -> None:
    # No Xvfb on PATH: the machine has no desktop tier.
    env = {"PATH": str(tmp_path / "empty-bin")}
    done = run_proctor(
        "run", "--tier", "desktop", "--only", CALC, "--results", tmp_path, "--label", "s",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 0, output(done)
    assert f"skipped scenario {CALC}" in done.stdout
    assert "missing Xvfb" in done.stdout
    folder = tmp_path / "s" / "attempts" / CALC / "oracle-1"
    record = json.loads((folder / "attempt.json").read_text())
    assert record["result"] == "skipped" and "Xvfb" in record["stop_detail"]
    strict = run_proctor(
        "run", "--tier", "desktop", "--only", CALC, "--results", tmp_path, "--label", "t",
        "--strict", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert strict.returncode == 2, output(strict)
    assert f"--strict: {CALC} cannot run here" in output(strict)


@pytest.mark.skipif(available() is not None, reason="the jail needs unshare (root)")
async def test_a_jailed_agent_cannot_reach_the_display_or_the_buses(
    desk_worker: Worker, session: DesktopSession, tmp_path: Path
) -> None:
    # The agent tries every door to the apps that is not the toolset: the X sockets,
    # the session's folder (its buses), then keys sent straight to each display.
    script = (
        "ls -A /tmp/.X11-unix >&2; ls -d /tmp/proctor-desktop-* >&2 2>/dev/null || true; "
        f"ls -A {shlex.quote(str(session.root))} >&2 2>/dev/null || true; "
        "for n in 0 1 2 3 4 5 6 7 8 9 10 11 12; do "
        "DISPLAY=:$n timeout 5 xdotool search --name galculator key 9 2>/dev/null && "
        "echo reached-$n >&2; done; exit 0"
    )
    arm = parse_arm(f"prober=command:sh -c {shlex.quote(script)}")
    record = await run_attempt(desk_worker, PlanItem(calc(), arm, 1))
    events = desk_worker.run_dir / "attempts" / CALC / "prober-1" / "events.jsonl"
    started = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["jailed"] for e in started if e["kind"] == "command"] == [True]
    tail = record.stderr_tail or ""
    assert "reached" not in tail, tail
    assert f"X{session.display.lstrip(':')}" not in tail.split(), tail  # no socket listed
    assert "bus" not in tail and "runtime" not in tail, tail
    assert display(record) == "0"  # the calculator never saw a key
    # The jail shares the harness's network, so the display's abstract socket is in
    # reach: without the session's cookie, the display refuses the connection.
    bare = {"PATH": os.environ["PATH"], "DISPLAY": session.display, "HOME": str(tmp_path)}
    refused = subprocess.run(
        ["xdotool", "getmouselocation"], env=bare, capture_output=True, timeout=10, check=False
    )
    assert refused.returncode != 0, refused.stdout
    with_cookie = subprocess.run(
        ["xdotool", "getmouselocation"], env=session.env(), capture_output=True, timeout=10
    )
    assert with_cookie.returncode == 0, with_cookie.stderr


def test_the_default_relative_results_folder_gives_apps_and_uploads_absolute_paths(
    tmp_path: Path,
) -> None:
    """`proctor run` as the README says it, from a folder of the user's, with the default
    relative ``results``: the editor saves where the check looks, and an upload finds its
    file (each once joined a relative ``{scratch}`` under the scratch folder a second time)."""
    missing = missing_stack() + [a for a in ("mousepad",) if shutil.which(a) is None]
    if missing:
        pytest.skip("the desktop stack is missing: " + ", ".join(missing))
    done = run_proctor(
        "run", "--only", "desktop-text-deterministic,forms-upload-download", cwd=tmp_path
    )
    assert done.returncode == 0, output(done)
    assert "2 passed, 0 failed" in done.stdout, output(done)
    assert (tmp_path / "results" / "history.jsonl").is_file()


async def test_a_set_up_step_that_fails_is_a_setup_fault_and_the_run_goes_on(
    desk_worker: Worker,
) -> None:
    """A set-up press on a control the app lacks (the tree of a starved galculator, say)
    is the try's ``setup`` infra fault, retried and never scored; it once escaped the try
    as ``NodeNotFound`` and ended the whole run with no summary."""
    shipped = load_scenario(SUITE_ROOT / "desktop" / "desktop-clear-first.yaml")
    spec = shipped.scenario.model_dump(mode="json", exclude_none=True, by_alias=True)
    spec["world"]["desktop"]["apps"][0]["setup"] = [
        {"op": "press", "role": "toggle button", "name": "no-such-key"}
    ]
    broken = LoadedScenario(Scenario.model_validate(spec), shipped.path, shipped.sha256)
    record = await run_attempt(
        desk_worker, PlanItem(broken, parse_arm("oracle=scripted"), 1), write=False
    )
    assert record.result == "error" and record.stop_reason == "infra"
    assert [f.kind for f in record.infra_faults] == ["setup"] * 3
    message = record.infra_faults[0].message
    assert "set-up step 1 (press) of app 'calc' failed" in message, message
    assert "no-such-key" in message, message
    # the worker carries on: the next attempt on it passes
    after = await run_attempt(desk_worker, PlanItem(calc(), parse_arm("oracle=scripted"), 1))
    assert after.result == "passed", after.failed_checks


async def test_a_control_missing_from_a_starved_app_is_an_infra_fault_never_a_step_error(
    desk_worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The calculator is stopped (SIGSTOP) in the middle of the read that looks for the
    oracle's third button, and continued when the step is over: the read comes back
    without the button, as a starved galculator's did under load. That is the machine's
    fault: retried on a fresh app, recorded, never a failed step."""
    stopped: list[int] = []
    armed: list[int] = []
    finds = 0
    real_node = _observing.node
    real_visit = _tree._Walk.visit

    def node(c: AttemptApps, target: Target) -> Node:
        nonlocal finds
        finds += 1
        if finds == 3:  # the first try's third press, and only that one
            armed.append(c.apps[c.current].app.pid)
        try:
            return real_node(c, target)
        finally:
            armed.clear()
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    def visit(self: Any, acc: Any, depth: int, indent: int, in_titlebar: bool) -> None:
        if armed and depth == 1:  # the window was found; its controls are read next
            pid = armed.pop()
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        real_visit(self, acc, depth, indent, in_titlebar)

    monkeypatch.setattr(_observing, "node", node)
    monkeypatch.setattr(_tree._Walk, "visit", visit)
    record = await run_attempt(
        desk_worker, PlanItem(calc(), parse_arm("oracle=scripted"), 1), write=False
    )
    assert len(stopped) == 1
    assert [(f.try_number, f.kind) for f in record.infra_faults] == [(1, "desktop")]
    message = record.infra_faults[0].message
    assert "machine stalled while looking for toggle button '3' in calc" in message, message
    assert record.result == "passed", record.failed_checks  # the second try, on a fresh app
    assert [s.status for s in record.steps] == ["ok"] * 11
    assert display(record) == "7006652"


async def test_a_control_missing_from_an_app_that_answers_is_the_agents_step_error(
    desk_worker: Worker,
) -> None:
    """The rule's other side: the tree, read again and again while the app answers, has no
    such button. The step fails and the attempt goes on: no infra fault."""
    wrong: list[a.Action] = [
        a.Press(role="toggle button", name="no-such-key"),
        a.Press(role="toggle button", name="7"),
        a.Done(answer="7"),
    ]

    def factory(scenario: Scenario) -> ScriptedAgent:
        return ScriptedAgent(wrong, expect_error=frozenset({0}))

    record = await run_attempt(
        desk_worker,
        PlanItem(calc(), Arm(name="wrong", spec="wrong", factory=factory), 1),
        write=False,
    )
    assert record.infra_faults == []
    assert [s.status for s in record.steps] == ["error", "ok", "ok"]
    error = record.steps[0].error or ""
    assert "no toggle button named \"no-such-key\" in 'galculator'" in error, error
    assert display(record) == "7"


async def test_an_end_state_read_while_the_app_stalls_is_read_again(
    desk_worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The calculator is stopped for the first read of its window in the end state (and
    continued after it): that read lacks the display, and grading it would fail the
    oracle. The read saw the stall, so the end state is read again, from the app that
    now answers."""
    real_outline = _end_state._tree_outline
    stopped: list[int] = []

    def outline(window: Window) -> Outline:
        if stopped:
            return real_outline(window)
        stopped.append(window.pid)
        os.kill(window.pid, signal.SIGSTOP)
        try:
            return real_outline(window)
        finally:
            os.kill(window.pid, signal.SIGCONT)

    monkeypatch.setattr(_end_state, "_tree_outline", outline)
    record = await run_attempt(
        desk_worker, PlanItem(calc(), parse_arm("oracle=scripted"), 1), write=False
    )
    assert len(stopped) == 1
    assert record.infra_faults == []
    assert record.result == "passed", record.failed_checks
    assert display(record) == "7006652"


class Looker:
    """Observes the calculator once, keeps what it was shown, and stops."""

    def __init__(self, armed: list[bool]) -> None:
        self.armed = armed
        self.shown: list[str] = []

    @property
    def kind(self) -> str:
        return "looker"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        self.armed.append(True)
        self.shown.append((await computer.observe()).snapshot)
        await computer.act(a.Done(answer="looked"))
        return Outcome(stop_reason="done")


@pytest.mark.parametrize("at", ["window", "controls"])
async def test_what_an_agent_is_shown_while_the_app_stalls_is_read_again(
    desk_worker: Worker, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    """The calculator is stopped for the first read of the window the agent observes,
    while its window is looked for, or while its controls are read: that read finds no
    window, or lacks the keys, and an agent shown it would look for buttons the app has
    as if they were missing. The read saw the stall, so the window is read again."""
    armed: list[bool] = []
    stopped: list[int] = []

    def stopping(real: Any, pid: Callable[[], int | None]) -> Any:
        def read(*args: Any, **kwargs: Any) -> Any:
            target = pid()
            if not armed or stopped or target is None:
                return real(*args, **kwargs)
            stopped.append(target)
            os.kill(target, signal.SIGSTOP)
            try:
                return real(*args, **kwargs)
            finally:
                os.kill(target, signal.SIGCONT)

        return read

    app: list[App] = []
    real_windows = App.windows

    def windows(self: App) -> list[Window]:
        app[:] = [self]
        return real_windows(self)

    monkeypatch.setattr(App, "windows", windows)
    if at == "window":
        monkeypatch.setattr(App, "windows", stopping(windows, lambda: app[0].pid if app else None))
    else:
        monkeypatch.setattr(_tree, "outline", stopping(_tree.outline, lambda: app[0].pid))
    looker = Looker(armed)
    arm = Arm(name="looker", spec="looker", factory=lambda _scenario: looker)
    record = await run_attempt(desk_worker, PlanItem(calc(), arm, 1), write=False)
    assert len(stopped) == 1
    assert record.infra_faults == []
    assert len(looker.shown) == 1
    assert 'toggle button "7"' in looker.shown[0], looker.shown[0]
