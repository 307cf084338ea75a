"""gate --require-power: a GO from a plan that could never say NO-GO is INCONCLUSIVE."""

from __future__ import annotations

import dataclasses

from gate_records import runs, sha_of

from proctor.compare import SEED_RULES, Side, gate_verdict, render_verdict

GATE = {"s1": sha_of("s1")}


def test_an_underpowered_go_stays_go_unless_power_is_required() -> None:
    base, cand = Side("base", runs("s1", 3, 3)), Side("cand", runs("s1", 3, 3))
    plain = gate_verdict(base, cand, GATE)
    assert (plain.decision, plain.rule, plain.underpowered) == ("GO", "go", True)
    strict = dataclasses.replace(SEED_RULES, require_power=True)
    verdict = gate_verdict(base, cand, GATE, strict)
    assert (verdict.decision, verdict.rule) == ("INCONCLUSIVE", "underpowered")
    assert verdict.findings[0].text.startswith("--require-power: underpowered: 3 attempts a side")
    assert "--require-power" in render_verdict(verdict)


def test_a_powered_go_is_go_with_power_required() -> None:
    base, cand = Side("base", runs("s1", 10, 10)), Side("cand", runs("s1", 10, 10))
    strict = dataclasses.replace(SEED_RULES, require_power=True)
    verdict = gate_verdict(base, cand, GATE, strict)
    assert (verdict.decision, verdict.underpowered) == ("GO", False)
