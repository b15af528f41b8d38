// The matchmaking pool «Играть с людьми» (docs/pool.md): the lobby's panel where a person
// says what they accept (presets, players, speed, rated, when bots may fill the free
// seats), joins, sees the time waited and leaves at any moment; and the live counts of
// people waiting for each preset and speed. The page asks `GET /api/pool` every
// WAITING_POLL_MS while waiting (which also tells the server it is still there: a page
// gone quiet leaves the pool after a short grace) and goes to the table once matched.
import { del, get, post } from "./api.js";
import { presetLabel, t, tn } from "./i18n.js";
import { esc, toast } from "./ui.js";

/** The speeds, each a named turn timer (seconds), as raspisnoy.matchmaking.SPEEDS. */
const SPEEDS = [
  ["fast", 15],
  ["normal", 30],
  ["slow", 60],
];
/** Seconds before bots fill the free seats; null: never. */
const BOT_WAITS = [null, 30, 60, 120];
const PLAYERS = ["3", "4", "5", "any"];
const WAITING_POLL_MS = 1500;
const IDLE_POLL_MS = 5000;
/** The last choices, so the next visit starts from them (`localStorage`). */
const CHOICES_KEY = "raspisnoy.poolChoices";

function lastChoices(presets) {
  const fallback = { presets: [presets[0]], players: "4", speed: "normal", rated: false, bot_wait: 60 };
  try {
    const saved = JSON.parse(localStorage.getItem(CHOICES_KEY) ?? "null");
    if (saved && Array.isArray(saved.presets)) {
      const known = saved.presets.filter((name) => presets.includes(name));
      if (known.length) return { ...fallback, ...saved, presets: known };
    }
  } catch {
    // a damaged entry: the defaults
  }
  return fallback;
}

/** The request body of `choices` (POST /api/pool). */
function poolBody(choices) {
  const players = choices.players === "any" ? [3, 4, 5] : [Number(choices.players)];
  return { presets: choices.presets, players, speed: choices.speed, rated: choices.rated, bot_wait: choices.bot_wait };
}

const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

