// Clubs (docs/clubs.md): the directory (searched by name, paged on) with the form of a
// new club (/?clubs), a club's page (/?club=ID) as the server lets its visitor see it,
// and the invite link (/?club_invite=CODE), which joins the club and shows its page. The
// server decides what each visitor sees and may do; the page only draws it and words its
// refusals.
import { del, formatMoment, get, patch, post } from "./api.js";
import { LANGUAGE_NAMES, LANGUAGES, formatNumber, language, presetLabel, t, tMaybe, tn } from "./i18n.js";
import { nameLink } from "./leaderboard.js";
import { changeRules, chosenRules, optionsField, presetField } from "./lobby.js";
import { clubTournaments } from "./tournament.js";
import { closeDialog, copyText, esc, loadedScreen, openDialog, playerName, refreshingRunner, toast } from "./ui.js";

/** The link that joins the club of `code`. */
export function inviteLink(code) {
  return `${location.origin}/?club_invite=${encodeURIComponent(code)}`;
}

const clubHref = (id) => `/?club=${encodeURIComponent(id)}`;
/** How long an admin may mute a member in the club tables' chat, in minutes (worded as a
 * moderator's mute: `web.moderation.duration.*`). */
const MUTE_MINUTES = [60, 1440, 10080];

/** The directory of clubs and, for an account, the form of a new one. */
export function showClubs(view, app) {
  return loadedScreen(
    view,
    async () => {
      const [first, catalogue] = await Promise.all([get("/clubs"), get("/rules")]);
      return { first, catalogue };
    },
    (data) => {
      const account = app.user?.kind === "registered";
      view.innerHTML = `<section class="panel clubs"><h1>${esc(t("web.club.title"))}</h1>
          <form class="club-search" role="search"><input type="search" name="search" maxlength="64" autocomplete="off"
            placeholder="${esc(t("web.club.search"))}" aria-label="${esc(t("web.club.search"))}">
            <button type="submit">${esc(t("web.club.search.submit"))}</button></form>
          <div class="club-found"></div></section>
        <section class="panel club-new"><h2>${esc(t("web.club.create"))}</h2>
          ${account ? `<form class="club-form"></form>` : accountHint(app)}</section>`;
      directory(view.querySelector(".clubs"), data.first);
      const form = view.querySelector("form.club-form");
      if (form) {
        clubForm(form, data.catalogue, null, async (body) => {
          const club = await post("/clubs", body);
          app.navigate(clubHref(club.id));
        });
      }
    },
  );
}

/** The directory's list in `panel`, from its `first` page: searched by name, and paged
 * on with the server's cursor (`next`), each page added under the ones before. */
function directory(panel, first) {
  const s = { search: "", clubs: first.clubs, next: first.next };
  const found = panel.querySelector(".club-found");
  function draw() {
    const empty = s.search ? "web.club.search.none" : "web.club.none";
    found.innerHTML = `${s.clubs.length ? `<ul class="club-list">${s.clubs.map(clubCard).join("")}</ul>` : `<p class="empty">${esc(t(empty))}</p>`}
      ${s.next ? `<button type="button" class="more">${esc(t("web.club.more"))}</button>` : ""}`;
  }
  async function load(after) {
    const query = new URLSearchParams({ search: s.search, ...(after ? { after } : {}) });
    try {
      const page = await get(`/clubs?${query}`);
      s.clubs = after ? [...s.clubs, ...page.clubs] : page.clubs;
      s.next = page.next;
      draw();
    } catch (error) {
      toast(error.message, "error");
    }
  }
  panel.querySelector("form.club-search").addEventListener("submit", (event) => {
    event.preventDefault();
    s.search = event.target.search.value.trim();
    load(null);
  });
  found.addEventListener("click", (event) => {
    if (event.target.closest("button.more")) load(s.next);
  });
  draw();
}

function clubCard(club) {
  const members = tn("web.club.members.count", club.member_count);
  return `<li><a data-nav href="${clubHref(club.id)}">${esc(club.name)}</a>
    <span class="muted">${esc(LANGUAGE_NAMES[club.language] ?? club.language)} · ${esc(members)}</span>
    ${club.description ? `<p>${esc(club.description)}</p>` : ""}</li>`;
}

/** Why a guest cannot make a club, and the way to their profile, where they register. */
function accountHint(app) {
  const profile = `/?player=${encodeURIComponent(app.user?.id ?? "")}`;
  return `<p class="hint">${esc(t("web.club.account"))}</p>
    ${app.user ? `<a class="button" data-nav href="${profile}">${esc(t("web.profile.mine"))}</a>` : ""}`;
}

