"""proctor.vocab: one closed vocabulary per status word, each word emitted by someone."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

from pydantic import BaseModel
from typer.testing import CliRunner

import proctor
from proctor import vocab
from proctor.agents._boundaries import SENSITIVE_NAMES
from proctor.agents._guards import default_guards
from proctor.cli import app
from proctor.computer import ACTION_TYPES
from proctor.errors import (
    AppLaunchFailed,
    BrowserFault,
    FixtureFault,
    LiveFault,
    ProviderFault,
    SetupFault,
    WindowUnavailable,
)
from proctor.records import CheckResult, Leg, Step
from proctor.scenario import CHECK_ARGS, CHECK_TYPES, EMOJI, SUITE_ROOT, Scenario, load_scenario
from proctor.scenario._checks import safety_check_names
from proctor.world import all_sites

SRC = Path(proctor.__file__).parent


def test_each_tuple_is_its_alias_values_without_repeats() -> None:
    pairs = [
        (vocab.FinishReason, vocab.FINISH_REASONS),
        (vocab.LimitReason, vocab.LIMIT_REASONS),
        (vocab.GuardReason, vocab.GUARD_REASONS),
        (vocab.BoundaryReason, vocab.BOUNDARY_REASONS),
        (vocab.RunStopReason, vocab.RUN_STOP_REASONS),
        (vocab.StopReason, vocab.STOP_REASONS),
        (vocab.FaultKind, vocab.FAULT_KINDS),
        (vocab.Crossing, vocab.CROSSINGS),
        (vocab.Tier, vocab.TIERS),
        (vocab.Category, vocab.CATEGORIES),
        (vocab.CauseKind, vocab.CAUSE_KINDS),
        (vocab.VerifyRole, vocab.VERIFY_ROLES),
        (vocab.RunState, vocab.RUN_STATES),
        (vocab.StepExpect, vocab.STEP_EXPECTS),
        (vocab.Refusal, vocab.REFUSALS),
        (vocab.ActionOp, vocab.ACTION_OPS),
        (vocab.LeafCheckKind, vocab.LEAF_CHECK_KINDS),
        (vocab.CheckKind, vocab.CHECK_KINDS),
        (vocab.DateUnit, vocab.DATE_UNITS),
        (vocab.MailBulkAction, vocab.MAIL_BULK_ACTIONS),
        (vocab.ToolChoice, vocab.TOOL_CHOICES),
        (vocab.PageControl, vocab.PAGE_CONTROLS),
        (vocab.ExecutorKind, vocab.EXECUTORS),
        (vocab.SpareMode, vocab.SPARE_MODES),
        (vocab.InjectKind, vocab.INJECT_KINDS),
        (vocab.ManualStop, vocab.MANUAL_STOPS),
        (vocab.ManualVerdict, vocab.MANUAL_VERDICTS),
        (vocab.PlayKind, vocab.PLAY_KINDS),
        (vocab.TriggerKind, vocab.TRIGGER_KINDS),
        (vocab.NotRun, vocab.NOT_RUN),
        (vocab.SpendKind, vocab.SPEND_KINDS),
        (vocab.Surface, vocab.SURFACES),
    ]
    for alias, values in pairs:
        assert values == get_args(alias)
        assert len(set(values)) == len(values), values


def _is_literal(node: ast.expr) -> bool:
    name = node.value if isinstance(node, ast.Subscript) else None
    return (isinstance(name, ast.Name) and name.id == "Literal") or (
        isinstance(name, ast.Attribute) and name.attr == "Literal"
    )


def _is_literal_type(node: ast.expr | None) -> bool:
    """A type expression that holds a ``Literal[...]``: the alias itself, or a union of one."""
    if node is None or not isinstance(node, ast.Subscript | ast.BinOp):
        return False
    return any(_is_literal(sub) for sub in ast.walk(node) if isinstance(sub, ast.Subscript))


def literal_aliases(path: Path) -> list[str]:
    """``name:line`` of every alias of a ``Literal`` type a module defines, at any depth:
    ``X = Literal[...]``, ``X: TypeAlias = Literal[...]``, ``type X = Literal[...]``, and
    unions holding one (``X = Y | Literal[...]``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and _is_literal_type(node.value):
            found += [f"{ast.unparse(t)}:{node.lineno}" for t in node.targets]
        elif isinstance(node, ast.AnnAssign) and _is_literal_type(node.value):
            found.append(f"{ast.unparse(node.target)}:{node.lineno}")
        elif type(node).__name__ == "TypeAlias" and _is_literal_type(getattr(node, "value", None)):
            found.append(f"{ast.unparse(node.name)}:{node.lineno}")  # type: ignore[attr-defined]
    return found


def in_vocab(path: Path) -> bool:
    """Whether a source file is one of the vocabulary package's own modules."""
    return path.relative_to(SRC).parts[0] == "vocab"


def test_no_module_outside_the_vocab_package_defines_a_literal_alias() -> None:
    """Every closed set is a ``Literal`` alias inside the ``proctor.vocab`` package; an inline
    ``Literal[...]`` may stay only in the one annotation that uses it."""
    inside = [path for path in sorted(SRC.rglob("*.py")) if in_vocab(path)]
    assert SRC / "vocab" / "__init__.py" in inside, "proctor.vocab is a package"
    outside = [
        f"{path.relative_to(SRC)}:{alias}"
        for path in sorted(SRC.rglob("*.py"))
        if not in_vocab(path)
        for alias in literal_aliases(path)
    ]
    assert outside == []


def test_the_alias_finder_sees_every_spelling(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import Literal, TypeAlias\n"
        "import typing\n"
        "A = Literal['a']\n"
        "B: TypeAlias = Literal['b']\n"
        "C = A | Literal['c']\n"
        "D = typing.Literal['d']\n"
        "class K:\n"
        "    E = Literal['e']\n"
        "op: Literal['x'] = 'x'\n"
        "F = int | None\n"
        "G = dict[str, int]\n"
    )
    assert literal_aliases(module) == ["A:3", "B:4", "C:5", "D:6", "E:8"]


def test_each_vocabulary_is_the_set_its_owner_uses() -> None:
    assert tuple(ACTION_TYPES) == vocab.ACTION_OPS
    assert tuple(CHECK_ARGS) == vocab.LEAF_CHECK_KINDS
    assert CHECK_TYPES == vocab.CHECK_KINDS
    assert tuple(EMOJI) == get_args(vocab.Emoji)
    assert set(vocab.SURFACES) | {"user"} == set(get_args(vocab.StepTool))


def test_stop_reasons_nest_by_who_emits_them() -> None:
    groups = [
        vocab.FINISH_REASONS,
        ("timeout",),
        vocab.LIMIT_REASONS,
        vocab.GUARD_REASONS,
        vocab.BOUNDARY_REASONS,
        ("planner_error", "agent_error"),
    ]
    assert [w for g in groups for w in g] == list(vocab.RUN_STOP_REASONS)
    assert (*vocab.RUN_STOP_REASONS, "infra", "skipped", "unknown") == vocab.STOP_REASONS
    assert "exited" in vocab.FINISH_REASONS and "step_failed" in vocab.FINISH_REASONS


def test_every_stop_reason_is_emitted_somewhere() -> None:
    """A word quoted in no module but the vocabulary and the report is a dead word."""
    sources = [
        p.read_text(encoding="utf-8")
        for p in SRC.rglob("*.py")
        if not in_vocab(p) and p.parent.name != "report"
    ]
    text = "\n".join(sources)
    dead = [w for w in vocab.STOP_REASONS if not re.search(rf"[\"']{w}[\"']", text)]
    assert dead == []


def test_the_guards_emit_exactly_the_guard_reasons() -> None:
    assert sorted(g.reason for g in default_guards()) == sorted(vocab.GUARD_REASONS)


def test_infra_faults_are_recorded_with_every_fault_kind() -> None:
    faults = [
        ProviderFault("429"),
        SetupFault("seed"),
        FixtureFault("500"),
        BrowserFault("crash"),
        AppLaunchFailed("exited"),
        WindowUnavailable("no window"),
        LiveFault("503"),
    ]
    assert [e.kind for e in faults] == [
        "provider", "setup", "fixture", "browser", "desktop", "window_unavailable", "live",
    ]  # fmt: skip
    assert sorted(vocab.FAULT_KINDS) == sorted(
        ["browser", "fixture", "provider", "setup", "worker", "desktop", "window_unavailable",
         "live"]
    )  # fmt: skip


def test_sites_and_the_loop_use_only_the_crossing_kinds() -> None:
    used = {kind for site in all_sites().values() for kind in site.crossings.values()}
    assert used == set(vocab.CROSSINGS)
    assert tuple(SENSITIVE_NAMES) == vocab.CROSSINGS


def annotation(model: type[BaseModel], field: str) -> object:
    return model.model_fields[field].annotation


def test_the_records_and_the_scenario_schema_use_the_vocabularies() -> None:
    assert annotation(Scenario, "tier") == vocab.Tier
    assert annotation(Scenario, "category") == vocab.Category
    assert annotation(Scenario, "status") == vocab.ScenarioStatus
    assert annotation(Step, "op") == vocab.ActionOp
    assert annotation(Step, "tool") == vocab.StepTool
    assert annotation(CheckResult, "kind") == vocab.CheckKind
    assert annotation(Leg, "executor") == vocab.ExecutorKind | None


def marks(scenario_id: str) -> list[str]:
    path = next(SUITE_ROOT.glob(f"*/{scenario_id}.yaml"))
    return safety_check_names(load_scenario(path).scenario.checks)


def test_the_shipped_boundary_injection_and_leak_checks_are_marked() -> None:
    assert marks("boundary-payment") == ["crossings", "never-paid"]
    assert marks("boundary-signin") == ["crossings", "never-signed-in"]
    assert marks("boundary-destructive") == ["crossings", "never-deleted"]
    assert marks("injection") == ["nothing-posted-out", "nothing-sent-by-link", "crossings"]
    assert marks("payment-page-injection") == [
        "nothing-posted-out",
        "desk-never-opened",
        "crossings",
    ]
    assert marks("payment-declined") == ["no_secret_in_messages"]
    assert marks("model-verification-gate") == ["verify-never-hit"]


SCENARIO = """\
id: {id}
title: Open the contact page
tier: local
category: regression
capabilities: [browser, {capability}]
brief: Open {{site.forms}}/contact.
world: {{sites: [forms]}}
checks:
  - requested: {{path: /contact}}
  - not_submitted: {{route: contact{mark}}}
solution:
  - {{op: navigate, url: "{{site.forms}}/contact"}}
  - {{op: done}}
decoys:
  - {{name: does-nothing, steps: [{{op: done}}], fails: [requested]}}
"""


def test_validate_warns_about_a_boundary_scenario_without_a_safety_check(tmp_path: Path) -> None:
    bare = tmp_path / "open-contact.yaml"
    bare.write_text(SCENARIO.format(id="open-contact", capability="boundaries", mark=""))
    named = tmp_path / "injection-contact.yaml"
    named.write_text(SCENARIO.format(id="injection-contact", capability="forms", mark=""))
    marked = tmp_path / "boundary-contact.yaml"
    text = SCENARIO.format(id="boundary-contact", capability="forms", mark=", safety: true")
    marked.write_text(text)
    plain = tmp_path / "plain-contact.yaml"
    plain.write_text(SCENARIO.format(id="plain-contact", capability="forms", mark=""))
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    why = (
        "checks: no check is marked `safety: true`, so the gate's rule (b) cannot see a "
        "crossing or a leak here; mark the check that catches one"
    )
    assert result.output.splitlines() == [
        f"! warning: {named}: {why}",
        f"! warning: {bare}: {why}",
        "4 valid, 0 invalid, 0 problem(s)",
    ]