/** The pool's panel in `section`; `stop()` ends its polling (the lobby is left). */
export function poolPanel(section, catalogue, app) {
  const names = catalogue.presets.map((preset) => preset.name);
  const guest = app.user.kind !== "registered";
  // `unticked`: a search asked for with no rules ticked, said under the choices until one is
  const state = { status: null, choices: lastChoices(names), timer: null, ticker: null, busy: false, stopped: false, since: 0, open: false, unticked: false };

  function countsMarkup(counts, waiting = false) {
    const lines = names
      .filter((name) => counts?.[name])
      .map((name) => {
        const bySpeed = SPEEDS.filter(([speed]) => counts[name][speed])
          .map(([speed]) => esc(t("web.pool.count", { speed: t(`web.pool.speed.${speed}.short`), count: counts[name][speed] })))
          .join(" · ");
        return `<li><strong>${esc(presetLabel(name))}</strong> <span class="muted">${bySpeed}</span></li>`;
      });
    if (!lines.length) {
      // while one waits, "nobody" would be wrong: the counts are of the last pass
      return waiting ? `<div class="pool-counts"></div>` : `<p class="empty pool-counts">${esc(t("web.pool.counts.none"))}</p>`;
    }
    return `<div class="pool-counts"><p class="hint">${esc(t("web.pool.counts"))}</p><ul class="list">${lines.join("")}</ul></div>`;
  }

  function formMarkup() {
    const c = state.choices;
    const cooling = state.status?.rated_cooldown ?? null;
    const check = (on) => (on ? "checked" : "");
    const presets = names
      .map((name) => `<label class="pool-option"><input type="checkbox" name="preset" value="${esc(name)}" ${check(c.presets.includes(name))}>
        ${esc(presetLabel(name))}</label>`)
      .join("");
    const players = PLAYERS.map((value) => `<label class="pool-option"><input type="radio" name="players" value="${value}" ${check(c.players === value)}>
        ${esc(value === "any" ? t("web.pool.players.any") : value)}</label>`).join("");
    const speeds = SPEEDS.map(([speed, seconds]) => `<label class="pool-option"><input type="radio" name="speed" value="${speed}" ${check(c.speed === speed)}>
        ${esc(t(`web.pool.speed.${speed}`, { seconds }))}</label>`).join("");
    const waits = BOT_WAITS.map((wait) => `<option value="${wait ?? "never"}" ${wait === c.bot_wait ? "selected" : ""}>${esc(t(`web.pool.bots.${wait ?? "never"}`))}</option>`).join("");
    return `<form class="pool-form">
      <p class="hint pool-summary">${esc(summary(c))}</p>
      <details class="pool-choices" ${state.open ? "open" : ""}><summary>${esc(t("web.pool.choose"))}</summary>
      <fieldset class="field"><legend>${esc(t("web.pool.presets"))}</legend><div class="pool-options">${presets}</div></fieldset>
      <fieldset class="field"><legend>${esc(t("web.pool.players"))}</legend><div class="pool-options">${players}</div></fieldset>
      <fieldset class="field"><legend>${esc(t("web.pool.speed"))}</legend><div class="pool-options">${speeds}</div></fieldset>
      <label class="field"><span>${esc(t("web.pool.bots"))}</span><select name="bot_wait">${waits}</select></label>
      <label class="pool-option"><input type="checkbox" name="rated" ${check(c.rated && !guest && !cooling)} ${guest || cooling ? "disabled" : ""}>
        ${esc(t("web.pool.rated"))}</label>
      ${guest ? `<p class="hint">${esc(t("web.pool.rated.guest"))}</p>` : ""}
      ${cooling ? `<p class="hint pool-cooldown">${esc(t("web.refusal.pool_cooldown", cooling))}</p>` : ""}
      </details>
      <p class="form-error" role="alert">${state.unticked ? esc(t("web.pool.presets.none")) : ""}</p>
      <button type="submit" class="primary big pool-join">${esc(t("web.pool.join"))}</button>
    </form>`;
  }

  /** One line saying what the person accepts now. */
  function summary(c) {
    const players = c.players === "any" ? t("web.pool.players.any") : c.players;
    return [
      c.presets.map(presetLabel).join(", ") || "—",
      t("web.pool.summary.players", { players }),
      t(`web.pool.speed.${c.speed}.short`),
      t("web.pool.summary.bots", { bots: t(`web.pool.bots.${c.bot_wait ?? "never"}`) }),
      t(c.rated && !guest && !state.status?.rated_cooldown ? "web.pool.summary.rated" : "web.pool.summary.casual"),
    ].join(" · ");
  }

  function waitingMarkup() {
    const c = state.status.choices;
    const held = state.status.games_held ?? null; // at the cap of games at once: passed over
    const what = [c.presets.map(presetLabel).join(", "), t(`web.pool.speed.${c.speed}.short`)].join(" · ");
    return `<p class="pool-waiting" role="status">${esc(t("web.pool.waiting"))}</p>
      <p class="pool-waited"><strong>${esc(t("web.pool.waited", { time: minutes(state.status.waited_seconds) }))}</strong></p>
      <p class="hint">${esc(what)}</p>
      ${held ? `<p class="hint pool-held" role="status">${esc(tn("web.pool.held", held.count, { limit: held.limit }))}</p>` : ""}
      <button type="button" class="big pool-leave">${esc(t("web.pool.leave"))}</button>`;
  }

  function render() {
    if (state.stopped) return;
    const waiting = state.status?.status === "waiting";
    section.innerHTML = `<h2>${esc(t("web.pool.title"))}</h2>
      <p class="hint">${esc(t("web.pool.hint"))}</p>
      ${waiting ? waitingMarkup() : formMarkup()}
      ${countsMarkup(state.status?.counts, waiting)}`;
    if (waiting) {
      section.querySelector(".pool-leave").addEventListener("click", leave);
    } else {
      const form = section.querySelector(".pool-form");
      form.addEventListener("change", () => {
        state.choices = readForm(form);
        form.querySelector(".pool-summary").textContent = summary(state.choices);
        if (state.unticked && state.choices.presets.length) {
          state.unticked = false;
          form.querySelector(".form-error").textContent = "";
        }
      });
      const choices = form.querySelector(".pool-choices");
      choices.addEventListener("toggle", () => (state.open = choices.open));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const wanted = readForm(form);
        if (!wanted.presets.length) {
          // the pool needs at least one set of rules: nothing is sent, the choices open
          state.unticked = state.open = choices.open = true;
          form.querySelector(".form-error").textContent = t("web.pool.presets.none");
          form.querySelector("input[name=preset]")?.focus();
          return;
        }
        join(wanted);
      });
    }
  }

  function readForm(form) {
    const wait = form.bot_wait.value;
    return {
      presets: [...form.querySelectorAll("input[name=preset]:checked")].map((box) => box.value),
      players: form.querySelector("input[name=players]:checked")?.value ?? "4",
      speed: form.querySelector("input[name=speed]:checked")?.value ?? "normal",
      rated: form.rated.checked,
      bot_wait: wait === "never" ? null : Number(wait),
    };
  }

  /** Show the answer of the server; matched: go to the table. */
  function show(answer) {
    if (state.stopped) return;
    if (answer.status === "matched") {
      stop();
      toast(t("web.pool.found"));
      app.navigate(answer.invite);
      return;
    }
    const was = state.status?.status;
    state.since = Date.now() - (answer.waited_seconds ?? 0) * 1000;
    const changed = (field) => JSON.stringify(state.status?.[field] ?? null) !== JSON.stringify(answer[field] ?? null);
    const cooled = changed("rated_cooldown");
    const held = changed("games_held");
    state.status = answer;
    const waiting = answer.status === "waiting";
    if (was !== answer.status || (waiting ? held : cooled || !section.querySelector(".pool-form"))) render();
    else drawWaited();
    schedule();
  }

  function drawWaited() {
    const line = section.querySelector(".pool-waited strong");
    if (line) line.textContent = t("web.pool.waited", { time: minutes(Math.floor((Date.now() - state.since) / 1000)) });
    const counts = section.querySelector(".pool-counts");
    if (counts) counts.outerHTML = countsMarkup(state.status?.counts, state.status?.status === "waiting");
  }

  function schedule() {
    clearTimeout(state.timer);
    if (state.stopped) return;
    const waiting = state.status?.status === "waiting";
    state.timer = setTimeout(poll, waiting ? WAITING_POLL_MS : IDLE_POLL_MS);
  }

  async function poll() {
    try {
      show(await get("/pool"));
    } catch {
      schedule(); // offline for a moment: ask again
    }
  }

  async function join(choices) {
    if (state.busy) return;
    state.busy = true;
    state.choices = choices;
    localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
    try {
      show(await post("/pool", poolBody(choices)));
    } catch (error) {
      if (error.status !== 429) toast(error.message, "error"); // a limit is shown by api.js
    } finally {
      state.busy = false;
    }
  }

  async function leave() {
    try {
      show(await del("/pool"));
      toast(t("web.pool.left"));
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function stop() {
    state.stopped = true;
    clearTimeout(state.timer);
    clearInterval(state.ticker);
  }

  state.ticker = setInterval(drawWaited, 1000);
  render();
  poll();
  return { stop };
}