/** The values of the club form: a new club's, or `club`'s settings now (its house rules
 * as the preset plus the options that differ from it, as the new-table form holds them). */
function clubValues(catalogue, club) {
  if (club === null) {
    return { name: "", description: "", language: language(), private: false, preset: catalogue.presets[0].name, options: {} };
  }
  const { preset, ...options } = club.rules;
  return { name: club.name, description: club.description, language: club.language, private: club.private, preset, options };
}

/** The club form in `form`: name, description, language, visibility and house rules (the
 * preset and every option, drawn by the new-table form's own fields). `club` is null for
 * a new club, else the club whose settings it changes; `save` is given the request body,
 * and what it throws is shown on the form. */
function clubForm(form, catalogue, club, save) {
  const values = clubValues(catalogue, club);
  const languages = () =>
    LANGUAGES.map((code) => `<option value="${code}" ${code === values.language ? "selected" : ""}>${esc(LANGUAGE_NAMES[code])}</option>`).join("");
  function draw() {
    form.innerHTML = `
      <label class="field"><span>${esc(t("web.club.name"))}</span><input name="name" required maxlength="64" autocomplete="off" value="${esc(values.name)}"></label>
      <label class="field"><span>${esc(t("web.club.description"))}</span><textarea name="description" maxlength="500" rows="2">${esc(values.description)}</textarea></label>
      <label class="field"><span>${esc(t("web.club.language"))}</span><select name="language">${languages()}</select></label>
      ${presetField(catalogue, values)}
      ${optionsField(catalogue, values)}
      <label class="check"><input type="checkbox" name="private" ${values.private ? "checked" : ""}> <span>${esc(t("web.club.private"))}</span></label>
      <p class="form-error" role="alert"></p>
      <button type="submit" class="primary">${esc(t(club === null ? "web.club.create.submit" : "web.club.settings.submit"))}</button>`;
  }
  form.addEventListener("input", (event) => {
    const field = event.target;
    if (field.name === "name" || field.name === "description") values[field.name] = field.value;
  });
  form.addEventListener("change", (event) => {
    const field = event.target;
    if (field.name === "language") values.language = field.value;
    else if (field.name === "private") values.private = field.checked;
    else if (changeRules(field, values, catalogue)) draw();
  });
  form.addEventListener("toggle", (event) => (values.open = event.target.open), true);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const { name, description, private: hidden } = values;
      await save({ name, description, language: values.language, rules: chosenRules(catalogue, values), private: hidden });
    } catch (error) {
      form.querySelector(".form-error").textContent = error.message;
    }
    button.disabled = false;
  });
  draw();
}

/** The invite link: join, then the club's page in its place in the history. */
export function showClubInvite(view, app, code) {
  return loadedScreen(
    view,
    () => post(`/clubs/join/${encodeURIComponent(code)}`),
    (club) => {
      toast(t("web.club.joined", { name: club.name }));
      app.navigate(clubHref(club.id));
    },
  );
}

/** A club's page: its card for a visitor, and for a member its people, tables,
 * leaderboard and games; for its admins the invite link, requests, bans, mutes and the
 * club's settings too. */
export function showClub(view, app, clubId) {
  const path = `/clubs/${encodeURIComponent(clubId)}`;
  return loadedScreen(
    view,
    async () => {
      const [club, catalogue] = await Promise.all([get(path), get("/rules")]);
      return { ...club, catalogue };
    },
    (club, refresh) => {
      view.innerHTML = `<section class="panel club"><h1>${esc(club.name)}</h1>
          ${club.description ? `<p>${esc(club.description)}</p>` : ""}
          <p class="muted">${esc(LANGUAGE_NAMES[club.language] ?? club.language)} · ${esc(presetLabel(club.rules.preset))}
            · ${esc(tn("web.club.members.count", club.member_count))}
            ${club.private ? ` · ${esc(t("web.club.private.badge"))}` : ""}</p>
          ${stateMarkup(club)}</section>
        ${club.invite ? inviteMarkup(club) : ""}
        ${club.tables ? tablesMarkup(club) : ""}
        ${club.leaderboard ? boardMarkup(club) : ""}
        ${club.members ? membersMarkup(club, app) : ""}
        ${club.requests?.length ? peopleMarkup(club.requests, "web.club.requests", ["accept", "decline"]) : ""}
        ${club.banned?.length ? peopleMarkup(club.banned, "web.club.banned", ["unban"]) : ""}
        ${club.muted?.length ? mutedMarkup(club.muted) : ""}
        ${club.history ? historyMarkup(club) : ""}
        ${["owner", "admin"].includes(club.role) ? settingsMarkup() : ""}`;
      wire(view, app, club, path, refresh);
      const settings = view.querySelector("form.club-settings");
      if (settings) {
        clubForm(settings, club.catalogue, club, async (body) => {
          await patch(path, body);
          toast(t("web.club.settings.saved"));
          await refresh();
        });
      }
      clubTournaments(view, club);
    },
  );
}

