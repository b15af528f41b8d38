// The page's entry point: the header (language, connection, name), the session, and the
// router between the lobby (/), a table (/?table=ID), a replay (/?replay=ID), a profile
// (/?player=ID), the leaderboard (/?leaderboard), friends (/?friends), a review (/?review=ID&seat=N), the
// puzzles (/?puzzles), the scorekeeper (/score), the casino game (/casino), clubs (/?clubs, /?club=ID), the moderators'
// screen (/?moderation) and offline play (/?offline, a game on this device /?offline=ID),
// which needs no server at all.
import { accountMenu } from "./account.js";
import { ApiError, get, patch } from "./api.js";
import { showCasino } from "./casino.js";
import { showClub, showClubInvite, showClubs } from "./club.js";
import { showTournament, showTournaments } from "./tournament.js";
import { showFriends } from "./friends.js";
import {
  LANGUAGE_NAMES,
  LANGUAGES,
  language,
  onLanguageChange,
  preferredLanguage,
  setLanguage,
  t,
} from "./i18n.js";
import { showLeaderboard } from "./leaderboard.js";
import { checkStanding, showModeration } from "./moderation.js";
import { askNickname, nicknameForm, nicknameRefused, showLobby } from "./lobby.js";
import { watchInstall } from "./install.js";
import { failureMarkup, installOffline } from "./offline.js";
import { prepareEngine, showOffline, showOfflineTable } from "./offline_play.js";
import { showProfile } from "./profile.js";
import { showPuzzles } from "./puzzle.js";
import { showReplay } from "./replay.js";
import { showReview } from "./review.js";
import { showScore } from "./score.js";
import { forgetSheetsOfOthers } from "./score_kept.js";
import { showTable } from "./table.js";
import { closeDialog, openDialog, toast, unfoldNamesOnTap } from "./ui.js";

const THEME_KEY = "raspisnoy.theme";

