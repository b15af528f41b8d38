// A player's profile (/?player=ID): rating and its history as a chart, statistics
// overall and per preset, recent games (each opening its replay); on one's own profile
// also the sessions on every device, the password and the account itself.
import { accountForm, accountMade, logOut } from "./account.js";
import { del, formatMoment, get, put } from "./api.js";
import { friendButtons } from "./friends.js";
import { formatNumber, language, t, tMaybe, tn } from "./i18n.js";
import { nameLink } from "./leaderboard.js";
import { reportButton, reportFrom } from "./report.js";
import { presetLabel } from "./lobby.js";
import { esc, pendingMarkup, playerName, seatStats, signedPoints, toast } from "./ui.js";

const percent = (rate) => (rate === null ? "—" : `${formatNumber(Math.round(rate * 1000) / 10)}%`);

/** The rating after each rated game as an SVG line chart (no library: a few dozen
 * points): the rating's range on the left axis, the first and last game's dates below,
 * each game a dot whose title says its date and rating. */
export function ratingChart(history) {
  if (history.length < 2) return `<p class="hint">${esc(t("web.profile.chart.few"))}</p>`;
  const [width, height, left, right, top, bottom] = [320, 150, 40, 10, 10, 22];
  const values = history.map((point) => point.rating);
  const low = Math.floor(Math.min(...values));
  const high = Math.max(low + 1, Math.ceil(Math.max(...values)));
  const x = (index) => left + (index / (values.length - 1)) * (width - left - right);
  const y = (value) => top + ((high - value) / (high - low)) * (height - top - bottom);
  const day = (at) => new Date(at).toLocaleDateString(language(), { day: "numeric", month: "short" });
  const points = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
  const dots = values
    .map((value, index) => `<circle cx="${x(index).toFixed(1)}" cy="${y(value).toFixed(1)}" r="3"><title>${esc(day(history[index].at))}: ${esc(formatNumber(Math.round(value)))}</title></circle>`)
    .join("");
  const base = height - bottom;
  return `<figure class="rating-figure"><svg class="rating-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(t("web.profile.chart", { low: formatNumber(low), high: formatNumber(high) }))}">
    <path class="axis-line" d="M${left} ${top}V${base}H${width - right}"/>
    <text class="tick" x="${left - 4}" y="${top + 4}" text-anchor="end">${formatNumber(high)}</text>
    <text class="tick" x="${left - 4}" y="${base}" text-anchor="end">${formatNumber(low)}</text>
    <text class="tick date" x="${left}" y="${height - 6}" text-anchor="start">${esc(day(history[0].at))}</text>
    <text class="tick date" x="${width - right}" y="${height - 6}" text-anchor="end">${esc(day(history.at(-1).at))}</text>
    <polyline fill="none" stroke="currentColor" stroke-width="2" points="${points}"/><g fill="currentColor">${dots}</g></svg>
    <figcaption class="hint">${esc(t("web.profile.chart.caption"))}</figcaption></figure>`;
}

function figures(stats) {
  return seatStats([
    [t("web.profile.games"), formatNumber(stats.games)],
    [t("web.profile.wins"), formatNumber(stats.wins)],
    [t("web.profile.ppg"), stats.points_per_game === null ? "—" : formatNumber(stats.points_per_game)],
    [t("web.profile.exact"), percent(stats.exact_rate)],
    [t("web.profile.zero"), percent(stats.zero_exact_rate)],
    [t("web.profile.blind"), kindFigure(stats.blind, { exact: true })],
    [t("web.profile.misere"), kindFigure(stats.misere)],
    [t("web.profile.golden"), kindFigure(stats.golden)],
  ]);
}

/** The points of a kind of round (with `exact`, the share of exact bids first): a dash
 * where none was played, as for the other figures («—», not «— · 0»). */
function kindFigure(kind, { exact = false } = {}) {
  if (kind.rounds === 0) return "—";
  return exact ? `${percent(kind.exact_rate)} · ${signedPoints(kind.points)}` : signedPoints(kind.points);
}

function ratingLine(rating) {
  const badge = rating.provisional ? ` <span class="badge">${esc(t("web.profile.provisional"))}</span>` : "";
  return `<strong class="rating">${formatNumber(rating.rating)}</strong>${badge}`;
}

/** The duplicate rating (docs/accounts.md), once rated tournaments have made one. */
function duplicateMarkup(rating) {
  if (!rating) return "";
  return `<p class="duplicate-rating">${esc(t("web.profile.rating.duplicate"))}: ${ratingLine(rating)}</p>
    <p class="hint">${esc(t("web.profile.rating.duplicate.hint"))}</p>`;
}

