// «Ещё партию» on the results screen (docs/PROTOCOL.md, "Rematch"): each person accepts
// or declines; the box shows everyone's answer and the time left, and once the new game
// starts the page of someone who accepted goes straight to its table (pushed over the
// table's socket: nobody copies a link). Spectators and those who declined get a link
// to watch it.
import { t } from "./i18n.js";
import { esc } from "./ui.js";

const ANSWERS = { accepted: "✓", declined: "✕", waiting: "…", bot: "🤖" };

/** The rematch of the table on `connection`; `context()` gives {seat, names, navigate}. */
export function rematchBox(connection, context) {
  let state = null; // the last `rematch` message, or null before anyone answered
  let box = null;
  const clock = setInterval(() => box && state?.status === "open" && draw(), 1000);

  function draw() {
    if (!box?.isConnected) return;
    const { seat, names } = context();
    const mine = seat === null || state === null ? null : state.seats[seat].answer;
    const status = state?.status ?? "none";
    const lines = (state?.seats ?? [])
      .map((line) => `<li class="answer ${line.answer}" data-seat="${line.seat}"><span aria-hidden="true">${ANSWERS[line.answer]}</span>
        ${esc(names[line.seat])} <span class="muted">${esc(t(`web.rematch.answer.${line.answer}`))}</span></li>`)
      .join("");
    const left = state?.deadline_ms ? Math.max(0, Math.ceil((state.deadline_ms - Date.now()) / 1000)) : null;
    const asking = seat !== null && (status === "none" || (status === "open" && mine === "waiting"));
    const buttons = asking
      ? `<div class="actions-row"><button class="primary big accept">${esc(t("web.rematch.accept"))}</button>
          <button class="decline">${esc(t("web.rematch.decline"))}</button></div>`
      : "";
    const notes = {
      none: seat === null ? t("web.rematch.none") : t("web.rematch.offer"),
      open: asking
        ? t("web.rematch.open", { seconds: left })
        : t(mine === "declined" ? "web.rematch.declined" : "web.rematch.waiting", { seconds: left }),
      started: t("web.rematch.started"),
      cancelled: t("web.rematch.cancelled"),
    };
    const watch = status === "started" ? `<a class="button" data-nav href="/?table=${esc(state.table)}">${esc(t("web.rematch.watch"))}</a>` : "";
    box.innerHTML = `<h3>${esc(t("web.rematch.title"))}</h3><p class="note" role="status">${esc(notes[status])}</p>
      ${lines ? `<ul class="rematch-answers">${lines}</ul>` : ""}${buttons}${watch}`;
    box.dataset.status = status;
    box.querySelector(".accept")?.addEventListener("click", () => connection.send({ type: "rematch", accept: true }));
    box.querySelector(".decline")?.addEventListener("click", () => connection.send({ type: "rematch", accept: false }));
  }

  return {
    /** Draws the box into `element` (the results screen's rematch box). */
    render(element) {
      box = element;
      draw();
    },
    /** A `rematch` message: those who accepted go to the new table at once. */
    receive(message) {
      state = message;
      const { seat, navigate } = context();
      if (message.status === "started" && seat !== null && message.seats[seat].answer === "accepted") {
        navigate(`/?table=${encodeURIComponent(message.table)}`);
        return;
      }
      draw();
    },
    stop: () => clearInterval(clock),
  };
}
