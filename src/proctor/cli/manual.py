"""proctor manual: the by-hand comparison of opaque agents (never under CI).

Every command refuses to run under CI (exit 2) and on a manifest whose SHA-256
is not the pinned one; each works on one case folder, except plan, pin and summary.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from pathlib import Path
from typing import Annotated

import typer

from proctor._text import console, markup
from proctor.manual import (
    PINNED,
    Served,
    begin,
    event,
    find_cases,
    finish,
    grade_case,
    load_manifest,
    manifest_hash,
    parse_arms,
    prepare,
    refuse_ci,
    schedule,
    serve,
    summarize,
)
from proctor.manual import render_summary as render

app = typer.Typer(
    help="The manual comparison of opaque agents: a frozen manifest run by an operator, by "
    "hand (a measurement protocol, not a security sandbox). Never runs under CI.",
    no_args_is_help=True,
)

CaseDir = Annotated[Path, typer.Argument(help="The case folder.")]


@app.callback()
def _guard() -> None:
    refuse_ci()


@app.command("pin")
def pin() -> None:
    """Print the manifest's SHA-256, to pin in a reviewed revision (PINNED in _manifest.py)."""
    found = manifest_hash()
    state = "pinned" if found == PINNED else f"NOT the pinned {PINNED}"
    console().print(f"{found}  ({state})", highlight=False)


@app.command("plan")
def plan(
    arms: Annotated[str, typer.Option("--arms", help="The arms, e.g. a,b,c.")],
) -> None:
    """Print the whole schedule: every case for every arm, the order rotating by repetition."""
    manifest = load_manifest()
    names = parse_arms(arms)
    out = console()
    rep = 0
    for slot in schedule(manifest, names):
        if slot.repetition != rep:
            rep = slot.repetition
            order = "/".join(names[(rep - 1) % len(names) :] + names[: (rep - 1) % len(names)])
            out.print(f"repetition {rep} (arms {markup(order)})", highlight=False)
        out.print(f"  {slot.order:3d}  {markup(slot.arm):<12} {markup(slot.task)}", highlight=False)


@app.command("prepare")
def prepare_cmd(
    folder: CaseDir,
    arm: Annotated[str, typer.Argument(help="The arm's name.")],
    task: Annotated[str, typer.Argument(help="The case's id in the manifest.")],
    repetition: Annotated[int, typer.Argument(help="The repetition, from 1.")],
) -> None:
    """Make a new private case folder: case.json, the fixtures and an empty output/."""
    case = prepare(load_manifest(), folder, arm, task, repetition)
    out = console()
    out.print(f"prepared {markup(str(folder))}: {case.kind} {markup(case.task)}", highlight=False)
    out.print(f"  {len(case.originals)} fixture file(s) hashed in case.json", highlight=False)
    out.print(f"next: proctor manual serve {markup(str(folder))}", highlight=False)


@app.command("serve")
def serve_cmd(
    folder: CaseDir,
    revoke_after_first: Annotated[
        bool,
        typer.Option(
            "--revoke-after-first",
            help="Let the site revoke the lease on the first field's input (lease revocation).",
        ),
    ] = False,
) -> None:
    """Serve the case's sites on loopback until Ctrl-C (or SIGTERM), persisting their state."""
    out = console()

    def ready(served: Served) -> None:
        for name, url in served.urls.items():
            out.print(f"site {markup(name)}: {markup(url)}", highlight=False)
        out.print(f"start: {markup(served.start)}", highlight=False)
        out.print(f"brief: {markup(served.brief)}", highlight=False)
        out.print(
            f"files: {markup(str(folder))} (the downloads folder is its output/)", highlight=False
        )
        out.print("serving; Ctrl-C stops (the state is saved after every request)")

    async def until_signal() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await serve(folder, revoke_after_first=revoke_after_first, ready=ready, stop=stop)
        out.print("stopped; the site state is saved")

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(until_signal())


@app.command("begin")
def begin_cmd(folder: CaseDir) -> None:
    """Start the case's clock (start-up time is given separately, at finish)."""
    begin(folder)
    console().print(f"begun {markup(str(folder))}", highlight=False)


@app.command("event")
def event_cmd(
    folder: CaseDir,
    counts: Annotated[
        str, typer.Argument(help='JSON: {"toolCalls": N, "modelCalls": N, "primitiveInputs": N}')
    ],
) -> None:
    """Add counts to the running case; null means the arm hides that count."""
    event(folder, counts)


@app.command("finish")
def finish_cmd(
    folder: CaseDir,
    record: Annotated[
        str,
        typer.Argument(
            help='JSON: {"stop": "completed", "interventions": [], "startupSeconds": 4.2, '
            '"costUsd": null}'
        ),
    ],
) -> None:
    """Record how the case ended: the stop, interventions, start-up seconds, cost."""
    done = finish(folder, record)
    console().print(f"finished {markup(str(folder))}: {done.stop}", highlight=False)


@app.command("grade")
def grade_cmd(
    folder: CaseDir,
    as_json: Annotated[bool, typer.Option("--json", help="Print grade.json.")] = False,
) -> None:
    """Grade the case from its files and persisted site state (never the agent's word)."""
    result = grade_case(folder)
    out = console()
    if as_json:
        print(json.dumps(result.model_dump(mode="json"), indent=1))
        return
    out.print(f"{markup(result.task)}#{result.repetition} {markup(result.arm)}: {result.verdict}")
    for reason in result.reasons:
        out.print(f"  {markup(reason)}", highlight=False)


@app.command("summary")
def summary_cmd(
    folders: Annotated[list[Path], typer.Argument(help="Case folders, or folders holding them.")],
    arms: Annotated[
        str | None, typer.Option("--arms", help="Arms to report even if none of theirs ran.")
    ] = None,
) -> None:
    """Per arm: tasks passed of the manifest's denominator, metrics with nulls kept,
    boundary verdicts apart, failed cases listed."""
    manifest = load_manifest()
    names = parse_arms(arms) if arms else []
    out = console()
    for line in render(summarize(manifest, find_cases(folders), names)).splitlines():
        out.print(markup(line), highlight=False, soft_wrap=True)
