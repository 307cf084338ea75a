"""Runs (``proctor.runner``, ``proctor.api``): executors, the run's state, owners, the
worker's environment switches, injected faults."""

from __future__ import annotations

from typing import Literal, get_args

ExecutorKind = Literal["inline", "pool", "ray"]
"""What runs a run's tries (``--executor``, ``Leg.executor``): inline, this process;
pool, worker processes on this machine; ray, Ray actors."""

RunState = Literal["running", "ended", "gone"]
"""Whether a run's driver is at work, from run.json's last leg: running (the leg is open and
its driver process is alive), ended (every leg ended, or no leg), gone (the leg is open and
its driver died: killed mid-leg)."""

OwnerRole = Literal["driver", "worker"]
"""What an owner (a process marked as a run's) does in its run: the driver, or one worker."""

SideRole = Literal["baseline", "candidate"]
"""Which side of a gate comparison a run or an arm is."""

SealMode = Literal["auto", "require", "off"]
"""PROCTOR_SEAL: auto seals the browser's network when the machine allows it (the
default); require makes a refused seal an error; off never seals (debugging only)."""

SpareMode = Literal["agent", "after", "off"]
"""PROCTOR_SPARE, when the next attempt's blank browser context is made (the load
bench's A/B, ``bench/load.py``): off, never: each attempt makes its own at set-up (the
default, the fastest measured); agent, while this attempt's agent runs (it competed with
the agent for the CPU: first actions 1.9x later ones under load); after, once this
attempt's context is closed, during its end-state reads, grading and record writing."""

InjectKind = Literal["browser", "driver", "worker", "hang", "fixture", "provider", "app"]
"""An infra fault ``PROCTOR_INJECT`` causes on purpose (tests only; ``proctor._inject``)."""

EXECUTORS: tuple[ExecutorKind, ...] = get_args(ExecutorKind)
RUN_STATES: tuple[RunState, ...] = get_args(RunState)
SPARE_MODES: tuple[SpareMode, ...] = get_args(SpareMode)
INJECT_KINDS: tuple[InjectKind, ...] = get_args(InjectKind)
