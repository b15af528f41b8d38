"""The server's routes by area, each an ``APIRouter``; ``create_app`` includes ``ROUTERS``."""

from fastapi import APIRouter

from raspisnoy.server.routes import catalogue, health, history, session, sheets, socket, tables

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = tuple(
    module.router for module in (health, session, catalogue, tables, history, sheets, socket)
)
