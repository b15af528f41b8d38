"""The game server: FastAPI REST routes, the WebSocket protocol (docs/PROTOCOL.md), one
asyncio actor per table, bots at tables, turn timers and signed guest sessions.

``create_app`` builds the ASGI application; ``raspisnoy serve`` runs it under Uvicorn.
This package's ``__init__`` imports nothing heavy, so the command line stays quick.
"""
