"""Fault injection for tests: ``PROCTOR_INJECT`` names infra faults to cause on purpose.

The value is a comma-separated list of ``[SCENARIO:]KIND@AT[xTRIES]``:

- KIND: ``browser`` (Chromium is killed), ``driver`` (the Playwright driver is
  killed), ``worker`` (the worker process kills itself), ``hang`` (the worker
  stalls in a call that never returns, until the driver's deadline kills it;
  under ``pool`` and ``ray`` only), ``fixture`` (a fixture
  handler raises), ``provider`` (a model call answers HTTP 500, on every retry),
  ``app`` (the desktop app the agent drives is killed, as a crash would);
- AT: the agent's Nth recorded step (browser, driver, worker, app), the Nth request
  of the try (fixture) or the Nth model call (provider), from 1; or ``done``:
  after the agent stopped, before the end state is read (browser, driver, worker, hang);
- TRIES: the tries it hits, ``x1`` by default (the first try only, so the
  retry passes), ``x*`` for every try (so the retries run out);
- SCENARIO: only attempts of that scenario id.

``PROCTOR_INJECT=browser@done`` kills Chromium right after each attempt's first
try ends; ``form-fill:provider@1x*`` fails every model call of form-fill. A bad
value is refused with the part that is wrong. Each injection site asks ``due``
with the try's tag (``scenario/arm-n#try``), which the runner sets for the try
(``attempt_scope``); nothing is injected when the variable is unset.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from proctor.errors import RunError
from proctor.records import TryId
from proctor.vocab import INJECT_KINDS, InjectKind

INJECT_ENV = "PROCTOR_INJECT"

_STEP_KINDS = ("browser", "driver", "worker", "hang", "app")
_PART = re.compile(
    r"^(?:(?P<scenario>[A-Za-z0-9._-]+):)?(?P<kind>[a-z]+)@(?P<at>\d+|done)(?:x(?P<tries>\d+|\*))?$"
)


@dataclass(frozen=True)
class Injection:
    """One fault to cause."""

    kind: InjectKind
    at: int | Literal["done"]
    tries: int | None
    """How many tries it hits (from the first); None: every try."""
    scenario: str | None = None

    def hits(self, kind: InjectKind, at: int | Literal["done"], tag: str) -> bool:
        scenario = tag.partition("/")[0]
        try_id = TryId.parse(tag)
        try_number = try_id.number if try_id is not None else 1
        return (
            self.kind == kind
            and self.at == at
            and (self.scenario is None or self.scenario == scenario)
            and (self.tries is None or try_number <= self.tries)
        )


@functools.cache
def parse(value: str) -> tuple[Injection, ...]:
    """The injections a ``PROCTOR_INJECT`` value names.

    Raises:
        RunError: naming the part that does not parse and the grammar.
    """
    found: list[Injection] = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        match = _PART.match(part)
        kind = match["kind"] if match else None
        if match is None or kind not in INJECT_KINDS:
            raise RunError(
                f"{INJECT_ENV}={value!r}: {part!r} is not [SCENARIO:]KIND@AT[xTRIES] with KIND "
                f"one of {', '.join(INJECT_KINDS)} (e.g. browser@2, fixture@1x*, provider@1)"
            )
        at: int | Literal["done"] = "done" if match["at"] == "done" else int(match["at"])
        if at == "done" and kind not in _STEP_KINDS:
            raise RunError(f"{INJECT_ENV}={value!r}: {part!r}: only {_STEP_KINDS} take @done")
        if at == 0:
            raise RunError(f"{INJECT_ENV}={value!r}: {part!r}: AT counts from 1")
        tries = None if match["tries"] == "*" else int(match["tries"] or 1)
        found.append(Injection(kind, at, tries, match["scenario"]))
    return tuple(found)


def injections() -> tuple[Injection, ...]:
    """What ``PROCTOR_INJECT`` names now (empty when unset)."""
    return parse(os.environ.get(INJECT_ENV, ""))


_TRY: ContextVar[tuple[str, dict[str, int]] | None] = ContextVar("proctor_inject_try", default=None)


@contextlib.contextmanager
def attempt_scope(tag: str) -> Iterator[None]:
    """Mark the code inside as the try ``tag`` (for sites that do not know it)."""
    token = _TRY.set((tag, {}))
    try:
        yield
    finally:
        _TRY.reset(token)


def current_tag() -> str | None:
    scope = _TRY.get()
    return scope[0] if scope else None


def due(kind: InjectKind, at: int | Literal["done"], tag: str | None = None) -> bool:
    """Whether an injection of ``kind`` fires at ``at`` in the try ``tag`` (default: current)."""
    wanted = injections()
    if not wanted:
        return False
    tag = tag if tag is not None else current_tag()
    return tag is not None and any(i.hits(kind, at, tag) for i in wanted)


def count(kind: InjectKind) -> int:
    """Count one more event of ``kind`` in the current try; its number from 1 (0: no try)."""
    scope = _TRY.get()
    if scope is None:
        return 0
    counts = scope[1]
    counts[kind] = counts.get(kind, 0) + 1
    return counts[kind]
