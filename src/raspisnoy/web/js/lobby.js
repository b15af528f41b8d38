// The lobby: choosing a nickname, quick game, creating a table (preset, every rules option,
// seats, bots, privacy, timer, bot speed), the open public tables, the games to watch and
// your own games.
import { accountPanel } from "./account.js";
import { formatMoment, get, post } from "./api.js";
import { formatNumber, language, presetLabel, t, tMaybe, tn } from "./i18n.js";
import { nameLink } from "./leaderboard.js";
import { showInvitation } from "./friends.js";
import { LobbyFeed } from "./lobby_live.js";
import { failureMarkup } from "./offline.js";
import { installPanel } from "./install.js";
import { offlineNote } from "./offline_play.js";
import { poolPanel } from "./pool.js";
import { CATALOGUE_KEY, LEVELS_KEY, presetOf, quickGame, quickSettings, rememberTable } from "./quick.js";
import { esc, playerName, toast } from "./ui.js";

const TIMERS = [0, 15, 30, 60, 120, 300];
const SPEEDS = [
  ["instant", 0],
  ["fast", 400],
  ["normal", 800],
  ["slow", 1600],
];
const DEFAULTS = { players: 4, timer: 60, speed: 800, bot: "heuristic" };
/** Wide screens show the new-table form from the start; phones behind its button. */
const WIDE = "(min-width: 900px)";
/** How long "your games" waits for more changes of the person's tables before it reads
 * them again (a game started is a seat taken, then the start: one read). */
const MINE_SETTLE_MS = 300;

/** The nickname form's markup (first visit, and renaming from the header). */
export function nicknameForm(value = "") {
  return `<form class="nickname-form">
    <label for="nickname">${esc(t("web.nickname.label"))}</label>
    <input id="nickname" name="nickname" maxlength="24" minlength="2" required autocomplete="nickname"
      autocapitalize="words" value="${esc(value)}" placeholder="${esc(t("web.nickname.placeholder"))}">
    <p class="hint">${esc(t("web.nickname.hint"))}</p>
    <p class="form-error" role="alert"></p>
    <button type="submit" class="primary big">${esc(t("web.nickname.submit"))}</button>
  </form>`;
}

/** The refusals that are about the name itself (auth.check_nickname's rules, a name taken). */
const NAME_REFUSALS = new Set(["nickname_length", "nickname_char", "nickname_start", "nickname_reserved", "name_taken"]);

/** Why the nickname form's name was not taken: a refusal of the name as "this name does
 * not fit: …"; anything else (no answer at all, a limit on new sessions, a server fault)
 * as it is, for the name may well fit. */
export function nicknameRefused(error) {
  return NAME_REFUSALS.has(error.code) ? t("web.nickname.invalid", { detail: error.message }) : error.message;
}

/** First visit: a welcome and the nickname; `done(user)` once the session exists. */
export function askNickname(view, done) {
  const screen = {
    render() {
      const invited = new URLSearchParams(location.search).has("table");
      view.innerHTML = `<section class="panel welcome">
        <h1>${esc(t("web.app.title"))}</h1>
        <p>${esc(t(invited ? "web.welcome.invited" : "web.welcome.text"))}</p>
        ${nicknameForm()}</section>`;
      view.append(accountPanel(done));
      const form = view.querySelector("form");
      form.querySelector("input").focus();
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const answer = await post("/session", { nickname: form.nickname.value });
          done(answer.user);
        } catch (error) {
          form.querySelector(".form-error").textContent = nicknameRefused(error);
        }
      });
    },
  };
  screen.render();
  return screen;
}

/** The lobby screen: quick game, your games, the open tables and the games to watch (kept
 * live by the lobby socket, lobby_live.js: your games are read again when it says that
 * your tables changed, and when the page is seen again), the new-table form (behind its
 * button on a phone), the scorekeeper's link. */
