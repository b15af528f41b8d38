// What is kept on this device (docs/offline.md): IndexedDB "raspisnoy-offline". Store
// "games": one entry per offline game, the LocalTable's save (settings, seed, actions)
// with the moment it was last changed, used by the engine's worker (after every action)
// and by the page (the list of games to resume). Store "sheets" (version 2): the
// scorekeeper's sheets kept on the device (sheet_local.js). Entries are never dropped
// without the player asking (or, for a sheet, its upload being stored by the server).

const DB = "raspisnoy-offline";
const GAMES = "games";
const SHEETS = "sheets";

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 2);
    request.onupgradeneeded = () => {
      const names = request.result.objectStoreNames;
      for (const name of [GAMES, SHEETS]) if (!names.contains(name)) request.result.createObjectStore(name, { keyPath: "id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs `work(store)` in one transaction on store `name`; resolves to its request's
 * result once committed. */
async function inStore(mode, work, name = GAMES) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(name, mode);
      const request = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onabort = () => reject(transaction.error ?? request.error);
      transaction.onerror = () => reject(transaction.error ?? request.error);
    });
  } finally {
    db.close();
  }
}

/** Keeps a game (a LocalTable's save); rejects when the device's storage is full. */
export function saveGame(save) {
  return inStore("readwrite", (store) => store.put({ ...save, updated: Date.now() }));
}

/** The saved game `id`, or undefined. */
export function loadGame(id) {
  return inStore("readonly", (store) => store.get(id));
}

/** Every saved game, the latest first; entries that are not games are left out. */
export async function savedGames() {
  const all = await inStore("readonly", (store) => store.getAll());
  return all.filter((game) => game && typeof game.id === "string").sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
}

export function deleteGame(id) {
  return inStore("readwrite", (store) => store.delete(id));
}

/** Keeps a sheet of the scorekeeper (sheet_local.js's entry); rejects when storage is full. */
export function saveSheet(entry) {
  return inStore("readwrite", (store) => store.put({ ...entry, updated: Date.now() }), SHEETS);
}

/** The kept sheet `id`, or undefined. */
export function loadSheet(id) {
  return inStore("readonly", (store) => store.get(id), SHEETS);
}

/** Every kept sheet, the latest first; entries without an id are left out. */
export async function savedSheets() {
  const all = await inStore("readonly", (store) => store.getAll(), SHEETS);
  return all.filter((entry) => entry && typeof entry.id === "string").sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
}

export function deleteSheet(id) {
  return inStore("readwrite", (store) => store.delete(id), SHEETS);
}
