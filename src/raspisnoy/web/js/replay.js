// The replay viewer of a game: round by round, first the bids, then each trick, with
// everyone's bids, tricks so far and the round's points; the score sheet below. It reads
// the score report (GET /api/games/{id}/score), which holds every bid and trick.
import { get } from "./api.js";
import { chatLine, mutedPeople } from "./chat.js";
import { cardSvg, suitIcon } from "./cards.js";
import { t, tn } from "./i18n.js";
import { chartMarkup, kindBadge, sheetMarkup } from "./sheet.js";
import { esc, pendingMarkup, playerName, seatStats, shortName, signedPoints } from "./ui.js";

export function showReplay(view, gameId) {
  const s = { report: null, round: 0, step: 0, error: null, chat: [] };

  /** Steps of a round: 0 shows the bids, k shows trick k. */
  const stepsOf = (round) => round.tricks.length;

  function move(delta) {
    const rounds = s.report.rounds;
    let { round, step } = s;
    step += delta;
    if (step < 0) {
      if (round === 0) return;
      round -= 1;
      step = stepsOf(rounds[round]);
    } else if (step > stepsOf(rounds[round])) {
      if (round === rounds.length - 1) return;
      round += 1;
      step = 0;
    }
    Object.assign(s, { round, step });
    render();
  }

  function jump(round) {
    Object.assign(s, { round: Math.max(0, Math.min(round, s.report.rounds.length - 1)), step: 0 });
    render();
  }

  function render() {
    const pending = pendingMarkup(s.error, s.report, true);
    if (pending) {
      view.innerHTML = pending;
      return;
    }
    const report = s.report;
    const players = report.players.map((name) => playerName(name));
    const short = report.players.map((name) => playerName(name, { level: false }));
    const round = report.rounds[s.round];
    const count = report.players.length;
    const shown = round.tricks.slice(0, s.step);
    const takenSoFar = players.map((_, seat) => shown.filter((trick) => trick.winner === seat).length);
    const roundOver = s.step === round.tricks.length;
    const rows = players
      .map((name, seat) => {
        const dealer = round.dealer === seat ? `<span class="badge dealer">${esc(t("web.seat.dealer.short"))}</span>` : "";
        const stats = seatStats([
          [t("web.seat.bid"), round.bids ? round.bids[seat] : null],
          [t("web.seat.taken"), takenSoFar[seat]],
          [t("web.seat.points"), roundOver && round.points ? signedPoints(round.points[seat]) : null],
        ]);
        return `<li class="seat-chip"><div class="seat-name"><span class="name short-name" title="${esc(name)}">${esc(name)}</span>${dealer}</div>${stats}</li>`;
      })
      .join("");
    const trick = shown.at(-1);
    const centre = trick
      ? `<ol class="trick-cards">${trick.cards
          .map((card, i) => {
            const seat = (trick.leader + i) % count;
            return `<li class="played ${trick.winner === seat ? "won" : ""}"><span class="card face">${cardSvg(card)}</span><span class="who">${shortName(short[seat])}</span></li>`;
          })
          .join("")}</ol><p class="centre-note">${esc(t("web.replay.trick", { trick: s.step, tricks: round.tricks.length, name: players[trick.winner] }))}</p>`
      : `<p class="centre-note">${esc(t(round.bids ? "web.replay.bids" : "web.replay.nobids"))}</p>`;
    const options = report.rounds
      .map((r, i) => `<option value="${i}" ${i === s.round ? "selected" : ""}>${esc(t("web.round.number", { round: r.round }))} · ${esc(tn("web.round.cards", r.cards))}</option>`)
      .join("");
    view.innerHTML = `<section class="panel replay">
      <h2>${esc(t("web.replay.title"))}</h2>
      <div class="round-bar"><div class="round-info"><select class="round-select" aria-label="${esc(t("web.sheet.round"))}">${options}</select>
        ${kindBadge(round.kind)}</div><span class="trump-info">${esc(t("web.trump.label"))} ${round.trump ? suitIcon(round.trump, "1.4em") : esc(t("web.trump.none"))}</span></div>
      <ol class="seats">${rows}</ol>
      <div class="centre">${centre}</div>
      <div class="replay-controls">
        <button class="prev" aria-label="${esc(t("web.replay.prev"))}">◀ ${esc(t("web.replay.prev"))}</button>
        <button class="next primary" aria-label="${esc(t("web.replay.next"))}">${esc(t("web.replay.next"))} ▶</button></div>
      <p class="keys-hint">${esc(t("web.replay.keys"))}</p>
      ${chatMarkup(round.round)}
      <details><summary>${esc(t("web.sheet.title"))}</summary>${chartMarkup(report)}${sheetMarkup(report)}</details>
      <div class="actions-row"><a class="button review-link" data-nav href="/?review=${esc(gameId)}&seat=0">${esc(t("web.review.open"))}</a>
        <a class="button" data-nav href="/">${esc(t("web.back.lobby"))}</a></div></section>`;
    view.querySelector(".prev").addEventListener("click", () => move(-1));
    view.querySelector(".next").addEventListener("click", () => move(1));
    view.querySelector(".round-select").addEventListener("change", (event) => jump(Number(event.target.value)));
  }

  /** The chat as it stood at this step: what was written before this round, and in it
   * up to the tricks shown (the chat comes only to those who may read it; muted people
   * stay muted here too). */
  function chatMarkup(number) {
    const muted = mutedPeople();
    const said = s.chat.filter((m) => !(m.user_id in muted) && (m.round < number || (m.round === number && m.trick <= s.step)));
    if (!said.length) return "";
    return `<section class="replay-chat"><h3>${esc(t("web.chat.title"))}</h3><ol class="chat-log">${said.slice(-8).map((m) => chatLine(m)).join("")}</ol></section>`;
  }

  function onKey(event) {
    if (!s.report || event.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: [move, -1], ArrowRight: [move, 1], PageUp: [jump, s.round - 1], PageDown: [jump, s.round + 1] };
    const found = moves[event.key];
    if (!found) return;
    event.preventDefault();
    found[0](found[1]);
  }
  document.addEventListener("keydown", onKey);

  get(`/games/${encodeURIComponent(gameId)}/chat`)
    .then((answer) => {
      s.chat = answer.messages;
      if (s.report) render();
    })
    .catch(() => {}); // only the players (or anyone, if the host allowed it) read a table's chat
  get(`/games/${encodeURIComponent(gameId)}/score`)
    .then((report) => {
      s.report = report;
      if (!report.rounds.length) s.error = t("web.replay.empty");
      render();
    })
    .catch((error) => {
      s.error = error;
      render();
    });
  render();
  return { render, stop: () => document.removeEventListener("keydown", onKey) };
}