export function showLobby(view, app) {
  const state = {
    catalogue: null,
    lobby: null,
    games: [],
    waiting: [],
    form: null,
    feed: null,
    stopped: false,
    createOpen: matchMedia(WIDE).matches,
    pool: null,
    // the lobby socket's fingerprint of the person's tables (PROTOCOL.md, `mine`), the
    // pending read of their games and the number of the latest read
    mine: null,
    mineTimer: null,
    mineReads: 0,
  };

  async function load() {
    const [rules, bots, games, waiting] = await Promise.all([get("/rules"), get("/bots"), get("/me/games"), get("/me/tables")]);
    localStorage.setItem(CATALOGUE_KEY, JSON.stringify(rules)); // for the forms offline
    localStorage.setItem(LEVELS_KEY, JSON.stringify(bots.levels));
    if (state.stopped) return;
    state.catalogue = { ...rules, bots: bots.bots, levels: bots.levels };
    state.games = games.games;
    state.waiting = waiting.tables;
    screen.render();
    state.feed = new LobbyFeed((message) => {
      state.lobby = message;
      drawLive();
      followMine(message.mine);
    }, showInvitation);
    state.feed.connect();
    document.addEventListener("visibilitychange", seenAgain);
  }

  /** A new fingerprint of the person's tables: one of them was opened, a seat there taken
   * or freed, a game started or over (here or in another tab), so their games are read
   * again. The first only sets the mark: load() has just read them. */
  function followMine(mine) {
    if (mine === undefined || mine === state.mine) return;
    const first = state.mine === null;
    state.mine = mine;
    if (!first) readMineSoon();
  }

  /** The page seen again: what the socket may have missed meanwhile (it was closed, or
   * refused at the cap of sockets) is read. */
  function seenAgain() {
    if (!document.hidden) readMineSoon();
  }

  function readMineSoon() {
    clearTimeout(state.mineTimer);
    state.mineTimer = setTimeout(readMine, MINE_SETTLE_MS);
  }

  /** Reads the person's games and waiting tables again and redraws "your games"; only the
   * latest read is drawn (an earlier one may answer last). */
  async function readMine() {
    const read = ++state.mineReads;
    let games, waiting;
    try {
      [games, waiting] = await Promise.all([get("/me/games"), get("/me/tables")]);
    } catch {
      return; // the list stays as it was until the next change
    }
    if (state.stopped || read !== state.mineReads) return;
    state.games = games.games;
    state.waiting = waiting.tables;
    drawMine();
  }

  /** "Your games" redrawn in place. */
  function drawMine() {
    const mine = view.querySelector("#my-games");
    if (mine) mine.innerHTML = gamesMarkup(state.games, state.waiting);
  }

  /** The lists the lobby socket keeps up to date, redrawn in place. */
  function drawLive() {
    const open = view.querySelector("#open-tables");
    if (open) open.innerHTML = tablesMarkup(state.lobby?.open);
    const playing = view.querySelector("#live-games");
    if (playing) playing.innerHTML = watchMarkup(state.lobby?.playing);
  }

  async function startQuick(button) {
    button.disabled = true;
    try {
      app.navigate((await quickGame(quickSettings(state.catalogue.presets[0].name).body)).invite);
    } catch (error) {
      button.disabled = false;
      toast(createRefusal(error), "error");
      await refused(error);
    }
  }

  /** After a new table was refused: at the cap of tables waiting for players, the list
   * of those tables is brought up to date, so that the player sees where to go back. */
  async function refused(error) {
    if (error.code !== "waiting_tables_held" || state.stopped) return;
    try {
      state.waiting = (await get("/me/tables")).tables;
    } catch {
      return; // the refusal is shown; the list stays as it was
    }
    drawMine();
  }

  const screen = {
    render() {
      if (state.catalogue === null) {
        view.innerHTML = `<p class="panel loading">${esc(t("web.loading"))}</p>`;
        return;
      }
      const { body: quick, remembered } = quickSettings(state.catalogue.presets[0].name);
      view.innerHTML = `<div class="lobby">
        <div class="side">
          <section class="panel pool" id="pool-panel"></section>
          <section class="panel quick">
            <h2>${esc(t("web.lobby.quick"))}</h2>
            <p class="hint">${esc(t("web.lobby.quick.hint", { preset: presetLabel(presetOf(quick)), players: quick.players }))}
              ${esc(t("web.lobby.quick.bots", { bots: quickLevels(quick).map((level) => levelName(state.catalogue, level)).join(", ") }))}
              ${remembered ? esc(t("web.lobby.quick.last")) : ""}</p>
            <button type="button" class="primary big quick-start">${esc(t("web.lobby.quick.start"))}</button>
            <div class="offline-note"></div>
          </section>
          <section class="panel">
            <h2>${esc(t("web.games.title"))}</h2>
            <div id="my-games">${gamesMarkup(state.games, state.waiting)}</div>
          </section>
          <section class="panel">
            <h2>${esc(t("web.tables.title"))}</h2>
            <div id="open-tables"></div>
          </section>
          <section class="panel">
            <h2>${esc(t("web.lobby.watch"))}</h2>
            <div id="live-games"></div>
          </section>
        </div>
        <details class="panel create" id="create-panel" ${state.createOpen ? "open" : ""}>
          <summary><h2>${esc(t("web.create.title"))}</h2></summary>
          <form id="create-form"></form>
        </details>
        <section class="panel score-link">
          <h2>${esc(t("web.score.title"))}</h2>
          <p class="hint">${esc(t("web.score.lobby.hint"))}</p>
          <a class="button" data-nav href="/score">${esc(t("web.score.lobby.link"))}</a>
        </section>
        <div class="install-slot"></div>
        <nav class="panel player-links" aria-label="${esc(t("web.lobby.player.links"))}">
          <a class="button" data-nav href="/?player=${encodeURIComponent(app.user.id)}">${esc(t("web.profile.mine"))}</a>
          <a class="button" data-nav href="/?leaderboard">${esc(t("web.leaderboard.title"))}</a>
          <a class="button friends-link" data-nav href="/?friends">${esc(t("web.friends.open"))}</a>
          <a class="button" data-nav href="/?clubs">${esc(t("web.club.title"))}</a>
          <a class="button puzzles-link" data-nav href="/?puzzles">${esc(t("web.puzzles.title"))}</a>
          <a class="button" data-nav href="/?tournaments">${esc(t("web.tournament.title"))}</a>
        </nav>
        <section class="panel casino-link">
          <h2>${esc(t("web.casino.title"))}</h2>
          <p class="hint">${esc(t("web.casino.lobby.hint"))}</p>
          <a class="button" data-nav href="/casino">${esc(t("web.casino.lobby.link"))}</a>
        </section></div>`;
      drawLive();
      state.pool?.stop();
      state.pool = poolPanel(view.querySelector("#pool-panel"), state.catalogue, app);
      view.querySelector(".install-slot").replaceWith(installPanel());
      view.querySelector(".quick-start").addEventListener("click", (event) => startQuick(event.currentTarget));
      offlineNote(app, view.querySelector(".offline-note"));
      const panel = view.querySelector("#create-panel");
      panel.addEventListener("toggle", () => (state.createOpen = panel.open));
      state.form = createForm(view.querySelector("#create-form"), state.catalogue, state.form, app);
      view.querySelector("#create-form").addEventListener("table-refused", (event) => refused(event.detail));
    },
    stop() {
      state.stopped = true;
      state.feed?.stop();
      state.pool?.stop();
      clearTimeout(state.mineTimer);
      document.removeEventListener("visibilitychange", seenAgain);
    },
  };

  screen.render();
  load().catch((error) => {
    if (!state.stopped) view.innerHTML = failureMarkup(error);
  });
  return screen;
}

