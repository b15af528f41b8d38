// The leaderboard (/?leaderboard): players by displayed rating, over all rated games or
// one preset's, all time or the last 30 days, a page at a time, with the viewer's own
// line wherever they stand. Bots are never on it.
import { get } from "./api.js";
import { formatNumber, presetLabel, t } from "./i18n.js";
import { esc, pendingMarkup, playerName } from "./ui.js";

const SIZE = 25;

/** A person's name as a link to their profile. */
export function profileLink(userId, name) {
  return `<a data-nav class="profile-link" href="/?player=${encodeURIComponent(userId)}">${esc(name)}</a>`;
}

/** A name in a game or a list: a link for a registered person (`userId`), plain text
 * for a guest, a bot or a deleted account (`userId` null). */
export function nameLink(userId, name) {
  return userId ? profileLink(userId, name) : esc(playerName(name));
}

function row(line, mine) {
  const badge = line.provisional ? ` <span class="badge">${esc(t("web.profile.provisional"))}</span>` : "";
  return `<tr class="${mine ? "mine" : ""}"><td>${formatNumber(line.position)}</td><td>${profileLink(line.user_id, line.nickname)}${badge}</td>
    <td>${formatNumber(line.rating)}</td><td>${formatNumber(line.games)}</td></tr>`;
}

export function showLeaderboard(view, app) {
  // `at`: which page to ask for: {page: N}, or {after: cursor} / {before: cursor} (the
  // answer's `next` and `previous`, which stay put however the ratings move).
  const s = { preset: "all", period: "all", at: { page: "1" }, board: null, presets: [], error: null, stopped: false };

  async function load() {
    try {
      if (!s.presets.length) s.presets = (await get("/rules")).presets.map((p) => p.name);
      const query = new URLSearchParams({ preset: s.preset, period: s.period, size: String(SIZE), ...s.at });
      s.board = await get(`/leaderboard?${query}`);
      s.error = null;
    } catch (error) {
      s.error = error;
    }
    if (!s.stopped) screen.render();
  }

  const screen = {
    render() {
      const pending = pendingMarkup(s.error, s.board !== null);
      if (pending) {
        view.innerHTML = pending;
        return;
      }
      const b = s.board;
      const me = app.user?.id;
      const pages = Math.max(1, Math.ceil(b.total / SIZE));
      const choices = ["all", ...s.presets]
        .map((name) => `<option value="${esc(name)}" ${name === s.preset ? "selected" : ""}>${esc(name === "all" ? t("web.leaderboard.all") : presetLabel(name))}</option>`)
        .join("");
      const own = b.me && !b.lines.some((line) => line.user_id === me) ? row(b.me, true) : "";
      view.innerHTML = `<section class="panel leaderboard"><h1>${esc(t("web.leaderboard.title"))}</h1>
        <div class="filters"><label class="field"><span>${esc(t("web.create.rules"))}</span><select name="preset">${choices}</select></label>
        <label class="field"><span>${esc(t("web.leaderboard.period"))}</span><select name="period">
          <option value="all" ${s.period === "all" ? "selected" : ""}>${esc(t("web.leaderboard.alltime"))}</option>
          <option value="30d" ${s.period === "30d" ? "selected" : ""}>${esc(t("web.leaderboard.recent"))}</option></select></label></div>
        ${b.lines.length ? `<table class="board"><thead><tr><th>#</th><th>${esc(t("web.leaderboard.player"))}</th><th>${esc(t("web.profile.rating"))}</th><th>${esc(t("web.profile.games"))}</th></tr></thead>
        <tbody>${b.lines.map((line) => row(line, line.user_id === me)).join("")}${own}</tbody></table>` : `<p class="empty">${esc(t("web.leaderboard.none"))}</p>`}
        <p class="muted">${esc(b.me ? t("web.leaderboard.you", { position: b.me.position, total: b.total }) : t("web.leaderboard.notyou"))}</p>
        <nav class="pages"><button type="button" data-before="${esc(b.previous ?? "")}" ${b.previous ? "" : "disabled"}>${esc(t("web.leaderboard.prev"))}</button>
        <span>${esc(t("web.leaderboard.page", { page: b.page, pages }))}</span>
        <button type="button" data-after="${esc(b.next ?? "")}" ${b.next ? "" : "disabled"}>${esc(t("web.leaderboard.next"))}</button>
        ${b.me ? `<button type="button" data-jump="${Math.ceil(b.me.position / SIZE)}">${esc(t("web.leaderboard.mine"))}</button>` : ""}</nav></section>`;
      view.querySelectorAll("select").forEach((select) =>
        select.addEventListener("change", () => {
          s[select.name] = select.value;
          s.at = { page: "1" };
          load();
        }),
      );
      view.querySelectorAll("[data-before], [data-after], [data-jump]").forEach((button) =>
        button.addEventListener("click", () => {
          const { before, after, jump } = button.dataset;
          s.at = before ? { before } : after ? { after } : { page: jump };
          load();
        }),
      );
    },
    stop() {
      s.stopped = true;
    },
  };
  screen.render();
  load();
  return screen;
}