function stateMarkup(club) {
  const own = club.role === "owner";
  const buttons = {
    none: `<button type="button" class="primary" data-club="request">${esc(t("web.club.ask"))}</button>`,
    left: `<button type="button" class="primary" data-club="request">${esc(t("web.club.ask"))}</button>`,
    requested: `<p class="hint">${esc(t("web.club.asked"))}</p><button type="button" data-club="leave">${esc(t("web.club.ask.cancel"))}</button>`,
    banned: `<p class="hint">${esc(t("web.club.banned.you"))}</p>`,
    member: own ? "" : `<button type="button" data-club="leave">${esc(t("web.club.leave"))}</button>`,
  };
  return buttons[club.state] ?? "";
}

function inviteMarkup(club) {
  return `<section class="panel club-invite"><h2>${esc(t("web.club.invite"))}</h2>
    <p class="hint">${esc(t("web.club.invite.hint"))}</p>
    <div class="invite-row"><input class="invite-link" readonly value="${esc(inviteLink(club.invite))}" aria-label="${esc(t("web.club.invite"))}">
    <button type="button" data-club="copy">${esc(t("web.club.invite.copy"))}</button></div></section>`;
}

function tablesMarkup(club) {
  const rows = club.tables.map(
    (table) => `<li><a data-nav href="/?table=${encodeURIComponent(table.id)}">${esc(t(`web.club.table.${table.status}`, { players: table.players }))}</a></li>`,
  );
  return `<section class="panel club-tables"><h2>${esc(t("web.club.tables"))}</h2>
    ${rows.length ? `<ul>${rows.join("")}</ul>` : `<p class="empty">${esc(t("web.club.tables.none"))}</p>`}
    <button type="button" class="primary" data-club="table">${esc(t("web.club.table.new"))}</button></section>`;
}

const rating = (line) => (line.rating === null ? "—" : formatNumber(line.rating));

function boardMarkup(club) {
  if (!club.leaderboard.length) {
    return `<section class="panel club-board"><h2>${esc(t("web.club.board"))}</h2><p class="empty">${esc(t("web.club.board.none"))}</p></section>`;
  }
  const rows = club.leaderboard.map(
    (line, index) => `<tr><td>${formatNumber(index + 1)}</td><td>${nameLink(line.user_id, line.name)}</td>
      <td>${rating(line)}</td><td>${formatNumber(line.games)}</td><td>${formatNumber(line.wins)}</td></tr>`,
  );
  return `<section class="panel club-board"><h2>${esc(t("web.club.board"))}</h2>
    <table class="board"><thead><tr><th>#</th><th>${esc(t("web.leaderboard.player"))}</th><th>${esc(t("web.club.rating"))}</th>
    <th>${esc(t("web.profile.games"))}</th><th>${esc(t("web.club.wins"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>
    <p class="hint">${esc(t("web.club.rating.hint"))}</p></section>`;
}

/** What the viewer may do to a member: an admin mutes, removes and bans members, the
 * owner also names and unnames admins; nobody acts on the owner. */
function memberActions(club, member, app) {
  if (member.role === "owner" || member.user_id === app.user?.id) return [];
  if (club.role === "owner") return [member.role === "admin" ? "unadmin" : "admin", "mute", "remove", "ban"];
  if (club.role === "admin" && member.role === "member") return ["mute", "remove", "ban"];
  return [];
}

function actionButtons(userId, actions) {
  return actions
    .map((what) => `<button type="button" class="small" data-member="${esc(userId)}" data-what="${what}">${esc(t(`web.club.do.${what}`))}</button>`)
    .join("");
}

