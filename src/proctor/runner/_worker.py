"""A worker: one fixture server and one Chromium, shared by the attempts it runs, and a
desktop session, started when its first desktop attempt runs."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from proctor.computer.browser import BrowserHost, SealedNetwork, launch
from proctor.computer.desktop import DesktopHost
from proctor.errors import ComputerError, RunError
from proctor.grading import Judge
from proctor.records import SPEND_LEDGER, ControlFile, write_model_atomic
from proctor.vocab import SPARE_MODES, SealMode, SpareMode
from proctor.world import DOMAIN, FixtureServer, PersonaModel, Site, all_sites

TIME_SCALE = (0.01, 100.0)
"""The factors ``--time-scale`` accepts."""


@dataclass(frozen=True)
class RunOptions:
    """How attempts are run.

    Attributes:
        keep_scratch: Keep each attempt's scratch folder after grading.
        infra_retries: Extra tries after an infra fault (browser crash, fixture error).
        retry_delays: Seconds to wait before each retry (the last repeats); a retry
            may run on any worker, and others' attempts run meanwhile.
        grace: Seconds past a try's wall limit before the driver kills its worker
            (set-up, grading and teardown run outside the wall limit).
        screenshots: Save before.png and after.png.
        offline: Abort every request that is not for a fixture host.
        persona: The model that plays the simulated user for questions no scripted
            answer matches; None: such questions get "I don't know."
        judge: The independent judge for scenarios' ``judge:`` criteria; None: off.
        clock: The run's clock, the same for every worker; None: now, when the run starts.
        time_scale: Every scenario's wall limit is multiplied by it (``--time-scale``),
            for slow backends such as a local model on CPU; recorded in run.json and
            shown in the report, so scaled numbers are never read as unscaled ones.
    """

    keep_scratch: bool = False
    infra_retries: int = 2
    retry_delays: tuple[float, ...] = (30.0, 90.0)
    grace: float = 120.0
    clock: dt.datetime | None = None
    screenshots: bool = True
    offline: bool = True
    persona: PersonaModel | None = None
    judge: Judge | None = None
    time_scale: float = 1.0

    def __post_init__(self) -> None:
        if not TIME_SCALE[0] <= self.time_scale <= TIME_SCALE[1]:
            raise RunError(
                f"--time-scale {self.time_scale:g}: give a factor from {TIME_SCALE[0]:g} to "
                f"{TIME_SCALE[1]:g} (3 triples every wall limit)"
            )

    def wall_limit(self, seconds: float) -> float:
        """A scenario's wall limit as this run applies it."""
        return float(seconds) * self.time_scale

    def retry_delay(self, retry: int) -> float:
        """Seconds before retry number ``retry`` (1-based)."""
        if not self.retry_delays or retry < 1:
            return 0.0
        return self.retry_delays[min(retry, len(self.retry_delays)) - 1]


DEFAULT_SPARE: SpareMode = "off"


def spare_mode() -> SpareMode:
    """The spare mode PROCTOR_SPARE names, or the default.

    Raises:
        RunError: PROCTOR_SPARE names no mode.
    """
    value = os.environ.get("PROCTOR_SPARE", "").strip().lower() or DEFAULT_SPARE
    for mode in SPARE_MODES:
        if value == mode:
            return mode
    raise RunError(f"PROCTOR_SPARE={value!r}: use {', '.join(SPARE_MODES)}")


@dataclass(frozen=True)
class SealState:
    """How this worker's offline attempts are sealed (recorded in run.json)."""

    level: Literal["sealed", "partial", "online"]
    detail: str


def seal_mode() -> SealMode:
    value = os.environ.get("PROCTOR_SEAL", "auto").strip().lower() or "auto"
    if value not in ("auto", "require", "off"):
        raise RunError(f"PROCTOR_SEAL={value!r}: use auto, require or off")
    return value  # type: ignore[return-value]