function recentMarkup(recent) {
  if (!recent.length) return `<p class="empty">${esc(t("web.games.none"))}</p>`;
  return `<ul class="list">${recent
    .map(
      // the place and points as one line of the row's grid (a bare " · " would be its own)
      (game) => `<li class="game-row"><span><span><strong>${esc(t("web.profile.place", { place: game.place }))}</strong> · ${signedPoints(game.points)}</span>
        <span class="muted">${esc(presetLabel(game.preset))} · ${esc(formatMoment(game.finished_at))} · ${game.players.map((n, seat) => nameLink(game.profiles[seat], playerName(n))).join(", ")}</span></span>
        <a class="button small" data-nav href="${esc(game.replay)}">${esc(t("web.games.replay"))}</a></li>`,
    )
    .join("")}</ul>`;
}

function presetsMarkup(presets) {
  if (!presets.length) return "";
  return `<section class="panel"><h2>${esc(t("web.profile.presets"))}</h2>${presets
    .map((p) => `<h3>${esc(presetLabel(p.preset))}</h3>${figures(p)}`)
    .join("")}</section>`;
}

/** The browsers and the systems a user agent names, each found by its own token; the
 * more particular first: Edge's, Opera's and Yandex's name Chrome too, Chrome's Safari, an
 * iPhone's "like Mac OS X" and Android's Linux. Product names, the same in every language. */
