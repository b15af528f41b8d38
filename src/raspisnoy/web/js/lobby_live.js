// The live lobby (docs/PROTOCOL.md, "The lobby socket"): the open public tables and the
// public games being played, pushed by the server whenever they change. Reconnects by
// itself (backing off from 0.5 s to 5 s, at once when the browser is back online or the
// tab visible again) and pings now and then, so a dead connection is noticed.

const PING_MS = 20000;
const MAX_BACKOFF_MS = 5000;
/** Close codes after which reconnecting cannot help (PROTOCOL.md). */
const FINAL_CLOSE_CODES = new Set([4401, 4403, 4429]);

export class LobbyFeed {
  /** `onLobby(message)` gets each `lobby` message: `{open: [LINE], playing: [LINE]}`;
   * `onInvitation(message)`, if given, each `invitation` (docs/friends.md). */
  constructor(onLobby, onInvitation = null) {
    this.onLobby = onLobby;
    this.onInvitation = onInvitation;
    this.socket = null;
    this.stopped = false;
    this.backoff = 500;
    this.timers = {};
    this.wake = () => {
      if (this.stopped || document.hidden || this.socket) return;
      clearTimeout(this.timers.retry);
      this.connect();
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoff = 500;
      this.timers.ping = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "lobby") this.onLobby(message);
      else if (message.type === "invitation") this.onInvitation?.(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.timers.ping);
      if (socket !== this.socket) return;
      this.socket = null;
      if (this.stopped || FINAL_CLOSE_CODES.has(event.code)) return;
      this.timers.retry = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.timers.retry);
    clearInterval(this.timers.ping);
    this.socket?.close(1000);
  }
}
