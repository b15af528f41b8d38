"""The server's services: what the routes and the table socket call (docs/architecture.md)."""
