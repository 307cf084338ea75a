"""A desktop agent that knows where the answer key lies, and has only the recorded verbs.

It drives mousepad's own file dialogs the way a person would: the location bar's
completion (which lists a folder a name at a time), Open on a path it was never
given, and Save As to a path outside its scratch folder. Each door is tried first
where it must open (the scratch folder: proving the verbs do reach the dialog) and
then where it must stay shut. What counts is checked from outside: the paths on
this machine's disk, the dialog's own text as the agent read it, and the editor's
end state as the harness read it. With the app jail off (``_jail.available``
patched) every shut door opens, so this test fails.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import proctor
from proctor.agents import Computer, Outcome
from proctor.computer import actions as a
from proctor.computer.desktop import DesktopSession
from proctor.computer.desktop._jail import available
from proctor.runner import Arm, PlanItem, RunOptions, Worker, run_attempt
from proctor.scenario import SUITE_ROOT, LoadedScenario, Scenario, load_scenario

pytestmark = [pytest.mark.desktop, pytest.mark.browser]

SETTLE_MS = 1_500
"""Time for the dialog to open a file or save one (the outcome is read after)."""
COMPLETION_WAIT_S = 60.0
"""How long a name in scratch is watched for the dialog to complete it (it stops as soon
as the dialog does: a fraction of a second on a quiet machine)."""
SHUT_WAIT_FACTOR = 4.0
SHUT_WAIT_MIN_S = 8.0
"""A name of the shut folder is watched ``SHUT_WAIT_FACTOR`` times as long as scratch's
took to complete, and at least ``SHUT_WAIT_MIN_S``: the same dialog on the same machine,
so a load that slowed the one slows the other alike."""


def unique_prefix(folder: Path) -> tuple[str, str]:
    """A name in ``folder`` and the shortest start of it that no other name shares (the
    dialog completes only names that are not hidden)."""
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    for name in names:
        for end in range(1, len(name)):
            if [n for n in names if n.startswith(name[:end])] == [name]:
                return name, name[:end]
    raise AssertionError(f"no name in {folder} has a start of its own")


@dataclass
class Prober:
    """Tries every dialog door through the toolset and keeps what the dialogs said."""

    hidden: Path
    """A folder of the answer key: its names must never be completed."""
    secret_file: Path
    """A scenario file: it must never open."""
    escape: Path
    """Outside the scratch folder: Save As must never write it."""
    completed: dict[str, str] = field(default_factory=dict)
    seen: list[str] = field(default_factory=list)
    scratch: Path | None = None
    own: tuple[str, str] = ("", "")
    """A name in scratch and its start (taken by the test's hand: scratch ends with the try)."""
    left: list[str] = field(default_factory=list)
    copied: str | None = None
    """What Save As wrote inside scratch, read by the test's hand before the try ends."""

    @property
    def kind(self) -> str:
        return "dialog-prober"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        first = await computer.observe()
        self.scratch = Path(first.title.lstrip("*").rsplit(" - ", 1)[0]).parent
        await self.step(computer, a.Type(text="a note of mine"))
        await self.step(computer, a.Key(key="ctrl+s"))  # note.txt, in scratch
        # Open: the location bar completes a name, inside scratch and in the key's folder
        await self.dialog(computer, "ctrl+o", "Open File")
        await self.step(computer, a.Key(key="ctrl+l"))
        self.own = unique_prefix(self.scratch)
        _, theirs = unique_prefix(self.hidden)
        patience = COMPLETION_WAIT_S
        for folder, start in ((self.scratch, self.own[1]), (self.hidden, theirs)):
            typed = f"{folder}/{start}"
            await self.step(computer, a.Key(key="ctrl+a"))
            await self.step(computer, a.Type(role="text", name="", text=typed))
            began = time.monotonic()
            self.completed[typed] = await self.completion(computer, typed, patience)
            took = time.monotonic() - began
            patience = max(SHUT_WAIT_MIN_S, SHUT_WAIT_FACTOR * took)
        # Open a scenario file by its path
        await self.step(computer, a.SetValue(role="text", name="", value=str(self.secret_file)))
        await self.step(computer, a.Press(role="push button", name="Open"))
        await self.step(computer, a.Wait(ms=SETTLE_MS))
        await self.look_everywhere(computer)
        await self.close_dialogs(computer)
        # Save As: into scratch, then outside it
        assert self.scratch is not None
        for target in (self.scratch / "copy.txt", self.escape):
            await self.dialog(computer, "ctrl+shift+s", "Save As")
            # the name field holds note.txt (saved): its whole text is replaced
            await self.step(computer, a.SetValue(role="text", name="", value=str(target)))
            await self.step(computer, a.Wait(text=target.name))
            await self.step(computer, a.Press(role="push button", name="Save"))
            await self.step(computer, a.Wait(ms=SETTLE_MS))
            await self.look_everywhere(computer)
            await self.close_dialogs(computer)
        self.left = sorted(str(p.relative_to(self.scratch)) for p in self.scratch.rglob("*"))
        copy = self.scratch / "copy.txt"
        self.copied = copy.read_text() if copy.exists() else None
        return Outcome(stop_reason="done")

    async def step(self, computer: Computer, action: a.Action) -> None:
        await computer.act(action)  # a step that fails is the door staying shut

    async def completion(self, computer: Computer, typed: str, patience: float) -> str:
        """The location bar's text once the dialog completed ``typed``, or as typed after
        ``patience`` seconds (a shut folder never completes; the wait is the proof)."""
        deadline = time.monotonic() + patience
        while True:
            read = await computer.act(a.Read(role="text", name=""))
            if str(read.data) != typed or time.monotonic() > deadline:
                return str(read.data)
            await self.step(computer, a.Wait(ms=500))

    async def dialog(self, computer: Computer, key: str, title: str) -> None:
        await self.step(computer, a.Activate(window=0))
        await self.step(computer, a.Key(key=key))
        tabs = (await computer.observe()).tabs
        index = next((t.index for t in tabs if t.title == title), None)
        assert index is not None, f"no {title} dialog among {[t.title for t in tabs]}"
        await self.step(computer, a.Activate(window=index))

    async def look_everywhere(self, computer: Computer) -> None:
        for tab in (await computer.observe()).tabs:
            await self.step(computer, a.Activate(window=tab.index))
            seen = await computer.observe()
            self.seen += [seen.title, seen.snapshot]

    async def close_dialogs(self, computer: Computer) -> None:
        for _ in range(6):  # an error, then the dialog's location bar, then the dialog
            if len((await computer.observe()).tabs) == 1:
                return
            top = len((await computer.observe()).tabs) - 1
            await self.step(computer, a.Activate(window=top))
            await self.step(computer, a.Key(key="Escape"))
        tabs = (await computer.observe()).tabs
        assert len(tabs) == 1, f"dialogs left open: {[t.title for t in tabs]}"


async def test_the_editors_file_dialogs_reach_only_its_scratch_folder(
    session: DesktopSession, tmp_path: Path
) -> None:
    if available() is not None:
        pytest.skip(f"no app jail on this machine: {available()}")
    package = Path(proctor.__file__).resolve().parent
    secret = SUITE_ROOT / "local" / "user-approval-demo.yaml"
    escape = Path("/var/tmp") / f"proctor-escape-{uuid.uuid4().hex}.txt"
    prober = Prober(hidden=package, secret_file=secret, escape=escape)
    shipped = load_scenario(SUITE_ROOT / "desktop" / "desktop-text-deterministic.yaml")
    spec = shipped.scenario.model_dump(mode="json", exclude_none=True, by_alias=True)
    spec["limits"] = {"seconds": 600, "tool_calls": 300, "steps": 200}  # a long probe
    probed = LoadedScenario(Scenario.model_validate(spec), shipped.path, shipped.sha256)
    arm = Arm(name="prober", spec="prober", factory=lambda _scenario: prober)
    try:
        async with Worker(tmp_path / "results" / "run", RunOptions(retry_delays=(0.0,))) as w:
            record = await run_attempt(w, PlanItem(probed, arm, 1), write=False)
        assert record.infra_faults == []
        assert record.stop_reason == "done", record.stop_detail
        assert prober.scratch is not None
        # the verbs reach the dialogs: inside scratch, a name completes
        mine, start = prober.own
        assert prober.completed[f"{prober.scratch}/{start}"] == f"{prober.scratch}/{mine}"
        # the answer key's folder lists nothing, its file never opens, nothing escapes
        _, theirs = unique_prefix(package)
        typed = f"{package}/{theirs}"
        assert prober.completed[typed] == typed, "the dialog completed a name of the package"
        said = "\n".join(prober.seen)
        assert secret.name not in said.replace(str(secret), "")  # only where it was typed
        assert "solution:" not in said and "decoys:" not in said
        assert record.end_state is not None and record.end_state.desktop is not None
        editor = record.end_state.desktop.app("editor")
        assert editor is not None
        values = [c.value or "" for c in editor.controls]
        assert not any("solution:" in v for v in values), values
        assert not escape.exists(), f"Save As wrote {escape} outside the scratch folder"
        # while Save As in scratch wrote the note, the one document the editor ever held
        assert prober.copied is not None, prober.left
        assert prober.copied.startswith("a note of mine"), prober.copied
    finally:
        escape.unlink(missing_ok=True)
