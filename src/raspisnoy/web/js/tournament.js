// Tournaments (docs/tournaments.md): the list with the form of a new one (/?tournaments,
// a club's: /?tournaments=CLUB_ID), a tournament's page (/?tournament=ID) with its
// entrants, standings, rounds and, once finished, its final table to share; and the
// club page's list of the club's tournaments (clubTournaments). The server decides what
// each visitor sees and may do; the page draws it and words its refusals.
import { get, post } from "./api.js";
import { formatDecimal, formatNumber, language, presetLabel, t } from "./i18n.js";
import { shareMarkup, wireShare } from "./share.js";
import { esc, loadedScreen, playerName, refreshingRunner } from "./ui.js";

const tournamentHref = (id) => `/?tournament=${encodeURIComponent(id)}`;
const listHref = (clubId) => `/?tournaments${clubId ? `=${encodeURIComponent(clubId)}` : ""}`;
/** The deals of a short tournament game: one card, two, one. */
const SHORT_PLAN = ["1", "2", "1"];
/** How often an unfinished tournament's page asks again (ms). */
const REFRESH_MS = 3000;

const when = (seconds) =>
  new Date(seconds * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });

function cardMarkup(card) {
  const round = card.current_round ? ` · ${t("web.tournament.round.of", { round: card.current_round, rounds: card.rounds })}` : "";
  return `<li><a data-nav href="${tournamentHref(card.id)}">${esc(card.name)}</a>
    <span class="muted">${esc(t(`web.tournament.state.${card.state}`))}${esc(round)} · ${esc(when(card.starts_at))}
    · ${esc(t("web.tournament.places", { registered: card.registered, places: card.max_players }))}</span></li>`;
}

/** The public tournaments (or a club's) and the form of a new one. */
export function showTournaments(view, app, clubId = "") {
  const path = clubId ? `/clubs/${encodeURIComponent(clubId)}/tournaments` : "/tournaments";
  return loadedScreen(
    view,
    async () => {
      const [list, rules] = await Promise.all([get(path), get("/rules")]);
      return { tournaments: list.tournaments, presets: rules.presets.map((p) => p.name) };
    },
    (data) => {
      const list = data.tournaments.length
        ? `<ul class="club-list tournament-list">${data.tournaments.map(cardMarkup).join("")}</ul>`
        : `<p class="empty">${esc(t("web.tournament.none"))}</p>`;
      view.innerHTML = `<section class="panel tournaments"><h1>${esc(t("web.tournament.title"))}</h1>${list}</section>
        <section class="panel tournament-new"><h2>${esc(t("web.tournament.create"))}</h2>${createForm(data.presets)}</section>`;
      const form = view.querySelector("form.tournament-form");
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const made = await post("/tournaments", formBody(new FormData(form), clubId));
          app.navigate(tournamentHref(made.id));
        } catch (error) {
          form.querySelector(".form-error").textContent = error.message;
        }
      });
    },
  );
}

function options(values, label = (value) => formatNumber(value), selected = null) {
  return values
    .map((value) => `<option value="${esc(value)}" ${value === selected ? "selected" : ""}>${esc(label(value))}</option>`)
    .join("");
}

