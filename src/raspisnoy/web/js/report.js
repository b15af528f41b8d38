// Reporting a player (docs/moderation.md): the flag button that a chat line, a seat at a
// table and a profile show beside another person, and the dialog it opens (a reason of a
// fixed list and an optional note), sent to POST /api/reports. Guests are told by the
// server's refusal why they cannot report.
import { post } from "./api.js";
import { t, tMaybe } from "./i18n.js";
import { closeDialog, esc, openDialog, playerName, toast } from "./ui.js";

/** The reasons a report or an action names (raspisnoy.server.wire.requests.Reason). */
export const REASONS = ["abuse", "spam", "cheating", "name", "other"];
/** The flag drawn on report buttons (emoji fonts are not everywhere). */
export const FLAG =
  '<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 21V4"/><path d="M6 4h11l-2 4 2 4H6"/></svg>';

/** A reason in the page's language. */
export const reasonLabel = (reason) => tMaybe(`web.reason.${reason}.label`) ?? reason;

/** The longest note (raspisnoy.server.wire.requests.MAX_NOTE). */
export const MAX_NOTE = 500;

/** The button that reports the person `name`; `data` (its data-* attributes: user, place,
 * table, seq, text) says whom and where; `worded` shows the word beside the flag. */
export function reportButton(name, data, { worded = false } = {}) {
  const attributes = Object.entries(data)
    .map(([key, value]) => `data-${key}="${esc(value)}"`)
    .join(" ");
  const label = esc(t("web.report.on", { name: playerName(name) }));
  if (worded) return `<button type="button" class="small report" ${attributes} data-name="${esc(name)}" title="${label}">${FLAG} ${esc(t("web.report.button"))}</button>`;
  return `<button type="button" class="icon report" ${attributes} data-name="${esc(name)}" title="${label}" aria-label="${label}">${FLAG}</button>`;
}

/** Opens the report dialog for the report `button` (made by reportButton). */
export function reportFrom(button) {
  const { user, name, place, table, seq, text } = button.dataset;
  reportDialog({ userId: user, name, place, tableId: table ?? null, seq: seq ? Number(seq) : null, text: text ?? null });
}

/** The dialog that reports a player: the reason, a note, and the server's answer. */
export function reportDialog({ userId, name, place, tableId = null, seq = null, text = null }) {
  const options = REASONS.map((reason, i) => `<label class="reason-choice"><input type="radio" name="reason" value="${reason}" ${i === 0 ? "checked" : ""}> ${esc(reasonLabel(reason))}</label>`).join("");
  const body = openDialog(
    t("web.report.on", { name: playerName(name) }),
    `<form class="report-form">
      ${text ? `<p class="quoted">${esc(t("web.report.line", { text }))}</p>` : ""}
      <fieldset><legend>${esc(t("web.report.why"))}</legend>${options}</fieldset>
      <label for="report-note">${esc(t("web.report.note"))}</label>
      <textarea id="report-note" name="note" maxlength="${MAX_NOTE}" rows="3"></textarea>
      <p class="form-error" role="alert"></p>
      <button type="submit" class="primary">${esc(t("web.report.send"))}</button></form>`,
  );
  const form = body.querySelector("form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const request = { user_id: userId, place, reason: form.reason.value, note: form.note.value.trim() || null };
    if (place !== "profile") request.table_id = tableId;
    if (place === "chat") request.chat_seq = seq;
    try {
      await post("/reports", request);
      closeDialog();
      toast(t("web.report.sent"));
    } catch (error) {
      form.querySelector(".form-error").textContent = t("web.report.failed", { detail: error.message });
    }
  });
}
