"""Agents: the protocol, the scripted (oracle/decoy) agent and the null agent."""

from proctor.agents._protocol import Agent, Computer, Outcome
from proctor.agents.scripted import NullAgent, ScriptedAgent

__all__ = ["Agent", "Computer", "NullAgent", "Outcome", "ScriptedAgent"]