// The preset's words live with the other translations (i18n.js), so that leaderboard.js,
// which lobby.js imports, need not import lobby.js back; imported from here as before.
export { presetLabel };

/** A list of the lobby socket's lines: "…" until it has spoken, `empty` when there are
 * none, else each line's `row` markup. */
function linesMarkup(lines, empty, row) {
  if (!lines) return `<p class="loading">…</p>`;
  if (!lines.length) return `<p class="empty">${esc(t(empty))}</p>`;
  return `<ul class="list">${lines.map(row).join("")}</ul>`;
}

const tablesMarkup = (tables) =>
  linesMarkup(
    tables,
    "web.tables.none",
    // not one link around the row: the host's name may be a link to their profile
    (table) => `<li class="row-link" data-table="${esc(table.id)}">
      <span><strong>${nameLink(table.host_profile, table.host ?? "?")}</strong> · ${esc(presetLabel(table.preset))}</span>
      <span class="muted">${esc(t("web.tables.seats", { people: table.people, seats: table.players }))}</span>
      <a class="button small" data-nav href="${esc(table.link)}">${esc(t("web.tables.join"))}</a></li>`,
  );

const watchMarkup = (games) =>
  linesMarkup(
    games,
    "web.lobby.watch.none",
    (game) => `<li><a class="row-link" data-nav href="${esc(game.link)}" data-table="${esc(game.id)}">
      <span><strong>${esc(game.names.map((name) => playerName(name ?? "?")).join(", "))}</strong>
        <span class="muted">${esc(presetLabel(game.preset))}</span></span>
      <span class="button small">${esc(t("web.lobby.watch.open"))}</span></a></li>`,
  );

