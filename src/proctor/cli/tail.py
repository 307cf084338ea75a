"""proctor tail: follow a run's attempts as they run, event by event."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from proctor._text import console as safe_console
from proctor._text import json_text, safe
from proctor.cli._common import JsonOpt, ResultsOpt
from proctor.cli.report import LabelArg
from proctor.records import AttemptRecord
from proctor.report import (
    Follower,
    Restarted,
    attempt_dir,
    attempt_id,
    event_line,
    finished_record,
    live_attempts,
    run_dir_of,
    run_state,
)

POLL_SECONDS = 0.25


class _Printer:
    """Event lines for people (the attempt id first when several run) or JSON lines."""

    def __init__(self, as_json: bool, prefixed: bool) -> None:
        self.as_json = as_json
        self.prefixed = prefixed
        self.out = safe_console(highlight=False, soft_wrap=True)
        self.starts: dict[str, float] = {}

    def _say(self, aid: str, text: str) -> None:
        line = f"{aid}  {text}" if self.prefixed else text
        self.out.print(safe(line), markup=False)

    def _json(self, aid: str, value: dict[str, Any]) -> None:
        sys.stdout.write(json_text({"attempt": aid, **value}) + "\n")
        sys.stdout.flush()

    def event(self, aid: str, event: dict[str, Any] | Restarted) -> None:
        if isinstance(event, Restarted):
            self.starts.pop(aid, None)
            if self.as_json:
                self._json(aid, {"kind": "restarted"})
            else:
                self._say(aid, "── the try ended in an infra fault; the attempt runs again ──")
            return
        if self.as_json:
            self._json(aid, event)
            return
        when = event.get("time")
        if isinstance(when, int | float):
            self.starts.setdefault(aid, float(when))
        self._say(aid, event_line(event, self.starts.get(aid)))

    def end(self, aid: str, record: AttemptRecord) -> None:
        if self.as_json:
            self._json(
                aid,
                {
                    "kind": "finished",
                    "result": record.result,
                    "stop_reason": record.stop_reason,
                    "seconds": record.seconds,
                },
            )
            return
        failed = f", failed {', '.join(record.failed_checks)}" if record.failed_checks else ""
        self._say(
            aid,
            f"── {record.result} (stop: {record.stop_reason}{failed}) in {record.seconds:.1f} s ──",
        )

    def note(self, text: str) -> None:
        if not self.as_json:
            self.out.print(safe(text), markup=False)


def _run_folder(results: Path, label: str) -> Path:
    folder = results / label
    if label and "/" not in label and (folder / "run.json").is_file():
        return folder  # a run that has not reached its first attempt yet
    return run_dir_of(results, label)


def _one(run_dir: Path, folder: Path, follow: bool, printer: _Printer) -> None:
    aid = attempt_id(run_dir, folder)
    trace = Follower(folder / "events.jsonl")
    while True:
        record = finished_record(folder)  # read first: once it exists, the trace is whole
        for event in trace.read():
            printer.event(aid, event)
        if record is not None:
            printer.end(aid, record)
            return
        if not follow:
            return
        state = run_state(run_dir)
        if state != "running" and finished_record(folder) is None:
            printer.note(f"{aid} did not finish: the run's driver {_ended(state)}")
            return
        time.sleep(POLL_SECONDS)


def _ended(state: str) -> str:
    return "was killed (`proctor run --resume` redoes it)" if state == "gone" else "has ended"


def _run(run_dir: Path, follow: bool, printer: _Printer) -> None:
    label = run_dir.name
    followed: dict[Path, Follower] = {}
    done: set[Path] = set()
    while True:
        for folder in live_attempts(run_dir):
            if folder not in done and folder not in followed:
                followed[folder] = Follower(folder / "events.jsonl")
        for folder, trace in list(followed.items()):
            aid = attempt_id(run_dir, folder)
            record = finished_record(folder)
            for event in trace.read():
                printer.event(aid, event)
            if record is not None:
                printer.end(aid, record)
                done.add(folder)
                del followed[folder]
        state = run_state(run_dir)
        if not follow or state != "running":
            if not followed and not done:
                printer.note(
                    f"no attempt of run {label} is in flight (the run "
                    f"{'is running' if state == 'running' else _ended(state)}); "
                    f"`proctor tail {label} SCENARIO/ARM-N` prints one attempt's trace"
                )
            elif followed and state != "running":
                ids = ", ".join(attempt_id(run_dir, f) for f in followed)
                printer.note(f"{ids} did not finish: the run's driver {_ended(state)}")
            return
        time.sleep(POLL_SECONDS)


def tail(
    label: LabelArg,
    attempt: Annotated[
        str | None,
        typer.Argument(
            help="One attempt, SCENARIO/ARM-N; default: every attempt in flight.",
            show_default=False,
        ),
    ] = None,
    follow: Annotated[
        bool,
        typer.Option("--follow/--no-follow", help="Keep following until the attempt ends."),
    ] = True,
    as_json: JsonOpt = False,
    results: ResultsOpt = Path("results"),
) -> None:
    """Print an attempt's events as they happen (events.jsonl is appended live).

    ATTEMPT may also follow the label with a slash (LABEL/SCENARIO/ARM-N, as
    ``show`` takes it). With ATTEMPT: its trace so far, then each new event until its attempt.json
    lands, then its result. Without: every attempt in flight, each line led by
    its attempt id, until the run's driver ends. ``--json`` prints each event
    as one JSON line with its ``attempt``.
    """
    if attempt is None and "/" in label.strip("/"):  # LABEL/SCENARIO/ARM-N, as `show` takes
        label, _, attempt = label.strip("/").partition("/")
    run_dir = _run_folder(results, label)
    if attempt is not None:
        folder = attempt_dir(run_dir, attempt)
        _one(run_dir, folder, follow, _Printer(as_json, prefixed=False))
    else:
        _run(run_dir, follow, _Printer(as_json, prefixed=True))
