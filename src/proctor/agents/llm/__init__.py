"""Model agents: OpenAI-compatible and Anthropic tool calling, plugged into the reference loop.

The SDKs are imported only when a model is called, so planning a run or
reading results never loads them. The calibration instrument lives in
``proctor.agents.llm.calibrate`` (it drives the runner).
"""

from proctor.agents._protocol import Account
from proctor.agents.llm._agent import LLMAgent, agent_for, make_wire
from proctor.agents.llm._arms import (
    arm_mode,
    arm_model,
    arm_warnings,
    model_factory,
    model_skip,
    spend_lines,
    surface_skip,
)
from proctor.agents.llm._config import (
    MODEL_KINDS,
    ModelConfig,
    arm_of_model,
    is_model_spec,
    parse_model_spec,
    with_options,
)
from proctor.agents.llm._judge import LLMJudge, evidence, make_judge, refuse_same_model
from proctor.agents.llm._messages import Usage
from proctor.agents.llm._persona import LLMPersona, make_persona, refuse_persona_model
from proctor.agents.llm._policy import LLMPolicy
from proctor.agents.llm._prices import Price, PriceTable, load_prices
from proctor.agents.llm._render import PROMPT_FILES, Prompts, render_observation
from proctor.agents.llm._replay import (
    Received,
    Recorded,
    ReplayProvider,
    Transcript,
    anthropic_reply,
    computer_call,
    function_call,
    openai_reply,
    responses_reply,
)
from proctor.agents.llm._review import LLMReviewer, make_reviewer, review_evidence
from proctor.agents.llm._tools import ToolSpec, action_tools, tool_spec
from proctor.errors import PlannerError  # re-exported: what an LLM agent's loop ends on

__all__ = [
    "MODEL_KINDS",
    "PROMPT_FILES",
    "Account",
    "LLMAgent",
    "LLMJudge",
    "LLMPersona",
    "LLMPolicy",
    "LLMReviewer",
    "ModelConfig",
    "PlannerError",
    "Price",
    "PriceTable",
    "Prompts",
    "Received",
    "Recorded",
    "ReplayProvider",
    "ToolSpec",
    "Transcript",
    "Usage",
    "action_tools",
    "agent_for",
    "anthropic_reply",
    "arm_mode",
    "arm_model",
    "arm_of_model",
    "arm_warnings",
    "computer_call",
    "evidence",
    "function_call",
    "is_model_spec",
    "load_prices",
    "make_judge",
    "make_persona",
    "make_reviewer",
    "make_wire",
    "model_factory",
    "model_skip",
    "openai_reply",
    "parse_model_spec",
    "refuse_persona_model",
    "refuse_same_model",
    "render_observation",
    "responses_reply",
    "review_evidence",
    "spend_lines",
    "surface_skip",
    "tool_spec",
    "with_options",
]
