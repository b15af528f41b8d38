// The scorekeeper (/score): the paper «расписная» of a game played with real cards, kept on
// a phone on the table. /score lists your sheets and sets up a new one (players in seating
// order, first dealer, ruleset); /score?sheet=ID keeps one: big buttons for the entry the
// sheet expects next, the live sheet, corrections of past rounds, the winners and the
// chart at the end; /score?share=ID is the read-only view for the other players, and
// /score?sheet=ID#token=TOKEN hands the keeping over to another phone (the token is in
// the fragment, which never reaches a server's logs). With no network, new sheets are
// kept on the device (/score?local=ID, sheet_local.js), and a server sheet whose change does not
// reach the server goes on there; both are uploaded as new sheets once it is back. The
// person's own server sheets are kept on the device as last seen (score_kept.js), so the
// list and any of them open with no network too. The page
// knows no rule: it offers what the server's `next` entry allows (raspisnoy.scorekeeper,
// PROTOCOL.md "Score sheets") and shows the model's problems in the page's language.
import { ApiError, del, formatMoment, get, post, put } from "./api.js";
import { fill, language, pluralCategory, t, tMaybe, tn } from "./i18n.js";
import { changeRules, chosenRules, optionsField, presetField, presetLabel, rulesInEffect } from "./lobby.js";
import { failureMarkup } from "./offline.js";
import { CATALOGUE_KEY } from "./quick.js";
import { chartMarkup, kindBadge, sheetMarkup, standingsMarkup } from "./sheet.js";
import { isSheetFragment, LinkError, sheetFragment, sheetOfFragment } from "./sheet_link.js";
import { keepSheet, keepSheetList, keptSheet, keptSheetList } from "./score_kept.js";
import { changeLocalSheet, continueLocalSheet, createLocalSheet, localSheet, localSheets, unreachable, uploadLocalSheets, viewOfSheet } from "./sheet_local.js";
import { shareMarkup, wireShare } from "./share.js";
import { closeDialog, dialogOpen, esc, openDialog, toast } from "./ui.js";

const FORMAT = "raspisnoy-sheet/1";
/** How often an open sheet looks for changes made elsewhere (the share link, a 2nd phone). */
const POLL_MS = 5000;
/** The longest player name a sheet takes (core's MAX_NAME_LENGTH). */
const MAX_NAME = 40;
/** The last problem templates the server sent, for use offline (the rules catalogue's
 * key is CATALOGUE_KEY). */
const PROBLEMS_KEY = "raspisnoy.score.problems.";

/** The server's answer to `path`, kept in localStorage under `key`; the kept one when the
 * network fails (a refusal of the server is not hidden behind an old answer). */
async function kept(path, key) {
  try {
    const answer = await get(path);
    localStorage.setItem(key, JSON.stringify(answer));
    return answer;
  } catch (error) {
    const saved = unreachable(error) ? localStorage.getItem(key) : null;
    if (saved === null) throw error;
    return JSON.parse(saved);
  }
}

/** The screen for /score: a shared sheet (?share=ID), a sheet to keep (?sheet=ID), or the
 * list of your sheets with the form for a new one. */
export function showScore(view, app, params) {
  // Kept now, while there may be a network, so that a sheet kept on the device says its
  // problems in the page's language when there is none (nothing is lost if it fails).
  problemTemplates().catch(() => {});
  if (params.has("share")) return showSheet(view, app, { share: params.get("share") });
  if (params.has("local")) return showSheet(view, app, { local: params.get("local") });
  if (isSheetFragment(location.hash.slice(1))) return showSheet(view, app, { link: location.hash.slice(1) });
  if (params.has("sheet")) {
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    return showSheet(view, app, { id: params.get("sheet"), token });
  }
  return showHome(view, app);
}

// ------------------------------------------------------------------ problems

/** The scorekeeper's problem templates in the page's language. */
const problems = { lang: null, messages: null };

/** A refused request as one line in the page's language: the model's problem with its
 * round and player (GET /api/sheets/problems/{lang}), else the refusal as api.js or
 * sheet_local.js words it; a problem the page cannot word (its templates not to be had,
 * a problem they lack) and any other failure (the device's storage) as a general line,
 * never the English of the server, the model or the browser. */
async function problemText(error) {
  const detail = error instanceof ApiError ? error.detail : null;
  if (!detail?.problem) {
    return error instanceof ApiError || error.worded ? t("web.score.failed", { detail: error.message }) : t("web.score.problem.generic");
  }
  try {
    await problemTemplates();
  } catch {
    return t("web.score.problem.generic");
  }
  const template = problems.messages.problems[detail.problem];
  if (template === undefined) return t("web.score.problem.generic");
  const problem = causeText(detail.cause) ?? problemWords(template, detail.params);
  if (detail.round === null) return problem;
  if (detail.player === null) return fill(problems.messages.where_round, { round: detail.round, problem });
  return fill(problems.messages.where_player, { round: detail.round, player: detail.player, problem });
}