function createForm(presets) {
  const field = (name, label, control) =>
    `<label class="field"><span>${esc(t(label))}</span>${control}</label>`;
  return `<form class="tournament-form">
    ${field("name", "web.tournament.name", `<input name="name" required maxlength="64" autocomplete="off">`)}
    ${field("start", "web.tournament.start", `<select name="start">${options([5, 15, 60, 24 * 60], (m) => t("web.tournament.start.in", { minutes: m }))}</select>`)}
    ${field("preset", "web.tournament.rules", `<select name="preset">${options(presets, presetLabel)}</select>`)}
    ${field("length", "web.tournament.length", `<select name="length">${options(["full", "short"], (l) => t(`web.tournament.length.${l}`))}</select>`)}
    ${field("size", "web.tournament.size", `<select name="table_size">${options([3, 4, 5], undefined, 4)}</select>`)}
    ${field("rounds", "web.tournament.rounds", `<select name="rounds">${options([1, 2, 3, 4, 5, 6, 7, 8, 9], undefined, 3)}</select>`)}
    ${field("turn", "web.tournament.turn", `<select name="turn_seconds">${options([15, 30, 60], (s) => t("web.tournament.turn.seconds", { seconds: s }), 30)}</select>`)}
    ${field("scoring", "web.tournament.scoring", `<select name="scoring">${options(["swiss", "duplicate"], (s) => t(`web.tournament.scoring.${s}`))}</select>`)}
    ${field("places", "web.tournament.places.max", `<input name="max_players" type="number" min="2" max="1000" value="16">`)}
    <p class="form-error" role="alert"></p>
    <button type="submit" class="primary">${esc(t("web.tournament.create.submit"))}</button></form>`;
}

function formBody(fields, clubId) {
  return {
    name: fields.get("name"),
    ...(clubId ? { club_id: clubId } : {}),
    starts_at: Date.now() / 1000 + Number(fields.get("start")) * 60,
    rules: fields.get("length") === "short" ? { preset: fields.get("preset"), custom_plan: SHORT_PLAN } : fields.get("preset"),
    table_size: Number(fields.get("table_size")),
    rounds: Number(fields.get("rounds")),
    turn_seconds: Number(fields.get("turn_seconds")),
    scoring: fields.get("scoring"),
    max_players: Number(fields.get("max_players")),
  };
}

/** A tournament's page, asked again while it is not finished. */
export function showTournament(view, app, id) {
  const path = `/tournaments/${encodeURIComponent(id)}`;
  return loadedScreen(
    view,
    () => get(path),
    (event, refresh) => {
      view.innerHTML = `${headMarkup(event)}
        ${event.state === "finished" ? finalMarkup(event) : ""}
        ${event.is_director && event.state !== "finished" ? directorMarkup(event) : ""}
        ${standingsMarkup(event)}
        ${event.round_list.length ? roundsMarkup(event) : ""}
        ${entrantsMarkup(event)}`;
      wire(view, app, event, path, refresh);
      wireShare(view, event.name);
    },
    { again: (event) => event.state !== "finished", everyMs: REFRESH_MS },
  );
}

function headMarkup(event) {
  const round = event.current_round ? t("web.tournament.round.of", { round: event.current_round, rounds: event.rounds }) : "";
  const warnings = event.warnings.map((w) => `<p class="hint warning">${esc(t(`web.tournament.warning.${w.code}`, w.params))}</p>`);
  let action = "";
  if (event.table_id) {
    action = `<a class="button primary" data-nav href="/?table=${encodeURIComponent(event.table_id)}">${esc(t("web.tournament.to.table"))}</a>`;
  } else if (event.state === "registering") {
    action = event.entry_id
      ? `<button type="button" data-act="unregister">${esc(t("web.tournament.unregister"))}</button>`
      : `<button type="button" class="primary" data-act="register">${esc(t("web.tournament.register"))}</button>`;
  }
  return `<section class="panel tournament"><h1>${esc(event.name)}</h1>
    <p class="muted">${esc(t(`web.tournament.state.${event.state}`))}${round ? ` · ${esc(round)}` : ""} · ${esc(when(event.starts_at))}</p>
    <p class="muted">${esc(presetLabel(event.rules.preset))} · ${esc(t("web.tournament.summary", { size: event.table_size, rounds: event.rounds, seconds: event.turn_seconds }))}
      · ${esc(t(`web.tournament.scoring.${event.scoring}`))}</p>
    <p class="muted">${esc(t("web.tournament.director", { name: playerName(event.director) }))} · ${esc(t("web.tournament.places", { registered: event.registered, places: event.max_players }))}</p>
    ${warnings.join("")}${action}</section>`;
}

