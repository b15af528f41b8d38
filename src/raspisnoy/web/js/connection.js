// The table's WebSocket (docs/PROTOCOL.md): reconnects on its own, resyncs on any gap in
// the event versions, and resends unacknowledged actions under their ids so that an
// action is never lost nor applied twice.
import { get } from "./api.js";

const PING_MS = 15000;
const PONG_TIMEOUT_MS = 10000;
const MAX_BACKOFF_MS = 5000;
/** Close codes after which reconnecting cannot help. */
const FINAL_CLOSE_CODES = new Set([4401, 4403, 4404, 4409, 4429]);

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {object} handlers onState(msg), onEvent(msg), onTable(msg), onAck(msg), onError(msg),
   *   onStatus("connecting" | "online" | "offline"), onFatal(code, reason); optional
   *   onChat(msg), onRematch(msg), onSpectators(msg) and onInvitation(msg)
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.version = null;
    this.pending = new Map(); // action id -> action, until acknowledged or refused
    this.counter = 0;
    this.socket = null;
    this.stopped = false;
    this.backoff = 500;
    this.timers = {};
    // Back on the network, or back to the tab: try at once instead of waiting out the backoff.
    this.wake = () => {
      if (this.stopped || this.socket?.readyState === WebSocket.OPEN) return;
      if (this.socket?.readyState === WebSocket.CONNECTING) return;
      clearTimeout(this.timers.retry);
      this.backoff = 500;
      this.connect();
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  /** Whether an action is sent but not yet acknowledged (the page waits for it). */
  waiting() {
    return this.pending.size > 0;
  }

  connect() {
    // the first attempt is "connecting"; later ones keep saying "reconnecting" (offline)
    if (this.version === null) this.handlers.onStatus("connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => this.closed(socket, event));
    socket.addEventListener("open", () => {
      this.backoff = 500;
      this.heartbeat();
    });
  }

  /** Sends `action` (docs/record.md notation) under a fresh id; resent until answered. */
  act(action) {
    this.counter += 1;
    const id = `${Date.now().toString(36)}-${this.counter}`;
    this.pending.set(id, action);
    this.send({ type: "act", id, action });
  }

  /** The game's score report as this player may know it (`GET /api/games/{id}/score`). */
  report() {
    return get(`/games/${encodeURIComponent(this.tableId)}/score`);
  }

  /** Asks for a fresh `state` (also the way to stop being marked away). */
  sync() {
    this.send({ type: "sync" });
  }

  back() {
    this.send({ type: "back" });
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.timers.ping);
    clearTimeout(this.timers.pong);
    clearTimeout(this.timers.retry);
    this.socket?.close(1000);
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(message) {
    clearTimeout(this.timers.pong);
    switch (message.type) {
      case "state":
        this.version = message.version;
        this.handlers.onStatus("online");
        this.handlers.onState(message);
        for (const [id, action] of this.pending) this.send({ type: "act", id, action });
        break;
      case "event":
        if (this.version === null || message.version !== this.version + 1) {
          this.sync();
          return;
        }
        this.version = message.version;
        this.handlers.onEvent(message);
        break;
      case "table":
        this.handlers.onTable(message);
        break;
      case "ack":
        this.pending.delete(message.id);
        this.handlers.onAck(message);
        break;
      case "error":
        if (message.id) this.pending.delete(message.id);
        this.handlers.onError(message);
        break;
      case "chat":
        this.handlers.onChat?.(message);
        break;
      case "rematch":
        this.handlers.onRematch?.(message);
        break;
      case "spectators":
        this.handlers.onSpectators?.(message);
        break;
      case "invitation":
        this.handlers.onInvitation?.(message);
        break;
      default: // pong: the connection is alive, nothing else to do
        break;
    }
  }

  /** Pings now and then; a silent server means a dead connection, so reconnect. */
  heartbeat() {
    clearTimeout(this.timers.ping);
    this.timers.ping = setTimeout(() => {
      this.send({ type: "ping" });
      this.timers.pong = setTimeout(() => this.socket?.close(4000), PONG_TIMEOUT_MS);
      this.heartbeat();
    }, PING_MS);
  }

  closed(socket, event) {
    if (socket !== this.socket || this.stopped) return;
    clearTimeout(this.timers.ping);
    clearTimeout(this.timers.pong);
    if (FINAL_CLOSE_CODES.has(event.code)) {
      this.handlers.onFatal(event.code, event.reason);
      return;
    }
    this.handlers.onStatus("offline");
    this.timers.retry = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }
}
