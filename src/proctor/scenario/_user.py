"""The simulated user as scenario data: answers, approvals, vault items, steering messages.

``proctor.world.SimulatedUser`` acts on these models; this module only says
what is valid to write under a scenario's ``user:``.

How a question finds its answer: a question asked with a ``key`` that names an
answer or a vault item gets that one. Otherwise the first answer, then the
first vault item, whose intent matches the question's text wins. An item with
no ``intent`` matches a question that contains every word of its key
(``shoe_size`` matches "What shoe size do I wear?"). A question nothing
matches gets the persona's reply when a persona model is configured, and
"I don't know." otherwise; either way it is recorded.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from proctor.scenario._seed import TimeZone

KEY_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"

Key = Annotated[str, Field(pattern=KEY_PATTERN, max_length=60)]
"""An answer, vault or approval key: lowercase words joined by _ or -."""


def _regex(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc
    return pattern


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Intent(_Spec):
    """What a question (or an approval request) is about, by keywords and/or a regex.

    Both given: both must match. Matching ignores case; a keyword matches at a
    word start, so ``password`` also matches "passwords".
    """

    keywords: list[str] = Field(
        default_factory=list, description="Words that must all appear in the text."
    )
    regex: Annotated[str, AfterValidator(_regex)] | None = Field(
        default=None, description="A pattern searched in the text (case-insensitive)."
    )

    @model_validator(mode="after")
    def _something(self) -> Intent:
        if not self.keywords and self.regex is None:
            raise ValueError("give keywords, a regex, or both")
        return self

    def matches(self, text: str) -> bool:
        """Whether ``text`` has every keyword (at a word start) and the regex, ignoring case."""
        lowered = text.lower()
        for word in self.keywords:
            if re.search(r"(?<![a-z0-9])" + re.escape(word.lower()), lowered) is None:
                return False
        return self.regex is None or re.search(self.regex, text, re.IGNORECASE) is not None


class ScriptedAnswer(_Spec):
    """An answer with its own intent, e.g. ``{text: "42", intent: {keywords: [size]}}``."""

    text: str = Field(description="What the user says.")
    intent: Intent | None = Field(default=None, description="Default: the key's words.")


class VaultItem(_Spec):
    """A synthetic secret (a password, a PIN) the agent may learn only by asking the user.

    The secret is also what ``no_secret_in_messages`` looks for in what the
    agent says.
    """

    secret: str = Field(min_length=4, description="The secret's value.")
    intent: Intent | None = Field(default=None, description="Default: the key's words.")
    note: str = Field(default="", description="What the secret is, for people reading the file.")


class ApprovalRule(_Spec):
    """How the user decides approval requests for one kind of action.

    A request matches when its ``action`` equals the rule's key (ignoring
    case) or when the rule's ``intent`` matches the action and its details.
    """

    approve: bool = Field(default=True, description="Approve (true) or deny (false).")
    max_amount: float | None = Field(
        default=None,
        ge=0,
        description="Approve only up to this amount; a request over it, or with no amount, "
        "is denied.",
    )
    currency: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z]{3}$",
        description="The amount must be in this currency (ISO code, e.g. USD); another is denied.",
    )
    intent: Intent | None = Field(default=None, description="Also match requests by their text.")
    reply: str | None = Field(default=None, description="What the user says with the decision.")


class SteeringMessage(_Spec):
    """A message from the user that arrives while the agent works."""

    at_step: int = Field(
        ge=0, description="Shown in the first observation after this many actions (0: at once)."
    )
    text: str = Field(min_length=1)


class Persona(_Spec):
    """Who the user is, for a persona model answering free-form questions.

    Used only when the run configures a persona model; otherwise unmatched
    questions get "I don't know."
    """

    instructions: str = Field(min_length=1, description="The persona's background and manner.")


class User(_Spec):
    """The simulated user: answers, approvals, vault items and steering messages."""

    answers: dict[Key, str | ScriptedAnswer] = Field(
        default_factory=dict,
        description="Key -> answer text, or {text, intent}; see the module docs for matching.",
    )
    approvals: dict[Key, bool | ApprovalRule] = Field(
        default_factory=dict,
        description="Action -> approve (true), deny (false), or a rule with an amount limit. "
        "Requests no rule matches are denied.",
    )
    vault: dict[Key, VaultItem] = Field(
        default_factory=dict, description="Secrets the agent may get only by asking the user."
    )
    messages: list[SteeringMessage] = Field(
        default_factory=list, description="Messages that arrive at a given step."
    )
    persona: Persona | None = Field(default=None, description="For a persona model, if any.")
    tz: TimeZone | None = Field(
        default=None,
        description="The user's time zone (IANA), in which date placeholders such as "
        "{date:+3d} resolve. Default: the zone the seeded apps (mail, calendar, chat) share, "
        "else UTC.",
    )

    @model_validator(mode="after")
    def _distinct(self) -> User:
        both = sorted(set(self.answers) & set(self.vault))
        if both:
            raise ValueError(f"keys {both} name both an answer and a vault item; rename one")
        return self
