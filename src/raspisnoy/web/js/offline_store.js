// The offline games kept on this device (docs/offline.md): IndexedDB "raspisnoy-offline",
// one entry per game, the LocalTable's save (settings, seed, actions) with the moment it
// was last changed. Used by the engine's worker (after every action) and by the page
// (the list of games to resume). Entries are never dropped without the player asking.

const DB = "raspisnoy-offline";
const GAMES = "games";

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(GAMES, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs `work(store)` in one transaction; resolves to its request's result once committed. */
async function inStore(mode, work) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(GAMES, mode);
      const request = work(transaction.objectStore(GAMES));
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