/** Dark or light: the visitor's choice if they made one, else the system's. */
function darkTheme() {
  const chosen = localStorage.getItem(THEME_KEY);
  return chosen ? chosen === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Applies the theme (style.css reads data-theme); the switch is a toggle button "Dark
 * theme", pressed while the page is dark. */
function showTheme() {
  const dark = darkTheme();
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  const button = document.getElementById("theme");
  button.setAttribute("aria-pressed", String(dark));
  button.setAttribute("aria-label", t("web.theme.dark"));
  button.title = t("web.theme.dark");
}

function toggleTheme() {
  localStorage.setItem(THEME_KEY, darkTheme() ? "light" : "dark");
  showTheme();
}

/** What every screen shares: the signed-in user and the screen on show. */
const app = { user: null, moderator: false, offline: false, screen: null, navigate, renderHeader };

/** Goes to `url` inside the page (no reload) and shows its screen. */
function navigate(url) {
  history.pushState(null, "", url);
  route();
}

async function currentUser() {
  try {
    return (await get("/session")).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

async function route() {
  app.screen?.stop?.();
  app.screen = null;
  closeDialog();
  const view = document.getElementById("view");
  const params = new URLSearchParams(location.search);
  const score = location.pathname === "/score";
  const linked = score && /^#s\d+\./.test(location.hash); // a whole game in a link (sheet_link.js)
  if (params.has("replay") || (score && (params.has("share") || location.hash.startsWith("#token="))) || linked) {
    // Replays, shared score sheets and a sheet's hand-over link are for anyone with the
    // link: no nickname needed.
    app.screen = score ? showScore(view, app, params) : showReplay(view, params.get("replay"));
    return;
  }
  if (params.has("offline")) {
    // Games against bots on this device: no server, no session needed.
    const id = params.get("offline");
    app.screen = id ? showOfflineTable(view, app, id) : showOffline(view, app);
    return;
  }
  // Profiles and the leaderboard are public: anyone may look, signed in or not.
  if (params.has("player")) {
    app.screen = showProfile(view, app, params.get("player"));
    return;
  }
  if (params.has("leaderboard")) {
    app.screen = showLeaderboard(view, app);
    return;
  }
  if (score && app.offline) {
    // No server: the scorekeeper keeps sheets on this device (sheet_local.js).
    app.screen = showScore(view, app, params);
    return;
  }
  if (app.user === null) {
    prepareEngine(); // a first visit: offline play's engine is made ready meanwhile
    app.screen = askNickname(view, (user) => {
      app.user = user;
      renderHeader();
      route();
      checkStanding(app); // a moderator's notices, shown once signed in
    });
    return;
  }
  if (params.has("review")) {
    // Reading a finished game's review is public, but asking for one takes a session:
    // the screen comes after the nickname form.
    app.screen = showReview(view, app, params.get("review"), Number(params.get("seat") ?? 0));
    return;
  }
  if (params.has("puzzles")) {
    // Puzzles (puzzle.js): the next one, the daily one (=daily) or one by its id.
    app.screen = showPuzzles(view, app, params.get("puzzles"));
    return;
  }
  if (params.has("tournament") || params.has("tournaments")) {
    // Tournaments (tournament.js): a tournament's page, and the public (or a club's) list.
    if (params.has("tournament")) app.screen = showTournament(view, app, params.get("tournament"));
    else app.screen = showTournaments(view, app, params.get("tournaments"));
    return;
  }
  if (params.has("clubs") || params.has("club") || params.has("club_invite")) {
    // Clubs (club.js): the directory, a club's page, and its invite link.
    if (params.has("club_invite")) app.screen = showClubInvite(view, app, params.get("club_invite"));
    else app.screen = params.has("club") ? showClub(view, app, params.get("club")) : showClubs(view, app);
    return;
  }
  if (params.has("friends")) app.screen = showFriends(view);
  else if (params.has("moderation")) app.screen = showModeration(view);
  else if (location.pathname === "/casino") app.screen = showCasino(view, app);
  else if (score) app.screen = showScore(view, app, params);
  else app.screen = params.has("table") ? showTable(view, app, params.get("table")) : showLobby(view, app);
}

function renderHeader() {
  const select = document.getElementById("lang");
  select.innerHTML = LANGUAGES.map(
    (code) =>
      `<option value="${code}" ${code === language() ? "selected" : ""}>${LANGUAGE_NAMES[code]}</option>`,
  ).join("");
  select.setAttribute("aria-label", t("web.language"));
  document.querySelector(".brand-text").textContent = t("web.app.title");
  document.querySelector(".brand").title = t("web.back.lobby");
  const me = document.getElementById("me");
  me.hidden = app.user === null;
  me.textContent = app.user?.nickname ?? "";
  me.title = `${app.user?.nickname ?? ""} · ${t("web.account.menu")}`;
  showTheme();
}

function rename() {
  const body = openDialog(t("web.rename.title"), nicknameForm(app.user.nickname));
  body.querySelector("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      app.user = (await patch("/session", { nickname: body.querySelector("input").value })).user;
      closeDialog();
      renderHeader();
      app.screen?.render();
    } catch (error) {
      body.querySelector(".form-error").textContent = nicknameRefused(error);
    }
  });
}

/** Every screen has one level-one heading (for screen readers' page outline, axe's
 * page-has-heading-one): the screen's own where it shows one (the welcome, the casino),
 * else the page's visually hidden one, named after the app. */
function keepOneHeading() {
  const view = document.getElementById("view");
  const heading = document.getElementById("page-heading");
  const update = () => {
    heading.textContent = t("web.app.title");
    heading.hidden = view.querySelector("h1") !== null;
  };
  new MutationObserver(update).observe(view, { childList: true, subtree: true });
  onLanguageChange(update);
  update();
}

async function start() {
  installOffline();
  watchInstall();
  await setLanguage(preferredLanguage(), { remember: false });
  document.getElementById("lang").addEventListener("change", (event) => setLanguage(event.target.value));
  document.getElementById("me").addEventListener("click", () => accountMenu(app, rename));
  document.getElementById("theme").addEventListener("click", toggleTheme);
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", showTheme);
  unfoldNamesOnTap();
  keepOneHeading();
  // Links inside the page (data-nav, and the brand) change the screen without a reload.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-nav]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    navigate(link.getAttribute("href"));
  });
  onLanguageChange(() => {
    renderHeader();
    app.screen?.render();
  });
  window.addEventListener("popstate", route);
  try {
    app.user = await currentUser();
    forgetSheetsOfOthers(app.user); // the sheets kept for offline are the signed-in person's only
  } catch (error) {
    if (new URLSearchParams(location.search).has("offline") || location.pathname === "/score") {
      // offline play and the scorekeeper need no session: the screen as usual
      app.offline = true;
      renderHeader();
      await route();
      return;
    }
    // No session to be had (no connection, say): the failure is the screen, redrawn in
    // the language chosen meanwhile.
    const view = document.getElementById("view");
    app.screen = { render: () => (view.innerHTML = failureMarkup(error)) };
    renderHeader();
    app.screen.render();
    return;
  }
  renderHeader();
  await route();
  await checkStanding(app); // after the screen: notices of moderators' actions on top of it
}

/** What a page that could not start says, in Russian, Ukrainian and English alike: the
 * translations may be what failed (as index.html's <noscript> line). */
const NOT_STARTED =
  "Игра не загрузилась: обновите страницу. · Гра не завантажилася: оновіть сторінку. · The game did not load: reload the page.";

start().catch((error) => {
  console.error(error); // the cause, for whoever debugs: never shown to the player
  toast(NOT_STARTED, "error");
  // a screen still loading would wait for ever: it says so too
  const loading = document.querySelector("#view > .loading");
  if (loading) loading.textContent = NOT_STARTED;
});
