"""The plan: scenarios x arms x repeats, with arm order rotating by repeat."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from proctor.agents import Agent, NullAgent, ScriptedAgent
from proctor.agents.llm import is_model_spec, model_factory, model_skip, surface_skip
from proctor.agents.loop import ReferenceLoop, ScriptedPolicy
from proctor.compare import CANARY_ARM
from proctor.computer.actions import Action
from proctor.computer.desktop import missing_stack
from proctor.errors import RunError
from proctor.records import LABEL_RULE, is_label
from proctor.runner._live import live_skip
from proctor.scenario import MINIWOB_VERSION, LoadedScenario, Scenario, miniwob_root

AgentFactory = Callable[[Scenario], Agent]
"""Builds an agent for one attempt from the scenario with its placeholders resolved."""


@dataclass(frozen=True)
class Arm:
    """A named way of acting: the oracle, a decoy, the null agent, or an external agent."""

    name: str
    spec: str
    factory: AgentFactory
    skip: str | None = None
    """Why the arm cannot run here (e.g. no API key): its attempts are recorded as skipped."""


def replay(
    scenario: Scenario, steps: Sequence[Action], label: str, expect_error: Sequence[int] = ()
) -> Agent:
    """An agent replaying fixed steps the way the scenario's ``driver`` says."""
    if scenario.driver == "loop":
        policy = ScriptedPolicy(list(steps), expect_error=frozenset(expect_error))
        return ReferenceLoop(policy, label=f"loop:{label}")
    return ScriptedAgent(steps, label=label, expect_error=frozenset(expect_error))


def _decoy_factory(decoy: str) -> AgentFactory:
    def build(scenario: Scenario) -> Agent:
        for d in scenario.decoys:
            if d.name == decoy:
                return replay(scenario, d.steps, f"decoy:{decoy}", d.expect_error)
        names = ", ".join(d.name for d in scenario.decoys)
        raise RunError(f"scenario {scenario.id} has no decoy {decoy!r}; its decoys: {names}")

    return build


def oracle_factory(scenario: Scenario) -> Agent:
    return replay(scenario, scenario.solution, "scripted")


def null_factory(scenario: Scenario) -> Agent:
    return NullAgent()


def _command_factory(command: str) -> AgentFactory:
    def build(scenario: Scenario) -> Agent:
        # Imported here: the MCP SDK takes seconds to import, and only command arms need it.
        from proctor.agents.command import CommandAgent

        return CommandAgent(command, limits=scenario.limits.model_dump())

    return build


def parse_arm(text: str) -> Arm:
    """``NAME=SPEC`` or ``SPEC``; SPEC is ``scripted``, ``null``, ``decoy:NAME`` or ``command:CMD``.

    Raises:
        RunError: naming the spec and the valid forms.
    """
    name, sep, spec = text.partition("=")
    if not sep or ":" in name:  # no name: the "=" belongs to the spec (e.g. command:X=1 cmd)
        name, spec = "", text
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    factory: AgentFactory
    if kind == "scripted" and not arg:
        factory = oracle_factory
    elif kind == "null" and not arg:
        factory = null_factory
    elif kind == "decoy" and arg:
        factory = _decoy_factory(arg)
    elif kind == "command" and arg.strip():
        factory = _command_factory(arg.strip())
    elif is_model_spec(spec):
        factory = model_factory(spec)
    else:
        raise RunError(
            f"--arm {text!r}: unknown agent spec {spec!r}; use scripted, null, decoy:NAME, "
            "command:CMD, openai:MODEL, openai-compatible:MODEL@URL or anthropic:MODEL "
            "(e.g. --arm oracle=scripted, --arm gpt=openai:gpt-4.1-mini)"
        )
    default = kind if kind in ("command",) or is_model_spec(spec) else spec.replace(":", "-")
    name = (name or default).strip()
    if not name or any(c in name for c in "/\\ "):
        raise RunError(f"--arm {text!r}: an arm name needs letters and no slashes or spaces")
    if not is_label(name):  # it names attempt folders (<arm>-<n>) and LABEL/ARM gate sides
        raise RunError(f"--arm {text!r}: arm name {name!r} is not valid: use {LABEL_RULE}")
    if name == CANARY_ARM:
        raise RunError(
            f"--arm {text!r}: the arm name {CANARY_ARM!r} is reserved for the gate's harness "
            "canary; name the arm otherwise (NAME=SPEC)"
        )
    return Arm(name=name, spec=spec, factory=factory, skip=model_skip(name, spec))