function membersMarkup(club, app) {
  const rows = club.members.map(
    (m) => `<li><span class="member-name">${nameLink(m.user_id, m.name)}</span>
      <span class="muted">${esc(t(`web.club.role.${m.role}`))} · ${esc(t("web.club.member.figures", { games: formatNumber(m.games), rating: rating(m) }))}</span>
      <span class="actions">${actionButtons(m.user_id, memberActions(club, m, app))}</span></li>`,
  );
  return `<section class="panel club-members"><h2>${esc(t("web.club.members"))}</h2><ul class="members">${rows.join("")}</ul></section>`;
}

function peopleMarkup(people, title, actions) {
  const rows = people.map(
    (p) => `<li><span class="member-name">${nameLink(p.user_id, p.name)}</span><span class="actions">${actionButtons(p.user_id, actions)}</span></li>`,
  );
  return `<section class="panel club-people"><h2>${esc(t(title))}</h2><ul class="members">${rows.join("")}</ul></section>`;
}

/** For the admins: who is muted in the club tables' chat, until when, and the way back. */
function mutedMarkup(muted) {
  const rows = muted.map(
    (m) => `<li><span class="member-name">${nameLink(m.user_id, m.name)}</span>
      <span class="muted">${esc(t("web.club.muted.until", { until: formatMoment(m.until) }))}</span>
      <span class="actions">${actionButtons(m.user_id, ["unmute"])}</span></li>`,
  );
  return `<section class="panel club-people club-muted"><h2>${esc(t("web.club.muted"))}</h2><ul class="members">${rows.join("")}</ul></section>`;
}

/** The admin's choice of how long to mute `name` in the club tables' chat; `mute` is
 * called with the minutes chosen. */
function askMuteMinutes(name, mute) {
  const choices = MUTE_MINUTES.map(
    (minutes) => `<button type="button" data-minutes="${minutes}">${esc(t(`web.moderation.duration.${minutes}`))}</button>`,
  ).join("");
  const body = openDialog(t("web.club.mute.title", { name }), `<p class="hint">${esc(t("web.club.mute.hint"))}</p>
    <div class="actions-row mute-choices">${choices}</div>`);
  body.querySelectorAll("[data-minutes]").forEach((button) =>
    button.addEventListener("click", () => {
      closeDialog();
      mute(Number(button.dataset.minutes));
    }),
  );
}

/** For the admins: the club's settings, folded away until opened. */
function settingsMarkup() {
  return `<section class="panel club-edit"><details><summary>${esc(t("web.club.settings"))}</summary>
    <form class="club-form club-settings"></form></details></section>`;
}

function historyMarkup(club) {
  const rows = club.history.map((game) => {
    const seats = [...game.seats]
      .sort((a, b) => a.place - b.place)
      .map((seat) => `${esc(seat.bot ? (tMaybe(`web.bot.${seat.name}`) ?? seat.name) : playerName(seat.name))} ${formatNumber(seat.points)}`)
      .join(", ");
    return `<li><a data-nav href="/?replay=${encodeURIComponent(game.table_id)}">${esc(new Date(game.finished_at).toLocaleDateString(language()))}</a> ${seats}</li>`;
  });
  return `<section class="panel club-history"><h2>${esc(t("web.club.history"))}</h2>
    ${rows.length ? `<ul>${rows.join("")}</ul>` : `<p class="empty">${esc(t("web.club.history.none"))}</p>`}</section>`;
}

/** The page's buttons: each asks the server and draws the club again from its answer. */
function wire(view, app, club, path, refresh) {
  const run = refreshingRunner(refresh);
  view.querySelectorAll("[data-club]").forEach((button) =>
    button.addEventListener("click", () => {
      const what = button.dataset.club;
      if (what === "copy") {
        copyText(inviteLink(club.invite)).then(() => toast(t("web.club.invite.copied")));
      } else if (what === "table") {
        run(async () => {
          const table = await post(`${path}/tables`, { players: 4 });
          app.navigate(`/?table=${encodeURIComponent(table.id)}`);
        });
      } else {
        run(() => post(`${path}/${what}`));
      }
    }),
  );
  view.querySelectorAll("[data-member]").forEach((button) =>
    button.addEventListener("click", () => {
      const member = `${path}/members/${encodeURIComponent(button.dataset.member)}`;
      const what = button.dataset.what;
      if (what === "mute") {
        const name = club.members.find((m) => m.user_id === button.dataset.member)?.name ?? "";
        askMuteMinutes(name, (minutes) => run(() => post(`${member}/mute`, { minutes })));
      } else if (what === "unmute") {
        run(() => del(`${member}/mute`));
      } else {
        run(() => post(`${member}/${what}`));
      }
    }),
  );
}