/** The problem templates in the page's language, asked for once a language and kept on
 * the device (`kept`): with no network, the ones kept at the last visit. */
async function problemTemplates() {
  if (problems.lang !== language()) {
    problems.messages = await kept(`/sheets/problems/${language()}`, PROBLEMS_KEY + language());
    problems.lang = language();
  }
}

/** The engine's error behind a `format` problem in the page's language (its template by
 * code, in the plural form of its `count`), as a sentence of its own (the terminals put it
 * after «ошибка:»); null where there is none to word it (an older server, a problem of the
 * sheet's own shape): its English message is shown then. */
function causeText(cause) {
  const errors = problems.messages.errors;
  if (!cause || !errors) return null;
  const counted = typeof cause.params.count === "number" && `${cause.code}.other` in errors;
  const template = counted ? errors[`${cause.code}.${pluralCategory(cause.params.count)}`] ?? errors[`${cause.code}.other`] : errors[cause.code];
  if (template === undefined) return null;
  const text = engineText(template, cause.params);
  return text.charAt(0).toLocaleUpperCase(language()) + text.slice(1);
}

/** The rules options that the engine's messages name by their ids (written for the
 * terminal, where one types them). */
const OPTION_IDS = /\b(custom_plan|special_rounds|extra_jokers|jokers|min_players|max_players)\b/g;
const optionWord = (name) => {
  const label = tMaybe(`web.option.${name}`);
  return label ? `«${label}»` : name;
};
const kindWord = (kind) => tMaybe(`web.kind.${kind}`) ?? kind;
const wordEach = (list, word) => list.split(", ").map(word).join(", ");

/** An engine message filled in the page's words, not the terminal's: options as the
 * rules form labels them, round kinds («9:тёмная») and choices in the page's language. */
export function engineText(template, params) {
  const values = { ...params };
  const option = typeof values.option === "string" ? values.option : null;
  if (option !== null) values.option = optionWord(option);
  if (typeof values.kinds === "string") values.kinds = wordEach(values.kinds, kindWord);
  if (option !== null && typeof values.choices === "string") {
    values.choices = wordEach(values.choices, (choice) => tMaybe(`web.choice.${option}.${choice}`) ?? choice);
  }
  return fill(template, values)
    .replace(OPTION_IDS, optionWord)
    .replace(/\b(\d+):([a-z-]+)\b/g, (whole, cards, kind) => `${cards}:${kindWord(kind)}`);
}

/** A sheet problem's template filled with its values, round kinds in the page's language. */
function problemWords(template, params) {
  const values = { ...params };
  for (const name of ["kind", "expected"]) {
    if (name in values) values[name] = tMaybe(`web.kind.${values[name]}`) ?? values[name];
  }
  if (typeof values.kinds === "string") {
    values.kinds = values.kinds.split(", ").map((kind) => tMaybe(`web.kind.${kind}`) ?? kind).join(", ");
  }
  return fill(template, values);
}

// ------------------------------------------------------------------ home: list and set-up

