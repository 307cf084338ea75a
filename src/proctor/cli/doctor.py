"""proctor doctor: check what proctor needs, name the fix, and run it with --fix."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import ResultsOpt

PACKAGES = ("playwright", "starlette", "uvicorn", "jinja2", "pydantic", "pyyaml", "typer", "rich")
MIN_FREE_BYTES = 1 << 30
PIP_FIX = f"{sys.executable} -m pip install -e '.[dev]'"


@dataclass(frozen=True)
class Finding:
    """One thing doctor looked at."""

    name: str
    ok: bool
    detail: str
    fix: str | None = None


def _chromium() -> Finding:
    from proctor.computer.browser import FIX, chromium_version, find_chromium

    binary = find_chromium()
    if binary is None:
        return Finding("chromium", False, "no Chromium binary found", FIX)
    ver = chromium_version(binary)
    if ver is None:
        return Finding("chromium", False, f"{binary} does not run", FIX)
    return Finding("chromium", True, f"{binary} ({ver})")


def _launch() -> Finding:
    from proctor.computer.browser import FIX, launch
    from proctor.errors import ProctorError

    async def probe() -> str:
        host = await launch(9, "proctor.test")
        try:
            page = await host.browser.new_page()
            await page.set_content("<title>ok</title>")
            return await page.title()
        finally:
            await host.close()

    try:
        title = asyncio.run(asyncio.wait_for(probe(), 60))
    except (ProctorError, TimeoutError, OSError) as exc:
        return Finding("playwright launch", False, str(exc).splitlines()[0], FIX)
    except Exception as exc:  # Playwright's driver failing to start
        return Finding("playwright launch", False, f"{type(exc).__name__}: {exc}", PIP_FIX)
    return Finding("playwright launch", title == "ok", "Playwright drove Chromium to a page")


def _seal() -> Finding:
    """The browser's private network and the external agents' jail (the seal)."""
    from proctor.agents import why_no_jail as available
    from proctor.computer.browser import SealedNetwork
    from proctor.errors import ComputerError

    try:
        SealedNetwork.create().close()
    except ComputerError as exc:
        return Finding(
            "seal", False, f"partial: {exc}", "run as root (or with CAP_SYS_ADMIN) to seal"
        )
    jail = available()
    if jail is not None:
        return Finding("seal", False, f"browser sealed, agents not jailed: {jail}")
    return Finding("seal", True, "browser in a private network; command agents jailed")


def _packages() -> Finding:
    missing = []
    for name in PACKAGES:
        try:
            version(name)
        except PackageNotFoundError:
            missing.append(name)
    if missing:
        return Finding("python packages", False, f"missing: {', '.join(missing)}", PIP_FIX)
    return Finding("python packages", True, ", ".join(f"{p} {version(p)}" for p in PACKAGES[:3]))


def _disk(results: Path) -> Finding:
    probe = results if results.exists() else Path.cwd()
    free = shutil.disk_usage(probe).free
    ok = free >= MIN_FREE_BYTES
    detail = f"{free / (1 << 30):.1f} GiB free at {probe}"
    return Finding("free disk", ok, detail, None if ok else "free at least 1 GiB of disk")


def _results(results: Path) -> Finding:
    try:
        results.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=results):
            pass
    except OSError as exc:
        return Finding("results folder", False, f"{results}: {exc.strerror}", f"mkdir -p {results}")
    return Finding("results folder", True, f"{results.resolve()} is writable")


def _run_fix(command: str, console: Console) -> bool:
    if command.startswith("apt-get") and os.geteuid() != 0:
        console.print(f"  cannot run {command!r}: it needs root; run it with sudo")
        return False
    if command.startswith("apt-get"):
        command = f"apt-get update -q && DEBIAN_FRONTEND=noninteractive {command}"
    console.print(f"  running: {markup(command)}")
    done = subprocess.run(command, shell=True, check=False)
    return done.returncode == 0


def doctor(
    fix: Annotated[bool, typer.Option("--fix", help="Run the fix for each problem.")] = False,
    results: ResultsOpt = Path("results"),
) -> None:
    """Check packages, Chromium and its launch, the seal, disk and the results folder."""
    console = safe_console(highlight=False)
    checks: list[Callable[[], Finding]] = [
        _packages,
        _chromium,
        _launch,
        _seal,
        lambda: _disk(results),
        lambda: _results(results),
    ]
    problems = 0
    for check in checks:
        finding = check()
        if not finding.ok and fix and finding.fix and _run_fix(finding.fix, console):
            finding = check()
        mark = "[green]ok[/]  " if finding.ok else "[red]FAIL[/]"
        console.print(f"{mark} {finding.name}: {markup(finding.detail)}")
        if not finding.ok:
            problems += 1
            if finding.fix:
                console.print(f"     fix: {markup(finding.fix)}")
    if problems:
        console.print(
            f"{problems} problem(s)" + ("" if fix else "; `proctor doctor --fix` runs the fixes")
        )
        raise typer.Exit(1)
    console.print("everything proctor needs is here")
