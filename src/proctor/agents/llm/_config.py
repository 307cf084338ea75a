"""Model arm specs: ``openai:MODEL``, ``openai-compatible:MODEL@URL``, ``anthropic:MODEL``.

Options follow ``+``: ``openai:gpt-4.1-mini+plan+temperature=0.2``. A spec
names the key's environment variable, never the key: specs are written to
run.json, keys never are.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from proctor.agents.llm._native import VERSIONS
from proctor.errors import RunError
from proctor.vocab import TOOL_CHOICES, ToolChoice, WireFamily

MODEL_KINDS = ("openai", "openai-compatible", "anthropic")
"""Spec kinds that name a model."""


DEFAULT_KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
FLAGS = ("plan", "vision", "spend", "text_calls")
PATHS = ("prompts", "prices")


@dataclass(frozen=True)
class ModelConfig:
    """How to reach one model and how to ask it.

    Attributes:
        provider: openai, openai-compatible or anthropic.
        model: The model id sent to the provider.
        base_url: The API's base URL; None for the provider's default.
        key_env: Environment variable holding the key; None when none is needed.
        temperature: Sampling temperature; None leaves the provider's default (newer
            models refuse any other).
        max_tokens: Output tokens per reply at most.
        timeout: Seconds one request may take before it is retried.
        retries: Retries after a 429, 5xx, timeout or dropped connection.
        backoff: Seconds before the first retry; doubled each time, at most 30.
        deadline: Seconds one decision may take, retries included.
        planning: Enumerate a plan before acting (planning mode).
        plan_steps: Most plan steps the planning loop asks for.
        vision: Send a screenshot with each observation.
        spend: Ask the provider for the account's spend after a run.
        prompts: A prompt variant folder overriding the shipped prompt files.
        prices: A price table overriding the shipped one.
        tool_choice: ``required`` (the model must call a tool) or ``auto``; None is the
            provider's default here: required for OpenAI and Anthropic, auto for
            openai-compatible servers (not every one knows required).
        text_calls: Read a reply with no tool call but a JSON call (or JSON lines of
            calls) of offered tools in its text as those calls (``+text_calls``,
            ``_text_calls``): small models often write their calls as text. Not with
            ``computer``.
        computer: The provider's native computer-use tool type (``+computer``), or None
            for proctor's own tools: ``computer_20251124`` or ``computer_20250124``
            (Anthropic), ``computer`` or ``computer_use_preview`` (OpenAI's Responses API).
    """

    provider: str
    model: str
    base_url: str | None = None
    key_env: str | None = None
    temperature: float | None = None
    max_tokens: int = 1024
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 1.0
    deadline: float = 180.0
    planning: bool = False
    plan_steps: int = 8
    vision: bool = False
    spend: bool = False
    prompts: Path | None = None
    prices: Path | None = None
    tool_choice: ToolChoice | None = None
    computer: str | None = None
    text_calls: bool = False

    @property
    def wire(self) -> WireFamily:
        return "anthropic" if self.provider == "anthropic" else "openai"

    def forced(self, force_tool: bool) -> bool:
        """Whether a request that wants a tool call (``force_tool``) is sent as required."""
        if not force_tool:
            return False
        if self.tool_choice is not None:
            return self.tool_choice == "required"
        return self.provider != "openai-compatible"

    @property
    def mode(self) -> str | None:
        """The record's ``mode``: planning, or None for the plain loop."""
        return "planning" if self.planning else None

    def key(self) -> str | None:
        """The key from the environment; read at call time and never stored."""
        return os.environ.get(self.key_env) if self.key_env else None

    def missing_key(self, arm: str) -> str | None:
        """Why the arm cannot run ("no OPENAI_API_KEY for arm gpt"), or None."""
        if self.key_env and not os.environ.get(self.key_env):
            return f"no {self.key_env} for arm {arm}"
        return None


def is_model_spec(spec: str) -> bool:
    return spec.partition(":")[0].strip() in MODEL_KINDS


def parse_model_spec(spec: str) -> ModelConfig:
    """Parse a model arm spec.

    Raises:
        RunError: naming the spec, the bad part and the valid forms.
    """
    kind, _, rest = spec.strip().partition(":")
    head, *options = rest.split("+")
    usage = (
        "use openai:MODEL, openai-compatible:MODEL@URL or anthropic:MODEL, with options "
        "+plan +vision +spend +text_calls +key=ENV +url=URL +temperature=T +max_tokens=N "
        "+timeout=S +retries=N +backoff=S +deadline=S +plan_steps=N +prompts=DIR +prices=FILE "
        "+tool_choice=required|auto +computer[=TYPE]"
    )
    if kind not in MODEL_KINDS or not head.strip():
        raise RunError(f"model spec {spec!r}: {usage}")
    base_url: str | None = None
    model = head.strip()
    if kind == "openai-compatible":
        model, sep, base_url = head.partition("@")
        if not sep or not model.strip() or not base_url.strip():
            raise RunError(
                f"model spec {spec!r}: openai-compatible needs MODEL@URL, "
                "e.g. openai-compatible:llama3.1@http://127.0.0.1:11434/v1"
            )
        model, base_url = model.strip(), base_url.strip()
    config = ModelConfig(
        provider=kind, model=model, base_url=base_url, key_env=DEFAULT_KEYS.get(kind)
    )
    return _with_options(config, options, spec, usage)


def _with_options(config: ModelConfig, options: list[str], spec: str, usage: str) -> ModelConfig:
    updates: dict[str, Any] = {}
    for raw in options:
        name, sep, value = raw.strip().partition("=")
        name = name.strip()
        value = value.strip()
        try:
            if name in FLAGS and not sep:
                updates["planning" if name == "plan" else name] = True
            elif name in ("temperature", "timeout", "backoff", "deadline") and sep:
                updates[name] = float(value)
            elif name in ("max_tokens", "retries", "plan_steps") and sep:
                updates[name] = int(value)
            elif name in PATHS and sep and value:
                updates[name] = Path(value)
            elif name == "key" and sep:
                updates["key_env"] = value or None
            elif name == "url" and sep and value:
                updates["base_url"] = value
            elif name == "computer":
                updates["computer"] = _computer_tool(config.wire, value if sep else None)
            elif name == "tool_choice" and sep:
                if value not in TOOL_CHOICES:
                    raise ValueError(f"+tool_choice={value}: give required or auto")
                updates["tool_choice"] = value
            else:
                raise ValueError(f"unknown option +{raw}")
        except ValueError as exc:
            raise RunError(f"model spec {spec!r}: {exc}; {usage}") from exc
    config = replace(config, **updates)
    if config.retries < 0 or config.max_tokens < 1 or config.timeout <= 0 or config.plan_steps < 1:
        raise RunError(
            f"model spec {spec!r}: retries >= 0, max_tokens >= 1, timeout > 0, plan_steps >= 1"
        )
    return config


def _computer_tool(wire: WireFamily, value: str | None) -> str:
    """The native computer tool type ``+computer[=TYPE]`` names for ``wire``."""
    offered = VERSIONS[wire]
    if value is None:
        return offered[0]
    if value not in offered:
        raise ValueError(f"+computer={value}: {wire} offers {' or '.join(offered)}")
    return value


def arm_of_model(spec: str, arms: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The first ``(name, spec)`` of ``arms`` whose model is ``spec``'s model, or None.

    Models compare by id, whatever the provider: ``openai:gpt-4.1-mini`` and
    ``openai-compatible:gpt-4.1-mini@URL`` are the same model. An arm that names
    no model (scripted, command:...) matches nothing.

    Raises:
        RunError: when ``spec`` is not a model spec.
    """
    model = parse_model_spec(spec).model
    for name, arm_spec in arms:
        if not is_model_spec(arm_spec):
            continue
        try:
            config = parse_model_spec(arm_spec)
        except RunError:
            continue
        if config.model == model:
            return name, arm_spec
    return None


def with_options(spec: str, *, vision: bool = False, prices: Path | None = None) -> str:
    """``spec`` with run-wide options (``--vision``, ``--prices``) added, if it names a model."""
    if not is_model_spec(spec):
        return spec
    options = spec.split("+")[1:]
    if vision and "vision" not in options:
        spec += "+vision"
    if prices is not None and not any(o.startswith("prices=") for o in options):
        spec += f"+prices={prices}"
    return spec
