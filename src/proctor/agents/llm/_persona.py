"""The persona model: the simulated user's voice for questions no scripted answer covers.

Off by default (``--persona SPEC``). It plays the scenario's ``user.persona`` and sees
only the brief, the attempt's earlier questions and answers, and the question; the
vault is answered before it is asked and its answers are masked in that history, so
no secret reaches it. A scenario without a persona gets no call: nobody is there to
play, so an unscripted question is answered "I don't know." as without the option.

It never grades: an answer it gives is recorded like any other
(``UserQuestion.source == "persona"``), and checks read the end state, not its words.

A persona that cannot answer is an infra fault, never the agent's: a provider that
still fails after ``call_model``'s retries, or a reply with no answer in it, raises
``ProviderFault``, so the try is retried (kind ``provider``) and never scored. Answering
"I don't know." instead would let a broken user model fail an agent that asked well.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from proctor.agents.llm._agent import make_wire
from proctor.agents.llm._call import call_model
from proctor.agents.llm._config import arm_of_model, parse_model_spec
from proctor.agents.llm._messages import UserText
from proctor.agents.llm._role import ModelRole, role_config
from proctor.agents.llm._tools import (
    PERSONA_TOOLS,
    PersonaReply,
    ToolCallError,
    parse_call,
    tools_for,
)
from proctor.agents.llm._wire import Request
from proctor.errors import ProviderFault, RunError
from proctor.world import PersonaContext

MAX_ANSWER_CHARS = 2000
"""An answer is cut here, as an agent's question is (``AskUser.question``)."""


def _untraced(kind: str, **data: object) -> None:
    """The persona's calls are not the agent's: they stay out of its trace and ledger."""


@dataclass
class LLMPersona(ModelRole):
    """``await persona.reply(question, context)``: the user's answer, or None.

    Implements ``proctor.world.PersonaModel``; plain data (a spec, its config, the
    prompt folder), so it pickles to a pool or Ray worker as the judge does.
    """

    async def reply(self, question: str, context: PersonaContext) -> str | None:
        """The persona's answer; None ("I don't know.") without a persona or for an empty one.

        Raises:
            ProviderFault: the provider failed after its retries, or the reply held no
                answer: an infra fault, never scored.
        """
        if not context.instructions.strip():
            return None
        request = Request(
            self.prompts.render("persona_system", instructions=context.instructions),
            (
                UserText(
                    self.prompts.render(
                        "persona",
                        brief=context.brief,
                        history=list(context.history),
                        question=question,
                    )
                ),
            ),
            tools_for(PERSONA_TOOLS, PERSONA_TOOLS),
        )
        wire = make_wire(self.config)
        try:
            answered = await call_model(wire, request, self.config, trace=_untraced)
            reply = answered.reply
            if reply.calls:
                parsed = parse_call(reply.calls[0], PERSONA_TOOLS)
                assert isinstance(parsed, PersonaReply)
                text = parsed.answer
            elif reply.text.strip():
                text = reply.text  # a server that answers in prose: the prose is the answer
            else:
                raise ToolCallError("the reply had neither an answer call nor text")
        except ProviderFault as exc:
            raise ProviderFault(f"the persona (simulated user): {exc}") from None
        except ToolCallError as exc:
            raise ProviderFault(
                f"the persona (simulated user) {self.config.provider} model {self.model} gave "
                f"no usable answer ({exc}); an infra fault, not counted against the agent"
            ) from None
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(wire.close(), 5.0)
        text = text.strip()
        return text[:MAX_ANSWER_CHARS] or None


def make_persona(spec: str) -> LLMPersona:
    """The persona for ``--persona SPEC`` (a model spec).

    Raises:
        RunError: when SPEC is not a model spec or its key is missing.
    """
    return LLMPersona(
        spec, *role_config(spec, "persona", "--persona", "set it, or run without --persona")
    )


def refuse_persona_model(spec: str, arms: Sequence[tuple[str, str]]) -> None:
    """Refuse a persona (``--persona SPEC``) whose model is an arm's model.

    The agent's own model playing its user would answer its own questions.

    Raises:
        RunError: naming the persona's spec and model, and the arm with its spec.
    """
    same = arm_of_model(spec, arms)
    if same is not None:
        name, arm_spec = same
        model = parse_model_spec(spec).model
        raise RunError(
            f"--persona {spec}: model {model} is also the model of arm {name} ({arm_spec}); "
            "the simulated user must not be played by the agent's own model, so give "
            "--persona another model"
        )
