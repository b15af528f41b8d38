"""The tables: one actor per table (``actor``) and the hub that loads, owns and drops them
(``hub``), with the event writer that stores every table's actions."""

from raspisnoy.server.services.tables.actor import TableActor, TablePort, seat_names
from raspisnoy.server.services.tables.hub import EventWriter, Hub

__all__ = ["EventWriter", "Hub", "TableActor", "TablePort", "seat_names"]
