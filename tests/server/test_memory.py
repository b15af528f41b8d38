"""A finished game leaves nothing behind: once its last client leaves, its table actor (and
with it the game and every copy of it) is freed at once, by reference counting, without
waiting for a garbage collection the server makes rare (``command.tune_gc``)."""

from __future__ import annotations

import gc
import time
import weakref

from server_helpers import Api, Server, play_in_threads


def test_a_finished_tables_actor_is_freed_without_a_collection(server: Server) -> None:
    host = Api(server.base, "Done")
    rules = {"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}
    table = host.create_table(rules=rules, bots="random", bot_delay_ms=0, turn_seconds=0)
    me = host.socket(table["id"])
    me.recv()
    hub = server.services.hub
    actor = weakref.ref(hub._actors[table["id"]])
    gc.disable()  # only reference counting may free it
    try:
        host.post(f"/api/tables/{table['id']}/start")
        play_in_threads([me])
        me.close()
        deadline = time.monotonic() + 10
        while actor() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table["id"] not in hub._actors
        assert actor() is None, gc.get_referrers(actor())
    finally:
        gc.enable()
