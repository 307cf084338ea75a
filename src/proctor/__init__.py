"""proctor: measures what computer-use and browser agents actually do."""

__version__ = "0.1.0"