@dataclass(frozen=True)
class PlanItem:
    """One attempt to make."""

    scenario: LoadedScenario
    arm: Arm
    repeat: int

    @property
    def attempt_id(self) -> str:
        return f"{self.scenario.scenario.id}/{self.arm.name}-{self.repeat}"

    @property
    def skip(self) -> str | None:
        """Why this attempt cannot run here: its arm's reason, else its scenario's."""
        scenario = self.scenario.scenario
        surface = "desktop" if scenario.world.desktop is not None else "browser"
        return (
            self.arm.skip
            or surface_skip(self.arm.name, self.arm.spec, surface)
            or scenario_skip(scenario)
        )


@functools.cache
def _desktop_missing() -> tuple[str, ...]:
    return tuple(missing_stack())


def scenario_skip(scenario: Scenario) -> str | None:
    """Why ``scenario`` cannot run on this machine (a desktop one without the desktop stack
    or without one of its apps, a MiniWoB one without the miniwob package, a live one whose
    hosts did not answer the connectivity probe), or None. Its attempts are recorded as
    skipped."""
    if scenario.world.live is not None:
        return live_skip(scenario)
    if scenario.world.miniwob is not None and miniwob_root() is None:
        return (
            f"the miniwob package is not installed (pip install 'proctor[miniwob]', which "
            f"pins miniwob=={MINIWOB_VERSION}; make test installs it)"
        )
    desktop = scenario.world.desktop
    if desktop is None:
        return None
    missing = list(_desktop_missing())
    missing += [
        app.command[0]
        for app in desktop.apps
        if shutil.which(app.command[0]) is None and app.command[0] not in missing
    ]
    if not missing:
        return None
    return (
        f"the desktop tier is not installed here: missing {', '.join(missing)} "
        "(make test installs it as root; proctor doctor names the Debian packages)"
    )


def make_plan(
    scenarios: Sequence[LoadedScenario], arms: Sequence[Arm], repeats: int
) -> list[PlanItem]:
    """Every scenario x arm x repeat; within a repeat, arm order rotates by the repeat."""
    if repeats < 1:
        raise RunError(f"--repeat must be at least 1, got {repeats}")
    if not arms:
        raise RunError("no arm to run; give --arm NAME=SPEC")
    names = [a.name for a in arms]
    if len(set(names)) != len(names):
        raise RunError(f"arm names must be distinct, got {names}")
    _check_decoys(scenarios, arms)
    items = []
    for repeat in range(1, repeats + 1):
        shift = (repeat - 1) % len(arms)
        order = list(arms[shift:]) + list(arms[:shift])
        for loaded in scenarios:
            for arm in order:
                items.append(PlanItem(loaded, arm, repeat))
    return items


def _check_decoys(scenarios: Sequence[LoadedScenario], arms: Sequence[Arm]) -> None:
    """Refuse, while planning, a decoy arm that some scenario of the plan lacks.

    Raises:
        RunError: naming the arm, the decoy and each scenario without it.
    """
    for arm in arms:
        kind, _, decoy = arm.spec.partition(":")
        if kind != "decoy":
            continue
        lacking = [
            s.scenario for s in scenarios if decoy not in {d.name for d in s.scenario.decoys}
        ]
        if lacking:
            first = lacking[0]
            theirs = ", ".join(d.name for d in first.decoys) or "none"
            names = ", ".join(s.id for s in lacking[:5])
            if len(lacking) > 5:
                names += f" and {len(lacking) - 5} more"
            raise RunError(
                f"--arm {arm.name}={arm.spec}: no decoy {decoy!r} in "
                f"{names} ({first.id}'s decoys: {theirs}); "
                "pick scenarios that have it (--only), or drop this arm"
            )
