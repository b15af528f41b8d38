// The table's chat (docs/PROTOCOL.md, "Chat"): a dock at the bottom corner of the table
// screen with the chat button (and the unread count) that opens the chat panel: the
// messages, one-tap quick phrases and reactions (ids the server keeps, shown in the
// reader's language), and a line to write in. Messages are text, never markup: every
// one goes through esc(). Whom the viewer muted is kept in localStorage and sent to the
// server again at every table (the server then holds their messages back).
import { t, tMaybe, tn } from "./i18n.js";
import { reportButton, reportFrom } from "./report.js";
import { esc, playerName } from "./ui.js";

/** The quick phrases and reactions (raspisnoy.server.chat.PHRASES); reactions are emoji. */
export const PHRASES = ["hello", "well_played", "oops", "thanks", "sorry", "wow", "hurry", "bye"];
export const REACTIONS = ["like", "laugh", "surprise", "sad"];
/** The longest text the server keeps (raspisnoy.server.chat.MAX_TEXT), counted as it
 * counts: characters after runs of spaces become one and the ends are trimmed. */
const MAX_TEXT = 200;
const stored = (text) => text.normalize("NFC").replace(/\s+/g, " ").trim();
const length = (text) => [...stored(text)].length;

/** The counter under the line being written: what is left of the limit, or how much is
 * over it (then the text is not sent: nothing is cut silently). */
function counterText(text) {
  const left = MAX_TEXT - length(text);
  return left >= 0 ? tn("web.chat.left", left) : tn("web.chat.over", -left);
}
const MUTED_KEY = "raspisnoy.chat.muted";
/** How long a new message shows beside the closed chat button. */
const PEEK_MS = 4000;
/** The chat button's speech bubble (drawn, as emoji fonts are not everywhere). */
const BUBBLE =
  '<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 5h16v10H9l-5 4z"/><path d="M8 9h8M8 12h5"/></svg>';
const MUTE =
  '<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16 9l5 6M21 9l-5 6"/></svg>';

/** Whom this browser muted: {user id: name}. */
export function mutedPeople() {
  try {
    return JSON.parse(localStorage.getItem(MUTED_KEY) ?? "{}") ?? {};
  } catch {
    return {};
  }
}

function remember(people) {
  localStorage.setItem(MUTED_KEY, JSON.stringify(people));
}

/** What a message says, in the reader's language for a phrase. */
export function messageText(message) {
  return message.phrase === null ? message.text : (tMaybe(`web.chat.phrase.${message.phrase}`) ?? message.phrase);
}

/** One message as a list item; `mute` adds the button that mutes its writer, `table` (the
 * table's id) the one that reports the line to the moderators. */
export function chatLine(message, { mine = false, mute = false, table = null } = {}) {
  const reaction = REACTIONS.includes(message.phrase) ? " reaction" : "";
  const button = mute
    ? `<button type="button" class="icon mute" data-user="${esc(message.user_id)}" data-name="${esc(message.name)}" title="${esc(t("web.chat.mute", { name: playerName(message.name) }))}" aria-label="${esc(t("web.chat.mute", { name: playerName(message.name) }))}">${MUTE}</button>`
    : "";
  const report = table === null ? "" : reportButton(message.name, { user: message.user_id, place: "chat", table, seq: message.seq, text: messageText(message) });
  return `<li class="chat-line${mine ? " mine" : ""}${reaction}" data-seq="${message.seq}"><span class="who">${esc(playerName(message.name))}${message.seat === null ? ` <small class="muted">${esc(t("web.chat.spectator"))}</small>` : ""}</span>
    <span class="said">${esc(messageText(message))}</span>${button}${report}</li>`;
}

