"""raspisnoy: Raspisnoy poker («расписной покер») — rules engine, bots, server and tools."""

__version__ = "0.1.0"
