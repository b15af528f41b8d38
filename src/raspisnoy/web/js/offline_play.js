// Playing against bots with no network (docs/offline.md): the offline screen (/?offline:
// start a game, quick or from the new-table form (lobby.js's own, without what needs the
// server), resume or forget the games kept on this device), the offline table
// (/?offline=ID: table.js itself, behind OfflineConnection) and the lobby's note. The game
// runs in offline_worker.js on raspisnoy's own engine; it is never rated and lives only
// on this device. Each game is its person's (offline_store.js): the screen lists, and the
// lobby uploads, only the games of the person signed in.
import { formatMoment, get, post } from "./api.js";
import { TableConnection } from "./connection.js";
import { presetLabel, t } from "./i18n.js";
import { deleteGame, devicePerson, markGame, notePerson, ownGames } from "./offline_store.js";
import { CATALOGUE_KEY, LEVELS_KEY, presetOf, quickSettings } from "./quick.js";
import { stopsUploads, uploadsPaused } from "./sheet_local.js";
import { showTable } from "./table.js";
import { esc, toast } from "./ui.js";

/** The name the player had when last online (for their seat at offline tables). */
const NAME_KEY = "raspisnoy.offlineName";
/** A first offline game, when the player never made a table here. */
const DEFAULT_PRESET = "classic";
/** The settings of the last offline game made with the form, for the next offline game. */
const OFFLINE_TABLE = "raspisnoy.offlineTable";

let worker = null; // one engine per page: Pyodide loads once, later games start at once
let listener = null; // the connection on show gets the worker's messages
/** The background making of the engine's snapshot: null before, then "asked" (once a
 * page), then its worker while it runs. */
let preparing = null;
/** Free storage below which the snapshot (31 MB) is not made in the background. */
const SNAPSHOT_ROOM = 100 * 1024 * 1024;
/** The server's refusals of an uploaded game that are final (routes/offline_games.py):
 * it does not replay, or it is not over. Any other failure is sent again later. */
const FINAL_REFUSALS = new Set(["offline_game_invalid", "offline_game_not_over"]);

function engine() {
  if (worker === null) {
    stopPreparing(); // the game's engine makes the snapshot itself if none is kept yet
    worker = new Worker("/js/offline_worker.js", { type: "module" });
    worker.addEventListener("message", (event) => listener?.(event.data));
  }
  return worker;
}

/** Makes the engine's snapshot in the background on a visit with the network
 * (docs/offline.md, "Starting in a second"), so that even the device's first offline
 * game starts from one: once the service worker has kept offline play's files, when the
 * page is idle, in a worker of its own (engine_snapshot_worker.js, which does nothing
 * when one is kept already) that is ended as soon as it is done, freeing its memory.
 * Not on a device that asks to save data, nor with little storage left, nor where the
 * server says not to (`prepare` of `GET /offline/status`). Called by the
 * lobby and the first visit's nickname screen (main.js). */
export async function prepareEngine() {
  if (preparing !== null || worker !== null || !navigator.onLine || navigator.connection?.saveData) return;
  preparing = "asked";
  if (!("serviceWorker" in navigator) || typeof caches === "undefined") return;
  if ((await offlineStatus())?.prepare !== true) return; // the server leaves it to the first offline game
  await navigator.serviceWorker.ready; // active: its install has kept the files it could
  if (!(await filesKept()) || !(await roomForSnapshot())) return;
  await idle();
  if (worker !== null) return; // the offline screen's engine started meanwhile
  preparing = new Worker("/js/engine_snapshot_worker.js", { type: "module" });
  preparing.addEventListener("message", stopPreparing);
}

function stopPreparing() {
  if (preparing instanceof Worker) preparing.terminate();
}

/** Whether the device's storage has room for the snapshot (true where it does not say). */
async function roomForSnapshot() {
  try {
    const { quota, usage } = await navigator.storage.estimate();
    return quota - usage >= SNAPSHOT_ROOM;
  } catch {
    return true;
  }
}

