"""A connection's outbox (``server.connection``): messages are written in order, a client
too slow to keep its outbox under the limit is closed with 1013 after what was queued,
and the close always gets through."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocket, WebSocketDisconnect

from raspisnoy.server.connection import CloseCode, Connection


class _Socket:
    """A WebSocket that records what is written; ``gate`` holds every write until set."""

    def __init__(self) -> None:
        self.written: list[Any] = []
        self.gate = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.written.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.written.append((code, reason))


async def _run(limit: int, before: int, after: int) -> tuple[Connection, list[Any]]:
    """``before`` messages queued while the client reads nothing, then the client reads
    and ``after`` more come; the connection and what the client got."""
    socket = _Socket()
    connection = Connection(cast(WebSocket, socket), None, limit)
    pump = asyncio.create_task(connection.pump())
    for number in range(before):
        connection.send(f"m{number}")
    await asyncio.sleep(0)
    socket.gate.set()
    for number in range(before, before + after):
        connection.send({"n": number})
        await asyncio.sleep(0)
    connection.close(CloseCode.GOING_AWAY, "bye")
    await asyncio.wait_for(pump, 5)
    return connection, socket.written


@given(limit=st.integers(16, 40), before=st.integers(0, 80), after=st.integers(0, 5))
def test_messages_in_order_and_a_slow_client_is_closed(limit: int, before: int, after: int) -> None:
    connection, written = asyncio.run(_run(limit, before, after))
    assert connection.closing
    *texts, closed = written
    if before > limit:  # queued before the writer ran: the limit's next one overflows
        assert closed[0] == CloseCode.TRY_LATER
        # The close took the oldest message's place; nothing after it is written.
        assert texts == [f"m{n}" for n in range(1, limit)]
    else:
        assert closed == (CloseCode.GOING_AWAY, "bye")
        expected = [f"m{n}" for n in range(before)]
        expected += [f'{{"n":{n}}}' for n in range(before, before + after)]
        assert texts == expected


def test_the_close_gets_through_a_full_outbox() -> None:
    async def run() -> list[Any]:
        socket = _Socket()
        connection = Connection(cast(WebSocket, socket), None, 16)
        for number in range(16):
            connection.send(f"m{number}")
        connection.close(CloseCode.RESTART, "moved")  # no room: the oldest message makes way
        connection.send("late")  # after the close: dropped
        socket.gate.set()
        await asyncio.wait_for(connection.pump(), 5)
        return socket.written

    written = asyncio.run(run())
    assert written == [*(f"m{n}" for n in range(1, 16)), (CloseCode.RESTART, "moved")]


def test_a_message_to_an_idle_writer_is_written_at_once() -> None:
    """With the writer idle and the client reading, ``send`` writes before it returns,
    without a turn of the loop; a write that has to wait is finished by the writer, ahead
    of what is sent after it."""

    async def run() -> tuple[list[Any], list[Any], list[Any]]:
        socket = _Socket()
        socket.gate.set()
        connection = Connection(cast(WebSocket, socket), None, 16)
        pump = asyncio.create_task(connection.pump())
        await asyncio.sleep(0)  # the writer waits for messages
        connection.send("now")
        at_once = list(socket.written)
        socket.gate.clear()  # the client stops reading: the next write waits
        connection.send("waits")
        connection.send("after")
        while_waiting = list(socket.written)
        socket.gate.set()
        connection.close(CloseCode.GOING_AWAY, "bye")
        await asyncio.wait_for(pump, 5)
        return at_once, while_waiting, socket.written

    at_once, while_waiting, written = asyncio.run(run())
    assert at_once == ["now"]
    assert while_waiting == ["now"]
    assert written == ["now", "waits", "after", (CloseCode.GOING_AWAY, "bye")]


class _GoneSocket(_Socket):
    """A WebSocket whose client has gone: every write fails."""

    async def send_text(self, text: str) -> None:
        raise WebSocketDisconnect(1006)


def test_a_write_at_once_to_a_gone_client_ends_the_writer() -> None:
    async def run() -> Connection:
        connection = Connection(cast(WebSocket, _GoneSocket()), None, 16)
        pump = asyncio.create_task(connection.pump())
        await asyncio.sleep(0)
        connection.send("lost")
        await asyncio.wait_for(pump, 5)  # the writer stops instead of waiting for more
        return connection

    assert asyncio.run(run()).closing  # what is sent from now on is dropped