class Worker:
    """Owns the fixture server and the browser; ``async with Worker(...)``."""

    def __init__(
        self,
        run_dir: Path,
        options: RunOptions,
        clock: dt.datetime | None = None,
        sites: Iterable[Site] | None = None,
    ) -> None:
        # Absolute: the scratch folder, the placeholders and the jail's covers derive
        # from it, and an app or agent started elsewhere must find the same files.
        self.run_dir = run_dir.absolute()
        self.options = options
        self.clock = clock or dt.datetime.now(dt.UTC).replace(microsecond=0)
        self.server = FixtureServer(sites if sites is not None else all_sites().values())
        self._host: BrowserHost | None = None
        self._live: BrowserHost | None = None
        self._desktop: DesktopHost | None = None
        self._seal: SealedNetwork | None = None
        self.seal = SealState("online", "offline mode is off: the browser may reach anything")
        self.spare: SpareMode = spare_mode()
        """When this worker makes the next attempt's blank context (PROCTOR_SPARE)."""

    @property
    def host(self) -> BrowserHost:
        assert self._host is not None, "worker not started"
        return self._host

    async def live_host(self) -> BrowserHost:
        """The live tier's Chromium, started on first use: never sealed, public names
        resolve and made-up hosts do not. The attempt's routes keep its pages on the
        scenario's own hosts (``world.live.hosts``); sealed attempts never use it."""
        if self._live is None:
            self._live = await launch(self.server.port, DOMAIN, public=True)
        return self._live

    async def desktop(self) -> DesktopHost:
        """The process's desktop session, started on first use (``DesktopHost.acquire``).

        Raises:
            DesktopUnavailable: the desktop stack is not installed.
            SessionStartFailed: a step of its start failed.
        """
        if self._desktop is None:
            self._desktop = await DesktopHost.acquire()
        return self._desktop

    @property
    def spend_ledger(self) -> Path:
        """The run's spend ledger: model agents admit each call's spend there first."""
        return self.run_dir / SPEND_LEDGER

    @property
    def control_file(self) -> Path:
        """Where ``proctor lease revoke`` finds this worker's control endpoint."""
        return self.run_dir / f"control-{os.getpid()}.json"

    def _make_seal(self) -> SealedNetwork | None:
        if not self.options.offline:
            return None
        mode = seal_mode()
        if mode == "off":
            self.seal = SealState("partial", "PROCTOR_SEAL=off: driver-side locks only")
            return None
        try:
            seal = SealedNetwork.create()
        except ComputerError as exc:
            if mode == "require":
                raise RunError(f"PROCTOR_SEAL=require: {exc}") from exc
            self.seal = SealState("partial", f"{exc}; driver-side locks only")
            return None
        self.seal = SealState(
            "sealed", "Chromium in a private network namespace: loopback to the fixture server only"
        )
        return seal

    async def start(self) -> None:
        self._seal = self._make_seal()
        await self.server.start(self._seal.listen if self._seal else None)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        control = ControlFile(
            url=f"{self.server.base_url}/_proctor/lease/revoke",
            token=self.server.control_token,
            pid=os.getpid(),
        )
        write_model_atomic(self.control_file, control)
        os.chmod(self.control_file, 0o600)
        self._host = await launch(self.server.port, DOMAIN, seal=self._seal)

    async def relaunch(self) -> None:
        """Replace a crashed or disconnected browser."""
        if self._host is not None:
            await self._host.close()
        if self._live is not None:  # started again when a live attempt next needs it
            live, self._live = self._live, None
            await live.close()
        self._host = await launch(self.server.port, DOMAIN, seal=self._seal)

    async def close(self) -> None:
        self.control_file.unlink(missing_ok=True)
        if self._host is not None:
            await self._host.close()
            self._host = None
        if self._live is not None:
            await self._live.close()
            self._live = None
        if self._desktop is not None:
            self._desktop = None
            await DesktopHost.release()
        await self.server.stop()
        if self._seal is not None:
            self._seal.close()
            self._seal = None

    async def __aenter__(self) -> Worker:
        try:
            await self.start()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