/** Resolves when the page is idle (at the latest after a few seconds). */
function idle() {
  return new Promise((resolve) =>
    "requestIdleCallback" in window ? requestIdleCallback(resolve, { timeout: 5000 }) : setTimeout(resolve, 1000),
  );
}

/** `GET /offline/status` (the kept answer when offline), or null when there is none. */
async function offlineStatus() {
  try {
    const response = await fetch("/offline/status");
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** Whether this server has offline play's files (the kept answer when offline). */
export async function offlineInstalled() {
  return (await offlineStatus())?.installed === true;
}

/** Whether every file of offline play is kept on this device (by the service worker):
 * those its kept status names (the server's list, `files`). */
async function filesKept() {
  if (typeof caches === "undefined") return false;
  const status = await caches.match("/offline/status").then((response) => response?.json()).catch(() => null);
  const files = status?.files ?? [];
  const kept = await Promise.all(files.map((path) => caches.match(path)));
  return files.length > 0 && kept.every(Boolean);
}

/** Whether the server answers now (`/healthz`, which the service worker never keeps). */
async function serverAnswers() {
  try {
    return (await fetch("/healthz", { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

/** What offline play is here, by `status` (GET /offline/status's answer, or the kept
 * one; null: neither): "ready" when a game can start now (every file kept on the device,
 * or else the server answers and serves them), "not kept" when the files are not on this
 * device and the server cannot be reached, "missing" when the server has none. */
async function offlineReadiness(status) {
  if (status !== null && status.installed !== true) return "missing";
  return status !== null && ((await filesKept()) || (await serverAnswers())) ? "ready" : "not kept";
}

/** The person whose games are shown: the one signed in (noted for visits with no
 * network), else the one the server last said is signed in here. */
function currentPerson(app) {
  if (app.user) notePerson(app.user);
  return app.user?.id ?? devicePerson();
}

/** The next offline game's settings: the offline form's last, else the quick game's. */
function offlineSettings() {
  try {
    const kept = JSON.parse(localStorage.getItem(OFFLINE_TABLE));
    if (kept && typeof kept === "object") return kept;
  } catch {
    // a damaged entry: the quick game's
  }
  return quickSettings(DEFAULT_PRESET).body;
}

/** The rules catalogue kept from the last visit with the network, with the bots that run
 * offline and the ratings kept of those levels (the same bots as online, so the same
 * strength); null when none was kept. */
function offlineCatalogue(bots) {
  try {
    const kept = JSON.parse(localStorage.getItem(CATALOGUE_KEY));
    return kept?.presets?.length ? { ...kept, bots, levels: keptLevels(bots) } : null;
  } catch {
    return null;
  }
}

/** The ratings kept of the levels among `bots` (none kept, or damaged: none). */
function keptLevels(bots) {
  try {
    const levels = JSON.parse(localStorage.getItem(LEVELS_KEY));
    return Array.isArray(levels) ? levels.filter((line) => bots.includes(line?.level)) : [];
  } catch {
    return [];
  }
}

/** The table socket's interface (connection.js) over the engine's worker: the same
 * messages, so table.js draws an offline game as it draws any other. */
class OfflineConnection extends TableConnection {
  constructor(request, handlers) {
    super(request.id ?? "new", handlers);
    // no network to wait for: the base class's reconnecting is not needed
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    this.request = request;
    this.offline = true; // table.js leaves out what needs people or the server (chat)
    this.reports = new Map();
    this.requests = 0;
  }

  connect() {
    this.handlers.onStatus("connecting");
    listener = (message) => this.fromEngine(message);
    engine().postMessage(this.request);
  }

  fromEngine(message) {
    if (this.stopped) return;
    if (message.type === "opened") this.handlers.onOpened?.(message.id);
    else if (message.type === "failed") {
      this.handlers.onStatus("local");
      this.handlers.onFatal(message.code, message.detail);
    }
    else if (message.type === "storage") toast(t(message.code === "offline_storage_full" ? "web.offline.storage.full" : "web.offline.store.unsaved"), "error");
    else if (message.type === "report") this.reports.get(message.request)?.(message.report);
    else if (message.type !== "ready") {
      this.receive(message);
      if (message.type === "state") this.handlers.onStatus("local");
    }
  }

  send(message) {
    if (message.type === "act" || message.type === "sync") engine().postMessage(message);
  }

  /** The score report as the player may know it, from the engine. */
  report() {
    this.requests += 1;
    const request = this.requests;
    const answer = new Promise((resolve) => this.reports.set(request, resolve));
    engine().postMessage({ type: "report", request });
    return answer.finally(() => this.reports.delete(request));
  }

  stop() {
    this.stopped = true;
    if (listener) listener = null;
  }

  heartbeat() {}
}

/** The offline table `id` (a kept game of the person's), or a new one when `id` is "new". */
export function showOfflineTable(view, app, id) {
  const request = id === "new" ? newGameRequest(app) : { type: "open", id, owner: currentPerson(app) };
  return showTable(view, app, id, (tableId, handlers) => {
    return new OfflineConnection(request, {
      ...handlers,
      // the new game's own address, so that a reload or the list of kept games resumes it
      onOpened: (opened) => history.replaceState(null, "", `/?offline=${encodeURIComponent(opened)}`),
    });
  });
}

function newGameRequest(app) {
  const body = offlineSettings();
  const name = app.user?.nickname ?? localStorage.getItem(NAME_KEY) ?? t("web.offline.you");
  return { type: "new", settings: body, name, owner: currentPerson(app) };
}

/** Brings the finished offline games of the person signed in (the server says who: the
 * session the uploads go with) not yet uploaded to their history (unrated; the server
 * replays each). A game the server refuses for good (FINAL_REFUSALS) is marked so, and
 * said; one that failed otherwise is sent again next time, and a failure that stops
 * every upload (no network, no session, over a limit: stopsUploads) stops this run. One
 * message says what was uploaded and what was refused. */
export async function uploadFinished() {
  if (uploadsPaused()) return; // over a limit: not before its Retry-After
  let games;
  try {
    const { user } = await get("/session");
    notePerson(user);
    games = await ownGames(user.id);
  } catch {
    return; // no network or no session, or the store cannot be read: the screens say so
  }
  let uploaded = 0;
  const refused = [];
  for (const game of games.filter((kept) => kept.over && !kept.uploaded && !FINAL_REFUSALS.has(kept.refused))) {
    try {
      const stored = await post("/offline/games", { game });
      await markGame(game.id, { uploaded: stored.id, refused: undefined });
      uploaded += 1;
    } catch (error) {
      if (stopsUploads(error)) break;
      if (!FINAL_REFUSALS.has(error.code)) continue; // this game's trouble, for now
      await markGame(game.id, { refused: error.code });
      refused.push(error.message);
    }
  }
  const said = [
    ...(uploaded ? [t("web.offline.uploaded", { count: uploaded })] : []),
    ...(refused.length ? [refused.length === 1 ? refused[0] : t("web.offline.refused", { count: refused.length })] : []),
  ];
  if (said.length) toast(said.join(" "), refused.length ? "error" : "info");
}

/** The lobby's note: what offline play is, and the way to it (or that it is missing);
 * the finished offline games go to the history meanwhile. */
export function offlineNote(app, element) {
  if (app.user) {
    localStorage.setItem(NAME_KEY, app.user.nickname);
    uploadFinished();
  }
  offlineInstalled().then((installed) => {
    element.innerHTML = installed
      ? `<p>${esc(t("web.offline.note"))}</p><a class="button" data-nav href="/?offline">${esc(t("web.offline.open"))}</a>`
      : `<p class="muted">${esc(t("web.offline.missing"))}</p>`;
    if (installed) prepareEngine();
  });
}

/** The offline screen: a new game against bots and the person's games kept on this device. */
export function showOffline(view, app) {
  // `readiness`: offlineReadiness's answer, null until known
  const state = { readiness: null, bots: [], games: null, damaged: false, form: null, stopped: false };

  async function load() {
    const status = await offlineStatus();
    state.readiness = await offlineReadiness(status);
    state.bots = status?.bots ?? [];
    try {
      state.games = await ownGames(currentPerson(app));
    } catch {
      state.games = [];
      state.damaged = true; // the device's store cannot be read: said, nothing deleted
    }
    screen.render();
  }

  function gameLine(game) {
    const settings = game.settings ?? {};
    const preset = presetLabel(settings.rules?.preset ?? "");
    const when = formatMoment(game.updated ?? 0);
    const status = [
      t(game.over ? "web.offline.saved.over" : "web.offline.saved.playing"),
      ...(game.uploaded ? [t("web.offline.saved.history")] : []),
      ...(FINAL_REFUSALS.has(game.refused) ? [t("web.offline.saved.refused")] : []),
    ].join(" · ");
    return `<li class="saved-game" data-id="${esc(game.id)}"><span>${esc(preset)} · ${esc(status)} · <time>${esc(when)}</time></span>
      <a class="button small" data-nav href="/?offline=${encodeURIComponent(game.id)}">${esc(t(game.over ? "web.offline.saved.show" : "web.offline.saved.resume"))}</a>
      <button type="button" class="small forget" data-id="${esc(game.id)}">${esc(t("web.offline.saved.forget"))}</button></li>`;
  }

  const screen = {
    render() {
      if (state.readiness === null) {
        view.innerHTML = `<p class="panel loading">${esc(t("web.loading"))}</p>`;
        return;
      }
      const body = offlineSettings();
      const games = state.games.length
        ? `<ul class="saved-games">${state.games.map(gameLine).join("")}</ul>`
        : `<p class="muted">${esc(t("web.offline.saved.none"))}</p>`;
      view.innerHTML = `<section class="panel offline-play">
        <h1>${esc(t("web.offline.title"))}</h1>
        <p class="offline-terms">${esc(t("web.offline.note"))}</p>
        ${
          state.readiness === "ready"
            ? `<p class="hint">${esc(t("web.lobby.quick.hint", { preset: presetLabel(presetOf(body)), players: body.players ?? 4 }))} ${esc(t("web.offline.bots"))}</p>
               <a class="button primary big offline-start" data-nav href="/?offline=new">${esc(t("web.offline.start"))}</a>
               <details class="create offline-create"><summary><h2>${esc(t("web.create.title"))}</h2></summary>
                 <form id="offline-form"></form></details>`
            : `<p class="error">${esc(t(state.readiness === "not kept" ? "web.close.offline_not_installed" : "web.offline.missing"))}</p>`
        }
        <h2>${esc(t("web.offline.saved.title"))}</h2>
        ${state.damaged ? `<p class="error">${esc(t("web.offline.store.damaged"))}</p>` : games}
        <a class="button" data-nav href="/">${esc(t("web.back.lobby"))}</a></section>`;
      for (const button of view.querySelectorAll(".forget")) {
        button.addEventListener("click", async () => {
          if (!confirm(t("web.offline.saved.confirm"))) return;
          await deleteGame(button.dataset.id);
          state.games = state.games.filter((game) => game.id !== button.dataset.id);
          screen.render();
        });
      }
      if (state.readiness === "ready") newTableForm(view.querySelector("#offline-form"));
    },
    stop() {
      state.stopped = true;
    },
  };

  /** The new-table form, as online but for a game on this device (lobby.js, loaded when
   * needed: the lobby imports this module); without a kept catalogue, a line that says
   * it comes after one visit with the network. */
  async function newTableForm(form) {
    const catalogue = offlineCatalogue(state.bots);
    if (catalogue === null) {
      form.outerHTML = `<p class="muted">${esc(t("web.offline.form.missing"))}</p>`;
      return;
    }
    const { createForm } = await import("./lobby.js");
    if (state.stopped || !form.isConnected) return;
    state.form = createForm(form, catalogue, state.form, app, {
      submit(body) {
        localStorage.setItem(OFFLINE_TABLE, JSON.stringify(body));
        app.navigate("/?offline=new");
      },
    });
  }
  engine(); // the engine starts as the screen opens, while the player reads it
  load();
  screen.render();
  return screen;
}