/** The player's games: the tables where they wait for players (``GET /api/me/tables``,
 * those that count against their cap of such tables), then the games being played (the
 * ones to go back to), then the finished ones. */
function gamesMarkup(games, waiting) {
  if (!games.length && !waiting.length) return `<p class="empty">${esc(t("web.games.none"))}</p>`;
  const ordered = [...games.filter((game) => game.status !== "over"), ...games.filter((game) => game.status === "over")];
  return `<ul class="list">${waiting.map(waitingMarkup).join("")}${ordered
    .map((game) => {
      const over = game.status === "over";
      const when = formatMoment(game.finished_at ?? game.started_at ?? Date.now());
      const link = over
        ? `<a class="button small" data-nav href="/?replay=${esc(game.id)}">${esc(t("web.games.replay"))}</a>`
        : `<a class="button small primary" data-nav href="/?table=${esc(game.id)}">${esc(t("web.games.resume"))}</a>`;
      const result =
        over && game.place !== null
          ? ` · <span class="result">${esc(t("web.lobby.result", { place: game.place, players: game.players.length, points: formatNumber(game.points) }))}</span>`
          : "";
      const hints = game.hints?.length ? ` · <span class="hints-used">${esc(t("web.games.hints"))}</span>` : "";
      return `<li class="game-row"><span><strong>${game.players.map((name, seat) => nameLink(game.profiles[seat], playerName(name))).join(", ")}</strong>
        <span class="muted">${esc(presetLabel(game.rules))} · ${esc(when)} · ${esc(t(over ? "web.games.over" : "web.games.playing"))}${result}${hints}</span></span>
        ${link}</li>`;
    })
    .join("")}</ul>`;
}

/** A table where the player waits for players: who sits there, and the way back to it. */
function waitingMarkup(table) {
  const people = table.seats.filter((seat) => seat.user_id !== null);
  const details = [presetLabel(table.rules.preset), t("web.games.waiting"), t("web.tables.seats", { people: people.length, seats: table.players })];
  return `<li class="game-row waiting" data-table="${esc(table.id)}"><span><strong>${esc(people.map((seat) => playerName(seat.nickname ?? "?")).join(", "))}</strong>
    <span class="muted">${esc(details.join(" · "))}</span></span>
    <a class="button small primary" data-nav href="/?table=${esc(table.id)}">${esc(t("web.games.to_table"))}</a></li>`;
}

/** The bot levels of a quick game's body: its one level, or those of its seats after the
 * player's own (whose entry is the stand-in), each once. */
function quickLevels(body) {
  return Array.isArray(body.bots) ? [...new Set(body.bots.slice(1))] : [body.bots];
}

/** A bot level's name, with its rating where the server sent one ("опытный · 2025"; the
 * offline form's are those kept from the last visit with the network). */
