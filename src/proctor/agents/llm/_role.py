"""A model in a role beside the agent: the judge, the reviewer, the persona.

Each is plain data (its spec, config and prompt folder), so it pickles to a pool or
Ray worker; ``role_config`` reads its ``--flag SPEC`` the one way all three do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from proctor.agents.llm._config import ModelConfig, parse_model_spec
from proctor.agents.llm._render import Prompts
from proctor.errors import RunError


@dataclass
class ModelRole:
    """A model spec in a role: what ``str()`` and ``model`` say of it."""

    spec: str
    config: ModelConfig
    prompts: Prompts = field(default_factory=Prompts)

    def __str__(self) -> str:
        return self.spec

    @property
    def model(self) -> str:
        return self.config.model


def role_config(spec: str, role: str, flag: str, instead: str) -> tuple[ModelConfig, Prompts]:
    """The config and prompts of ``flag SPEC`` for ``role`` (judge, persona).

    Raises:
        RunError: SPEC is not a model spec, or its key is missing (then ``instead`` says
            what to do).
    """
    config = parse_model_spec(spec)
    missing = config.missing_key(role)
    if missing:
        raise RunError(f"{flag} {spec}: {missing}; {instead}")
    return config, Prompts(config.prompts)
