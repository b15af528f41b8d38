// Moderation (docs/moderation.md): the notices of moderators' actions, shown once to their
// person in the page's language, and the moderators' screen (/?moderation): the reports
// with the chat around the reported line and the game as a spectator sees it, the
// actions, the log. The report dialog is report.js.
// Every name and text comes from other people: all of it goes through esc().
import { formatMoment, get, post } from "./api.js";
import { messageText } from "./chat.js";
import { t } from "./i18n.js";
import { MAX_NOTE, REASONS, reasonLabel } from "./report.js";
import { closeDialog, esc, openDialog, pendingMarkup, playerName, toast } from "./ui.js";

/** What a moderator may do, and how long a mute or ban may last (minutes; null: for good). */
const KINDS = ["warn", "mute", "unmute", "ban", "unban"];
const DURATIONS = { mute: [60, 1440, 10080], ban: [1440, 10080, 43200, null] };

/** What a notice of an action says to its person, in the page's language. */
function noticeText(notice) {
  const until = notice.until ? formatMoment(notice.until) : null;
  const kind = notice.kind === "ban" && until === null ? "ban_for_good" : notice.kind;
  const parts = [t(`web.notice.${kind}`, { until }), t("web.notice.reason", { reason: reasonLabel(notice.reason) })];
  if (notice.note) parts.push(t("web.notice.note", { note: notice.note }));
  return parts;
}

/** Reads the signed-in user's standing: whether they moderate (`app.moderator`) and the
 * notices not yet shown, which a dialog shows once (marked seen when it closes). */
export async function checkStanding(app) {
  app.moderator = false;
  if (app.user === null) return;
  let standing;
  try {
    standing = await get("/moderation/me");
  } catch {
    return; // offline, or the session ended: nothing to tell now
  }
  app.moderator = standing.moderator;
  if (!standing.notices.length) return;
  const items = standing.notices
    .map((notice) => `<li class="notice ${esc(notice.kind)}">${noticeText(notice).map((line) => `<p>${esc(line)}</p>`).join("")}</li>`)
    .join("");
  const ids = standing.notices.map((notice) => notice.id);
  const body = openDialog(t("web.notice.title"), `<ul class="notices">${items}</ul>
    <button type="button" class="primary" data-do="seen">${esc(t("web.notice.ok"))}</button>`, {
    onClose: () => post("/moderation/me/seen", { ids }).catch(() => {}),
  });
  body.querySelector("[data-do=seen]").addEventListener("click", closeDialog);
}

/** A report as one line of the list: who reported whom, where, why, when. */
function reportSummary(report) {
  return `<p><strong>${esc(t("web.moderation.report", { reporter: playerName(report.reporter.nickname), reported: playerName(report.reported.nickname) }))}</strong>
    · ${esc(t(`web.moderation.place.${report.place}`))}</p>
    <p>${esc(reasonLabel(report.reason))} · <time datetime="${esc(report.created_at)}">${esc(formatMoment(report.created_at))}</time></p>
    ${report.note ? `<p class="quoted">${esc(report.note)}</p>` : ""}`;
}

/** An action as one line of a log. */
function actionLine(action) {
  const kind = t(`web.moderation.kind.${action.kind}`);
  const until = action.until ? ` ${t("web.moderation.until", { until: formatMoment(action.until) })}` : "";
  return `<li><span>${esc(t("web.moderation.line", { moderator: playerName(action.moderator.nickname), user: playerName(action.user.nickname), kind }))}${esc(until)}</span>
    <small class="muted">${esc(reasonLabel(action.reason))} · ${esc(formatMoment(action.created_at))}</small>
    ${action.note ? `<small class="quoted">${esc(action.note)}</small>` : ""}</li>`;
}