function levelName(catalogue, level) {
  const name = tMaybe(`web.bot.${level}`) ?? level;
  const rated = catalogue.levels?.find((line) => line.level === level);
  return rated ? t("web.bot.rated", { bot: name, rating: formatNumber(rated.rating) }) : name;
}

/** Each rated level, weakest first: its name and rating, and in plain words how often it
 * finished ahead of its neighbour in the match of the levels (``GET /api/bots``). */
function levelsMarkup(catalogue) {
  if (!catalogue.levels?.length) return "";
  const lines = catalogue.levels.map(
    (line) => `<li><strong>${esc(levelName(catalogue, line.level))}</strong>
      ${esc(tn("web.bot.ahead", line.ahead_of_100, { bot: tMaybe(`web.bot.${line.versus}`) ?? line.versus }))}</li>`,
  );
  return `<div class="bot-levels"><p class="hint">${esc(t("web.bot.levels"))}</p>
    <ul>${lines.join("")}</ul><p class="hint">${esc(t("web.bot.levels.hint"))}</p></div>`;
}

/** Fills the create-table form; returns its values so a redraw (a language switch) keeps them.
 * With `offline` (`{ submit(body) }`, offline_play.js) it is the form of a game against bots
 * on this device: without what needs the server or other people (public, rated, the
 * spectators' chat, the timer, the stand-in), and `submit` takes the table's body. */