function showHome(view, app) {
  // `offline`: the server did not answer (the catalogue is the one kept from the last visit);
  // `local`: the sheets kept on this device, not uploaded yet; `uploaded`: the server's
  // answers to the continued sheets this visit uploaded (said above the list, with links).
  const state = { catalogue: null, sheets: [], local: [], uploaded: [], offline: false, values: null, stopped: false };

  const screen = {
    render() {
      if (state.catalogue === null) {
        view.innerHTML = `<p class="panel loading">${esc(t("web.loading"))}</p>`;
        return;
      }
      view.innerHTML = `<div class="score-home">${uploadedMarkup(state.uploaded)}
        <section class="panel">
          <h2>${esc(t("web.score.new"))}</h2>
          ${state.offline // offline, the intro's «kept on the server» gives way to where the sheet goes
            ? `<p class="offline-note" role="status">${esc(t("web.score.offline"))}</p>`
            : `<p class="hint">${esc(t("web.score.intro"))}</p>`}
          <form id="sheet-form"></form>
        </section>
        <section class="panel">
          <h2>${esc(t("web.score.mine"))}</h2>
          ${state.offline && state.sheets.length ? `<p class="offline-note" role="status">${esc(t("web.score.kept.list"))}</p>` : ""}
          ${sheetsMarkup(state.sheets, state.local, !state.offline)}
        </section></div>`;
      state.values = setupForm(view.querySelector("#sheet-form"), state.catalogue, state.values, app);
      view.querySelector(".sheet-list")?.addEventListener("click", (event) => {
        const button = event.target.closest("button[data-delete]");
        if (button) remove(state.sheets.find((sheet) => sheet.id === button.dataset.delete));
      });
    },
    stop() {
      state.stopped = true;
      window.removeEventListener("online", load);
    },
  };

  /** The catalogue, the device's sheets uploaded where the server answers, then both lists. */
  async function load() {
    try {
      state.catalogue = await kept("/rules", CATALOGUE_KEY);
      try {
        const uploaded = await uploadLocalSheets();
        if (uploaded.length) toast(t(uploaded.some(({ entry }) => entry.continues) ? "web.score.uploaded.continued" : "web.score.uploaded"));
        state.uploaded = [...state.uploaded, ...uploaded.filter(({ entry }) => entry.continues)];
        state.sheets = (await get("/sheets")).sheets;
        state.offline = false;
        keepSheetList(app.user, state.sheets); // for the next time with no network
      } catch (error) {
        if (!unreachable(error)) throw error;
        state.offline = true; // no network: the sheets on this device only
        state.sheets = keptSheetList();
      }
      state.local = await localSheets();
      if (!state.stopped) screen.render();
    } catch (error) {
      // No catalogue kept from an earlier visit and no server: the shell's "no connection".
      if (!state.stopped) view.innerHTML = failureMarkup(error);
    }
  }
  /** Delete one of the person's server sheets, once they confirm: the list the server
   * answers replaces the one shown (and the one kept for the offline page). */
  async function remove(sheet) {
    if (!sheet || !confirm(t("web.score.delete.confirm", { players: sheet.players.join(", ") }))) return;
    try {
      state.sheets = (await del(`/sheets/${encodeURIComponent(sheet.id)}`)).sheets;
      keepSheetList(app.user, state.sheets);
      toast(t("web.score.deleted"));
    } catch (error) {
      if (error.status !== 429) toast(unreachable(error) ? t("web.score.delete.offline") : error.message, "error");
      return;
    }
    if (!state.stopped) screen.render();
  }

  window.addEventListener("online", load);
  load();
  screen.render();
  return screen;
}

/** What became of the server sheets continued offline that were just uploaded: each a
 * new sheet, with links to it and to the original it names (which did not change), or
 * said to stand alone when the server no longer has the original for this person. */
function uploadedMarkup(uploaded) {
  if (!uploaded.length) return "";
  const line = ({ stored }) => {
    const opened = `<a data-nav href="/score?sheet=${esc(stored.id)}">${esc(t("web.score.uploaded.open"))}</a>`;
    if (!stored.continues) return `<li>${esc(t("web.score.uploaded.unlinked"))} ${opened}</li>`;
    return `<li>${esc(t("web.score.uploaded.continued"))} ${opened} ·
      <a data-nav href="/score?sheet=${esc(stored.continues)}">${esc(t("web.score.continues.open"))}</a></li>`;
  };
  return `<section class="panel uploaded-continued" role="status"><ul class="list">${uploaded.map(line).join("")}</ul></section>`;
}

/** A sheet kept on this device: a line of the list, waiting for its upload (or refused). */
function localRow(sheet) {
  const waiting = t(sheet.upload ? "web.score.local.refused" : "web.score.local.waiting");
  return `<li class="game-row local-sheet"><span><strong>${esc(sheet.players.join(", "))}</strong>
    <span class="muted">${esc(presetLabel(sheet.rules))} · ${esc(tn("web.score.progress", sheet.planned, { rounds: sheet.rounds }))} · ${esc(waiting)}</span></span>
    <a class="button small primary" data-nav href="/score?local=${esc(sheet.local)}">${esc(t(sheet.complete ? "web.score.view" : "web.games.resume"))}</a></li>`;
}

/** The person's sheets: those kept on this device first, then the server's, each of
 * these with a button to delete it when the server can be reached (`deletable`). */
function sheetsMarkup(sheets, local, deletable) {
  if (!sheets.length && !local.length) return `<p class="empty">${esc(t("web.score.none"))}</p>`;
  return `<ul class="list sheet-list">${local.map(localRow).join("")}${sheets
    .map((sheet) => {
      const progress = sheet.complete
        ? t("web.score.finished")
        : tn("web.score.progress", sheet.planned, { rounds: sheet.rounds });
      const when = formatMoment(sheet.updated_at);
      return `<li class="game-row"><span><strong>${esc(sheet.players.join(", "))}</strong>
        <span class="muted">${esc(presetLabel(sheet.rules))} · ${esc(progress)} · ${esc(when)}</span></span>
        <span class="row-actions"><a class="button small ${sheet.complete ? "" : "primary"}" data-nav href="/score?sheet=${esc(sheet.id)}">${esc(t(sheet.complete ? "web.score.view" : "web.games.resume"))}</a>
        ${deletable ? `<button type="button" class="icon" data-delete="${esc(sheet.id)}" aria-label="${esc(t("web.score.delete", { players: sheet.players.join(", ") }))}">✕</button>` : ""}</span></li>`;
    })
    .join("")}</ul>`;
}

