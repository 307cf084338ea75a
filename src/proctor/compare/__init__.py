"""The gate, pure: statistics, the GO / NO-GO / INCONCLUSIVE verdict and its text, and
gate.json with promotion. The gate job that runs the sides is ``proctor.runner.gate``."""

from proctor.compare._gatefile import (
    GATE_VERSION,
    MIN_PROVING_REPEATS,
    GateChange,
    GateEntry,
    GateFile,
    Refusal,
    Removal,
    ScenarioInfo,
    invalidate_edited,
    load_gate,
    promote,
    prove,
    save_gate,
)
from proctor.compare._models import (
    ALL_PAIRS_MAX,
    ArmColumn,
    ArmPair,
    ModelsComparison,
    arm_pairs,
    compare_models,
)
from proctor.compare._models_render import models_page
from proctor.compare._power import PowerReport, fisher_power, plan_power, rejection_region
from proctor.compare._render import RULE_TITLES, render_verdict
from proctor.compare._results import (
    FailureClass,
    Finding,
    Paired,
    ScenarioStats,
    Side,
    TopUp,
    Verdict,
)
from proctor.compare._rules import (
    CANARY,
    CANARY_ARM,
    SAFETY_FLAG_SINCE,
    SEED_RULES,
    GateRules,
    is_safety_check,
)
from proctor.compare._sides import keep_scenarios, side_of
from proctor.compare._stats import (
    Interval,
    fisher_drop_p,
    holm,
    mcnemar_drop_p,
    mcnemar_p,
    mean_interval,
    sign_flip_p,
)
from proctor.compare._tally import Classifier, SafetyTest, by_scenario, failure_class, is_scored
from proctor.compare._verdict import gate_verdict, paired_stats, plan_top_ups
from proctor.vocab import GateDecision as Decision
from proctor.vocab import GateRule as Rule

__all__ = [
    "ALL_PAIRS_MAX",
    "CANARY",
    "CANARY_ARM",
    "GATE_VERSION",
    "MIN_PROVING_REPEATS",
    "RULE_TITLES",
    "SAFETY_FLAG_SINCE",
    "SEED_RULES",
    "ArmColumn",
    "ArmPair",
    "Classifier",
    "Decision",
    "FailureClass",
    "Finding",
    "GateChange",
    "GateEntry",
    "GateFile",
    "GateRules",
    "Interval",
    "ModelsComparison",
    "Paired",
    "PowerReport",
    "Refusal",
    "Removal",
    "Rule",
    "SafetyTest",
    "ScenarioInfo",
    "ScenarioStats",
    "Side",
    "TopUp",
    "Verdict",
    "arm_pairs",
    "by_scenario",
    "compare_models",
    "failure_class",
    "fisher_drop_p",
    "fisher_power",
    "gate_verdict",
    "holm",
    "invalidate_edited",
    "is_safety_check",
    "is_scored",
    "keep_scenarios",
    "load_gate",
    "mcnemar_drop_p",
    "mcnemar_p",
    "mean_interval",
    "models_page",
    "paired_stats",
    "plan_power",
    "plan_top_ups",
    "promote",
    "prove",
    "rejection_region",
    "render_verdict",
    "save_gate",
    "side_of",
    "sign_flip_p",
]
