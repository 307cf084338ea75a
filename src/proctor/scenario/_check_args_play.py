"""Argument models of the checks over time: replies to requests, and quiet after a stop.

They read what the simulated user recorded (``EndState.user``: the agent's replies
and the timeline events that fired) and the steps, never the agent's transcript.
``after_event`` (a check on the world right after an event) is a composite and
lives beside ``all``/``any`` in ``_checks``.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from proctor.scenario._check_args import CheckArgs, Counted, Regex
from proctor.scenario._play import NAME_PATTERN


class Answered(Counted):
    """Replies the agent gave (its answers with ``done``) to one request of the user.

    A reply counts for the request when it came after the request's event fired
    (``request``: a ``say`` event's name, or ``brief`` for the task itself) and
    holds every ``contains`` string (ignoring case) and the ``regex``. With no
    count, exactly one: a request answered twice, or not at all, fails.
    """

    request: str = Field(
        pattern=NAME_PATTERN, description="The say event's name, or brief (the task itself)."
    )
    contains: list[str] = Field(
        default_factory=list, description="Strings a reply must hold (ignoring case)."
    )
    regex: Regex | None = Field(default=None, description="A pattern a reply must match.")

    @model_validator(mode="after")
    def _something(self) -> Answered:
        if not self.contains and self.regex is None:
            raise ValueError("say what answers the request: contains, regex, or both")
        return self

    def wanted(self) -> int:
        return self.count if self.count is not None else 1

    def accepts_replies(self, n: int) -> bool:
        if self.count is None and self.min is None and self.max is None:
            return n == 1
        return self.accepts(n)


class IdleAfterStop(CheckArgs):
    """After each ``stop`` event, the agent took no action but ``done`` until the user spoke
    again (the next ``say``). Added to every scenario whose timeline stops the agent."""

    grace: int = Field(
        default=0,
        ge=0,
        le=3,
        description="Actions allowed after the stop (one already in flight, for example).",
    )
