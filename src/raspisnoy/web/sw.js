// The service worker (registered by js/offline.js; at /sw.js, so its scope is the whole
// site): keeps the page's shell (the HTML, the style, the scripts, the catalogs, the
// icons) so that the installed game opens without a connection and says so, and, where
// the server has them, offline play's files (docs/offline.md: Pyodide and the bundle of
// raspisnoy's engine, and the engine's snapshot made at install time), so that a game
// against bots runs with no network at all, and starts in a second.
//
// Network first: whenever the server answers, its answer is used (and kept), so a reload
// always gets the newest page; the kept copy is used only when the network fails. The
// API, the sockets and the health probe are never touched: game state comes from the
// server or not at all, never stale from a cache.

const CACHE = "raspisnoy-shell-v2";
/** The offline engine's memory snapshot (js/offline_engine.js): made on the device, kept
 * across service worker updates (its name says which files it belongs to). */
const ENGINE = "raspisnoy-engine";
/** Free storage below which the engine's snapshot (31 MB unpacked) is not kept. */
const SNAPSHOT_ROOM = 100 * 1024 * 1024;
/** The shell, fetched when the worker installs (tests/server/test_web_app.py checks that
 * it names every file the page loads). */
const SHELL = [
  "/",
  "/score",
  "/style.css",
  "/favicon.svg",
  "/manifest.webmanifest",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/icon-maskable-512.png",
  "/i18n/en.json",
  "/i18n/ru.json",
  "/i18n/uk.json",
  "/js/account.js",
  "/js/api.js",
  "/js/cards.js",
  "/js/casino.js",
  "/js/chat.js",
  "/js/club.js",
  "/js/connection.js",
  "/js/engine_snapshot_worker.js",
  "/js/friends.js",
  "/js/i18n.js",
  "/js/install.js",
  "/js/leaderboard.js",
  "/js/lobby.js",
  "/js/lobby_live.js",
  "/js/main.js",
  "/js/moderation.js",
  "/js/offline.js",
  "/js/offline_engine.js",
  "/js/offline_play.js",
  "/js/offline_store.js",
  "/js/offline_worker.js",
  "/js/pool.js",
  "/js/profile.js",
  "/js/puzzle.js",
  "/js/quick.js",
  "/js/rematch.js",
  "/js/replay.js",
  "/js/report.js",
  "/js/review.js",
  "/js/score.js",
  "/js/score_kept.js",
  "/js/share.js",
  "/js/sheet.js",
  "/js/sheet_link.js",
  "/js/sheet_local.js",
  "/js/sheet_worker.js",
  "/js/table.js",
  "/js/tournament.js",
  "/js/turn.js",
  "/js/ui.js",
];
/** Offline play's files, kept when the server says it has them (GET /offline/status). */
const OFFLINE = [
  "/offline/status",
  "/offline/raspisnoy.zip",
  "/offline/pyodide/pyodide.mjs",
  "/offline/pyodide/pyodide.asm.mjs",
  "/offline/pyodide/pyodide.asm.wasm",
  "/offline/pyodide/python_stdlib.zip",
  "/offline/pyodide/pyodide-lock.json",
];
const KEPT = new Set([...SHELL, ...OFFLINE]);
/** Paths whose answers are live: never from the cache. */
const LIVE = /^\/(api|ws)\/|^\/healthz$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL).then(() => keepOffline(cache)))
      .then(() => self.skipWaiting()),
  );
});

/** Offline play's files, if the server has them; without them the shell works online.
 * With them, the engine's snapshot made at install time, if the server has one. */
async function keepOffline(cache) {
  try {
    const status = await fetch("/offline/status");
    const about = status.ok ? await status.json() : {};
    if (!about.installed) return;
    await cache.addAll(OFFLINE);
    if (about.snapshot) await keepEngineSnapshot(about.snapshot);
  } catch {
    // not installed, or the network went: the page says offline play is not at hand (or,
    // without the snapshot, the first offline start makes one on the device)
  }
}

/** The engine's snapshot made at install time for these files (`path`: its name,
 * offline_engine.js's snapshotKey), kept where the engine keeps its own, in place of any
 * other, unless it is there already: a device's first offline game restores it instead
 * of starting Python, however short the visit that kept the files was. Not on a device
 * that asks to save data, nor with under SNAPSHOT_ROOM of storage left (as the page's
 * own snapshot, offline_play.js): the first offline start makes one there. */
async function keepEngineSnapshot(path) {
  if (self.navigator.connection?.saveData) return;
  const { quota, usage } = await self.navigator.storage.estimate();
  if (quota - usage < SNAPSHOT_ROOM) return;
  const engine = await caches.open(ENGINE);
  if (await engine.match(path)) return;
  const response = await fetch(path);
  if (!response.ok) return;
  await engine.put(path, response);
  for (const old of await engine.keys()) if (new URL(old.url).pathname !== path) await engine.delete(old);
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE && name !== ENGINE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || LIVE.test(url.pathname)) return;
  event.respondWith(networkFirst(event.request, url));
});

/** The server's answer (kept if it is part of the shell), else the kept copy; a page of
 * any address of the site falls back to the kept page shell, whose script routes on the
 * address (and finds the server unreachable). */
async function networkFirst(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && KEPT.has(url.pathname)) await cache.put(url.pathname, response.clone());
    return response;
  } catch (error) {
    const kept = (await cache.match(url.pathname)) ?? (request.mode === "navigate" ? await cache.match("/") : undefined);
    if (kept) return kept;
    throw error;
  }
}
