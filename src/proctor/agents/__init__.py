"""Agents: the contract (``Agent``, ``Computer``, ``Accounting``), the scripted and null agents."""

from proctor.agents._jail import available as why_no_jail
from proctor.agents._process import ATTEMPT_ENV
from proctor.agents._protocol import (
    Account,
    Accounting,
    Agent,
    Computer,
    Outcome,
    Restartable,
    account_of,
    restarted,
)
from proctor.agents.scripted import NullAgent, ScriptedAgent

__all__ = [
    "ATTEMPT_ENV",
    "Account",
    "Accounting",
    "Agent",
    "Computer",
    "NullAgent",
    "Outcome",
    "Restartable",
    "ScriptedAgent",
    "account_of",
    "restarted",
    "why_no_jail",
]
