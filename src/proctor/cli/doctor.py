"""proctor doctor: check what proctor needs, name the fix, and run it with --fix."""

from __future__ import annotations

import asyncio
import os
import re
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
    """A command that mends exactly this failure (``--fix`` runs it)."""
    hint: str | None = None
    """What to do when no command can (shown, never run)."""


CHROMIUM_VERSION = re.compile(r"\b(Chromium|Google Chrome|Chrome)\s+\d+\.")


def _chromium() -> Finding:
    from proctor.computer.browser import FIX, chromium_version, find_chromium

    chosen = os.environ.get("PROCTOR_CHROMIUM")
    # apt-get cannot mend a PROCTOR_CHROMIUM that points at the wrong file.
    fix = None if chosen else FIX
    hint = (
        f"PROCTOR_CHROMIUM={chosen}: point it at a Chromium binary, or unset it to use "
        "Debian's (apt-get install -y chromium)"
        if chosen
        else None
    )
    binary = find_chromium()
    if binary is None:
        return Finding("chromium", False, "no Chromium binary found", fix, hint)
    ver = chromium_version(binary)
    if ver is None:
        return Finding("chromium", False, f"{binary} does not run or prints no version", fix, hint)
    if not CHROMIUM_VERSION.search(ver):
        return Finding(
            "chromium",
            False,
            f"{binary} is not Chromium: --version printed {ver[:80]!r}",
            fix,
            hint,
        )
    return Finding("chromium", True, f"{binary} ({ver})")


def _launch() -> Finding:
    """Playwright launches the resolved Chromium, loads a fixture page, reads its aria tree."""
    from proctor.computer.browser import FIX, launch
    from proctor.errors import ProctorError
    from proctor.world import DOMAIN, FixtureServer, all_sites

    async def probe() -> str:
        server = FixtureServer(all_sites().values())
        await server.start()
        try:
            host = await launch(server.port, DOMAIN)
            try:
                page = await host.browser.new_page()
                response = await page.goto(f"{server.base_url}/", wait_until="load")
                if response is None or response.status != 200:
                    status = response.status if response is not None else "no response"
                    raise OSError(f"the fixture index answered {status}")
                return await page.locator("body").aria_snapshot()
            finally:
                await host.close()
        finally:
            await server.stop()

    chosen = os.environ.get("PROCTOR_CHROMIUM")
    fix = None if chosen else FIX
    try:
        tree = asyncio.run(asyncio.wait_for(probe(), 90))
    except (ProctorError, TimeoutError, OSError) as exc:
        return Finding("browser", False, str(exc).splitlines()[0] or type(exc).__name__, fix)
    except Exception as exc:  # Playwright's driver failing to start
        detail = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return Finding("browser", False, detail, PIP_FIX)
    if not tree.strip():
        return Finding("browser", False, "the fixture page's aria snapshot was empty", fix)
    lines = len(tree.splitlines())
    return Finding(
        "browser", True, f"Playwright loaded a fixture page; its aria snapshot has {lines} lines"
    )


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


DESKTOP_PACKAGES = {
    "Xvfb": "xvfb",
    "dbus-daemon": "dbus",
    "xdotool": "xdotool",
    "/usr/libexec/at-spi-bus-launcher": "at-spi2-core",
    "galculator": "galculator",
    "mousepad": "mousepad",
    "evince": "evince",
}
"""What the desktop tier needs -> the Debian package that gives it."""
PYGOBJECT_FIX = (
    "apt-get install -y gir1.2-atspi-2.0 libgirepository1.0-dev libcairo2-dev pkg-config && "
    f"{sys.executable} -m pip install 'PyGObject<3.50'"
)


def _desktop() -> Finding:
    """The desktop stack: each piece there, then a session that shows galculator's tree."""
    from proctor.computer.desktop import App, DesktopSession, missing_stack
    from proctor.errors import ProctorError

    apps = ("galculator", "mousepad", "evince")
    missing = missing_stack() + [a for a in apps if not shutil.which(a)]
    if missing:
        packages = sorted({DESKTOP_PACKAGES[m] for m in missing if m in DESKTOP_PACKAGES})
        needs_gi = any(m not in DESKTOP_PACKAGES for m in missing)
        fixes = [f"apt-get install -y {' '.join(packages)}"] if packages else []
        if needs_gi:
            fixes.append(PYGOBJECT_FIX)
        return Finding("desktop", False, f"missing: {', '.join(missing)}", " && ".join(fixes))
    try:
        with tempfile.TemporaryDirectory(prefix="proctor-doctor-") as tmp, DesktopSession() as s:
            app = App(s, ["galculator"], Path(tmp))
            try:
                app.launch()
                tree = app.observe()
            finally:
                app.close()
    except ProctorError as exc:
        return Finding("desktop", False, str(exc).splitlines()[0] or type(exc).__name__)
    lines = len(tree.text.splitlines())
    if lines == 0:
        return Finding("desktop", False, "galculator's accessibility tree was empty")
    return Finding(
        "desktop", True, f"Xvfb, D-Bus and AT-SPI up; galculator's tree has {lines} lines"
    )


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
    """Check packages, Chromium and its launch, the seal, the desktop stack, disk and the
    results folder."""
    console = safe_console(highlight=False)
    checks: list[Callable[[], Finding]] = [
        _packages,
        _chromium,
        _launch,
        _seal,
        _desktop,
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
            if finding.hint:
                console.print(f"     do: {markup(finding.hint)}")
    if problems:
        console.print(
            f"{problems} problem(s)" + ("" if fix else "; `proctor doctor --fix` runs the fixes")
        )
        raise typer.Exit(1)
    console.print("everything proctor needs is here")
