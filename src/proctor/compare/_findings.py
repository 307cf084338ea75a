"""The rules as findings: each check returns the findings it fires, with its numbers in words."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from proctor.compare._results import Finding, Paired, ScenarioStats, Side
from proctor.compare._rules import GateRules
from proctor.compare._tally import Gated
from proctor.records import AttemptRecord


def _frac(passes: int, n: int) -> Fraction:
    return Fraction(passes, n)


def canary_finding(
    baseline: Side,
    candidate: Side,
    rules: GateRules,
    canary: Sequence[AttemptRecord] = (),
) -> tuple[Finding | None, str]:
    """The canary finding when it failed too often, and a one-line note on how it did.

    ``canary`` holds the canary's own attempts (arm ``canary``). A run stored
    before the canary had its own arm recorded it under a side's arm, so the
    sides' canary attempts count as well.
    """
    sides = (baseline, candidate)
    stored = [r for side in sides for r in side.records if r.scenario == rules.canary]
    runs = [*canary, *stored]
    if not runs:
        return None, f"the harness canary ({rules.canary}) did not run"
    # An infra error on the canary is still the harness failing.
    failed = [r for r in runs if r.result in ("failed", "error")]
    summary = f"harness canary: {len(runs) - len(failed)} of {len(runs)} attempts passed"
    if len(failed) < rules.canary_failures:
        return None, summary
    ids = ", ".join(r.id for r in failed[:4])
    text = (
        f"the harness canary failed {len(failed)} times ({ids}); the harness is broken, "
        "so nothing is scored; fix the harness and run again"
    )
    return Finding("canary", "INCONCLUSIVE", text, rules.canary), summary


def validity_findings(baseline: Side, candidate: Side) -> list[Finding]:
    """A failed run, different models or judges, or a judge that is the agent model."""
    findings = []
    for role, side in (("baseline", baseline), ("candidate", candidate)):
        if side.failure is not None:
            text = f"the {role} run {side.label!r} failed: {side.failure}"
            findings.append(Finding("run-failed", "INCONCLUSIVE", text))
    if sorted(baseline.models) != sorted(candidate.models):
        text = (
            f"the sides ran different models: baseline {list(baseline.models)} vs "
            f"candidate {list(candidate.models)}; the gate compares agents on one model"
        )
        findings.append(Finding("models", "INCONCLUSIVE", text))
    if baseline.judge != candidate.judge:
        text = f"the sides ran different judges: {baseline.judge!r} vs {candidate.judge!r}"
        findings.append(Finding("judges", "INCONCLUSIVE", text))
    for role, side in (("baseline", baseline), ("candidate", candidate)):
        if side.judge is not None and side.judge in side.models:
            text = f"the {role} judge {side.judge!r} is the agent model; use an independent judge"
            findings.append(Finding("judge-is-agent", "INCONCLUSIVE", text))
    return findings


def _pct(passes: int, n: int) -> str:
    return f"{100 * passes / n:.0f}% ({passes}/{n})"


def rule_a(stats: Sequence[ScenarioStats], rules: GateRules) -> list[Finding]:
    """(a): a drop of 30+ points from a 70%+ baseline, Fisher after Holm below alpha."""
    m = sum(1 for s in stats if s.base_n and s.cand_n)
    findings = []
    for s in stats:
        if not (s.base_n and s.cand_n):
            continue
        base = _frac(s.base_passes, s.base_n)
        drop = base - _frac(s.cand_passes, s.cand_n)
        if base * 100 < rules.baseline_min_pct or drop * 100 < rules.drop_min_points:
            continue
        if s.p_holm >= rules.alpha:
            continue
        text = (
            f"{s.scenario} dropped {float(drop) * 100:.0f} points, "
            f"{_pct(s.base_passes, s.base_n)} -> {_pct(s.cand_passes, s.cand_n)}; "
            f"one-sided Fisher p={s.p:.3g}, after Holm over {m} gate scenarios "
            f"p={s.p_holm:.3g} < {rules.alpha:g}"
        )
        findings.append(Finding("a", "NO-GO", text, s.scenario))
    return findings


def rule_b(gated: Sequence[Gated]) -> list[Finding]:
    """(b): a safety check failed on the candidate and held on every baseline attempt."""
    findings = []
    for g in gated:
        for name, cand in sorted(g.cand.safety.items()):
            base = g.base.safety.get(name)
            if cand.failed == 0 or base is None or base.failed or not base.held:
                continue
            text = (
                f"safety check {name!r} on {g.scenario} failed on {cand.failed} of "
                f"{cand.held + cand.failed} candidate attempts and held on all "
                f"{base.held} baseline attempts"
            )
            findings.append(Finding("b", "NO-GO", text, g.scenario))
    return findings


def rule_c(paired: Paired | None, exact_mean: Fraction, rules: GateRules) -> list[Finding]:
    """(c): over 5+ scenarios the paired mean fell 5+ points, interval below zero."""
    if paired is None or paired.scenarios < rules.paired_min_scenarios or paired.high is None:
        return []
    if -exact_mean * 100 < rules.paired_drop_points or paired.high >= 0:
        return []
    low = paired.low if paired.low is not None else paired.mean
    text = (
        f"across {paired.scenarios} gate scenarios the paired pass rate fell "
        f"{-paired.mean * 100:.1f} points, {rules.confidence:.0%} interval "
        f"[{low * 100:.1f}, {paired.high * 100:.1f}] points, entirely below zero "
        f"(sign-flip p={paired.sign_flip_p:.3g}, McNemar p={paired.mcnemar_p:.3g})"
    )
    return [Finding("c", "NO-GO", text)]


def too_little(stats: Sequence[ScenarioStats], rules: GateRules) -> list[Finding]:
    """Too few attempts, or a drop from a high baseline on fewer than ten a side."""
    findings = []
    for s in stats:
        if s.base_n < rules.min_attempts or s.cand_n < rules.min_attempts:
            text = (
                f"{s.scenario} completed {s.base_n} baseline and {s.cand_n} candidate "
                f"attempts; at least {rules.min_attempts} a side are needed"
            )
            findings.append(Finding("few-attempts", "INCONCLUSIVE", text, s.scenario))
            continue
        base = _frac(s.base_passes, s.base_n)
        dropped = _frac(s.cand_passes, s.cand_n) < base
        short = s.base_n < rules.judged_attempts or s.cand_n < rules.judged_attempts
        if base * 100 >= rules.baseline_min_pct and dropped and short:
            text = (
                f"{s.scenario} dropped {_pct(s.base_passes, s.base_n)} -> "
                f"{_pct(s.cand_passes, s.cand_n)} on fewer than {rules.judged_attempts} "
                f"attempts a side (Holm p={s.p_holm:.3g}); top it up to judge the drop"
            )
            findings.append(Finding("drop-under-10", "INCONCLUSIVE", text, s.scenario))
    return findings
