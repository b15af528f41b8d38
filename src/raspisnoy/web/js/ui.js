// Small DOM helpers shared by the screens: escaping, the dialog, short notices.
import { formatNumber, t, tMaybe } from "./i18n.js";

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe to put inside HTML markup (nicknames come from other people). */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** A name where room is short (a sheet's column, under a card of the trick): on one line,
 * cut with an ellipsis rather than broken mid-word; its title holds it whole, and a tap
 * shows it whole in place (`unfoldNamesOnTap`). */
export function shortName(name) {
  return `<span class="short-name" title="${esc(name)}">${esc(name)}</span>`;
}

/** Lets a tap on a shortened name unfold it (and a second tap fold it); once per page. */
export function unfoldNamesOnTap() {
  document.addEventListener("click", (event) => event.target.closest?.(".short-name")?.classList.toggle("unfolded"));
}

/** What went wrong, as the person reads it: a refusal of the server or a failed
 * connection (`api.js`'s `ApiError`, whose `status` is a number) is in their words
 * already and stands alone; anything else is a fault of the page, said after «Что-то
 * пошло не так:». A string is the screen's own words, shown as they are. */
export function failureText(error) {
  if (typeof error === "string") return error;
  if (typeof error?.status === "number") return error.message;
  return t("web.error.server", { detail: error?.message ?? error });
}

/** What a screen shows until it can draw itself: its error (`failureText`; with a way
 * back to the lobby when `back`), or "loading…" while `data` has not come; `null` once
 * it has. */
export function pendingMarkup(error, data, back = false) {
  if (error) {
    const message = esc(failureText(error));
    if (!back) return `<p class="panel error">${message}</p>`;
    return `<section class="panel error"><p>${message}</p>
        <a class="button primary" data-nav href="/">${esc(t("web.back.lobby"))}</a></section>`;
  }
  return data ? null : `<p class="panel loading">${esc(t("web.loading"))}</p>`;
}

/** A screen that loads with `load`, draws with `draw(data, refresh)` and shows what
 * went wrong; while `again(data)` says so it asks again every `everyMs`. Returns the
 * screen (`render`, `stop`). */
export function loadedScreen(view, load, draw, { again = () => false, everyMs = 3000 } = {}) {
  const s = { data: null, error: null, stopped: false, timer: null };
  async function refresh() {
    clearTimeout(s.timer);
    try {
      s.data = await load();
      s.error = null;
    } catch (error) {
      s.error = error;
    }
    if (s.stopped) return;
    screen.render();
    if (s.data && again(s.data)) s.timer = setTimeout(refresh, everyMs);
  }
  const screen = {
    render() {
      const pending = pendingMarkup(s.error, s.data !== null, true);
      if (pending) view.innerHTML = pending;
      else draw(s.data, refresh);
    },
    stop() {
      s.stopped = true;
      clearTimeout(s.timer);
    },
  };
  screen.render();
  refresh();
  return screen;
}

/** A runner of a screen's actions: each is awaited, then `refresh` draws the screen
 * anew; what goes wrong is said in a toast. */
export function refreshingRunner(refresh) {
  return async (action) => {
    try {
      await action();
      await refresh();
    } catch (error) {
      toast(error.message, "error");
    }
  };
}

/** Parses trusted markup into a single element. */
export function element(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return template.content.firstElementChild;
}

/** The name a deleted account leaves in a game: "Anonymous #N", N its seat from 1. */
const DELETED_NAME = /^Anonymous #(\d+)$/;
/** The name it leaves elsewhere (a club's or a tournament's lists, a spectator's chat
 * line): no living person may take it (`nickname_reserved`). */
const DELETED_PERSON = "Anonymous";

/** Whether `name`, as a game records it, is a deleted account's (nobody to follow). */
export function isDeletedName(name) {
  return DELETED_NAME.test(name ?? "");
}

/** A player's name as games record it, with bots ("Bot 2 (random)", PROTOCOL.md) and
 * deleted accounts ("Anonymous #2", or "Anonymous" outside a game) named in the page's
 * language; `level: false` leaves a
 * bot's level out (a card's label in a trick has no room for it). Nicknames cannot
 * contain brackets or "#", so no person matches. */
export function playerName(name, { level = true } = {}) {
  const deleted = DELETED_NAME.exec(name);
  if (deleted) return t("web.seat.deleted", { seat: deleted[1] });
  if (name === DELETED_PERSON) return t("web.person.deleted");
  const bot = /^Bot (\d+) \(([\w-]+)\)$/.exec(name);
  if (!bot) return name;
  if (!level) return t("web.seat.bot", { seat: bot[1] });
  return t("web.seat.botlevel", { seat: bot[1], bot: tMaybe(`web.bot.${bot[2]}`) ?? bot[2] });
}

/** A seat's numbers as labelled figures: `items` are [label, value markup] pairs (a
 * value of null leaves the pair out). */
export function seatStats(items) {
  return `<dl class="seat-stats">${items
    .filter(([, value]) => value !== null)
    .map(([label, value]) => `<div class="stat"><dt>${esc(label)}</dt><dd>${value}</dd></div>`)
    .join("")}</dl>`;
}

/** Points with their sign, coloured: "+20", "-10". */
export function signedPoints(points) {
  return `<span class="${points < 0 ? "neg" : "pos"}">${points > 0 ? "+" : ""}${formatNumber(points)}</span>`;
}

let toastTimer = null;

/** A short notice at the bottom of the screen (errors, "link copied"). */
export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), kind === "error" ? 6000 : 2500);
}

/** Shows the modal dialog with `title` and `body` (markup or a node); returns its body
 * element. `onClose` runs when it closes by any means. */
export function openDialog(title, body, { onClose = null, wide = false } = {}) {
  const dialog = document.getElementById("dialog");
  if (dialog.open) dialog.onclose?.(); // the dialog on show gives way: its owner is told
  dialog.className = wide ? "wide" : "";
  dialog.innerHTML = `<header><h2>${esc(title)}</h2>
    <button type="button" class="icon close" aria-label="${esc(t("web.dialog.close"))}">✕</button></header>
    <div class="dialog-body"></div>`;
  const content = dialog.querySelector(".dialog-body");
  if (typeof body === "string") content.innerHTML = body;
  else content.append(body);
  dialog.querySelector("button.close").addEventListener("click", () => dialog.close());
  dialog.onclose = () => {
    dialog.onclose = null;
    onClose?.();
  };
  if (!dialog.open) dialog.showModal();
  return content;
}

export function closeDialog() {
  const dialog = document.getElementById("dialog");
  if (dialog.open) dialog.close();
}

export function dialogOpen() {
  return document.getElementById("dialog").open;
}

/** Copies `text` to the clipboard, with a fallback for pages not served over https. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = element("<textarea readonly></textarea>");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast(t("web.invite.copied"));
}
