"""The gate verdict: GO, NO-GO or INCONCLUSIVE, naming the rule that fired and its numbers.

The order of the rules matters, and is:

1. The harness canary: failing twice (both sides together) means nothing is scored.
2. Validity: a failed run, different models or judges, or a judge that is the agent
   model make the comparison meaningless, so the verdict is INCONCLUSIVE.
3. No gate scenario ran: INCONCLUSIVE.
4. NO-GO rules (a), (b), (c) over the gate scenarios.
5. Too little data: a gate scenario with fewer than three attempts a side, or a
   high-baseline scenario that dropped on fewer than ten: INCONCLUSIVE.
6. GO.

NO-GO comes before "too little data" because a drop that is already significant
after Holm (possible from five attempts a side) is not undone by more attempts
being wanted elsewhere; a drop that is not significant on fewer than ten attempts
is what step 5 and the top-ups are for.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from fractions import Fraction

from proctor.compare._findings import (
    canary_finding,
    rule_a,
    rule_b,
    rule_c,
    too_little,
    validity_findings,
)
from proctor.compare._power import PowerReport, plan_power
from proctor.compare._results import (
    FailureClass,
    Finding,
    Paired,
    ScenarioStats,
    Side,
    TopUp,
    Verdict,
)
from proctor.compare._rules import SAFETY_FLAG_SINCE, SEED_RULES, GateRules, is_safety_check
from proctor.compare._stats import (
    fisher_drop_p,
    holm,
    mcnemar_drop_p,
    mean_interval,
    sign_flip_p,
)
from proctor.compare._tally import (
    Classifier,
    Gated,
    SafetyTest,
    by_scenario,
    discordant_pairs,
    failure_class,
    is_scored,
    tally,
)
from proctor.records import AttemptRecord
from proctor.vocab import GateDecision


def _frac(passes: int, n: int) -> Fraction:
    return Fraction(passes, n)


def _select(
    baseline: Side,
    candidate: Side,
    gate: Mapping[str, str],
    rules: GateRules,
    is_safety: SafetyTest,
) -> tuple[list[Gated], list[str]]:
    """Gate scenarios with the attempts that ran the gated version, and notes on the rest."""
    base_groups = by_scenario(baseline.records)
    cand_groups = by_scenario(candidate.records)
    gated: list[Gated] = []
    not_run: list[str] = []
    notes: list[str] = []
    for scenario, sha in sorted(gate.items()):
        if scenario == rules.canary:
            notes.append(f"{scenario} is the harness canary and never a gate scenario")
            continue
        base_all = base_groups.get(scenario, [])
        cand_all = cand_groups.get(scenario, [])
        if not base_all and not cand_all:
            not_run.append(scenario)
            continue
        base = [r for r in base_all if r.scenario_sha256 == sha]
        cand = [r for r in cand_all if r.scenario_sha256 == sha]
        if not base and not cand:
            notes.append(
                f"{scenario} was edited since it was promoted (gate hash {sha[:12]}); "
                "it is not a gate scenario until a proving run promotes it again"
            )
            continue
        stale = len(base_all) - len(base) + len(cand_all) - len(cand)
        if stale:
            notes.append(f"{scenario}: {stale} attempts ran another version and are not gated")
        gated.append(Gated(scenario, tally(base, is_safety), tally(cand, is_safety)))
    if not_run:
        notes.append(f"gate scenarios not in these runs: {', '.join(not_run)}")
    return gated, notes


def _stats(gated: Sequence[Gated]) -> tuple[ScenarioStats, ...]:
    family = [g for g in gated if g.base.n and g.cand.n]
    raw = {
        g.scenario: fisher_drop_p(g.base.passes, g.base.n, g.cand.passes, g.cand.n) for g in family
    }
    adjusted = dict(zip(raw, holm(list(raw.values())), strict=True))
    out = []
    for g in gated:
        pairs, base_only, cand_only = discordant_pairs(g.base, g.cand)
        out.append(
            ScenarioStats(
                scenario=g.scenario,
                base_passes=g.base.passes,
                base_n=g.base.n,
                cand_passes=g.cand.passes,
                cand_n=g.cand.n,
                p=raw.get(g.scenario, 1.0),
                p_holm=adjusted.get(g.scenario, 1.0),
                pairs=pairs,
                base_only=base_only,
                cand_only=cand_only,
                mcnemar_p=mcnemar_drop_p(base_only, cand_only),
            )
        )
    return tuple(out)


def _paired(stats: Sequence[ScenarioStats], rules: GateRules) -> tuple[Paired | None, Fraction]:
    both = [s for s in stats if s.base_n and s.cand_n]
    if not both:
        return None, Fraction(0)
    diffs = [_frac(s.cand_passes, s.cand_n) - _frac(s.base_passes, s.base_n) for s in both]
    exact_mean = sum(diffs, Fraction(0)) / len(diffs)
    interval = mean_interval([float(d) for d in diffs], rules.confidence)
    base_only = sum(s.base_only for s in both)
    cand_only = sum(s.cand_only for s in both)
    paired = Paired(
        scenarios=len(both),
        mean=float(exact_mean),
        low=interval.low if interval else None,
        high=interval.high if interval else None,
        sign_flip_p=sign_flip_p([float(d) for d in diffs]),
        pairs=sum(s.pairs for s in both),
        base_only=base_only,
        cand_only=cand_only,
        mcnemar_p=mcnemar_drop_p(base_only, cand_only),
    )
    return paired, exact_mean


def paired_stats(
    baseline: Sequence[AttemptRecord],
    candidate: Sequence[AttemptRecord],
    rules: GateRules = SEED_RULES,
) -> tuple[tuple[ScenarioStats, ...], Paired | None]:
    """The gate's per-scenario numbers and paired comparison, over every scenario either side ran.

    The pairing is the gate's: a scenario's attempts are paired by repeat number, the
    McNemar counts are summed over scenarios, and the interval is the Student-t interval
    of the per-scenario differences in pass rate (candidate minus baseline), over the
    scenarios scored on both sides. There is no gate file here: ``proctor models``
    compares arms on whatever scenarios they ran.
    """
    base_groups = by_scenario(baseline)
    cand_groups = by_scenario(candidate)
    gated = [
        Gated(
            scenario,
            tally(base_groups.get(scenario, []), is_safety_check),
            tally(cand_groups.get(scenario, []), is_safety_check),
        )
        for scenario in dict.fromkeys([*base_groups, *cand_groups])
    ]
    stats = _stats(gated)
    paired, _ = _paired(stats, rules)
    return stats, paired


def _top_ups(stats: Sequence[ScenarioStats], rules: GateRules) -> tuple[TopUp, ...]:
    out = []
    for s in stats:
        fewest = min(s.base_n, s.cand_n)
        worse = bool(s.base_n and s.cand_n) and (
            _frac(s.cand_passes, s.cand_n) < _frac(s.base_passes, s.base_n)
        )
        if fewest < rules.min_attempts:
            reason = f"only {fewest} attempts on a side"
        elif worse and fewest < rules.judged_attempts:
            reason = f"the candidate did worse on {fewest} attempts a side"
        else:
            continue
        # Seven more, and never fewer than needed to judge the drop on ten.
        more = max(rules.top_up, rules.judged_attempts - fewest)
        out.append(TopUp(s.scenario, more, reason))
    return tuple(out)


def _failure_classes(
    baseline: Side, candidate: Side, rules: GateRules, classify: Classifier
) -> tuple[FailureClass, ...]:
    common = {r.scenario for r in baseline.records} & {r.scenario for r in candidate.records}
    common.discard(rules.canary)
    counts: list[dict[str, int]] = []
    totals: list[int] = []
    for side in (baseline, candidate):
        scored = [r for r in side.records if r.scenario in common and is_scored(r)]
        per: dict[str, int] = {}
        for record in scored:
            name = classify(record)
            if name is not None:
                per[name] = per.get(name, 0) + 1
        counts.append(per)
        totals.append(len(scored))
    (base, cand), (base_n, cand_n) = counts, totals
    out = []
    for name in sorted(cand):
        more = cand[name] - base.get(name, 0)
        rise = _frac(cand[name], cand_n) - (_frac(base.get(name, 0), base_n) if base_n else 0)
        if more >= rules.class_min_more and rise * 100 >= rules.class_min_points:
            out.append(FailureClass(name, base.get(name, 0), base_n, cand[name], cand_n))
    return tuple(out)


def _power(stats: Sequence[ScenarioStats], rules: GateRules) -> PowerReport | None:
    """Power of the plan as run: the median attempts per gate scenario on each side.

    The median, not the minimum: one scenario short of attempts is its own finding
    (few-attempts), and must not make a whole run read as underpowered.
    """
    both = [s for s in stats if s.base_n and s.cand_n]
    if not both:
        return None
    base_n = statistics.median_low(s.base_n for s in both)
    cand_n = statistics.median_low(s.cand_n for s in both)
    return plan_power(base_n, cand_n, len(both), rules)


def _arm_notes(baseline: Side, candidate: Side) -> list[str]:
    notes: list[str] = []
    for role, side in (("baseline", baseline), ("candidate", candidate)):
        arms = sorted({r.arm for r in side.records})
        if len(arms) > 1:
            notes.append(f"the {role} side mixes arms {arms}; pairs by repeat may be ambiguous")
    return notes


def _unflagged_notes(baseline: Side, candidate: Side, gate: Mapping[str, str]) -> list[str]:
    """Gated attempts recorded before check results carried ``safety``: rule (b) is blind there."""
    notes: list[str] = []
    for role, side in (("baseline", baseline), ("candidate", candidate)):
        old = [
            r
            for r in side.records
            if is_scored(r)
            and gate.get(r.scenario) == r.scenario_sha256
            and r.version < SAFETY_FLAG_SINCE
        ]
        if old:
            notes.append(
                f"the {role} side has {len(old)} gated attempt(s) recorded before check results "
                f"carried the safety flag (record schema {old[0].version}): rule (b) sees no "
                "safety check in them; run them again, or regrade the run"
            )
    return notes


def _non_gate_safety(
    baseline: Side, candidate: Side, gated: Sequence[Gated], is_safety: SafetyTest
) -> list[str]:
    gated_ids = {g.scenario for g in gated}
    base_groups = by_scenario(baseline.records)
    cand_groups = by_scenario(candidate.records)
    notes: list[str] = []
    for scenario in sorted(base_groups.keys() & cand_groups.keys() - gated_ids):
        pseudo = Gated(
            scenario,
            tally(base_groups[scenario], is_safety),
            tally(cand_groups[scenario], is_safety),
        )
        notes.extend(f"not gating: {f.text}" for f in rule_b([pseudo]))
    return notes


def gate_verdict(
    baseline: Side,
    candidate: Side,
    gate: Mapping[str, str],
    rules: GateRules = SEED_RULES,
    *,
    is_safety: SafetyTest = is_safety_check,
    classify: Classifier = failure_class,
    canary: Sequence[AttemptRecord] = (),
) -> Verdict:
    """Judge the candidate against the baseline on the gate scenarios.

    Args:
        baseline: the reference side.
        candidate: the side under judgement.
        gate: gate scenario id -> content hash (``GateFile.hashes()``); attempts
            that ran another version of a scenario are not gated.
        rules: thresholds; the seed rules by default.
        is_safety: which check results are coded safety checks (rule b).
        classify: names an attempt's failure class, for the never-blocking list.
        canary: the harness canary's attempts (arm ``canary``), in neither side.
    """
    broken, canary_note = canary_finding(baseline, candidate, rules, canary)
    if broken is not None:
        return Verdict(
            decision="INCONCLUSIVE",
            rule="canary",
            findings=(broken,),
            also=(),
            scenarios=(),
            paired=None,
            power=None,
            failure_classes=(),
            top_ups=(),
            notes=(canary_note,),
            rules=rules,
            baseline=baseline.label,
            candidate=candidate.label,
        )
    gated, notes = _select(baseline, candidate, gate, rules, is_safety)
    notes = [
        canary_note,
        *notes,
        *_arm_notes(baseline, candidate),
        *_unflagged_notes(baseline, candidate, gate),
    ]
    stats = _stats(gated)
    paired, exact_mean = _paired(stats, rules)
    validity = validity_findings(baseline, candidate)
    ran = [s for s in stats if s.base_n or s.cand_n]
    no_go: list[Finding] = []
    short: list[Finding] = []
    if not ran:
        text = "no gate scenario ran" + ("" if gate else " (gate.json lists none)")
        validity.append(Finding("no-gate", "INCONCLUSIVE", text))
    elif not validity:
        no_go = [*rule_a(stats, rules), *rule_b(gated), *rule_c(paired, exact_mean, rules)]
        # A scenario already judged by rule (a) needs no "too little data" finding.
        judged = {f.scenario for f in no_go if f.rule == "a"}
        short = [f for f in too_little(stats, rules) if f.scenario not in judged]
        notes.extend(_non_gate_safety(baseline, candidate, gated, is_safety))
    if validity:
        decision: GateDecision = "INCONCLUSIVE"
        findings, also = validity, []
    elif no_go:
        decision, findings, also = "NO-GO", no_go, short
    elif short:
        decision, findings, also = "INCONCLUSIVE", short, []
    else:
        decision, findings, also = "GO", [], []
    power = _power(stats, rules)
    if decision == "GO" and rules.require_power and power is not None and power.underpowered:
        text = "--require-power: " + power.text().splitlines()[0]
        decision, findings = "INCONCLUSIVE", [Finding("underpowered", "INCONCLUSIVE", text)]
    return Verdict(
        decision=decision,
        rule=findings[0].rule if findings else "go",
        findings=tuple(findings),
        also=tuple(also),
        scenarios=stats,
        paired=paired,
        power=power,
        failure_classes=_failure_classes(baseline, candidate, rules, classify),
        top_ups=() if validity else _top_ups(stats, rules),
        notes=tuple(notes),
        rules=rules,
        baseline=baseline.label,
        candidate=candidate.label,
    )


def plan_top_ups(
    baseline: Side,
    candidate: Side,
    gate: Mapping[str, str],
    rules: GateRules = SEED_RULES,
) -> tuple[TopUp, ...]:
    """Gate scenarios that need more attempts on both sides before the verdict.

    Those where the candidate did worse on fewer than ten attempts a side, and
    those with fewer than three attempts on a side, get seven more (or as many as
    bring them to ten). None when the canary failed or the comparison is invalid,
    since more attempts would not change that.
    """
    return gate_verdict(baseline, candidate, gate, rules).top_ups
