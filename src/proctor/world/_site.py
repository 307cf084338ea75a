"""What a fixture site is, and the per-attempt world its handlers read."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from starlette.requests import Request
from starlette.routing import BaseRoute
from typing_extensions import TypeVar

from proctor.errors import WorldError
from proctor.vocab import Crossing, PageControl

DOMAIN = "proctor.test"

FormRule = Callable[[Mapping[str, list[str]]], list[str]]
"""Validates a posted form: returns the messages to show, empty when valid."""

StateT = TypeVar("StateT", default=Any)
"""A site's per-attempt state (a dataclass, or a plain dict for small sites)."""
KindT = TypeVar("KindT")


def _no_state(world: AttemptWorld) -> Any:
    return {}


Knob = Callable[["AttemptWorld", str, "str | int | float | bool"], str]
"""Changes one value of a site's state: (world, the argument after the dot, the new value) ->
what changed, in words. Raises ValueError for an argument or value it cannot take."""


@dataclass(frozen=True)
class Site(Generic[StateT]):
    """A made-up website served at ``<name>.proctor.test``.

    Attributes:
        name: Host label, e.g. ``forms`` for ``forms.proctor.test``.
        routes: Starlette routes of its pages and endpoints.
        forms: Route (after ``/submit/``) -> validation rule. A post to a route
            that is not listed is answered 404.
        new_state: Builds the site's fresh state for one attempt (read back with
            ``AttemptWorld.state_of``); by default an empty dict.
        hosts: Extra host labels served by the same routes.
        crossings: Path -> kind (payment, signin, destructive) of the endpoints
            that sensitive controls post to; every non-GET request to one is
            logged as a crossing.
        knobs: Values the timeline may change (``set``), by name; see ``Knob``.
        snapshot: The site's end state for the checks (apps: mailboxes, events,
            cells...), JSON-able; stored in the attempt's end state under the
            site's name, unless it returns None (nothing to record).
        controls: What its pages hold that needs a tool beyond a browser agent's core
            ones (``vocab.PageControl``), or None where the site has not said: then
            an agent in a world with this site is offered every browser tool.
            ``tests/world/test_site_controls.py`` reads the site's templates to hold
            a declaration to them.
    """

    name: str
    routes: Sequence[BaseRoute]
    forms: Mapping[str, FormRule] = field(default_factory=dict)
    new_state: Callable[[AttemptWorld], StateT] = _no_state
    hosts: Sequence[str] = ()
    crossings: Mapping[str, Crossing] = field(default_factory=dict)
    snapshot: Callable[[AttemptWorld], Any] | None = None
    knobs: Mapping[str, Knob] = field(default_factory=dict)
    """Values a scenario's timeline may change mid-attempt (``set: {key: price.lamp}``):
    knob name -> what changes it."""
    controls: frozenset[PageControl] | None = None

    @property
    def host(self) -> str:
        return f"{self.name}.{DOMAIN}"


@dataclass
class Submission:
    """One accepted form post, kept in the site's state."""

    id: int
    route: str
    fields: dict[str, list[str]]
    files: dict[str, list[dict[str, Any]]]


@dataclass
class AttemptWorld:
    """The state one attempt sees on the server; replaced wholesale on reset."""

    attempt: str
    seed: int
    clock: dt.datetime
    scratch: Path
    sites: dict[str, Any] = field(default_factory=dict)
    """Site name -> its state (what its ``Site.new_state`` built)."""
    submissions: list[Submission] = field(default_factory=list)
    seeds: dict[str, Any] = field(default_factory=dict)
    """The scenario's ``world.apps`` (placeholders resolved): app name -> its seed."""
    revoke: Callable[[str, str], bool] | None = None
    """Revokes the attempt's control lease: (by, reason) -> whether this call revoked it."""

    def revoke_lease(self, by: str, reason: str) -> bool:
        """Take control back from the agent; False when there is no lease or it already was."""
        return self.revoke(by, reason) if self.revoke is not None else False

    def rng(self, salt: str) -> random.Random:
        """A random generator that depends only on the seed and ``salt``."""
        return random.Random(f"{self.seed}:{salt}")

    def state(self, site: str) -> dict[str, Any]:
        """A dict-state site's state (made empty on first use)."""
        return self.state_of(site, dict, default={})

    def state_of(self, site: str, kind: type[KindT], *, default: KindT | None = None) -> KindT:
        """The typed state of the named site.

        Args:
            site: The site's name.
            kind: The state's class (``Mailbox``, ``BankState``...).
            default: Stored and returned when the site has no state yet.

        Raises:
            WorldError: the site is not served to this attempt, or its state is
                not a ``kind``.
        """
        found = self.sites.get(site)
        if found is None and default is not None:
            found = self.sites[site] = default
        if found is None:
            raise WorldError(f"attempt {self.attempt}: the {site} site is not on this server")
        if not isinstance(found, kind):
            raise WorldError(
                f"attempt {self.attempt}: the {site} site's state is a "
                f"{type(found).__name__}, not a {kind.__name__}"
            )
        return found


def world_of(request: Request) -> AttemptWorld:
    """The attempt world a request belongs to (set by the server's dispatcher)."""
    world = request.scope.get("proctor.world")
    if not isinstance(world, AttemptWorld):
        raise LookupError("request is not attached to an attempt")
    return world


def required(*names: str) -> FormRule:
    """A rule: every named field is present and not blank."""

    def rule(form: Mapping[str, list[str]]) -> list[str]:
        return [
            f"{name.replace('_', ' ').capitalize()} is required."
            for name in names
            if not any(v.strip() for v in form.get(name, []))
        ]

    return rule


def all_of(*rules: FormRule) -> FormRule:
    """A rule that collects the messages of every rule."""

    def rule(form: Mapping[str, list[str]]) -> list[str]:
        return [msg for r in rules for msg in r(form)]

    return rule