/** The reported person's standing now. */
function standingMarkup(detail) {
  const lines = [];
  if (detail.muted_until) lines.push(t("web.moderation.standing.muted", { until: formatMoment(detail.muted_until) }));
  if (detail.banned) {
    lines.push(detail.banned_until ? t("web.moderation.standing.banned", { until: formatMoment(detail.banned_until) }) : t("web.moderation.standing.banned_for_good"));
  }
  return lines.map((line) => `<p class="badge away">${esc(line)}</p>`).join("");
}

/** The game of a report: its state and where to read it, as a spectator reads it. */
function tableMarkup(table) {
  if (table === null) return "";
  const state = t(`web.moderation.game.${table.status}`);
  const link =
    table.status === "over"
      ? `<a class="button small" href="/?replay=${encodeURIComponent(table.id)}" target="_blank" rel="noopener">${esc(t("web.moderation.game.replay"))}</a>`
      : table.status === "playing"
        ? `<a class="button small" href="/?table=${encodeURIComponent(table.id)}" target="_blank" rel="noopener">${esc(t("web.moderation.game.watch"))}</a>`
        : "";
  const names = table.names.filter((name) => name !== null).map((name) => esc(playerName(name))).join(", ");
  return `<h3>${esc(t("web.moderation.game"))}</h3><p>${esc(state)}</p><p class="muted">${names}</p>${link}`;
}

/** The chat around the reported line, the reported line marked. */
function chatMarkup(detail) {
  if (detail.report.place === "profile") return "";
  const lines = detail.chat
    .map((line) => `<li class="chat-line${line.seq === detail.report.chat_seq ? " reported" : ""}"><span class="who">${esc(playerName(line.name))}</span> <span class="said">${esc(messageText(line))}</span></li>`)
    .join("");
  return `<h3>${esc(t("web.moderation.chat"))}</h3>${lines ? `<ol class="chat-log">${lines}</ol>` : `<p class="muted">${esc(t("web.moderation.chat.empty"))}</p>`}`;
}

/** The form that acts on the reported person: kind, length, reason, note. */
function actionForm(detail) {
  const kinds = KINDS.map((kind) => `<option value="${kind}">${esc(t(`web.moderation.kind.${kind}`))}</option>`).join("");
  const reasons = REASONS.map((reason) => `<option value="${reason}" ${reason === detail.report.reason ? "selected" : ""}>${esc(reasonLabel(reason))}</option>`).join("");
  return `<form class="action-form">
    <label>${esc(t("web.moderation.kind"))} <select name="kind">${kinds}</select></label>
    <label class="duration" hidden>${esc(t("web.moderation.duration"))} <select name="minutes"></select></label>
    <label>${esc(t("web.report.why"))} <select name="reason">${reasons}</select></label>
    <label>${esc(t("web.moderation.note"))} <textarea name="note" maxlength="${MAX_NOTE}" rows="2"></textarea></label>
    <p class="form-error" role="alert"></p>
    <div class="actions-row"><button type="submit" class="primary">${esc(t("web.moderation.apply"))}</button>
      <button type="button" data-do="dismiss">${esc(t("web.moderation.dismiss"))}</button></div></form>`;
}

/** Shows the length choice for the kinds that have one. */
function showDurations(form) {
  const choices = DURATIONS[form.kind.value];
  form.querySelector(".duration").hidden = !choices;
  form.minutes.innerHTML = (choices ?? [])
    .map((minutes) => `<option value="${minutes ?? ""}">${esc(t(`web.moderation.duration.${minutes ?? "forever"}`))}</option>`)
    .join("");
}

/** The moderators' screen: the reports (open or resolved), one opened with its context
 * and the actions, and the log. */
