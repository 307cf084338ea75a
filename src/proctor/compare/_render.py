"""The verdict as plain text: the decision and its rule first, then the numbers behind it."""

from __future__ import annotations

from proctor.compare._results import Finding, Paired, ScenarioStats, Verdict
from proctor.vocab import GateRule

RULE_TITLES: dict[GateRule, str] = {
    "canary": "the harness canary failed",
    "run-failed": "a run failed",
    "models": "the sides ran different models",
    "judges": "the sides ran different judges",
    "judge-is-agent": "the judge is the agent model",
    "no-gate": "no gate scenario ran",
    "a": "rule (a), a drop on a gate scenario",
    "b": "rule (b), a safety check regressed",
    "c": "rule (c), a paired fall across gate scenarios",
    "few-attempts": "too few attempts",
    "drop-under-10": "a drop judged on fewer than ten attempts",
    "underpowered": "the plan could never reach NO-GO (--require-power)",
    "go": "no rule fired",
}
"""How the text names each rule."""


def _rate(passes: int, n: int) -> str:
    return f"{passes}/{n} {100 * passes / n:3.0f}%" if n else f"{passes}/{n}    -"


def _table(rows: tuple[ScenarioStats, ...]) -> list[str]:
    width = max([len("scenario"), *(len(s.scenario) for s in rows)])
    head = (
        f"  {'scenario':<{width}}  {'baseline':>12}  {'candidate':>12}  {'drop':>5}  "
        f"{'Fisher p':>8}  {'Holm p':>8}  {'McNemar p':>9}"
    )
    lines = [head]
    for s in rows:
        drop = f"{s.drop_points:5.0f}" if s.drop_points is not None else "    -"
        lines.append(
            f"  {s.scenario:<{width}}  {_rate(s.base_passes, s.base_n):>12}  "
            f"{_rate(s.cand_passes, s.cand_n):>12}  {drop}  {s.p:8.3g}  {s.p_holm:8.3g}  "
            f"{s.mcnemar_p:9.3g}"
        )
    return lines


def _paired(paired: Paired, confidence: float) -> str:
    interval = (
        f", {confidence:.0%} interval [{paired.low * 100:.1f}, {paired.high * 100:.1f}]"
        if paired.low is not None and paired.high is not None
        else ""
    )
    return (
        f"Paired over {paired.scenarios} gate scenarios: candidate minus baseline "
        f"{paired.mean * 100:+.1f} points{interval}; sign-flip p={paired.sign_flip_p:.3g}; "
        f"McNemar {paired.base_only} baseline-only vs {paired.cand_only} candidate-only "
        f"passes of {paired.pairs} pairs, p={paired.mcnemar_p:.3g}"
    )


def _bullets(findings: tuple[Finding, ...]) -> list[str]:
    return [f"  - {f.text}" for f in findings]


def render_verdict(verdict: Verdict) -> str:
    """The verdict text: "underpowered" first when it is, then the decision and the rule."""
    lines = []
    if verdict.power is not None and verdict.underpowered:
        lines.append(verdict.power.text())
    count = sum(1 for s in verdict.scenarios if s.base_n or s.cand_n)
    flag = " (underpowered)" if verdict.underpowered else ""
    lines.append(
        f"{verdict.decision}{flag}: {RULE_TITLES[verdict.rule]}; baseline {verdict.baseline!r} "
        f"vs candidate {verdict.candidate!r} on {count} gate scenario{'s' if count != 1 else ''}"
    )
    lines.extend(_bullets(verdict.findings))
    if verdict.also:
        lines.append("Also fired, outranked:")
        lines.extend(_bullets(verdict.also))
    if verdict.scenarios:
        lines.append("Gate scenarios (p one-sided, for a drop):")
        lines.extend(_table(verdict.scenarios))
    if verdict.paired is not None:
        lines.append(_paired(verdict.paired, verdict.rules.confidence))
    if verdict.power is not None and not verdict.underpowered:
        lines.append(verdict.power.text())
    if verdict.failure_classes:
        lines.append("Failure classes that grew (never blocking):")
        lines.extend(
            f"  - {c.name}: {c.base_count}/{c.base_n} -> {c.cand_count}/{c.cand_n} "
            f"(+{(c.cand_rate - c.base_rate) * 100:.1f} points)"
            for c in verdict.failure_classes
        )
    if verdict.top_ups:
        lines.append("Top-ups wanted (on both sides):")
        lines.extend(f"  - {t.scenario}: {t.attempts} more ({t.reason})" for t in verdict.top_ups)
    if verdict.notes:
        lines.append("Notes:")
        lines.extend(f"  - {note}" for note in verdict.notes)
    return "\n".join(lines)
