// Score sheets kept on this device (docs/offline.md, "The scorekeeper offline"): a sheet
// made with no network lives in IndexedDB (offline_store.js), is checked and scored by
// raspisnoy's own scorekeeper in a worker (sheet_worker.js), and is uploaded as a new
// sheet of the player's once the server answers. The answers have the shape of the API's
// SHEET object (`sheet`, `planned`, `report`, `next`), so score.js draws both alike. Each
// sheet is its person's (offline_store.js): only theirs is listed, opened, changed and
// uploaded. A sheet open in two tabs: a change made from a view that another tab's change
// has left behind is not kept; the tab says so and shows the sheet as it is now.
import { ApiError, get, post } from "./api.js";
import { t } from "./i18n.js";
import { belongsTo, deleteSheet, devicePerson, loadSheet, notePerson, ownSheets, saveSheet } from "./offline_store.js";

/** Whether a failed request never reached the server (no network): api.js's status 0. */
export const unreachable = (error) => !(error instanceof ApiError) || error.status === 0;

/** localStorage: the moment (ms) before which no upload is tried (a 429's Retry-After). */
const PAUSE_KEY = "raspisnoy.uploadsPaused";
/** How long uploads wait after a 429 that does not say. */
const PAUSE_MS = 60_000;
/** The statuses that stop every upload of a run, not only the one that got it: no
 * network, no session, not allowed, over a limit. */
const STOPPING = new Set([0, 401, 403, 429]);

let worker = null;
let requests = 0;
const waiting = new Map();
/** The version of each of the device's sheets as this page last showed it. */
const shownVersions = new Map();

function scorekeeper() {
  if (worker === null) {
    worker = new Worker("/js/sheet_worker.js", { type: "module" });
    worker.addEventListener("message", (event) => {
      const { request, answer, failed } = event.data;
      const done = waiting.get(request);
      waiting.delete(request);
      if (failed !== undefined) {
        console.error("the device's scorekeeper failed:", failed); // its English, for whoever debugs
        done.reject(worded(t("web.score.problem.device")));
      } else if (answer.problem) {
        // worded by score.js from the problem's code; its English `message` is never shown
        done.reject(new ApiError(422, t("web.score.problem.generic"), answer.problem));
      } else done.resolve(answer);
    });
  }
  return worker;
}

/** The model's view of `sheet` with `change` applied (or as it is); a refusal rejects with
 * an ApiError carrying the model's problem, as the server's 422 does. */
function ask(sheet, change = null) {
  requests += 1;
  const request = requests;
  return new Promise((resolve, reject) => {
    waiting.set(request, { resolve, reject });
    scorekeeper().postMessage({ request, sheet, change });
  });
}

/** The model's view of any sheet (one opened from a link, say); a problem rejects. */
export const viewOfSheet = (sheet) => ask(sheet);

/** Whether uploads wait for a limit's Retry-After (stopsUploads). */
export const uploadsPaused = () => Number(localStorage.getItem(PAUSE_KEY) ?? 0) > Date.now();

/** Whether the failed upload `error` stops every upload of this run (STOPPING), not only
 * its own; a 429 also pauses them until its Retry-After (the `seconds` it names). Shared
 * by the uploads of sheets and of offline games (offline_play.js). */
export function stopsUploads(error) {
  if (!(error instanceof ApiError)) return true;
  if (error.status === 429) {
    const seconds = Number(error.params?.seconds);
    localStorage.setItem(PAUSE_KEY, String(Date.now() + (seconds > 0 ? seconds * 1000 : PAUSE_MS)));
  }
  return STOPPING.has(error.status);
}

/** A kept entry as score.js shows it: the model's view, editable, marked local. */
function shown(entry, view) {
  shownVersions.set(entry.id, entry.version);
  const upload = entry.upload ?? null;
  return { ...view, local: entry.id, editable: true, version: entry.version, owner: null, upload, continues: entry.continues ?? null };
}

/** Kept entry `id` if it is the person's (undefined: not here, or someone else's). */
async function ownSheet(id) {
  const entry = await loadSheet(id);
  return entry !== undefined && belongsTo(entry, devicePerson()) ? entry : undefined;
}

/** An error whose message is already in the page's language (`worded`), which score.js
 * shows as it is. */
function worded(message) {
  const error = new Error(message);
  error.worded = true;
  return error;
}

/** The error of a change to a sheet that is no longer on the device (uploaded meanwhile),
 * said in words. */
const goneError = () => worded(t("web.score.local.gone"));

/** A new sheet on the device from a `raspisnoy-sheet/1` object; rejects with the model's
 * problem, or when the device's storage is full. */
export const createLocalSheet = async (sheet) => keepNew(await ask(sheet));

/** The model's `view` kept as a new sheet of the device's person (`mark`: more fields of
 * the kept entry), as score.js shows it. */
