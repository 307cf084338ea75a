"""The computer toolset: typed actions, observations, and the drivers that run them.

Only this package imports Playwright. ``proctor.computer.actions`` and
``proctor.computer.observation`` are plain data and import no driver.
"""

from proctor.computer.actions import ACTION_TYPES, INPUT_OPS, Action, Target
from proctor.computer.observation import Observation, TabInfo

__all__ = ["ACTION_TYPES", "INPUT_OPS", "Action", "Observation", "TabInfo", "Target"]