export function createForm(form, catalogue, previous, app, offline = null) {
  const values = previous ?? {
    preset: catalogue.presets[0].name,
    players: DEFAULTS.players,
    bots: [],
    public: true,
    timer: DEFAULTS.timer,
    speed: DEFAULTS.speed,
    standIn: catalogue.bots.includes(DEFAULTS.bot) ? DEFAULTS.bot : catalogue.bots[0],
    options: {},
  };
  const botChoices = (selected) =>
    catalogue.bots
      .map((bot) => `<option value="${bot}" ${bot === selected ? "selected" : ""}>${esc(levelName(catalogue, bot))}</option>`)
      .join("");

  function draw() {
    // Whether the options are open, from the page itself: the "toggle" event that also
    // records it comes a moment after the click, and a change made at once (a preset
    // chosen) redraws before it would.
    const options = form.querySelector("details.options");
    if (options) values.open = options.open;
    const rules = rulesInEffect(catalogue, values);
    values.players = Math.min(Math.max(values.players, rules.min_players), rules.max_players);
    const counts = [];
    for (let n = rules.min_players; n <= rules.max_players; n += 1) counts.push(n);
    const seatRows = [];
    for (let seat = 1; seat < values.players; seat += 1) {
      const bot = values.bots[seat] ?? values.standIn;
      seatRows.push(`<label class="seat-row"><span>${esc(t("web.create.seat", { seat: seat + 1 }))}</span>
        <select name="bot" data-seat="${seat}">${botChoices(bot)}</select></label>`);
    }
    const online = `<label class="check"><input type="checkbox" name="public" ${values.public ? "checked" : ""}>
        <span>${esc(t("web.create.public"))}<small class="hint">${esc(t(values.public ? "web.create.public.hint" : "web.create.private.hint"))}</small></span></label>
      <label class="check"><input type="checkbox" name="rated">
        <span>${esc(t("web.create.rated"))}<small class="hint rated-hint"></small></span></label>
      <label class="check"><input type="checkbox" name="spectator_chat" ${values.spectatorChat ? "checked" : ""}>
        <span>${esc(t("web.chat.spectators"))}<small class="hint">${esc(t("web.chat.spectators.hint"))}</small></span></label>
      <label class="field"><span>${esc(t("web.create.timer"))}</span>
        <select name="timer">${TIMERS.map((s) => `<option value="${s}" ${s === values.timer ? "selected" : ""}>${esc(s ? t("web.create.timer.seconds", { seconds: s }) : t("web.create.timer.none"))}</option>`).join("")}</select>
        <small class="hint">${esc(t("web.create.timer.hint"))}</small></label>`;
    const standIn = `<label class="field"><span>${esc(t("web.create.standin"))}</span>
          <select name="stand_in">${botChoices(values.standIn)}</select>
          <small class="hint">${esc(t("web.create.standin.hint"))}</small></label>`;
    form.innerHTML = `
      ${presetField(catalogue, values)}
      <label class="field"><span>${esc(t("web.create.players"))}</span>
        <select name="players">${counts.map((n) => `<option ${n === values.players ? "selected" : ""}>${n}</option>`).join("")}</select></label>
      <fieldset class="field seat-bots"><legend>${esc(t("web.create.bots"))}</legend>
        <p class="hint">${esc(t("web.create.bots.hint"))}</p>${seatRows.join("")}${levelsMarkup(catalogue)}</fieldset>
      ${offline ? "" : online}
      <label class="field"><span>${esc(t("web.create.speed"))}</span>
        <select name="speed">${SPEEDS.map(([name, ms]) => `<option value="${ms}" ${ms === values.speed ? "selected" : ""}>${esc(t(`web.create.speed.${name}`))}</option>`).join("")}</select></label>
      ${optionsField(catalogue, values, offline ? "" : standIn)}
      <p class="form-error" role="alert"></p>
      <button type="submit" class="primary big">${esc(t("web.create.submit"))}</button>`;
    showRated();
  }

  /** Whether the rules chosen are not the preset's own, which no rated table may have. */
  const rulesChanged = () => typeof chosenRules(catalogue, values) !== "string";

  /** The rated box as the rules allow: with changed rules it is unticked and off, its hint
   * saying why (the server refuses such a table too: `rated_rules_changed`); with the
   * preset's own rules back, ticked again if it was. */
  function showRated() {
    const box = form.querySelector("input[name=rated]");
    if (!box) return; // the offline form has none
    const changed = rulesChanged();
    box.checked = Boolean(values.rated) && !changed;
    box.disabled = changed;
    box.parentElement.querySelector(".rated-hint").textContent = changed
      ? t("web.create.rated.changed", { preset: presetLabel(values.preset) })
      : t("web.create.rated.hint");
  }

  // Fields change in place (no redraw, so focus stays where it is), except those that
  // change other fields: the rules (see changeRules), and the number of players.
  form.addEventListener("change", (event) => {
    const field = event.target;
    const redraw = changeRules(field, values, catalogue);
    if (redraw !== null) {
      if (redraw) draw();
      else showRated();
      return;
    }
    if (field.name === "players") {
      values.players = Number(field.value);
      draw();
    } else if (field.name === "bot") values.bots[Number(field.dataset.seat)] = field.value;
    else if (field.name === "public") {
      values.public = field.checked;
      field.parentElement.querySelector(".hint").textContent = t(values.public ? "web.create.public.hint" : "web.create.private.hint");
    } else if (field.name === "rated") values.rated = field.checked;
    else if (field.name === "spectator_chat") values.spectatorChat = field.checked;
    else if (field.name === "timer") values.timer = Number(field.value);
    else if (field.name === "speed") values.speed = Number(field.value);
    else if (field.name === "stand_in") values.standIn = field.value;
  });
  form.addEventListener("toggle", (event) => (values.open = event.target.open), true);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const bots = [values.standIn];
    for (let seat = 1; seat < values.players; seat += 1) bots.push(values.bots[seat] ?? values.standIn);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const body = {
      rules: chosenRules(catalogue, values),
      players: values.players,
      public: values.public,
      bots,
      turn_seconds: values.timer,
      bot_delay_ms: values.speed,
      stand_in: values.standIn,
      rated: Boolean(values.rated) && !rulesChanged(),
      spectator_chat: Boolean(values.spectatorChat),
    };
    if (offline) {
      offline.submit(body);
      return;
    }
    try {
      const table = await post("/tables", body);
      rememberTable(body);
      app.navigate(table.invite);
    } catch (error) {
      button.disabled = false;
      const message = createRefusal(error);
      form.querySelector(".form-error").textContent = message;
      toast(message, "error");
      form.dispatchEvent(new CustomEvent("table-refused", { detail: error }));
    }
  });
  draw();
  return values;
}