async function keepNew(view, mark = {}) {
  const entry = { id: `device-${crypto.randomUUID()}`, owner: devicePerson(), sheet: view.sheet, version: 1, ...mark };
  await saveSheet(entry, null);
  return shown(entry, view);
}

/** A sheet of the server's whose change `change` did not reach the server, continued on
 * the device (`server`: the server's answer last shown): a copy kept with the change
 * applied, marked as continuing it (`continues`: its id, version and edit token, by which
 * the server names it in the upload; kept in the person's own entry, which no one else is
 * shown or uploads). It is uploaded as a new sheet like any sheet of the device's; the
 * server's sheet stays as it was. */
export async function continueLocalSheet(server, change) {
  const view = await ask(server.sheet, change);
  return keepNew(view, { continues: { id: server.id, version: server.version, token: server.edit_token } });
}

/** The person's kept sheet `id` as score.js shows it; null when it is not (or no longer)
 * here for them. */
export async function localSheet(id) {
  const entry = await ownSheet(id);
  return entry === undefined ? null : shown(entry, await ask(entry.sheet));
}

/** Applies one change (an entry, `{entry: "round", number, bids, taken}`, `{entry:
 * "undo"}`) to the kept sheet and keeps the result; a refusal changes nothing. A change
 * made from a view another tab's change has left behind is refused as the server refuses
 * one made on a sheet another device changed (`sheet_changed`), so score.js shows the
 * sheet as kept now and says why the same way; a sheet no longer on the device
 * (uploaded) is said in words. */
export async function changeLocalSheet(id, change) {
  const entry = await ownSheet(id);
  if (entry === undefined) throw goneError();
  if (entry.version !== (shownVersions.get(id) ?? entry.version)) throw changedElsewhere();
  const view = await ask(entry.sheet, change);
  const next = { ...entry, owner: entry.owner ?? devicePerson(), sheet: view.sheet, version: entry.version + 1 };
  if (await saveSheet(next, entry.version)) return shown(next, view);
  throw changedElsewhere(); // another tab's change was kept while this one was made
}

/** The refusal of a change made from a view another tab's change has left behind: the
 * server's code for one made on an older sheet, worded for tabs. */
const changedElsewhere = () => new ApiError(409, t("web.score.local.elsewhere"), null, "sheet_changed");

/** The person's sheets on the device, as the list of sheets shows them (the API's summary). */
export async function localSheets() {
  const entries = await ownSheets(devicePerson());
  return Promise.all(
    entries.map(async (entry) => {
      const view = await ask(entry.sheet).catch(() => null);
      const rounds = view ? view.report.rounds.filter((round) => round.points !== null).length : 0;
      return {
        local: entry.id,
        players: entry.sheet.players,
        rules: entry.sheet.rules?.preset ?? String(entry.sheet.rules),
        rounds,
        planned: view?.planned ?? 0,
        complete: view?.report.complete ?? false,
        updated_at: new Date(entry.updated ?? 0).toISOString(),
        upload: entry.upload ?? null,
      };
    }),
  );
}

/** The person signed in, as the server says (the session the uploads go with), noted for
 * visits with no network; null with no network or no session. */
async function signedIn() {
  try {
    const { user } = await get("/session");
    notePerson(user);
    return user;
  } catch {
    return null;
  }
}

/** Uploads every sheet of the signed-in person's kept on the device as a new sheet of
 * theirs (POST /api/sheets/uploads: once per device id and version, however often it is
 * sent, so an answer lost on the way is no second sheet), a server sheet's continuation
 * too, naming the sheet it continues. A stored one leaves the device unless it was
 * changed meanwhile (then the newer version stays for the next upload); a refused one
 * stays with the refusal's problem kept beside it (never dropped, sent again next time);
 * one that failed otherwise is sent again next time, and the others go on, unless the
 * failure stops every upload (stopsUploads: no network, no session, over a limit).
 * Resolves to `{entry, stored}` for each kept entry uploaded (`stored`: the server's
 * answer, the new sheet). */
export async function uploadLocalSheets() {
  const uploaded = [];
  const user = uploadsPaused() ? null : await signedIn();
  if (user === null) return uploaded;
  for (const entry of await ownSheets(user.id)) {
    const continues = entry.continues ? { id: entry.continues.id, token: entry.continues.token ?? null } : null;
    try {
      const stored = await post("/sheets/uploads", { id: entry.id, version: entry.version, sheet: entry.sheet, continues });
      await deleteSheet(entry.id, entry.version);
      uploaded.push({ entry, stored });
    } catch (error) {
      if (stopsUploads(error)) return uploaded;
      if (error.status === 422) await saveSheet({ ...entry, upload: error.detail?.problem ?? error.code ?? "refused" }, entry.version);
    }
  }
  return uploaded;
}
