"""Print a bench run: medians, ratios to the floor measured in the same run, the breakdown."""

from __future__ import annotations

from statistics import median

from bench._measure import AttemptSample, Samples

TARGET = 1.2
PHASE_ORDER = ("setup", "before_png", "end_state", "teardown", "grade")
LABELS = {
    "run": "as `proctor run`: before/after.png saved",
    "verify": "as `proctor verify`: no screenshots",
}


def breakdown(attempts: list[AttemptSample]) -> dict[str, float]:
    """Each phase's median seconds; ``other`` is what the record's phases do not cover."""
    names = [p for p in PHASE_ORDER if any(p in a.phases for a in attempts)]
    names += sorted({p for a in attempts for p in a.phases} - set(names))
    out = {p: median(a.phases.get(p, 0.0) for a in attempts) for p in names}
    out["other"] = median(a.other for a in attempts)
    return out


def render(samples: Samples) -> str:
    """The bench's text report; every figure is also given as a multiple of the floor."""
    all_floors = [f for floors in samples.floors.values() for f in floors]
    floor = median(all_floors)
    n = len(next(iter(samples.floors.values())))
    lines = [
        f"proctor bench: loopback, N={n} rounds of (attempt, floor) per mode, interleaved",
        "seconds are this machine's and noisy; the ratios to the same run's floor are the result",
        f"{'floor:':<19}{floor:.4f} s  1.00x  (new context + new page + goto + close; "
        f"median of {len(all_floors)})",
    ]
    ratios: dict[str, tuple[float, float]] = {}
    for mode, attempts in samples.attempts.items():
        overhead = median(a.overhead for a in attempts)
        paired = median(a.overhead / f for a, f in zip(attempts, samples.floors[mode], strict=True))
        ratios[mode] = (overhead / floor, paired)
        lines.append(
            f"{f'overhead ({mode}):':<19}{overhead:.4f} s  {overhead / floor:.2f}x"
            f"  (attempt seconds - agent seconds, {LABELS[mode]})"
        )
    for mode, (ratio, paired) in ratios.items():
        verdict = "ok" if ratio <= TARGET else "over"
        lines.append(
            f"{f'ratio ({mode}):':<19}{ratio:.2f}    "
            f"(overhead / floor; target <= {TARGET:.1f}: {verdict}; paired median {paired:.2f})"
        )
    for mode, attempts in samples.attempts.items():
        overhead = median(a.overhead for a in attempts)
        outer = median(a.outer for a in attempts)
        lines += [
            "",
            f"breakdown ({mode}): phase median, share of overhead, multiple of floor",
        ]
        for phase, seconds in breakdown(attempts).items():
            lines.append(
                f"  {phase:<11} {seconds:.4f} s  {seconds / overhead:6.1%}  {seconds / floor:.2f}x"
            )
        lines.append(
            f"  + writes    {outer - overhead:.4f} s  (attempt.json, events.jsonl, web.jsonl; "
            "outside the record's seconds)"
        )
    return "\n".join(lines)