/** Why the server refused a new table, in the page's language: a refusal of the table's
 * own settings (a custom plan that cannot be dealt to this many players, a rule or a
 * stand-in that does not fit, changed rules at a rated table: PROTOCOL.md "Refusals") or
 * of the player's tables waiting for players as it stands (each says what to do), any
 * other after "could not create the table". */
function createRefusal(error) {
  if (TABLE_REFUSALS.has(error.code)) return error.message;
  return t("web.create.failed", { detail: error.message });
}

/** The codes whose refusal of a new table is shown as it stands (`createRefusal`). */
const TABLE_REFUSALS = new Set(["custom_plan", "bad_rules", "stand_in_too_strong", "rated_rules_changed", "waiting_tables_held"]);

// ------------------------------------------------------------------ the ruleset fields
// Shared by the new-table form and the scorekeeper's new sheet (score.js): `values` holds
// `preset` (a preset's name), `options` (option name -> value chosen) and `open` (the
// options' disclosure).

const presetNamed = (catalogue, name) => catalogue.presets.find((preset) => preset.name === name);

/** The preset chooser with the chosen preset's description. */
export function presetField(catalogue, values) {
  const preset = presetNamed(catalogue, values.preset);
  return `<label class="field"><span>${esc(t("web.create.rules"))}</span>
    <select name="preset">${catalogue.presets
      .map((p) => `<option value="${esc(p.name)}" ${p.name === values.preset ? "selected" : ""}>${esc(presetLabel(p.name))}</option>`)
      .join("")}</select>
    <small class="hint">${esc(tMaybe(`web.preset.${preset.name}.desc`) ?? preset.description)}</small></label>`;
}

/** Every rules option under a disclosure, after the markup `before`. */
export function optionsField(catalogue, values, before = "") {
  const preset = presetNamed(catalogue, values.preset);
  const rules = rulesInEffect(catalogue, values);
  return `<details class="options" ${values.open ? "open" : ""}><summary>${esc(t("web.create.options"))}</summary>
    ${before}<div class="option-grid">${catalogue.options.map((option) => optionField(option, rules[option.name], preset.rules[option.name])).join("")}</div>
    </details>`;
}

/** Options whose change changes other fields (the player counts a ruleset allows). */
const REDRAWING_OPTIONS = new Set(["min_players", "max_players"]);

/** Takes a change of a ruleset field into `values`: null if `field` is not one, else
 * whether the form must be redrawn (a new preset resets the options). */
export function changeRules(field, values, catalogue) {
  if (field.name === "preset") {
    values.preset = field.value;
    values.options = {};
    return true;
  }
  if (!field.dataset.option) return null;
  const option = catalogue.options.find((o) => o.name === field.dataset.option);
  values.options[option.name] = optionValue(option, field);
  const presetValue = presetNamed(catalogue, values.preset).rules[option.name];
  const changed = JSON.stringify(values.options[option.name]) !== JSON.stringify(presetValue);
  field.closest(".option").classList.toggle("changed", changed);
  return REDRAWING_OPTIONS.has(option.name);
}

/** The chosen rules as the API takes them: the preset's name, or an object with the
 * options that differ from it. */
export function chosenRules(catalogue, values) {
  const preset = presetNamed(catalogue, values.preset);
  const overrides = Object.fromEntries(
    Object.entries(values.options).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(preset.rules[name])),
  );
  return Object.keys(overrides).length ? { preset: values.preset, ...overrides } : values.preset;
}

/** The rules in effect: the preset's with the chosen options over them. */
export function rulesInEffect(catalogue, values) {
  return { ...presetNamed(catalogue, values.preset).rules, ...values.options };
}

// ------------------------------------------------------------------ list options
// List options are typed as people say them: jokers with suit symbols ("7♠"), the kinds of
// round in the page's language ("тёмная", "9:тёмная"); the API gets its own notation.

