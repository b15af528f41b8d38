// What is kept on this device (docs/offline.md): IndexedDB "raspisnoy-offline". Store
// "games": one entry per offline game, the LocalTable's save (settings, seed, actions)
// with the moment it was last changed, used by the engine's worker (after every action)
// and by the page (the list of games to resume). Store "sheets" (version 2): the
// scorekeeper's sheets kept on the device (sheet_local.js). Entries are never dropped
// without the player asking (or, for a sheet, its upload being stored by the server).
//
// Every entry names its `owner`: the user id of the person signed in when it was made (a
// guest's too; null when no one was). A person is shown, and uploads, only their own
// (`belongsTo`); other people's stay on the device for when their owner comes back. An
// entry without an owner (kept before owners were noted, or made with no one signed in)
// becomes the first signed-in person's to see it.
//
// Two tabs may show one game or one sheet: every write compares, in the transaction that
// writes, the kept entry with the one the tab read (a game's actions, a sheet's version),
// so that a tab left behind never writes over what another tab kept.

const DB = "raspisnoy-offline";
const GAMES = "games";
const SHEETS = "sheets";
/** localStorage: the id of the person the server last said is signed in on this device. */
const PERSON_KEY = "raspisnoy.offlinePerson";

/** The person whose games and sheets this device shows and uploads: the one the server
 * last said is signed in here (kept for visits with no network); null when no one is. */
export function devicePerson() {
  return localStorage.getItem(PERSON_KEY);
}

/** Notes `user` (null: no one) as the person signed in on this device: called whenever
 * the server says who it is, and on logging out. */
export function notePerson(user) {
  if (user) localStorage.setItem(PERSON_KEY, user.id);
  else localStorage.removeItem(PERSON_KEY);
}

/** Whether kept `entry` is `person`'s: theirs, or no one's yet. */
export const belongsTo = (entry, person) => entry.owner == null || entry.owner === person;

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

/** Reads entry `id` of store `name` and, in the same transaction, does what
 * `decide(kept)` (undefined: none) answers: `{put}` writes an entry, `{drop: true}`
 * deletes this one, anything else leaves it. Resolves to `decide`'s `answer` once
 * committed; rejects when the storage refuses the write (full). */
async function update(name, id, decide) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(name, "readwrite");
      const store = transaction.objectStore(name);
      const read = store.get(id);
      let decided = {};
      read.onsuccess = () => {
        decided = decide(read.result);
        if (decided.put) store.put(decided.put);
        else if (decided.drop) store.delete(id);
      };
      transaction.oncomplete = () => resolve(decided.answer);
      transaction.onabort = () => reject(transaction.error ?? read.error);
      transaction.onerror = () => reject(transaction.error ?? read.error);
    });
  } finally {
    db.close();
  }
}

/** The entries of store `name` that are `person`'s, the latest first; those of no one yet
 * are made theirs (one transaction). Entries without an id are left out. */
async function ownEntries(name, person) {
  const all = await inStore(
    "readwrite",
    (store) => {
      const read = store.getAll();
      read.onsuccess = () => {
        for (const entry of read.result) if (person !== null && isEntry(entry) && entry.owner == null) store.put({ ...entry, owner: person });
      };
      return read;
    },
    name,
  );
  return latestFirst(all.filter((entry) => isEntry(entry) && belongsTo(entry, person))).map((entry) => ({ ...entry, owner: entry.owner ?? person }));
}

const isEntry = (entry) => entry && typeof entry.id === "string";
const latestFirst = (entries) => entries.sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));

/** Whether `actions` begin with every one of `start` (both lists of a game's actions). */
function continues(actions, start) {
  if (!Array.isArray(actions) || !Array.isArray(start) || start.length > actions.length) return false;
  return start.every((action, index) => JSON.stringify(action) === JSON.stringify(actions[index]));
}

/** Keeps a game (a LocalTable's save, with its `owner`), unless the kept one went another
 * way: in one transaction, it is written when nothing is kept or the kept game's actions
 * are where this save's begin; when the kept game has this save's actions and more,
 * nothing of this save is missing there and it is left as it is. Resolves to false when
 * the kept game has actions this save does not (another tab played it on): nothing is
 * written. The page's marks on the kept game (`uploaded`, `refused`) and its owner stay.
 * Rejects when the device's storage is full. */
export function saveGame(save) {
  return update(GAMES, save.id, (kept) => {
    if (kept === undefined) return { answer: true, put: { ...save, updated: Date.now() } };
    if (continues(save.actions, kept.actions)) {
      return { answer: true, put: { ...kept, ...save, owner: kept.owner ?? save.owner, updated: Date.now() } };
    }
    return { answer: continues(kept.actions, save.actions) };
  });
}

/** Puts `marks` on kept game `id` (`uploaded`, `refused`; undefined: the mark is taken
 * off), in one transaction, so that a save written meanwhile is not undone. */
export function markGame(id, marks) {
  return update(GAMES, id, (kept) => {
    if (kept === undefined) return {};
    const marked = { ...kept, ...marks };
    for (const [name, value] of Object.entries(marks)) if (value === undefined) delete marked[name];
    return { put: marked };
  });
}

/** The saved game `id`, or undefined. */
export function loadGame(id) {
  return inStore("readonly", (store) => store.get(id));
}

/** Every saved game, anyone's, the latest first; entries that are not games are left out. */
export async function savedGames() {
  return latestFirst((await inStore("readonly", (store) => store.getAll())).filter(isEntry));
}

/** `person`'s saved games (`belongsTo`), the latest first. */
export const ownGames = (person) => ownEntries(GAMES, person);

export function deleteGame(id) {
  return inStore("readwrite", (store) => store.delete(id));
}

/** Keeps a sheet of the scorekeeper (sheet_local.js's entry) if the kept one is still at
 * `version` (null: none is kept: a new sheet), compared in the writing transaction.
 * Resolves to whether it was written; rejects when storage is full. */
export function saveSheet(entry, version) {
  return update(SHEETS, entry.id, (kept) => {
    if ((kept?.version ?? null) !== version) return { answer: false };
    return { answer: true, put: { ...entry, updated: Date.now() } };
  });
}

/** The kept sheet `id`, or undefined. */
export function loadSheet(id) {
  return inStore("readonly", (store) => store.get(id), SHEETS);
}

/** Every kept sheet, anyone's, the latest first; entries without an id are left out. */
export async function savedSheets() {
  return latestFirst((await inStore("readonly", (store) => store.getAll(), SHEETS)).filter(isEntry));
}

/** `person`'s kept sheets (`belongsTo`), the latest first. */
export const ownSheets = (person) => ownEntries(SHEETS, person);

/** Drops kept sheet `id` if it is still at `version` (its upload was stored), compared in
 * the same transaction; a sheet changed meanwhile stays for the next upload. Resolves to
 * whether it was dropped. */
export function deleteSheet(id, version) {
  return update(SHEETS, id, (kept) => (kept?.version === version ? { answer: true, drop: true } : { answer: false }));
}
