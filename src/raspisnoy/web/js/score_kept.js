// The person's own sheets of the server's, kept on this device (docs/offline.md, "The
// server's sheets offline"), so that /score lists and opens them with no network: the
// list of their sheets and each one's last answer (the API's SHEET object), as the server
// last gave them to this person. Kept in localStorage for one person only, the one signed
// in when they were kept: another person's session (or none) online drops them, and so
// does logging out, so nothing of a sheet is kept for anyone who may not see it.
import { get } from "./api.js";
import { notePerson } from "./offline_store.js";

const KEY = "raspisnoy.score.kept";
/** How many of the most recently changed sheets are kept whole. */
const KEPT_SHEETS = 30;

/** What is kept: `{user, list, sheets: {id: SHEET}}`, or null. */
function read() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return kept && typeof kept.user === "string" && kept.sheets && Array.isArray(kept.list) ? kept : null;
  } catch {
    return null; // damaged: as if nothing were kept (it is rewritten on the next visit)
  }
}

/** Keeps `kept`; a full storage keeps the last copy that fitted (nothing else is at stake). */
function write(kept) {
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // the device's storage is full: these sheets are on the server anyway
  }
}

/** What is kept for `user` (a fresh record when it was kept for someone else). */
function keptFor(user) {
  const kept = read();
  return kept?.user === user.id ? kept : { user: user.id, list: [], sheets: {} };
}

/** Drops the sheets kept for anyone but `user` (null: for anyone). Called whenever the
 * server said who is signed in, and on logging out: so `user` is also noted as the
 * device's person, whose offline games and sheets the device shows and uploads
 * (offline_store.js; the others' stay, unseen, for their owners). */
export function forgetSheetsOfOthers(user) {
  if (read()?.user !== user?.id) localStorage.removeItem(KEY);
  notePerson(user);
}

/** Keeps one sheet's answer `data` (the person may see it: the server gave it to them). */
export function keepSheet(user, data) {
  if (!user || !data?.id || !data.editable) return;
  const kept = keptFor(user);
  kept.sheets[data.id] = data;
  write(kept);
}

/** Keeps `user`'s list of sheets (GET /api/sheets), and in the background the most
 * recently changed ones whole where the kept copy is older than the list says. Sheets
 * no longer in the list are dropped. */
export async function keepSheetList(user, list) {
  if (!user) return; // a page opened with no network knows no one: nothing to key them by
  const kept = keptFor(user);
  const recent = list.slice(0, KEPT_SHEETS);
  const sheets = {};
  for (const summary of recent) if (kept.sheets[summary.id]) sheets[summary.id] = kept.sheets[summary.id];
  write({ user: user.id, list: recent, sheets });
  for (const summary of recent) {
    if (sheets[summary.id]?.updated_at === summary.updated_at) continue;
    try {
      keepSheet(user, await get(`/sheets/${encodeURIComponent(summary.id)}`));
    } catch {
      return; // the network went: the rest on the next visit
    }
  }
}

/** The kept list of sheets, those kept whole only (to open them offline). */
export function keptSheetList() {
  const kept = read();
  return kept ? kept.list.filter((summary) => kept.sheets[summary.id]) : [];
}

/** The kept answer of sheet `id`, or null. */
export const keptSheet = (id) => read()?.sheets[id] ?? null;