const KINDS = ["normal", "no-trump", "blind", "misere", "golden", "forehead", "percent"];
const KIND_LISTS = new Set(["special_rounds", "custom_plan"]);
const SUIT_SYMBOLS = { S: "♠", C: "♣", D: "♦", H: "♥" };

/** "blind" → "тёмная", "9:blind" → "9:тёмная", "7S" → "7♠". */
function listItemText(option, item) {
  if (option.name === "jokers") return item.replace(/[SCDH]$/, (suit) => SUIT_SYMBOLS[suit]);
  if (!KIND_LISTS.has(option.name)) return item;
  return item.replace(/[a-z-]+$/, (kind) => tMaybe(`web.kind.${kind}`) ?? kind);
}

/** A word as it is compared, whatever its case and however «ё» is typed («темная»). */
const folded = (word) => word.trim().toLowerCase().replaceAll("ё", "е");

/** The API's word for a kind of round typed in the page's language (or in English, or as
 * the API writes it); the text itself if it names none, for the server to refuse. */
export function kindId(text) {
  const typed = folded(text);
  return KINDS.find((kind) => [kind, folded(t(`web.kind.${kind}`))].includes(typed)) ?? text.trim().toLowerCase();
}

/** An item of a list option as the API takes it. */
function listItemValue(option, item) {
  if (option.name === "jokers") {
    const suit = Object.keys(SUIT_SYMBOLS).find((letter) => item.endsWith(SUIT_SYMBOLS[letter]));
    return suit ? `${item.slice(0, -1)}${suit}` : item.toUpperCase();
  }
  if (!KIND_LISTS.has(option.name)) return item;
  const [cards, kind] = item.includes(":") || /^\d+$/.test(item) ? item.split(":") : [null, item];
  if (cards === null) return kindId(kind);
  return kind === undefined ? cards.trim() : `${cards.trim()}:${kindId(kind)}`;
}

/** What an option does, in the page's language (the API's text for an option that the
 * catalog lacks), with a number's bounds. */
function optionHelp(option) {
  const help = tMaybe(`web.option.${option.name}.help`) ?? (language() === "ru" ? option.ru : option.en);
  if (option.type !== "int" || option.low === null || option.high === null) return help;
  return `${help} (${t("web.option.bounds", { low: option.low, high: option.high })})`;
}

/** One rules option: its name, what it does, and an input of its type. */
function optionField(option, value, presetValue) {
  const label = tMaybe(`web.option.${option.name}`) ?? option.name;
  const help = optionHelp(option);
  const changed = JSON.stringify(value) !== JSON.stringify(presetValue);
  const attrs = `data-option="${esc(option.name)}" name="option-${esc(option.name)}"`;
  let input;
  if (option.type === "bool") {
    input = `<input type="checkbox" ${attrs} ${value ? "checked" : ""}>`;
  } else if (option.type === "int") {
    const low = option.low ?? "";
    const high = option.high ?? "";
    input = `<input type="number" inputmode="numeric" ${attrs} value="${value}" min="${low}" max="${high}">`;
  } else if (option.choices.length) {
    input = `<select ${attrs}>${option.choices
      .map((choice) => `<option value="${esc(choice)}" ${choice === value ? "selected" : ""}>${esc(tMaybe(`web.choice.${option.name}.${choice}`) ?? choice)}</option>`)
      .join("")}</select>`;
  } else if (option.type === "list") {
    input = `<input type="text" ${attrs} value="${esc(value.map((item) => listItemText(option, item)).join(", "))}">`;
  } else {
    input = `<input type="text" ${attrs} value="${esc(value)}">`;
  }
  return `<label class="option ${option.type === "bool" ? "check" : "field"} ${changed ? "changed" : ""}">
    ${option.type === "bool" ? input : ""}<span>${esc(label)}<small class="hint">${esc(help)}</small></span>
    ${option.type === "bool" ? "" : input}</label>`;
}

function optionValue(option, field) {
  if (option.type === "bool") return field.checked;
  if (option.type === "int") return Number(field.value);
  if (option.type === "list") {
    return field.value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => listItemValue(option, item));
  }
  return field.value;
}
