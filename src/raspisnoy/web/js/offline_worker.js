// The offline game's engine (docs/offline.md): a module Web Worker that runs the
// project's own Python, raspisnoy.core and the pure bots, in Pyodide, both served by our
// server under /offline/ and kept by the service worker. It holds one LocalTable
// (raspisnoy.server.offline) and speaks the table socket's messages to the page
// (offline_play.js), plays the bots' turns at the table's pace, and keeps the game in
// IndexedDB after every action, so that closing the app loses nothing.
import { loadEngine } from "./offline_engine.js";
import { deleteGame, loadGame, saveGame } from "./offline_store.js";

let engine = null; // the raspisnoy.server.offline module, once loaded
let table = null; // the LocalTable of the game on show
let botTimer = null;
let storageWarned = false;

const ready = loadEngine("raspisnoy.server.offline").then(
  (loaded) => {
    engine = loaded;
    post({ type: "ready", timings: loaded.timings });
  },
  (error) => post({ type: "failed", code: "offline_not_installed", detail: String(error) }),
);

function post(message) {
  self.postMessage(message);
}

/** A Python value (dict or list of dicts) as plain JavaScript objects, through JSON
 * text exactly as the socket sends it (None is null, not undefined). */
function plain(value) {
  const converted = JSON.parse(engine.dumps(value));
  value.destroy();
  return converted;
}

/** Keeps the game; a full storage is said once, and the game goes on in memory. */
async function keep() {
  try {
    await saveGame(plain(table.save()));
  } catch (error) {
    if (!storageWarned) post({ type: "storage", code: "offline_storage_full", detail: String(error) });
    storageWarned = true;
  }
}

/** Sends `messages` (a Python list of socket messages), keeps the game, and waits for the
 * next bot's turn if one is due. */
async function deliver(messages) {
  for (const message of plain(messages)) post(message);
  await keep();
  clearTimeout(botTimer);
  if (table.bot_due()) botTimer = setTimeout(botTurn, table.bot_delay_ms);
}

function botTurn() {
  deliver(table.bot_turn());
}

async function open(request) {
  const { module } = engine;
  if (request.type === "new") {
    table = module.LocalTable.new(engine.pyodide.toPy(request.settings), request.name);
  } else {
    const saved = await loadGame(request.id);
    if (saved === undefined) {
      post({ type: "failed", code: "offline_game_missing" });
      return;
    }
    try {
      table = module.LocalTable.load(engine.pyodide.toPy(saved));
    } catch (error) {
      post({ type: "failed", code: "offline_game_damaged", detail: String(error) });
      return;
    }
  }
  post({ type: "opened", id: table.id });
  post(plain(table.state()));
  await deliver(engine.pyodide.toPy([]));
}

const handlers = {
  new: open,
  open,
  act: (message) => deliver(table.act(message.id, message.action)),
  sync: () => post(plain(table.state())),
  report: (message) => post({ type: "report", request: message.request, report: plain(table.report()) }),
  record: (message) => post({ type: "record", request: message.request, record: plain(table.record()) }),
  forget: async (message) => {
    await deleteGame(message.id);
    post({ type: "forgotten", id: message.id });
  },
};

self.addEventListener("message", async (event) => {
  await ready;
  if (engine === null) return; // "failed" was said when the engine did not load
  const message = event.data;
  if (table === null && !["new", "open", "forget"].includes(message.type)) return;
  try {
    await handlers[message.type]?.(message);
  } catch (error) {
    post({ type: "failed", code: "offline_engine_error", detail: String(error) });
  }
});