function directorMarkup(event) {
  const acts = { registering: ["start"], running: ["pause", "end"], paused: ["resume", "end"] }[event.state] ?? [];
  const buttons = acts.map((what) => `<button type="button" data-act="${what}">${esc(t(`web.tournament.do.${what}`))}</button>`);
  const bot =
    event.state === "registering"
      ? `<form class="bot-form invite-row"><input name="name" required maxlength="64" autocomplete="off" aria-label="${esc(t("web.tournament.bot.name"))}" placeholder="${esc(t("web.tournament.bot.name"))}">
        <button type="submit">${esc(t("web.tournament.bot.add"))}</button></form>`
      : "";
  return `<section class="panel tournament-director"><h2>${esc(t("web.tournament.directing"))}</h2>${bot}
    <div class="actions">${buttons.join("")}</div></section>`;
}

const duplicate = (line) => (line.duplicate === null ? "—" : `${formatDecimal(line.duplicate, 1)} %`);
const points = (value) => formatDecimal(value, Number.isInteger(value) ? 0 : 1);
const botMark = (bot) => (bot ? ` <span class="muted">${esc(t("web.tournament.bot"))}</span>` : "");

function standingsMarkup(event) {
  if (!event.standings.length) return "";
  const rows = event.standings.map(
    (line) => `<tr class="${line.withdrawn ? "muted" : ""}"><td>${formatNumber(line.place)}</td><td>${esc(playerName(line.name))}${botMark(line.bot)}</td>
      <td>${points(line.points)}</td><td>${duplicate(line)}</td><td>${formatNumber(line.games)}</td></tr>`,
  );
  const order = event.scoring === "duplicate" ? "web.tournament.order.duplicate" : "web.tournament.order.swiss";
  return `<section class="panel tournament-standings"><h2>${esc(t("web.tournament.standings"))}</h2>
    <table class="board"><thead><tr><th>#</th><th>${esc(t("web.leaderboard.player"))}</th><th>${esc(t("web.tournament.points"))}</th>
    <th>${esc(t("web.tournament.duplicate"))}</th><th>${esc(t("web.profile.games"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>
    <p class="hint">${esc(t(order))}</p><p class="hint">${esc(t("web.tournament.duplicate.hint"))}</p></section>`;
}

function finalMarkup(event) {
  const podium = event.standings.slice(0, 3).map(
    (line) => `<li>${esc(playerName(line.name))}${botMark(line.bot)}
      <span class="muted">${esc(t("web.tournament.final.line", { points: points(line.points), duplicate: duplicate(line) }))}</span></li>`,
  );
  const link = `${location.origin}${tournamentHref(event.id)}`;
  return `<section class="panel tournament-final"><h2>${esc(t("web.tournament.final"))}</h2>
    <p class="muted">${esc(event.name)} · ${esc(when(event.finished_at ?? event.starts_at))}</p>
    <ol class="podium">${podium.join("")}</ol>
    ${shareMarkup(link, { label: t("web.tournament.share") })}</section>`;
}