/** The new sheet's form: players in seating order, first dealer, ruleset. Returns its
 * values, so a redraw (a language switch) keeps what was typed. */
function setupForm(form, catalogue, previous, app) {
  const values = previous ?? { preset: catalogue.presets[0].name, options: {}, open: false, players: [app.user?.nickname ?? ""], dealer: 0 };

  const playerName = (seat) => values.players[seat].trim() || t("web.score.player", { seat: seat + 1 });
  const dealerOptions = () =>
    values.players.map((_, seat) => `<option value="${seat}" ${seat === values.dealer ? "selected" : ""}>${esc(playerName(seat))}</option>`).join("");

  function draw() {
    const rules = rulesInEffect(catalogue, values);
    while (values.players.length < rules.min_players) values.players.push("");
    values.players = values.players.slice(0, rules.max_players);
    values.dealer = Math.min(values.dealer, values.players.length - 1);
    const count = values.players.length;
    const rows = values.players
      .map(
        (name, seat) => `<li class="player-row"><span class="seat-no">${seat + 1}</span>
          <input name="player" data-seat="${seat}" value="${esc(name)}" maxlength="${MAX_NAME}" autocapitalize="words" autocomplete="off"
            placeholder="${esc(t("web.score.player", { seat: seat + 1 }))}" aria-label="${esc(t("web.score.player", { seat: seat + 1 }))}">
          <button type="button" class="icon" data-remove="${seat}" ${count <= rules.min_players ? "disabled" : ""}
            aria-label="${esc(t("web.score.player.remove", { seat: seat + 1 }))}">✕</button></li>`,
      )
      .join("");
    form.innerHTML = `
      <fieldset class="field"><legend>${esc(t("web.score.players"))}</legend>
        <p class="hint">${esc(t("web.score.players.hint", { low: rules.min_players, high: rules.max_players }))}</p>
        <ol class="player-list">${rows}</ol>
        <button type="button" class="add-player" ${count >= rules.max_players ? "disabled" : ""}>${esc(t("web.score.player.add"))}</button></fieldset>
      <label class="field"><span>${esc(t("web.score.dealer"))}</span><select name="dealer">${dealerOptions()}</select></label>
      ${presetField(catalogue, values)}
      ${optionsField(catalogue, values)}
      <p class="form-error" role="alert"></p>
      <button type="submit" class="primary big">${esc(t("web.score.start"))}</button>`;
  }

  form.addEventListener("input", (event) => {
    if (event.target.name !== "player") return;
    values.players[Number(event.target.dataset.seat)] = event.target.value;
    form.querySelector("select[name=dealer]").innerHTML = dealerOptions();
  });
  form.addEventListener("change", (event) => {
    const field = event.target;
    if (field.name === "dealer") values.dealer = Number(field.value);
    else if (changeRules(field, values, catalogue)) draw();
  });
  form.addEventListener("toggle", (event) => (values.open = event.target.open), true);
  form.addEventListener("click", (event) => {
    const remove = event.target.closest("[data-remove]");
    if (remove) {
      values.players.splice(Number(remove.dataset.remove), 1);
      draw();
    } else if (event.target.closest(".add-player")) {
      values.players.push("");
      draw();
      form.querySelector(`input[data-seat="${values.players.length - 1}"]`).focus();
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = values.players.map((name) => name.trim());
    const error = form.querySelector(".form-error");
    if (players.some((name) => !name)) {
      error.textContent = t("web.score.names.empty");
      return;
    }
    if (new Set(players).size !== players.length) {
      error.textContent = t("web.score.names.same");
      return;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const rules = chosenRules(catalogue, values);
      const body = { format: FORMAT, rules, players, first_dealer: values.dealer, rounds: [] };
      // no network: the sheet is kept on this device and uploaded once the server answers
      const sheet = await post("/sheets", body).catch((failure) => {
        if (!unreachable(failure)) throw failure;
        return createLocalSheet(body);
      });
      app.navigate(sheet.local ? `/score?local=${encodeURIComponent(sheet.local)}` : `/score?sheet=${encodeURIComponent(sheet.id)}`);
    } catch (failure) {
      button.disabled = false;
      error.textContent = await problemText(failure);
    }
  });
  draw();
  return values;
}

// ------------------------------------------------------------------ keeping a sheet

/** A sheet: kept (`ref.id`, by its owner, or by whoever has its edit token `ref.token`;
 * with no network, as last seen here: score_kept.js), kept on this device (`ref.local`:
 * the same screen, the changes made by the scorekeeper in the page's worker) or watched
 * read-only (`ref.share`). */
function showSheet(view, app, ref) {
  let local = ref.local ?? null; // a server's sheet continued offline becomes one
  const linked = ref.link ?? null;
  const path = ref.share ? `/sheets/shared/${encodeURIComponent(ref.share)}` : `/sheets/${encodeURIComponent(ref.id)}`;
  const headers = ref.token ? { "X-Sheet-Token": ref.token } : {};
  // `undone`: the entry an undo went back to, which is then never entered by itself;
  // `automatic`: whether the page is entering an entry by itself, from the render that
  // queues it until its answer is handled: meanwhile no other is queued and the pad is off,
  // so each is sent once, whatever redraws (the answer's, a poll's) come in between.
  // `note`: what the page did by itself (an only possible trick count entered), said in the pad.
  // `stale`: a server's sheet shown as last seen on this device (no network).
  const s = { data: null, busy: false, error: "", note: "", failed: null, stopped: false, undone: null, automatic: false, stale: false };

  /** Shows the server's answer `data`, kept on the device for a visit with no network. */
  function shownFromServer(data) {
    s.stale = false;
    if (!ref.share) keepSheet(app.user, data);
    return data;
  }

  /** Sends a change; the answer is the new sheet, a refusal the model's problem. */
  async function change(send) {
    s.busy = true;
    s.error = "";
    s.note = "";
    screen.render();
    try {
      s.data = await send();
      return true;
    } catch (error) {
      s.error = (await storedShown(error)) ? error.message : await problemText(error);
      toast(s.error, "error");
      return false;
    } finally {
      s.busy = false;
      if (!s.stopped) screen.render();
    }
  }

  const entries = `/sheets/${encodeURIComponent(ref.id)}`;

  /** Whether `error` refuses a change made on a version of the sheet that another
   * device's change has left behind (409 `sheet_changed`: every change names the version
   * it was made on, PROTOCOL.md "Score sheets"), or another tab's for a sheet kept on the
   * device. The stored sheet is then fetched and shown, so that the person sees what the
   * other device or tab entered rather than their view of the sheet before it; the
   * refusal's message says why. */
  async function storedShown(error) {
    if (!(error instanceof ApiError) || error.code !== "sheet_changed") return false;
    try {
      s.data = local ? ((await localSheet(local)) ?? s.data) : shownFromServer(await get(path, headers));
    } catch {
      // no answer: the next poll brings the newer sheet
    }
    return true;
  }

  /** A change of the server's sheet that did not reach it (no network): the sheet goes on
   * on this device with the change (continueLocalSheet), at its own address, and the
   * page says so; any other failure is the server's refusal. */
  const orOffline = (body) => async (error) => {
    if (!unreachable(error)) throw error;
    const data = await continueLocalSheet(s.data, body);
    local = data.local;
    s.stale = false; // the device's copy now: its own note says so
    history.replaceState(history.state, "", `/score?local=${encodeURIComponent(local)}`);
    toast(t("web.score.continued"));
    return data;
  };
  /** Sends `body` to the sheet's `route` (or the device's copy's); see orOffline. */
  const send = (body, request) => (local ? changeLocalSheet(local, body) : request().then(shownFromServer, orOffline(body)));
  const enter = (body) => change(() => send(body, () => post(`${entries}/entries`, { ...body, version: s.data.version }, headers)));
  const entryKey = (next) => `${next.entry}:${next.round}:${next.seat}`;

  /** Whether an entry is on its way: one tapped, or one the page queued by itself. */
  const waiting = () => s.busy || s.automatic;

  /** The trick count the sheet expects when only one is possible (the last player's, or
   * 0 for everyone once the tricks add up): the page enters it by itself, and it stays
   * correctable by undo or ✎. Null when the person has to choose. */
  function onlyTrickCount() {
    const next = s.data.next;
    if (!s.data.editable || waiting() || next?.entry !== "taken" || next.choices.length !== 1) return null;
    return s.undone === entryKey(next) ? null : next;
  }

  /** Enters the only possible trick count `next` that a render queued (`s.automatic`); the
   * next one is queued only by the render after this one's answer is handled. */
  async function enterOnlyTrickCount(next) {
    const value = next.choices[0];
    const entered = await enter({ entry: "taken", seat: next.seat, value });
    s.automatic = false;
    if (entered) {
      // said in the pad, not in a toast over the sheet's totals; it stays until the next entry
      s.note = tn("web.score.autofilled", value, { name: s.data.sheet.players[next.seat] });
    } else {
      s.undone = entryKey(next); // refused: the pad waits for a tap rather than retrying
    }
    if (!s.stopped) screen.render();
  }

  const undo = () =>
    change(async () => {
      const data = await send({ entry: "undo" }, () => post(`${entries}/undo`, { version: s.data.version }, headers));
      s.undone = data.next ? entryKey(data.next) : null;
      return data;
    });

  async function refresh() {
    if (local || linked || waiting() || dialogOpen()) return; // these change only here, or never
    try {
      const data = await get(path, headers);
      // Only a newer sheet is shown: the stored version only grows, and a poll sent before
      // a tap can come back after it with the sheet as it was.
      if (!s.stopped && !waiting() && (s.stale || !s.data || data.version > s.data.version)) {
        s.data = shownFromServer(data);
        screen.render();
      }
    } catch {
      // the next poll tries again
    }
  }

  function report() {
    const { sheet, report: scored } = s.data;
    return {
      players: sheet.players,
      totals: scored.totals,
      rounds: scored.rounds.map((round, index) => ({ ...round, bids: sheet.rounds[index].bids, taken: sheet.rounds[index].taken })),
    };
  }

  function padMarkup(next) {
    const { sheet } = s.data;
    const names = sheet.players;
    const who = names[next.seat];
    const round =
      next.round <= s.data.planned
        ? t("web.score.round", { round: next.round, planned: s.data.planned })
        : t("web.score.round.control", { round: next.round });
    const about = next.entry === "control" ? "" : `<span>${esc(t("web.sheet.cards", { cards: next.cards }))}</span>${kindBadge(next.kind)}
      <span>${esc(t("web.score.deals", { name: names[next.dealer] }))}</span>`;
    let body;
    if (next.entry === "control") {
      const dealers = names.map((name, seat) => `<option value="${seat}">${esc(name)}</option>`).join("");
      body = `<p class="prompt mine">${esc(t("web.score.prompt.control", { name: who }))}</p>
        <label class="control-dealer"><span>${esc(t("web.score.control.dealer"))}</span><select name="control-dealer">${dealers}</select></label>
        <div class="choices">${next.kinds
          .map((kind) => `<button type="button" class="choice" data-kind="${esc(kind)}" ${waiting() ? "disabled" : ""}>${esc(t(`web.kind.${kind}`))}</button>`)
          .join("")}</div>`;
    } else {
      const buttons = [];
      for (let n = 0; n <= next.cards; n += 1) {
        const allowed = next.choices.includes(n) && !waiting();
        buttons.push(`<button type="button" class="bid" data-value="${n}" ${allowed ? "" : "disabled"}>${n}</button>`);
      }
      const reasons = [];
      const current = sheet.rounds[next.round - 1];
      if (next.entry === "bid") {
        if (next.forbidden !== null) reasons.push(tn("web.score.bid.dealer", next.cards, { name: who, bid: next.forbidden }));
        if (next.zero_banned) reasons.push(t("web.score.bid.zero", { name: who, limit: sheet.rules.max_zero_bids_in_a_row }));
        const bids = (current?.bids ?? []).filter((bid) => bid !== null);
        if (bids.length) reasons.push(t("web.score.bids.sum", { sum: bids.reduce((a, b) => a + b, 0), cards: next.cards }));
      } else {
        // Tricks are asked for before any bid only in a round without bids.
        const taken = (current?.taken ?? []).filter((count) => count !== null);
        reasons.push(t("web.score.taken.left", { left: next.cards - taken.reduce((a, b) => a + b, 0) }));
        if (!current || current.bids === null) reasons.push(t("web.score.nobids"));
      }
      body = `<p class="prompt mine">${esc(t(`web.score.prompt.${next.entry}`, { name: who }))}</p>
        <div class="bids" role="group" aria-label="${esc(t(`web.score.prompt.${next.entry}`, { name: who }))}">${buttons.join("")}</div>
        ${reasons.map((reason) => `<p class="reason">${esc(reason)}</p>`).join("")}`;
    }
    return `<section class="entry-pad no-print" aria-live="polite">
      <div class="round-line"><strong>${esc(round)}</strong>${about}</div>
      ${body}
      <p class="score-error" role="alert">${esc(s.error)}</p>
      <p class="score-note" role="status">${esc(s.note)}</p>
      <div class="pad-actions"><button type="button" class="undo" ${sheet.rounds.length && !waiting() ? "" : "disabled"}>${esc(t("web.score.undo"))}</button></div>
    </section>`;
  }

  function sharePanel() {
    const link = (kind, url) => `<p class="hint">${esc(t(`web.score.${kind}.hint`))}</p>
      ${shareMarkup(url, { inputClass: `${kind}-link`, label: t(`web.score.${kind}`) })}`;
    const handover = `${location.origin}/score?sheet=${encodeURIComponent(s.data.id)}#token=${encodeURIComponent(s.data.edit_token)}`;
    return `<section class="panel share no-print"><h3>${esc(t("web.score.share"))}</h3>${link("share", `${location.origin}${s.data.share}`)}
      <details class="handover"><summary>${esc(t("web.score.handover"))}</summary>${link("handover", handover)}</details></section>`;
  }

  /** The whole finished game as one link (sheet_link.js), made once per version shown. */
  function gameLinkPanel() {
    if (linked || !s.data.report.complete) return "";
    if (s.link?.version !== s.data.version) {
      const version = s.data.version;
      sheetFragment(s.data.sheet).then((fragment) => {
        s.link = { version, url: `${location.origin}/score#${fragment}` };
        if (!s.stopped && s.data.version === version) screen.render();
      });
      return "";
    }
    return `<section class="panel share game-link no-print"><h3>${esc(t("web.score.link"))}</h3>
      <p class="hint">${esc(t("web.score.link.hint"))}</p>
      ${shareMarkup(s.link.url, { inputClass: "game-link-url", label: t("web.score.link") })}</section>`;
  }

  /** The dialog correcting round `number` as the sheet shown has it; `notice`: why it is
   * shown again (a correction refused as made on an older sheet). */
  function openEdit(number, notice = "") {
    const version = s.data.version; // the polls wait while the dialog is open
    const entered = s.data.sheet.rounds[number - 1];
    const round = s.data.report.rounds[number - 1];
    const names = s.data.sheet.players;
    const hasBids = entered.bids !== null;
    const choices = (value) => {
      const options = [`<option value="" ${value === null ? "selected" : ""}>–</option>`];
      for (let n = 0; n <= round.cards; n += 1) options.push(`<option ${n === value ? "selected" : ""}>${n}</option>`);
      return options.join("");
    };
    const rows = names
      .map((name, seat) => {
        const dealer = round.dealer === seat ? ` <span class="dealer-mark" title="${esc(t("web.seat.dealer"))}">${esc(t("web.seat.dealer.short"))}</span>` : "";
        const bid = hasBids
          ? `<td><select name="bid" data-seat="${seat}" aria-label="${esc(`${name}: ${t("web.score.edit.bid")}`)}">${choices(entered.bids[seat])}</select></td>`
          : "";
        return `<tr><th scope="row">${esc(name)}${dealer}</th>${bid}
          <td><select name="taken" data-seat="${seat}" aria-label="${esc(`${name}: ${t("web.score.edit.taken")}`)}">${choices(entered.taken[seat])}</select></td></tr>`;
      })
      .join("");
    const body = openDialog(
      t("web.score.edit.title", { round: number }),
      `<form class="edit-form">
        <p class="muted">${esc(t("web.sheet.cards", { cards: round.cards }))} ${kindBadge(round.kind)} · ${esc(t("web.score.deals", { name: names[round.dealer] }))}</p>
        <table class="edit-table"><thead><tr><th></th>${hasBids ? `<th scope="col">${esc(t("web.score.edit.bid"))}</th>` : ""}
          <th scope="col">${esc(t("web.score.edit.taken"))}</th></tr></thead><tbody>${rows}</tbody></table>
        <p class="form-error" role="alert">${esc(notice)}</p>
        <button type="submit" class="primary big">${esc(t("web.score.edit.save"))}</button></form>`,
    );
    const form = body.querySelector("form");
    const read = (name) => [...form.querySelectorAll(`select[name=${name}]`)].map((select) => (select.value === "" ? null : Number(select.value)));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        const round = { bids: hasBids ? read("bid") : null, taken: read("taken") };
        s.data = await send({ entry: "round", number, ...round }, () => put(`${entries}/rounds/${number}`, { ...round, version }, headers));
        closeDialog();
        s.error = "";
        screen.render();
        toast(t("web.score.edited", { round: number }));
      } catch (error) {
        if (await storedShown(error)) return editAgain(number, error.message);
        button.disabled = false;
        form.querySelector(".form-error").textContent = await problemText(error);
      }
    });
  }

  /** After a correction of round `number` refused as made on an older sheet: the sheet as
   * stored now, and the dialog again with the round as stored and `notice` (or, if the
   * round is no longer a finished one, undone elsewhere, the notice alone). */
  function editAgain(number, notice) {
    screen.render();
    if (s.data.report.rounds[number - 1]) {
      openEdit(number, notice);
    } else {
      closeDialog();
      toast(notice, "error");
    }
  }

  function wire() {
    const next = s.data.next;
    for (const button of view.querySelectorAll(".entry-pad .bid")) {
      button.addEventListener("click", () => enter({ entry: next.entry, seat: next.seat, value: Number(button.dataset.value) }));
    }
    for (const button of view.querySelectorAll(".entry-pad .choice")) {
      const dealer = () => Number(view.querySelector("select[name=control-dealer]").value);
      button.addEventListener("click", () => enter({ entry: "control", kind: button.dataset.kind, dealer: dealer() }));
    }
    view.querySelector(".entry-pad .undo")?.addEventListener("click", undo);
    for (const button of view.querySelectorAll("button[data-edit]")) button.addEventListener("click", () => openEdit(Number(button.dataset.edit)));
    wireShare(view, t("web.lobby.share.sheet"));
    view.querySelector("button.print").addEventListener("click", () => window.print());
  }

  /** The dealer picked on the control-round pad on screen, when the page about to be drawn
   * asks the same choice (`nextText`, its `data-next`): a render (a poll, an answer, the
   * note of an entry made for the player) must not undo a pick that is not sent yet. */
  function pickedDealer(nextText) {
    const page = view.querySelector(".score-page");
    const select = view.querySelector(".entry-pad select[name=control-dealer]");
    return page && select && page.dataset.next === nextText ? select.value : null;
  }

  const screen = {
    render() {
      if (s.data === null) {
        view.innerHTML = s.failed
          ? `<p class="panel error">${esc(s.failed)}</p>`
          : `<p class="panel loading">${esc(t("web.loading"))}</p>`;
        return;
      }
      const automatic = onlyTrickCount();
      if (automatic) s.automatic = true; // the pad shows it on its way, not to tap
      const { sheet, report: scored, next, editable } = s.data;
      const names = sheet.players;
      const editButton = (round) =>
        `<button type="button" class="edit-round small no-print" data-edit="${round.round}" aria-label="${esc(t("web.score.edit.title", { round: round.round }))}">✎</button>`;
      const results = scored.complete
        ? `<section class="panel results" id="results"><h2>${esc(t("web.results.title"))}</h2>
            ${standingsMarkup(names, scored.totals, scored.winners)}${chartMarkup(report(), names)}</section>`
        : "";
      const nextText = next ? `${next.entry}:${next.round}:${next.seat}` : "";
      const picked = pickedDealer(nextText);
      view.innerHTML = `<div class="score-page" data-version="${s.data.version}" data-busy="${waiting()}" data-complete="${scored.complete}"
          data-next="${nextText}">
        <section class="panel score-head">
          <h2>${esc(t("web.score.title"))}</h2>
          <p class="muted">${esc(presetLabel(sheet.rules.preset))} · ${esc(names.join(", "))}</p>
          ${editable || linked ? "" : `<p class="readonly-note">${esc(t("web.score.readonly", { owner: s.data.owner }))}</p>`}
          ${local ? `<p class="offline-note" role="status">${esc(t(s.data.upload ? "web.score.local.refused" : s.data.continues ? "web.score.local.continues" : "web.score.local.note"))}</p>` : ""}
          ${s.stale ? `<p class="offline-note" role="status">${esc(t("web.score.kept.note"))}</p>` : ""}
          ${!local && s.data.continues ? `<p class="continues-note">${esc(t("web.score.continues"))}
            <a data-nav href="/score?sheet=${esc(s.data.continues)}">${esc(t("web.score.continues.open"))}</a></p>` : ""}
        </section>
        ${results}
        ${editable && next ? padMarkup(next) : ""}
        <section class="panel sheet-panel">${sheetMarkup(report(), names, { rowAction: editable ? editButton : null })}</section>
        ${editable && !local ? sharePanel() : ""}
        ${gameLinkPanel()}
        <div class="actions-row no-print">
          ${local || linked ? "" : `<a class="button csv" href="/api/sheets/shared/${esc(s.data.share_id)}/csv?lang=${language()}" download>${esc(t("web.score.csv"))}</a>`}
          <button type="button" class="print">${esc(t("web.score.print"))}</button>
          ${editable ? `<a class="button" data-nav href="/score">${esc(t("web.score.mine"))}</a>` : ""}
        </div></div>`;
      if (picked !== null) view.querySelector(".entry-pad select[name=control-dealer]").value = picked;
      wire();
      if (automatic) setTimeout(() => enterOnlyTrickCount(automatic));
    },
    stop() {
      s.stopped = true;
      clearInterval(timer);
    },
  };

  /** With no network, the server's sheet as last seen on this device (else the failure). */
  function keptOffline(error) {
    const kept = ref.id && unreachable(error) ? keptSheet(ref.id) : null;
    if (kept === null) throw error;
    s.stale = true;
    return kept;
  }

  const timer = local || linked ? null : setInterval(refresh, POLL_MS);
  const opened = linked
    ? sheetOfFragment(linked).then(async (sheet) => ({ ...(await viewOfSheet(sheet)), editable: false, version: 0, owner: null }))
    : null;
  (opened ?? (local ? localSheet(local) : get(path, headers).then(shownFromServer, keptOffline)))
    .then((data) => {
      if (data === null) throw new ApiError(404, "not on this device"); // uploaded meanwhile, or never here
      s.data = data;
      if (!s.stopped) screen.render();
    })
    .catch((error) => {
      if (linked) {
        // a link whose sheet the rules refuse was altered too
        s.failed = t(error instanceof LinkError && error.reason === "version" ? "web.score.link.version" : "web.score.link.cut");
        if (!s.stopped) screen.render();
        return;
      }
      const words = error instanceof ApiError || error.worded ? error.message : t("web.score.problem.device");
      s.failed = error.status === 404 ? t(local ? "web.score.local.gone" : "web.score.notfound") : t("web.error.server", { detail: words });
      if (!s.stopped) screen.render();
    });
  screen.render();
  return screen;
}