/** The chat of the table on `connection`; `me()` is the viewer's user id (or null). */
export function tableChat(connection, me) {
  const s = { messages: [], read: false, write: false, open: false, unread: 0, peek: null, sending: null };
  const dock = document.createElement("aside");
  dock.className = "table-dock";
  const box = document.createElement("div"); // the chat's part of the dock (turn.js adds the bell)
  box.className = "chat-box";
  dock.append(box);
  document.body.append(dock);

  /** Redraws the dock; the line being written is kept as it is (value, focus, caret). */
  function draw() {
    const muted = mutedPeople();
    const lines = s.messages
      .map((m) => {
        const others = m.user_id !== me() && me() !== null;
        return chatLine(m, { mine: m.user_id === me(), mute: others, table: others ? connection.tableId : null });
      })
      .join("");
    const phrases = PHRASES.map((id) => `<button type="button" class="small phrase" data-phrase="${id}">${esc(t(`web.chat.phrase.${id}`))}</button>`).join("");
    const reactions = REACTIONS.map((id) => `<button type="button" class="small phrase reaction" data-phrase="${id}" aria-label="${esc(t(`web.chat.reaction.${id}`))}" title="${esc(t(`web.chat.reaction.${id}`))}">${esc(t(`web.chat.phrase.${id}`))}</button>`).join("");
    const silenced = Object.entries(muted)
      .map(([id, name]) => `<li>${esc(playerName(name))} <button type="button" class="small unmute" data-user="${esc(id)}">${esc(t("web.chat.unmute"))}</button></li>`)
      .join("");
    const writer = s.write
      ? `<div class="chat-phrases" role="group" aria-label="${esc(t("web.chat.phrases"))}">${reactions}${phrases}</div>
        <form class="chat-form"><input name="text" autocomplete="off" enterkeyhint="send" aria-label="${esc(t("web.chat.placeholder"))}" aria-describedby="chat-count" placeholder="${esc(t("web.chat.placeholder"))}">
        <button type="submit" class="primary small">${esc(t("web.chat.send"))}</button></form>
        <p id="chat-count" class="chat-count hint"></p>`
      : `<p class="hint">${esc(t(s.read ? "web.chat.readonly" : "web.chat.closed"))}</p>`;
    const peek = s.peek && !s.open ? `<p class="chat-peek" role="status"><b>${esc(playerName(s.peek.name))}</b>: ${esc(messageText(s.peek))}</p>` : "";
    const input = dock.querySelector(".chat-form input");
    const typed = input ? { value: input.value, focused: document.activeElement === input, caret: input.selectionStart } : null;
    box.innerHTML = `${peek}
      <button type="button" class="dock-button chat-toggle" aria-expanded="${s.open}" aria-controls="chat-panel" title="${esc(t("web.chat.title"))}">
        ${BUBBLE}<span class="label">${esc(t("web.chat.button"))}</span>${s.unread ? `<span class="unread" aria-label="${esc(t("web.chat.unread", { count: s.unread }))}">${s.unread}</span>` : ""}</button>
      <section id="chat-panel" class="chat-panel" ${s.open ? "" : "hidden"} aria-label="${esc(t("web.chat.title"))}">
        <header><h2>${esc(t("web.chat.title"))}</h2><button type="button" class="icon close-chat" aria-label="${esc(t("web.dialog.close"))}">✕</button></header>
        <ol class="chat-log" aria-live="polite" tabindex="0">${lines || `<li class="empty">${esc(t(s.read ? "web.chat.empty" : "web.chat.closed"))}</li>`}</ol>
        ${writer}
        ${silenced ? `<details class="chat-muted"><summary>${esc(t("web.chat.muted", { count: Object.keys(muted).length }))}</summary><ul>${silenced}</ul></details>` : ""}
      </section>`;
    const again = dock.querySelector(".chat-form input");
    if (typed && again) {
      again.value = typed.value;
      if (typed.focused) {
        again.focus();
        again.setSelectionRange(typed.caret, typed.caret);
      }
    }
    count();
    dock.dataset.messages = String(s.messages.length);
    const log = dock.querySelector(".chat-log");
    log.scrollTop = log.scrollHeight;
  }

  /** Shows the counter for the text being written (none while the line is empty) and
   * holds back a text over the limit. */
  function count() {
    const input = dock.querySelector(".chat-form input");
    if (!input) return;
    const over = length(input.value) > MAX_TEXT;
    const counter = dock.querySelector(".chat-count");
    counter.textContent = input.value.trim() ? counterText(input.value) : "";
    counter.classList.toggle("over", over);
    input.setAttribute("aria-invalid", String(over));
    dock.querySelector(".chat-form button[type=submit]").disabled = over;
  }

  function toggle(open = !s.open) {
    s.open = open;
    if (open) {
      s.unread = 0;
      s.peek = null;
    }
    draw();
    if (open) dock.querySelector(".chat-form input")?.focus();
  }

  function mute(userId, name, muted) {
    const people = mutedPeople();
    if (muted) people[userId] = name;
    else delete people[userId];
    remember(people);
    connection.send({ type: "mute", user_id: userId, muted });
  }

  dock.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.matches(".chat-toggle")) toggle();
    else if (button.matches(".close-chat")) toggle(false);
    else if (button.matches(".phrase")) connection.send({ type: "chat", phrase: button.dataset.phrase });
    else if (button.matches(".mute")) mute(button.dataset.user, button.dataset.name, true);
    else if (button.matches(".unmute")) mute(button.dataset.user, "", false);
    else if (button.matches(".report")) reportFrom(button);
  });
  dock.addEventListener("input", count);
  // The line is emptied only when the server sends the message back as stored: a refused
  // one (too many at once, say: the table shows why) stays to be sent again.
  dock.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.querySelector("input");
    const text = input.value.trim();
    if (!text || length(text) > MAX_TEXT) return;
    s.sending = stored(text);
    connection.send({ type: "chat", text });
  });

  /** Empties the line once the message being sent comes back (if it was not changed since). */
  function sent(messages) {
    const input = dock.querySelector(".chat-form input");
    if (s.sending === null || !messages.some((m) => m.user_id === me() && m.text === s.sending)) return;
    if (input && stored(input.value) === s.sending) input.value = "";
    s.sending = null;
  }
  document.addEventListener("keydown", onKey);
  function onKey(event) {
    if (event.key === "Escape" && s.open) toggle(false);
  }

  let peekTimer = null;
  draw();
  return {
    /** A `chat` message from the server: a history replaces, a new message adds. */
    receive(message) {
      if (message.history) {
        Object.assign(s, { messages: message.messages, read: message.read, write: message.write });
        // mute again whom this browser muted, so their messages stay away at this table too
        const known = new Set(message.muted);
        for (const id of Object.keys(mutedPeople())) if (!known.has(id)) connection.send({ type: "mute", user_id: id, muted: true });
      } else {
        s.messages = [...s.messages, ...message.messages];
        sent(message.messages);
        const theirs = message.messages.filter((m) => m.user_id !== me());
        if (!s.open && theirs.length) {
          s.unread += theirs.length;
          s.peek = theirs.at(-1);
          clearTimeout(peekTimer);
          peekTimer = setTimeout(() => {
            s.peek = null;
            draw();
          }, PEEK_MS);
        }
      }
      draw();
    },
    element: dock,
    render: draw,
    stop() {
      clearTimeout(peekTimer);
      document.removeEventListener("keydown", onKey);
      dock.remove();
    },
  };
}