function roundsMarkup(event) {
  const rounds = [...event.round_list].reverse().map((round) => {
    const tables = round.tables.map((table) => {
      const seats = table.seats
        .map((seat) => {
          const name = seat.entry_id === null ? t("web.tournament.bot.fill") : playerName(seat.name);
          const score = seat.points === null ? "" : ` ${formatNumber(seat.points)}`;
          return `${esc(name)}${esc(score)}${seat.absent ? ` (${esc(t("web.tournament.absent"))})` : ""}`;
        })
        .join(", ");
      const number = { table: table.position + 1 };
      // A round being played: every table holds the same hands, so each is its own
      // players' only until the round is over (docs/tournaments.md); no link to the others.
      const mine = event.entry_id !== null && table.seats.some((seat) => seat.entry_id === event.entry_id);
      if (round.finished_at === null && event.state !== "finished" && !mine) {
        return `<li><span class="muted">${esc(t("web.tournament.table.hidden", number))}</span> ${seats}</li>`;
      }
      const href = table.status === "over" ? `/?replay=${encodeURIComponent(table.table_id)}` : `/?table=${encodeURIComponent(table.table_id)}`;
      const label = t(table.status === "over" ? "web.tournament.table.record" : "web.tournament.table.watch", number);
      return `<li><a data-nav href="${href}">${esc(label)}</a> ${seats}</li>`;
    });
    const byes = round.byes.length ? `<p class="muted">${esc(t("web.tournament.byes", { names: round.byes.map((name) => playerName(name)).join(", ") }))}</p>` : "";
    return `<h3>${esc(t("web.tournament.round", { round: round.number }))}</h3><ul>${tables.join("")}</ul>${byes}`;
  });
  return `<section class="panel tournament-rounds"><h2>${esc(t("web.tournament.rounds.title"))}</h2>${rounds.join("")}
    <p class="hint">${esc(t("web.tournament.rounds.hint"))}</p></section>`;
}

function entrantsMarkup(event) {
  const withdraw = event.is_director && event.state !== "finished" && event.state !== "registering";
  const rows = event.entrants.map(
    (entry) => `<li><span class="member-name">${esc(playerName(entry.name))}${botMark(entry.bot)}</span>
      ${entry.state === "withdrawn" ? `<span class="muted">${esc(t("web.tournament.withdrawn"))}</span>` : ""}
      ${withdraw && entry.state === "registered" ? `<button type="button" class="small" data-withdraw="${esc(entry.entry_id)}">${esc(t("web.tournament.do.withdraw"))}</button>` : ""}</li>`,
  );
  return `<section class="panel tournament-entrants"><h2>${esc(t("web.tournament.entrants"))}</h2>
    ${rows.length ? `<ul class="members">${rows.join("")}</ul>` : `<p class="empty">${esc(t("web.tournament.entrants.none"))}</p>`}</section>`;
}

/** The page's buttons: each asks the server, then the page is drawn again. */
function wire(view, app, event, path, refresh) {
  const run = refreshingRunner(refresh);
  view.querySelectorAll("[data-act]").forEach((button) =>
    button.addEventListener("click", () => run(() => post(`${path}/${button.dataset.act}`))),
  );
  view.querySelectorAll("[data-withdraw]").forEach((button) =>
    button.addEventListener("click", () => run(() => post(`${path}/withdraw/${encodeURIComponent(button.dataset.withdraw)}`))),
  );
  const form = view.querySelector("form.bot-form");
  form?.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    run(() => post(`${path}/bots`, { name: new FormData(form).get("name") }));
  });
}

/** The club page's tournaments: appended to `view` for the club's members, with the
 * way to a new one for its admins. */
export async function clubTournaments(view, club) {
  if (club.state !== "member") return;
  const section = document.createElement("section");
  section.className = "panel club-tournaments";
  view.append(section);
  const admin = club.role === "owner" || club.role === "admin";
  const create = admin ? `<a class="button primary" data-nav href="${listHref(club.id)}">${esc(t("web.tournament.create"))}</a>` : "";
  try {
    const { tournaments } = await get(`/clubs/${encodeURIComponent(club.id)}/tournaments`);
    const list = tournaments.length
      ? `<ul class="club-list">${tournaments.map(cardMarkup).join("")}</ul>`
      : `<p class="empty">${esc(t("web.tournament.none"))}</p>`;
    section.innerHTML = `<h2>${esc(t("web.tournament.title"))}</h2>${list}${create}`;
  } catch (error) {
    section.innerHTML = `<h2>${esc(t("web.tournament.title"))}</h2><p class="form-error">${esc(error.message)}</p>`;
  }
}
