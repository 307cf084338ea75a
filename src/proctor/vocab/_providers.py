"""Model providers (``proctor.agents.llm``): wire families and formats, tool choice."""

from __future__ import annotations

from typing import Literal, get_args

WireFamily = Literal["openai", "anthropic"]
"""The provider family a model speaks for (``ModelConfig.wire``): anthropic's messages, or
openai's chat completions and Responses; each has its own native computer tool."""

WireFormat = Literal["openai", "anthropic", "responses"]
"""An API format the replay provider answers: openai, chat completions; anthropic,
messages; responses, OpenAI's Responses API."""

ToolChoice = Literal["auto", "required"]
"""The ``tool_choice`` a model spec forces (``+tool_choice=``)."""

TOOL_CHOICES: tuple[ToolChoice, ...] = get_args(ToolChoice)
