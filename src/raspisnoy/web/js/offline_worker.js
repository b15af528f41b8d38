// The offline game's engine (docs/offline.md): a module Web Worker that runs the
// project's own Python, raspisnoy.core and the pure bots, in Pyodide, both served by our
// server under /offline/ and kept by the service worker. It holds one LocalTable
// (raspisnoy.server.offline) and speaks the table socket's messages to the page
// (offline_play.js), plays the bots' turns at the table's pace, and keeps the game in
// IndexedDB after every action, so that closing the app loses nothing: the person's
// action is kept before it is shown; a bot's move is shown first and kept just after
// (saves that queue meanwhile collapse into one of the latest state), since a page
// closed before that resumes from the save before and the bots play the same moves
// again (their draws come from the game's seed). The worker notes each bot move's and
// each save's time as User Timing measures ("raspisnoy:bot-move", "raspisnoy:save"),
// which benchmarks/offline_play.py reads. A game open in two tabs: a save that would
// write over moves another tab kept is refused by the store (offline_store.js), and this
// tab says so and shows the game as kept.
import { loadEngine } from "./offline_engine.js";
import { belongsTo, deleteGame, loadGame, saveGame } from "./offline_store.js";

let engine = null; // the raspisnoy.server.offline module, once loaded
let table = null; // the LocalTable of the game on show
let owner = null; // the person whose game it is (its entry's `owner`, offline_store.js)
let acting = null; // the id of the person's action being kept, until it is shown
let botTimer = null;
let storageWarned = false;
let writing = null; // the save being written, until the latest state is kept
let due = false; // whether the table changed since the save being written began

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

/** Keeps the game as it is now; resolves once it is kept. One save is written at a time:
 * changes made meanwhile are kept by one more save of the latest state. */
function keep() {
  due = true;
  writing ??= writeLatest();
  return writing;
}

/** Writes the table's save until no change is left unsaved; a storage that does not
 * take it (full, or a store that cannot be opened) is said once, and the game goes on in
 * memory; a save refused because another tab played the game on shows the game as kept. */
async function writeLatest() {
  while (due) {
    due = false;
    const start = performance.now();
    try {
      if (!(await saveGame({ ...plain(table.save()), owner }))) await showKeptGame();
    } catch (error) {
      const code = error?.name === "QuotaExceededError" ? "offline_storage_full" : "offline_store_damaged";
      if (!storageWarned) post({ type: "storage", code, detail: String(error) });
      storageWarned = true;
    }
    performance.measure("raspisnoy:save", { start });
  }
  writing = null; // at once, so that no change slips between the last check and this
}

/** The game as another tab kept it, in place of this tab's, whose changes since its last
 * save are dropped: said as the refusal of the person's action being kept (if any), so
 * that the page does not send it again, then shown. A game forgotten there is missing. */
async function showKeptGame() {
  clearTimeout(botTimer);
  due = false;
  const saved = await loadGame(table.id);
  post({ type: "error", id: acting, code: "offline_changed", message: "the game changed in another tab" });
  if (saved === undefined) {
    table = null;
    post({ type: "failed", code: "offline_game_missing" });
    return;
  }
  table = engine.module.LocalTable.load(engine.pyodide.toPy(saved));
  post(plain(table.state()));
  deliver(engine.pyodide.toPy([]));
}

/** Sends `messages` (a Python list of socket messages) and waits for the next bot's turn
 * if one is due. */
function deliver(messages) {
  for (const message of plain(messages)) post(message);
  clearTimeout(botTimer);
  if (table.bot_due()) botTimer = setTimeout(botTurn, table.bot_delay_ms);
}

/** A bot's move: shown, then kept. */
function botTurn() {
  const start = performance.now();
  deliver(table.bot_turn());
  performance.measure("raspisnoy:bot-move", { start });
  keep();
}

/** The person's action: kept, then shown, so that no action the person saw taken is lost;
 * not shown when another tab had played the game on (showKeptGame). */
async function act(message) {
  const playing = table;
  const messages = table.act(message.id, message.action);
  acting = message.id;
  await keep();
  acting = null;
  if (table === playing) deliver(messages);
  else messages.destroy();
}

/** A new game (`request.settings`), kept at once, or kept game `request.id` if it is
 * `request.owner`'s (another person's is missing to them): shown as that person's. */
async function open(request) {
  const { module } = engine;
  await writing; // the game on show is kept to its last move before another opens
  if (request.type === "new") {
    try {
      table = module.LocalTable.new(engine.pyodide.toPy(request.settings), request.name);
    } catch (error) {
      post({ type: "failed", code: "offline_settings_refused", detail: String(error) });
      return;
    }
    owner = request.owner;
  } else {
    const saved = await loadGame(request.id);
    if (saved === undefined || !belongsTo(saved, request.owner)) {
      post({ type: "failed", code: "offline_game_missing" });
      return;
    }
    try {
      table = module.LocalTable.load(engine.pyodide.toPy(saved));
    } catch (error) {
      post({ type: "failed", code: "offline_game_damaged", detail: String(error) });
      return;
    }
    owner = saved.owner ?? request.owner;
  }
  post({ type: "opened", id: table.id });
  post(plain(table.state()));
  deliver(engine.pyodide.toPy([]));
  if (request.type === "new") keep(); // opening a kept game writes nothing: its marks stay
}

const handlers = {
  new: open,
  open,
  act,
  sync: () => post(plain(table.state())),
  report: (message) => post({ type: "report", request: message.request, report: plain(table.report()) }),
  record: (message) => post({ type: "record", request: message.request, record: plain(table.record()) }),
  forget: async (message) => {
    await writing; // a save of this game still being written must not bring it back
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
