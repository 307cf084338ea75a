"""Find and launch Chromium: Debian's binary through pip's Playwright, never a download."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from proctor._netns import SealedNetwork
from proctor.errors import ComputerError

LAUNCH_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,MediaRouter",
    "--disable-dev-shm-usage",
)
CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
FIX = "apt-get install -y chromium"


def find_chromium() -> Path | None:
    """The Chromium binary: $PROCTOR_CHROMIUM, then Debian's, then None (Playwright's own)."""
    env = os.environ.get("PROCTOR_CHROMIUM")
    if env:
        return Path(env)
    for candidate in CANDIDATES:
        if Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    found = shutil.which("chromium")
    return Path(found) if found else None


def chromium_version(binary: Path | None = None) -> str | None:
    """``Chromium 150.0...`` as the binary prints it, or None when it cannot run."""
    binary = binary or find_chromium()
    if binary is None:
        return None
    try:
        out = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = out.stdout.strip()
    return text or None


CLOSE_TIMEOUT = 15.0
"""Seconds Chromium, then its driver, get to close."""


@dataclass
class BrowserHost:
    """One Playwright driver and one Chromium process, shared by a worker's attempts."""

    playwright: Playwright
    browser: Browser
    binary: Path | None
    resolver_rules: str
    sealed: bool = False
    """Whether Chromium runs in the private network (``_netns.SealedNetwork``)."""
    _spare: asyncio.Task[tuple[BrowserContext, Page]] | None = field(default=None, repr=False)

    def prepare_spare(self) -> None:
        """Start making a blank context and tab for the next attempt, off its critical path.

        It is made with nothing of any attempt in it (no routes, headers or
        scripts yet: the attempt adds its own before its first navigation) and is
        never given to more than one attempt.
        """
        if self._spare is None:
            self._spare = asyncio.ensure_future(self._blank())

    async def _blank(self) -> tuple[BrowserContext, Page]:
        context = await self.browser.new_context(accept_downloads=True, service_workers="block")
        try:
            return context, await context.new_page()
        except BaseException:
            with contextlib.suppress(PlaywrightError):
                await context.close()
            raise

    async def take_spare(self) -> tuple[BrowserContext, Page] | None:
        """The prepared blank context and tab, or None (none prepared, or it failed)."""
        spare, self._spare = self._spare, None
        if spare is None:
            return None
        try:
            return await asyncio.wait_for(spare, CLOSE_TIMEOUT)
        except (PlaywrightError, TimeoutError):
            return None

    def process_ids(self) -> tuple[int | None, int | None]:
        """(Chromium's main process, the Playwright driver that started it), from /proc.

        Found by this host's resolver rule (it names the fixture port) among the
        processes of this machine; None where none is running.
        """
        needle = f"--host-resolver-rules={self.resolver_rules}".encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
                if needle not in argv or any(a.startswith(b"--type=") for a in argv):
                    continue
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat[stat.rfind(")") + 2 :].split()[1])
            return int(entry.name), parent
        return None, None

    async def close(self) -> None:
        """Close Chromium and the driver; bounded, even when either one is dead or hung."""
        if self._spare is not None:
            self._spare.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._spare, 1)
            self._spare = None
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await asyncio.wait_for(self.browser.close(), CLOSE_TIMEOUT)
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await asyncio.wait_for(self.playwright.stop(), CLOSE_TIMEOUT)


def resolver_rules(port: int, domain: str) -> str:
    """Map every made-up host to the fixture server; resolve nothing else.

    127.0.0.1 is excluded so that ``{base_url}`` (the server's loopback
    address) still loads; the offline block keeps other loopback ports out.
    """
    return f"MAP *.{domain} 127.0.0.1:{port}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def public_resolver_rules(domain: str) -> str:
    """Resolve public names as the machine does, and no made-up host: the live tier's
    browser reaches public sites and never the fixture world."""
    return f"MAP *.{domain} ~NOTFOUND"


async def launch(
    port: int,
    domain: str,
    *,
    headless: bool = True,
    seal: SealedNetwork | None = None,
    public: bool = False,
) -> BrowserHost:
    """Start Playwright and Chromium with made-up hosts mapped to the fixture port.

    Args:
        seal: The private network to run Chromium in (see ``_netns``); None: this
            process's network, with the driver-side locks only.
        public: The live tier's browser: public names resolve, made-up hosts do not
            (``public_resolver_rules``); never sealed.

    Raises:
        ComputerError: when no Chromium can be found or it fails to start.
    """
    if public and seal is not None:
        raise ComputerError("the live tier's browser reaches public hosts: it is never sealed")
    binary = find_chromium()
    rules = public_resolver_rules(domain) if public else resolver_rules(port, domain)
    args = [*LAUNCH_FLAGS, f"--host-resolver-rules={rules}"]
    executable = binary
    if seal is not None:
        if binary is None:
            raise ComputerError(f"the sealed browser needs a Chromium binary: `{FIX}`")
        executable = seal.wrapper(binary)
    pw = await async_playwright().start()
    try:
        browser = await pw.chromium.launch(
            executable_path=str(executable) if executable else None,
            headless=headless,
            args=args,
            timeout=60_000,
        )
    except PlaywrightError as exc:
        await pw.stop()
        where = binary or "Playwright's bundled browser"
        raise ComputerError(
            f"Chromium ({where}) failed to start: {str(exc).splitlines()[0]}. "
            f"Run `proctor doctor`; the usual fix is `{FIX}`."
        ) from exc
    return BrowserHost(pw, browser, binary, rules, sealed=seal is not None)