export function showModeration(view) {
  const s = { tab: "open", reports: null, log: null, detail: null, error: null, stopped: false };

  async function load() {
    try {
      if (s.tab === "log") s.log = (await get("/moderation/actions")).actions;
      else s.reports = (await get(`/moderation/reports?status=${s.tab}`)).reports;
      s.error = null;
    } catch (error) {
      s.error = error;
    }
    if (!s.stopped) screen.render();
  }

  async function open(reportId) {
    try {
      s.detail = await get(`/moderation/reports/${encodeURIComponent(reportId)}`);
    } catch (error) {
      toast(error.message, "error");
    }
    if (!s.stopped) screen.render();
  }

  async function act(form) {
    const detail = s.detail;
    const minutes = form.kind.value in DURATIONS && form.minutes.value ? Number(form.minutes.value) : null;
    const body = { user_id: detail.report.reported.id, kind: form.kind.value, minutes, reason: form.reason.value, note: form.note.value.trim() || null };
    if (detail.report.status === "open") body.report_id = detail.report.id;
    try {
      await post("/moderation/actions", body);
      toast(t("web.moderation.done", { kind: t(`web.moderation.kind.${body.kind}`) }));
      s.detail = null;
      load();
    } catch (error) {
      form.querySelector(".form-error").textContent = error.message;
    }
  }

  async function dismiss() {
    try {
      await post(`/moderation/reports/${encodeURIComponent(s.detail.report.id)}/resolve`);
      toast(t("web.moderation.dismissed"));
      s.detail = null;
      load();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function detailMarkup(detail) {
    const history = detail.actions.length
      ? `<h3>${esc(t("web.moderation.history"))}</h3><ul class="list moderation-log">${detail.actions.map(actionLine).join("")}</ul>`
      : "";
    return `<section class="panel report-detail">
      <button type="button" class="small" data-do="back">${esc(t("web.moderation.open"))}</button>
      ${reportSummary(detail.report)}${standingMarkup(detail)}${chatMarkup(detail)}${tableMarkup(detail.table)}${history}
      ${actionForm(detail)}</section>`;
  }

  function listMarkup() {
    if (s.tab === "log") {
      if (s.log === null) return pendingMarkup(null, false);
      return s.log.length ? `<ul class="list moderation-log">${s.log.map(actionLine).join("")}</ul>` : `<p class="muted">${esc(t("web.moderation.log.empty"))}</p>`;
    }
    if (s.reports === null) return pendingMarkup(null, false);
    if (!s.reports.length) return `<p class="muted">${esc(t("web.moderation.empty"))}</p>`;
    return `<ul class="list reports">${s.reports
      .map((report) => `<li class="report-line">${reportSummary(report)}<button type="button" class="small" data-open="${esc(report.id)}">${esc(t("web.moderation.details"))}</button></li>`)
      .join("")}</ul>`;
  }

  function wire() {
    view.querySelectorAll("[data-tab]").forEach((button) =>
      button.addEventListener("click", () => {
        Object.assign(s, { tab: button.dataset.tab, detail: null });
        load();
        screen.render();
      }),
    );
    view.querySelectorAll("[data-open]").forEach((button) => button.addEventListener("click", () => open(button.dataset.open)));
    view.querySelector("[data-do=back]")?.addEventListener("click", () => {
      s.detail = null;
      screen.render();
    });
    const form = view.querySelector(".action-form");
    if (!form) return;
    showDurations(form);
    form.kind.addEventListener("change", () => showDurations(form));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act(form);
    });
    form.querySelector("[data-do=dismiss]").addEventListener("click", dismiss);
  }

  const screen = {
    render() {
      if (s.error) {
        view.innerHTML = pendingMarkup(s.error, null, true);
        return;
      }
      const tabs = ["open", "resolved", "log"]
        .map((tab) => `<button type="button" class="small" data-tab="${tab}" aria-pressed="${s.tab === tab}">${esc(t(`web.moderation.${tab}`))}</button>`)
        .join("");
      view.innerHTML = `<div class="moderation"><section class="panel"><h1>${esc(t("web.moderation.title"))}</h1>
        <div class="tabs" role="group">${tabs}</div></section>
        ${s.detail ? detailMarkup(s.detail) : `<section class="panel">${listMarkup()}</section>`}</div>`;
      wire();
    },
    stop() {
      s.stopped = true;
    },
  };
  screen.render();
  load();
  return screen;
}
