// Score sheets kept on this device (docs/offline.md, "The scorekeeper offline"): a sheet
// made with no network lives in IndexedDB (offline_store.js), is checked and scored by
// raspisnoy's own scorekeeper in a worker (sheet_worker.js), and is uploaded as a new
// sheet of the player's once the server answers. The answers have the shape of the API's
// SHEET object (`sheet`, `planned`, `report`, `next`), so score.js draws both alike.
import { ApiError, post } from "./api.js";
import { deleteSheet, loadSheet, saveSheet, savedSheets } from "./offline_store.js";

/** Whether a failed request never reached the server (no network): api.js's status 0. */
export const unreachable = (error) => !(error instanceof ApiError) || error.status === 0;

let worker = null;
let requests = 0;
const waiting = new Map();

function scorekeeper() {
  if (worker === null) {
    worker = new Worker("/js/sheet_worker.js", { type: "module" });
    worker.addEventListener("message", (event) => {
      const { request, answer, failed } = event.data;
      const done = waiting.get(request);
      waiting.delete(request);
      if (failed !== undefined) done.reject(new Error(failed));
      else if (answer.problem) done.reject(new ApiError(422, answer.problem.message, answer.problem));
      else done.resolve(answer);
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

/** A kept entry as score.js shows a sheet: the model's view, editable, marked local. */
function shown(entry, view) {
  const upload = entry.upload ?? null;
  return { ...view, local: entry.id, editable: true, version: entry.version, owner: null, upload, continues: entry.continues ?? null };
}

/** A new sheet on the device from a `raspisnoy-sheet/1` object; rejects with the model's
 * problem, or when the device's storage is full. */
export const createLocalSheet = async (sheet) => keepNew(await ask(sheet));

/** The model's `view` kept as a new sheet of the device's (`mark`: more fields of the
 * kept entry), as score.js shows it. */
async function keepNew(view, mark = {}) {
  const entry = { id: `device-${crypto.randomUUID()}`, sheet: view.sheet, version: 1, ...mark };
  await saveSheet(entry);
  return shown(entry, view);
}

/** A sheet of the server's whose change `change` did not reach the server, continued on
 * the device (`server`: the server's answer last shown): a copy kept with the change
 * applied, marked as continuing it (`continues`: its id, version and edit token, by which
 * the server names it in the upload). It is uploaded as a new sheet like any sheet of the
 * device's; the server's sheet stays as it was. */
export async function continueLocalSheet(server, change) {
  const view = await ask(server.sheet, change);
  return keepNew(view, { continues: { id: server.id, version: server.version, token: server.edit_token } });
}

/** The kept sheet `id` as score.js shows it; null when it is not (or no longer) here. */
export async function localSheet(id) {
  const entry = await loadSheet(id);
  return entry === undefined ? null : shown(entry, await ask(entry.sheet));
}

/** Applies one change (an entry, `{entry: "round", number, bids, taken}`, `{entry:
 * "undo"}`) to the kept sheet and keeps the result; a refusal changes nothing. */
export async function changeLocalSheet(id, change) {
  const entry = await loadSheet(id);
  const view = await ask(entry.sheet, change);
  const next = { ...entry, sheet: view.sheet, version: entry.version + 1 };
  await saveSheet(next);
  return shown(next, view);
}

/** The sheets on the device, as the list of sheets shows them (the API's summary). */
export async function localSheets() {
  const entries = await savedSheets();
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

/** Uploads every sheet kept on the device as a new sheet of the player's (POST
 * /api/sheets/uploads: once per device id and version, however often it is sent, so an
 * answer lost on the way is no second sheet), a server sheet's continuation too, naming
 * the sheet it continues; a stored one leaves the device, a refused one stays with the
 * refusal's problem kept beside it (never dropped, sent again next time); with no
 * network or no session, every sheet waits for the next try. Resolves to `{entry,
 * stored}` for each kept entry uploaded (`stored`: the server's answer, the new sheet). */
export async function uploadLocalSheets() {
  const uploaded = [];
  for (const entry of await savedSheets()) {
    const continues = entry.continues ? { id: entry.continues.id, token: entry.continues.token ?? null } : null;
    try {
      const stored = await post("/sheets/uploads", { id: entry.id, version: entry.version, sheet: entry.sheet, continues });
      await deleteSheet(entry.id);
      uploaded.push({ entry, stored });
    } catch (error) {
      // no network, no session, a server in trouble: the next try
      if (!(error instanceof ApiError) || error.status !== 422) return uploaded;
      await saveSheet({ ...entry, upload: error.detail?.problem ?? error.code ?? "refused" });
    }
  }
  return uploaded;
}
