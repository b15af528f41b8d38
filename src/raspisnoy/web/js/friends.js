// Friends (docs/friends.md): the friends screen (/?friends), the follow and block buttons
// of a profile, the invitation of a friend to one's table, the notice of an invitation
// received (in the page; in the tab's title and as a system notification when the page
// is in the background) and the line saying who watches a table.
import { del, get, post, put } from "./api.js";
import { t, tn } from "./i18n.js";
import { LobbyFeed } from "./lobby_live.js";
import { element, esc, openDialog, pendingMarkup, toast } from "./ui.js";

/** How often the friends screen asks again who is online. */
const REFRESH_MS = 10000;

/** A friend's status: where they are, or that they do not follow back. */
function statusText(line) {
  if (!line.friend) return t("web.friends.one_way");
  if (!line.online) return t("web.friends.offline");
  return t(line.table ? "web.friends.at_table" : "web.friends.online");
}

function friendLine(line) {
  const go = line.table ? `<a class="button small" data-nav href="/?table=${encodeURIComponent(line.table)}">${esc(t("web.friends.watch"))}</a>` : "";
  return `<li class="game-row friend-line" data-user="${esc(line.user_id)}" data-online="${line.online}">
    <span><a data-nav href="/?player=${encodeURIComponent(line.user_id)}"><strong>${esc(line.nickname)}</strong></a>
      <span class="muted status ${line.online ? "online" : ""}">${esc(statusText(line))}</span></span>
    <span class="actions-row">${go}<button type="button" class="small" data-unfollow="${esc(line.user_id)}">${esc(t("web.friends.unfollow"))}</button></span></li>`;
}

function blockedLine(person) {
  return `<li class="game-row"><span>${esc(person.nickname)}</span>
    <button type="button" class="small" data-unblock="${esc(person.user_id)}">${esc(t("web.friends.unblock"))}</button></li>`;
}

/** The friends screen: whom one follows with their presence, whom one blocked, and the
 * choice of system notifications. Its lobby socket keeps the person online and brings
 * invitations. */
