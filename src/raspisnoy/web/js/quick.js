// Quick game: one tap from the lobby opens a table against bots with the settings of the
// player's last new table (kept in this browser, `localStorage` "raspisnoy.lastTable"),
// or sensible defaults, goes there and starts it as soon as the table's page is connected.
import { post } from "./api.js";

const LAST_TABLE = "raspisnoy.lastTable";
/** The rules catalogue (GET /api/rules) as last received, for the forms offline: the
 * scorekeeper's new sheet and the offline new-table form. */
export const CATALOGUE_KEY = "raspisnoy.score.rules";
/** The bot levels' ratings (GET /api/bots, `levels`) as last received, for the offline
 * new-table form. */
export const LEVELS_KEY = "raspisnoy.bots.levels";
/** The quick game this tab opened and has yet to start (`sessionStorage`). */
const QUICK_START = "raspisnoy.quickStart";
/** A first quick game: four players, the good bots at a pace one can follow, no timer. */
const QUICK_DEFAULTS = { players: 4, public: false, bots: "heuristic", turn_seconds: 0, bot_delay_ms: 800, stand_in: "heuristic" };

/** Keeps the body of a table just created from the form, for the next quick game. */
export function rememberTable(body) {
  localStorage.setItem(LAST_TABLE, JSON.stringify(body));
}

/** The body of the next quick game: the last table's, else the defaults over `preset`;
 * `remembered` says which. */
export function quickSettings(preset) {
  try {
    const kept = JSON.parse(localStorage.getItem(LAST_TABLE));
    if (kept && typeof kept === "object") return { body: kept, remembered: true };
  } catch {
    // a damaged entry: the defaults
  }
  return { body: { rules: preset, ...QUICK_DEFAULTS }, remembered: false };
}

/** The preset a table body plays (its rules are a preset's name or `{preset, …}`). */
export function presetOf(body) {
  return typeof body.rules === "string" ? body.rules : body.rules?.preset;
}

/** Opens a table with `body` to be started as soon as its page is connected
 * (`quickStartDue`): started before, a table without a timer would have a stand-in play
 * the turns of a player whose socket is not there yet. Resolves to the table (its
 * `invite` is the way there). */
export async function quickGame(body) {
  const table = await post("/tables", body);
  sessionStorage.setItem(QUICK_START, table.id);
  return table;
}

/** Whether the table screen of `tableId`, connected now, is to start it: once, for the
 * quick game this tab has just opened. */
export function quickStartDue(tableId) {
  if (sessionStorage.getItem(QUICK_START) !== tableId) return false;
  sessionStorage.removeItem(QUICK_START);
  return true;
}
