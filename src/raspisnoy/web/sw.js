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
//
// Offline play's files are kept as one set, with the status that names their versions:
// all of the server's or none of them. A download that fails leaves the set kept before
// (an update copies it into its new cache before the old one goes), and a later visit
// with the network tries again; so an update never leaves the device with less than it
// had, and the kept status never names files that are not kept.

const CACHE = "raspisnoy-shell-v2";
/** The offline engine's memory snapshot (js/offline_engine.js): made on the device, kept
 * across service worker updates (its name says which files it belongs to). */
const ENGINE = "raspisnoy-engine";
/** Free storage below which the engine's snapshot (31 MB unpacked) is not kept. */
const SNAPSHOT_ROOM = 100 * 1024 * 1024;
/** The shell, fetched when the worker installs (tests/server/test_web_app.py checks that
 * it names every file the page loads, and the manifest of each language that the page
 * links once its language is known: js/i18n.js's manifestHref). */
const SHELL = [
  "/",
  "/score",
  "/style.css",
  "/favicon.svg",
  "/manifest.webmanifest",
  "/manifest/en.webmanifest",
  "/manifest/ru.webmanifest",
  "/manifest/uk.webmanifest",
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
/** Whether the server has offline play, and its files' versions. */
const STATUS = "/offline/status";
const KEPT = new Set(SHELL);
/** Paths whose answers are live: never from the cache. */
const LIVE = /^\/(api|ws)\/|^\/healthz$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(async (cache) => {
        await cache.addAll(SHELL);
        if (!(await keepOffline(cache))) await copyKeptOffline(cache);
      })
      .then(() => self.skipWaiting()),
  );
});

/** The server's answer to GET /offline/status, or null (no network, a server in trouble). */
async function serverStatus() {
  try {
    const response = await fetch(STATUS, { cache: "no-store" });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** Offline play's files, if the server has them, into `cache` as one set (addAll stores
 * all or none); with them, the engine's snapshot made at install time, if the server has
 * one. Without them the shell works online. Resolves to false when the server has them
 * but they could not all be downloaded (the set kept before stays). */
async function keepOffline(cache) {
  const about = await serverStatus();
  if (about === null) return false;
  if (!about.installed) return true; // nothing to keep: the page says offline play is not here
  try {
    await cache.addAll(about.files);
  } catch {
    return false; // the network went, or a file failed: tried again on a later visit
  }
  // without the snapshot, the first offline start makes one on the device
  if (about.snapshot) await keepEngineSnapshot(about.snapshot).catch(() => {});
  return true;
}

/** The files of offline play that `cache`'s kept status names (the server's list, kept
 * with them as one set), or none. */
async function keptFiles(cache) {
  const kept = await cache.match(STATUS).then((response) => response?.json()).catch(() => null);
  return kept?.files ?? [];
}

/** Whether `cache` has every file of offline play. */
async function hasOffline(cache) {
  const files = await keptFiles(cache);
  const kept = await Promise.all(files.map((path) => cache.match(path)));
  return files.length > 0 && kept.every(Boolean);
}

/** The set of offline play's files an older cache kept whole, copied into `cache` (the
 * new one, whose download failed), so that the activation dropping the old caches does
 * not drop them. */
async function copyKeptOffline(cache) {
  for (const name of (await caches.keys()).filter((other) => other !== CACHE && other !== ENGINE)) {
    const old = await caches.open(name);
    if (!(await hasOffline(old))) continue;
    for (const path of await keptFiles(old)) await cache.put(path, await old.match(path));
    return;
  }
}

/** The run of refreshOffline under way, if any. */
let refreshing = null;

/** Offline play's files kept as the server has them now: downloaded again where the set
 * is missing or its kept status names other versions than the server's (an update's
 * download that failed, say). Run on every visit with the network (a navigation), one at
 * a time. */
function refreshOffline() {
  refreshing ??= (async () => {
    const cache = await caches.open(CACHE);
    const about = await serverStatus();
    if (!about?.installed) return;
    const kept = await cache.match(STATUS).then((response) => response?.json()).catch(() => null);
    const current = kept?.pyodide === about.pyodide && kept?.bundle === about.bundle;
    if (!(current && (await hasOffline(cache)))) await keepOffline(cache);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
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
  if (event.request.mode === "navigate") event.waitUntil(refreshOffline());
});

/** The server's answer (kept if it is part of the shell: offline play's files are kept as
 * a set only, by keepOffline), else the kept copy; a page of any address of the site
 * falls back to the kept page shell, whose script routes on the address (and finds the
 * server unreachable). */
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