export function showFriends(view) {
  const s = { list: null, error: null, stopped: false };
  const feed = new LobbyFeed(() => {}, showInvitation);
  feed.connect();

  async function load() {
    try {
      s.list = await get("/friends");
      s.error = null;
    } catch (error) {
      s.error = error;
    }
    if (!s.stopped) screen.render();
  }

  async function change(call) {
    try {
      s.list = await call;
      screen.render();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  const notifications = () => "Notification" in window && Notification.permission === "granted";

  const screen = {
    render() {
      const pending = pendingMarkup(s.error, s.list !== null);
      if (pending) {
        view.innerHTML = pending;
        return;
      }
      const { following, blocked } = s.list;
      const lines = following.length ? `<ul class="list friends-list">${following.map(friendLine).join("")}</ul>` : `<p class="empty">${esc(t("web.friends.empty"))}</p>`;
      view.innerHTML = `<section class="panel friends"><h1>${esc(t("web.friends.title"))}</h1>
        <p class="hint">${esc(t("web.friends.hint"))}</p>${lines}
        ${"Notification" in window ? `<label class="check"><input type="checkbox" class="notify" ${notifications() ? "checked disabled" : ""}> ${esc(t("web.friends.notify"))}</label>` : ""}
        ${blocked.length ? `<h2>${esc(t("web.friends.blocked"))}</h2><ul class="list">${blocked.map(blockedLine).join("")}</ul>` : ""}</section>`;
      for (const button of view.querySelectorAll("[data-unfollow]")) {
        button.addEventListener("click", () => change(del(`/friends/${encodeURIComponent(button.dataset.unfollow)}`)));
      }
      for (const button of view.querySelectorAll("[data-unblock]")) {
        button.addEventListener("click", () => change(del(`/blocks/${encodeURIComponent(button.dataset.unblock)}`)));
      }
      view.querySelector(".notify")?.addEventListener("change", () => Notification.requestPermission().then(() => screen.render()));
    },
    stop() {
      s.stopped = true;
      clearInterval(timer);
      feed.stop();
    },
  };
  const timer = setInterval(load, REFRESH_MS);
  screen.render();
  load();
  return screen;
}

/** The follow and block buttons of another person's profile, drawn into `slot`. */
export async function friendButtons(slot, userId) {
  let list;
  try {
    list = await get("/friends");
  } catch {
    return; // without a session there is nothing to offer
  }
  const draw = () => {
    const following = list.following.some((line) => line.user_id === userId);
    const blocked = list.blocked.some((person) => person.user_id === userId);
    slot.innerHTML = `<div class="actions-row friend-buttons">
      ${blocked ? "" : `<button type="button" class="${following ? "" : "primary"}" data-friend="${following ? "unfollow" : "follow"}">${esc(t(following ? "web.friends.unfollow" : "web.friends.follow"))}</button>`}
      <button type="button" class="${blocked ? "" : "danger"}" data-friend="${blocked ? "unblock" : "block"}">${esc(t(blocked ? "web.friends.unblock" : "web.friends.block"))}</button></div>`;
    for (const button of slot.querySelectorAll("[data-friend]")) button.addEventListener("click", () => act(button.dataset.friend));
  };
  const path = (what) => `/${what.includes("block") ? "blocks" : "friends"}/${encodeURIComponent(userId)}`;
  async function act(what) {
    if (what === "block" && !confirm(t("web.friends.block.confirm"))) return;
    try {
      list = await (what.startsWith("un") ? del(path(what)) : put(path(what)));
      draw();
    } catch (error) {
      toast(error.message, "error");
    }
  }
  draw();
}

/** Whom the viewer follows (user ids), for the follow buttons of a table; an empty set
 * if that cannot be had (no session). */
export async function followedIds() {
  try {
    return new Set((await get("/friends")).following.map((line) => line.user_id));
  } catch {
    return new Set();
  }
}

/** A button to follow person `userId` named `name` (at a table, after a game). */
export function followButton(userId, name) {
  const label = t("web.friends.follow.name", { name });
  return `<button type="button" class="small follow" data-follow="${esc(userId)}" data-name="${esc(name)}" aria-label="${esc(label)}" title="${esc(label)}">${esc(t("web.friends.follow"))}</button>`;
}

/** Makes the follow buttons under `root` follow; `followed(ids)` gets whom the viewer
 * follows after it. */
export function wireFollowButtons(root, followed) {
  for (const button of root.querySelectorAll("[data-follow]")) {
    button.addEventListener("click", async () => {
      try {
        const list = await put(`/friends/${encodeURIComponent(button.dataset.follow)}`);
        toast(t("web.friends.followed", { name: button.dataset.name }));
        followed(new Set(list.following.map((line) => line.user_id)));
      } catch (error) {
        toast(error.message, "error");
      }
    });
  }
}

/** The dialog of the friends online, each to be invited to table `tableId`. */
export async function inviteDialog(tableId) {
  const body = openDialog(t("web.invite.button"), `<p class="loading">${esc(t("web.loading"))}</p>`);
  let online;
  try {
    online = (await get("/friends")).following.filter((line) => line.friend && line.online);
  } catch (error) {
    body.innerHTML = `<p class="error">${esc(error.message)}</p>`;
    return;
  }
  body.innerHTML = online.length
    ? `<ul class="list invite-list">${online
        .map((line) => `<li class="game-row"><strong>${esc(line.nickname)}</strong><button type="button" class="small primary" data-invite="${esc(line.user_id)}" data-name="${esc(line.nickname)}">${esc(t("web.invite.send"))}</button></li>`)
        .join("")}</ul>`
    : `<p class="empty">${esc(t("web.invite.none"))}</p>`;
  for (const button of body.querySelectorAll("[data-invite]")) {
    button.addEventListener("click", async () => {
      try {
        await post(`/friends/${encodeURIComponent(button.dataset.invite)}/invite`, { table_id: tableId });
        button.disabled = true;
        toast(t("web.invite.sent", { name: button.dataset.name }));
      } catch (error) {
        toast(error.message, "error");
      }
    });
  }
}

/** Shows an `invitation` message: a notice in the page with a link to the table; when the
 * page is in the background, also in the tab's title and as a system notification (if
 * the person allowed them on the friends screen). */
export function showInvitation(message) {
  const name = message.from.nickname;
  const link = `/?table=${encodeURIComponent(message.table)}`;
  let box = document.getElementById("invitations");
  if (!box) {
    box = element(`<div id="invitations" class="invitations" aria-live="assertive"></div>`);
    document.body.append(box);
  }
  const notice = element(`<div class="invitation panel" role="alert"><span>${esc(t("web.invite.received", { name }))}</span>
    <a class="button primary small" data-nav href="${esc(link)}">${esc(t("web.invite.open"))}</a>
    <button type="button" class="icon close" aria-label="${esc(t("web.dialog.close"))}">✕</button></div>`);
  notice.querySelector("a").addEventListener("click", () => notice.remove());
  notice.querySelector("button.close").addEventListener("click", () => notice.remove());
  box.append(notice);
  if (!document.hidden) return;
  const title = t("web.invite.title", { name });
  const before = document.title;
  document.title = title;
  document.addEventListener("visibilitychange", () => (document.title = before), { once: true });
  if ("Notification" in window && Notification.permission === "granted") {
    const shown = new Notification(title, { body: t("web.invite.received", { name }), tag: `invitation-${message.table}` });
    shown.onclick = () => {
      window.focus();
      location.assign(link);
    };
  }
}

/** The line of who watches a table, from its `spectators` message (or nothing yet). */
export function spectatorsMarkup(message) {
  if (!message) return `<p class="spectators muted" hidden></p>`;
  const count = message.count ? tn("web.spectators.count", message.count) : t("web.spectators.none");
  const names = message.names.length ? ` · ${t("web.spectators.names", { names: message.names.join(", ") })}` : "";
  return `<p class="spectators muted" data-count="${message.count}">${esc(count + names)}</p>`;
}