const BROWSERS = [
  ["Edge", /\bEdg(e|A|iOS)?\//],
  ["Opera", /\b(OPR|OPT|Opera)\//],
  ["Yandex Browser", /\bYaBrowser\//],
  ["Samsung Internet", /\bSamsungBrowser\//],
  ["Firefox", /\b(Firefox|FxiOS)\//],
  ["Chrome", /\b(HeadlessChrome|Chrome|CriOS|Chromium)\//],
  ["Safari", /\bVersion\/.*\bSafari\//],
];
const SYSTEMS = [
  ["iPhone", /\biPhone\b/],
  ["iPad", /\biPad\b/],
  ["Android", /\bAndroid\b/],
  ["Windows", /\bWindows\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["macOS", /\bMacintosh\b/],
  ["Linux", /\bLinux\b/],
];

/** The name of the first of `known` whose token `userAgent` has, else null. */
const knownName = (known, userAgent) => known.find(([, token]) => token.test(userAgent))?.[0] ?? null;

/** A session's device as a person names it, read from its browser's user agent: the
 * browser and the system («Chrome, Linux», «Safari, iPhone»), or the one that is known. */
function deviceName(userAgent) {
  const browser = knownName(BROWSERS, userAgent ?? "");
  const system = knownName(SYSTEMS, userAgent ?? "");
  if (browser && system) return t("web.profile.device.name", { browser, system });
  return browser ?? system ?? t("web.profile.device.unknown");
}

/** The sessions on every device (the whole user agent in the name's title), with log out
 * here and everywhere. */
function devicesMarkup(sessions) {
  const lines = sessions
    .map(
      (s) => `<li class="game-row"><span><span ${s.user_agent ? `title="${esc(s.user_agent)}"` : ""}>${esc(deviceName(s.user_agent))}</span>
      <span class="muted">${esc(formatMoment(s.created_at))}${s.current ? ` · ${esc(t("web.profile.device.this"))}` : ""}</span></span>
      ${s.current ? "" : `<button type="button" class="small" data-end="${esc(s.id)}">${esc(t("web.profile.device.end"))}</button>`}</li>`,
    )
    .join("");
  return `<section class="panel own"><h2>${esc(t("web.profile.devices"))}</h2><ul class="list">${lines}</ul>
    <div class="actions-row"><button type="button" data-do="logout">${esc(t("web.account.logout"))}</button>
    <button type="button" data-do="everywhere">${esc(t("web.account.logout.everywhere"))}</button></div></section>`;
}

/** The account's panels, each apart like the profile's others: a registered player's
 * password change and deletion, or a guest's way to keep their games as an account. */
function accountMarkup(registered) {
  if (!registered) {
    return `<section class="panel"><h2>${esc(t("web.account.upgrade"))}</h2><p class="hint">${esc(t("web.account.upgrade.hint"))}</p>
      <div class="account-slot"></div></section>`;
  }
  return `<section class="panel"><h2>${esc(t("web.account.change"))}</h2><form class="password-form">
      <label for="old-password">${esc(t("web.account.password.current"))}</label>
      <input id="old-password" name="password" type="password" required autocomplete="current-password">
      <label for="new-password">${esc(t("web.account.password.new"))}</label>
      <input id="new-password" name="new_password" type="password" required minlength="8" autocomplete="new-password">
      <p class="form-error" role="alert"></p><button type="submit">${esc(t("web.account.change"))}</button></form></section>
    <section class="panel"><h2>${esc(t("web.account.delete"))}</h2><form class="delete-form"><p class="hint">${esc(t("web.account.delete.hint"))}</p>
      <label for="delete-password">${esc(t("web.account.password"))}</label>
      <input id="delete-password" name="password" type="password" required autocomplete="current-password">
      <p class="form-error" role="alert"></p><button type="submit" class="danger">${esc(t("web.account.delete"))}</button></form></section>`;
}

/** The owner's choice whether puzzles may come from their games (docs/review.md). */
function puzzleSettingsMarkup(settings) {
  return `<section class="panel puzzle-settings"><h2>${esc(t("web.puzzles.title"))}</h2>
    <label class="check"><input type="checkbox" ${settings.from_my_games ? "checked" : ""}>
      <span>${esc(t("web.puzzles.settings.from_games"))}<small class="hint">${esc(t("web.puzzles.settings.help"))}</small></span></label></section>`;
}

export function showProfile(view, app, userId) {
  const s = { profile: null, sessions: null, puzzleSettings: null, error: null, stopped: false };
  const own = () => app.user !== null && app.user.id === userId;
  /** Whether the viewer may follow, block and report this person: signed in, someone
   * else, and not an account deleted (nobody is left to follow or report). */
  const other = () => app.user !== null && !own() && s.profile?.user.kind !== "deleted";

  async function load() {
    try {
      s.profile = await get(`/players/${encodeURIComponent(userId)}`);
      s.sessions = own() ? (await get("/sessions")).sessions : null;
      s.puzzleSettings = own() ? await get("/puzzles/settings") : null;
    } catch (error) {
      s.error = error;
    }
    if (!s.stopped) screen.render();
  }

  function wire() {
    const slot = view.querySelector(".friend-slot");
    if (slot) friendButtons(slot, userId);
    view.querySelector("button.report")?.addEventListener("click", (event) => reportFrom(event.currentTarget));
    view.querySelector(".puzzle-settings input")?.addEventListener("change", async (event) => {
      s.puzzleSettings = await put("/puzzles/settings", { from_my_games: event.target.checked });
      toast(t("web.puzzles.settings.saved"));
    });
    view.querySelector("[data-do=logout]")?.addEventListener("click", () => logOut(app));
    view.querySelector("[data-do=everywhere]")?.addEventListener("click", () => logOut(app, true));
    view.querySelectorAll("[data-end]").forEach((button) =>
      button.addEventListener("click", async () => {
        await del(`/sessions/${encodeURIComponent(button.dataset.end)}`);
        load();
      }),
    );
    view.querySelector(".account-slot")?.append(
      accountForm("register", (user) => {
        app.user = user;
        app.renderHeader();
        accountMade(user);
        load();
      }),
    );
    const password = view.querySelector(".password-form");
    password?.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await put("/account/password", { password: password.password.value, new_password: password.new_password.value });
        toast(t("web.account.changed"));
        load();
      } catch (error) {
        password.querySelector(".form-error").textContent = error.message;
      }
    });
    const remove = view.querySelector(".delete-form");
    remove?.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!confirm(t("web.account.delete.confirm"))) return;
      try {
        await del("/account", { password: remove.password.value });
        app.user = null;
        app.renderHeader();
        app.navigate("/");
      } catch (error) {
        remove.querySelector(".form-error").textContent = error.message;
      }
    });
  }

  const screen = {
    render() {
      const pending = pendingMarkup(s.error, s.profile !== null);
      if (pending) {
        view.innerHTML = pending;
        return;
      }
      const p = s.profile;
      const overall = p.ratings.find((r) => r.scope === "all");
      const kind = tMaybe(`web.profile.kind.${p.user.kind}`) ?? "";
      view.innerHTML = `<div class="profile">
        <section class="panel"><h1>${esc(p.user.kind === "deleted" ? t("web.profile.deleted") : p.user.nickname)}</h1><p class="muted">${esc(kind)}</p>
          ${other() ? `<div class="friend-slot"></div>
          <p>${reportButton(p.user.nickname, { user: p.user.id, place: "profile" }, { worded: true })}</p>` : ""}
          <p>${esc(t("web.profile.rating"))}: ${overall ? ratingLine(overall) : esc(t("web.profile.unrated"))}</p>
          <p class="hint">${esc(tn("web.profile.rating.hint", p.provisional_games))}</p>
          ${duplicateMarkup(p.ratings.find((r) => r.scope === "duplicate"))}
          ${ratingChart(p.history)}
          <a class="button small" data-nav href="/?leaderboard">${esc(t("web.leaderboard.title"))}</a></section>
        <section class="panel"><h2>${esc(t("web.profile.stats"))}</h2>${figures(p.stats)}</section>
        ${presetsMarkup(p.presets)}
        <section class="panel"><h2>${esc(t("web.profile.recent"))}</h2>${recentMarkup(p.recent)}</section>
        ${s.puzzleSettings === null ? "" : puzzleSettingsMarkup(s.puzzleSettings)}
        ${s.sessions === null ? "" : devicesMarkup(s.sessions) + accountMarkup(p.user.kind === "registered")}</div>`;
      wire();
    },
    stop() {
      s.stopped = true;
    },
  };
  screen.render();
  load();
  return screen;
}
