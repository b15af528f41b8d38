// The expert's review of one seat of a finished game (/?review=ID&seat=N, docs/review.md):
// asking for it, its progress while the server's review processes work (with the mistakes
// found so far, the worst first), then the seat's summary (points lost to bids and to
// play), its main mistakes (a phone's screenful, grouped by round, each with its reason
// in words), the other moves behind «show all», and the rounds; a move opens that moment
// in place: the trick so far, the seat's hand with the move made and the best one marked,
// and the expected points of the choices. Also the hint dialog of a table, with its reason.
import { ApiError, get, post } from "./api.js";
import { cardName, cardSvg, sortHand, suitIcon } from "./cards.js";
import { formatNumber, language, t, tn } from "./i18n.js";
import { kindBadge } from "./sheet.js";
import { esc, openDialog, pendingMarkup, playerName, shortName, toast } from "./ui.js";

/** How often a queued or running review is asked for again: often enough that the bar
 * moves and the first mistakes show within the first second of a running review. */
const POLL_MS = 800;
/** Classes that lost points, the worst first. */
const LOSSES = ["blunder", "mistake", "inaccuracy"];
/** The main mistakes shown first: what a phone's screen holds. */
const TOP = 4;

/** Expected points to a tenth, with their sign. */
const points = (value) => `${value > 0 ? "+" : ""}${formatNumber(Math.round(value * 10) / 10)}`;
/** A card as played ("X:take") without its joker mode ("X"). */
const cardOf = (action) => action.split(":")[0];

/** An action as people read it: a bid, a card with its joker mode, a control round. */
export function actionLabel(action) {
  if (/^\d+$/.test(action)) return t("web.review.bid", { bid: action });
  const [card, mode, suit] = action.split(":");
  if (mode === "take") return `${cardName(card)} · ${t("web.joker.takes")}`;
  if (mode) return `${cardName(card)} · ${t(`web.joker.${mode}.played`, { suit: t(`web.suit.${suit}`) })}`;
  return cardName(card);
}

/** A trick's number as an ordinal in the page's language («6-ю», "6th"): its CLDR
 * ordinal category picks the form (`web.reason.nth_<category>`). */
function nth(number) {
  const category = new Intl.PluralRules(language(), { type: "ordinal" }).select(number);
  return t(`web.reason.nth_${category}`, { count: formatNumber(number) });
}

/** The review's legend: its thresholds written as the page's language writes numbers
 * («1,7», not 1.7000000000000002). */
export function legendText(thresholds) {
  const words = Object.fromEntries(Object.entries(thresholds).map(([name, value]) => [name, formatNumber(value)]));
  return t("web.review.legend", words);
}

/** A reason (`{code, params}` from the server: docs/review.md, "Why") in words; `played`
 * names the move made where the search judged it by an equal card (`params.played`). */
export function reasonText(reason, played = reason?.params.played) {
  if (!reason) return "";
  const p = reason.params;
  const moves = { played: actionLabel(played), best: actionLabel(p.best) };
  const scored = { points: points(p.points ?? 0), best_points: points(p.best_points ?? 0) };
  switch (reason.code) {
    case "bid":
      return tn("web.reason.bid", p.tricks, { played, best: p.best, ...scored });
    case "trick_lost":
    case "trick_taken":
      return t(`web.reason.${reason.code}`, { ...moves, nth: nth(p.trick), share: p.share });
    case "made":
      return t("web.reason.made", { ...moves, made: p.made, best_made: p.best_made });
    case "tricks":
      return tn(p.bid === null ? "web.reason.tricks" : "web.reason.tricks_bid", p.tricks, {
        ...moves,
        bid: p.bid,
        best_tricks: formatNumber(p.best_tricks),
      });
    case "joker": {
      const modes = p.modes.map((mode) => `${actionLabel(mode.move)} ${points(mode.points)}`).join(", ");
      return t("web.reason.joker", { ...moves, ...scored, modes });
    }
    default:
      return t("web.reason.points", { ...moves, ...scored });
  }
}

export function showReview(view, app, gameId, firstSeat) {
  const s = { report: null, record: null, seat: firstSeat, job: null, error: null, moment: null, timer: null };
  const path = () => `/games/${encodeURIComponent(gameId)}/reviews/${s.seat}`;

  async function load() {
    clearTimeout(s.timer);
    try {
      s.job = await get(path());
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) s.error = error;
      s.job = null;
    }
    render();
    if (s.job && ["queued", "running"].includes(s.job.status)) s.timer = setTimeout(load, POLL_MS);
  }

  async function ask() {
    try {
      s.job = await post(path());
      s.error = null;
    } catch (error) {
      // A bound of the queue is worded from its code (the reviews waiting, the bound).
      toast(error.status === 429 ? error.message : t("web.error.server", { detail: error.message }), "error");
      return;
    }
    load();
  }

  function names() {
    return s.report.players.map((name) => playerName(name));
  }

  function render() {
    const pending = pendingMarkup(s.error, s.report, true);
    if (pending) {
      view.innerHTML = pending;
      return;
    }
    const seats = names()
      .map((name, seat) => `<option value="${seat}" ${seat === s.seat ? "selected" : ""}>${esc(name)}</option>`)
      .join("");
    const hints = s.job?.hints?.length
      ? `<p class="badge hints-used">${esc(t("web.review.hints", { names: s.job.hints.map((seat) => names()[seat]).join(", ") }))}</p>`
      : "";
    view.innerHTML = `<section class="panel review" data-status="${esc(s.job?.status ?? "none")}">
      <h2>${esc(t("web.review.title"))}</h2>
      <label class="review-seat">${esc(t("web.review.seat"))} <select class="seat-select">${seats}</select></label>
      ${hints}
      <div class="review-body">${bodyMarkup()}</div>
      <div class="actions-row"><a class="button" data-nav href="/?replay=${esc(gameId)}">${esc(t("web.games.replay"))}</a>
        <a class="button" data-nav href="/">${esc(t("web.back.lobby"))}</a></div></section>`;
    view.querySelector(".seat-select").addEventListener("change", (event) => {
      s.seat = Number(event.target.value);
      s.moment = null;
      history.replaceState(null, "", `/?review=${encodeURIComponent(gameId)}&seat=${s.seat}`);
      load();
    });
    view.querySelector(".ask")?.addEventListener("click", ask);
    for (const button of view.querySelectorAll(".move")) {
      button.addEventListener("click", () => {
        const index = Number(button.dataset.moment);
        s.moment = s.moment === index ? null : index;
        render();
        view.querySelector(".moment")?.scrollIntoView({ block: "nearest" });
      });
    }
  }

  function bodyMarkup() {
    const job = s.job;
    if (job === null) {
      return `<p>${esc(t("web.review.none"))}</p>
        <button class="primary big ask">${esc(t("web.review.ask"))}</button>`;
    }
    if (job.status === "queued") {
      return `<p role="status">${esc(t("web.review.queued", { position: (job.position ?? 0) + 1 }))}</p>`;
    }
    if (job.status === "running") {
      const text = job.total ? t("web.review.progress", { done: job.done, total: job.total }) : t("web.review.starting");
      const found = job.review ? topIndexes(job.review) : [];
      return `<p role="status">${esc(text)}</p>
        <progress max="${job.total || 1}" value="${job.done}" aria-label="${esc(t("web.review.title"))}"></progress>
        ${found.length ? `<h3>${esc(t("web.review.so_far"))}</h3>${groupedMarkup(job.review, found)}` : ""}`;
    }
    if (job.status === "failed") {
      // `job.error` is the server's own account of the failure (for its operators, in
      // English): the person is told it failed, and may ask again.
      return `<p class="error">${esc(t("web.review.failed"))}</p>
        <button class="primary ask">${esc(t("web.review.again"))}</button>`;
    }
    const review = job.review;
    if (!review.moments.length) return `<p>${esc(t("web.review.nothing"))}</p>`;
    return `${summaryMarkup(review)}${movesMarkup(review)}${roundsMarkup(review)}
      <p class="hint">${esc(legendText(review.thresholds))}</p>`;
  }

  function summaryMarkup(review) {
    const row = review.summary[0];
    const figures = [
      ["web.review.col.moves", row.moves],
      ["web.review.col.bid_loss", formatNumber(row.bid_loss)],
      ["web.review.col.play_loss", formatNumber(row.play_loss)],
      ["web.review.col.loss", formatNumber(row.loss)],
      ["web.review.class.inaccuracy", row.inaccuracies],
      ["web.review.class.mistake", row.mistakes],
      ["web.review.class.blunder", row.blunders],
    ];
    return `<dl class="review-summary">${figures
      .map(([key, value]) => `<div><dt>${esc(t(key))}</dt><dd>${esc(value)}</dd></div>`)
      .join("")}</dl>`;
  }

  function moveButton(review, index) {
    const moment = review.moments[index];
    const where = moment.phase === "bid"
      ? t("web.review.where.bid", { round: moment.round })
      : t("web.review.where.trick", { round: moment.round, trick: moment.trick });
    // A move with a reason is shown short (its reason cites the points): a phone's
    // screen then holds the main mistakes.
    const short = Boolean(moment.reason);
    const best = moment.class === "best" || short ? "" : ` · ${esc(t("web.review.best"))} ${esc(actionLabel(moment.best))} (${points(moment.best_points)})`;
    const made = short ? "" : ` (${points(moment.played_points)})`;
    const why = short ? `<span class="review-reason">${esc(reasonText(moment.reason, moment.played))}</span>` : "";
    const open = s.moment === index;
    return `<li><button class="move ${open ? "chosen" : ""}" data-moment="${index}" data-class="${esc(moment.class)}" aria-expanded="${open}">
      <span class="class-badge class-${esc(moment.class)}">${esc(t(`web.review.class.${moment.class}`))}</span>
      <span class="move-text"><span class="muted">${esc(where)}</span> ${esc(actionLabel(moment.played))}${made}${best}
      ${moment.loss > 0 ? ` · <b>${esc(t("web.review.lost", { points: formatNumber(moment.loss) }))}</b>` : ""}${why}</span></button>
      ${open ? momentMarkup(review, moment) : ""}</li>`;
  }

  /** The moves that lost points by their class, the worst first: at most `TOP`. */
  function topIndexes(review) {
    const lost = review.moments.map((_, index) => index).filter((index) => LOSSES.includes(review.moments[index].class));
    return lost.sort((a, b) => review.moments[b].loss - review.moments[a].loss).slice(0, TOP);
  }

  /** `indexes` grouped by round, the round of the worst move first, each in game order. */
  function groupedMarkup(review, indexes) {
    const rounds = [];
    for (const index of indexes) {
      const round = review.moments[index].round;
      if (!rounds.includes(round)) rounds.push(round);
    }
    return rounds
      .map((round) => {
        const mine = indexes.filter((index) => review.moments[index].round === round).sort((a, b) => a - b);
        return `<section class="round-group" data-round="${round}"><h4>${esc(t("web.review.group", { round }))}</h4>
          <ol class="moves">${mine.map((index) => moveButton(review, index)).join("")}</ol></section>`;
      })
      .join("");
  }

  function movesMarkup(review) {
    const top = topIndexes(review);
    const rest = review.moments.map((_, index) => index).filter((index) => !top.includes(index));
    const open = s.moment !== null && rest.includes(s.moment) ? "open" : "";
    return `<h3>${esc(t("web.review.top"))}</h3>
      ${top.length ? `<div class="top-moves">${groupedMarkup(review, top)}</div>` : `<p>${esc(t("web.review.clean"))}</p>`}
      <details class="all-moves" ${open}><summary>${esc(t("web.review.show_all"))}</summary>
        <ol class="moves">${rest.map((index) => moveButton(review, index)).join("")}</ol></details>`;
  }

  function roundsMarkup(review) {
    const rows = review.rounds
      .map((round) => `<tr><th scope="row">${round.round} ${kindBadge(round.kind)}</th><td>${round.points ?? "–"}</td>
        <td>${formatNumber(round.bid_loss)}</td><td>${formatNumber(round.play_loss)}</td></tr>`)
      .join("");
    return `<details class="review-rounds"><summary>${esc(t("web.review.rounds"))}</summary>
      <table class="sheet"><thead><tr><th scope="col">${esc(t("web.sheet.round"))}</th><th scope="col">${esc(t("web.seat.points"))}</th>
      <th scope="col">${esc(t("web.review.col.bid_loss"))}</th><th scope="col">${esc(t("web.review.col.play_loss"))}</th></tr></thead>
      <tbody>${rows}</tbody></table></details>`;
  }

  /** The moment of a move: the trick so far, the seat's hand then, the choices' points. */
  function momentMarkup(review, moment) {
    const round = s.record.rounds[moment.round - 1];
    const scored = s.report.rounds[moment.round - 1];
    const count = s.report.players.length;
    const tricks = round.tricks.slice(0, moment.phase === "bid" ? 0 : moment.trick - 1);
    const played = new Set(tricks.flatMap((trick, k) => trick.filter((_, i) => (scored.tricks[k].leader + i) % count === s.seat).map(cardOf)));
    const hand = sortHand(round.hands[s.seat].filter((card) => !played.has(card)), scored.trump);
    const current = moment.phase === "bid" ? null : scored.tricks[moment.trick - 1];
    const before = current ? current.cards.slice(0, (s.seat - current.leader + count) % count) : [];
    const trick = before.length
      ? `<ol class="trick-cards">${before
          .map((card, i) => `<li class="played"><span class="card face">${cardSvg(card)}</span><span class="who">${shortName(playerName(s.report.players[(current.leader + i) % count], { level: false }))}</span></li>`)
          .join("")}</ol>`
      : `<p class="centre-note">${esc(t(moment.phase === "bid" ? "web.review.bidding" : "web.review.leading"))}</p>`;
    const mark = (card) => {
      if (moment.phase === "bid") return "";
      if (card === cardOf(moment.played)) return "played-move";
      return card === cardOf(moment.best) ? "best-move" : "";
    };
    const cards = hand
      .map((card) => `<span class="card face ${mark(card)}" title="${esc(cardName(card))}">${cardSvg(card)}</span>`)
      .join("");
    const choices = moment.choices
      .slice(0, 6)
      .map((choice) => `<tr class="${choice.action === moment.played ? "played-move" : ""}"><th scope="row">${esc(actionLabel(choice.action))}</th>
        <td>${points(choice.points)}</td></tr>`)
      .join("");
    return `<div class="moment" data-moment="${s.moment}">
      <div class="round-bar"><div class="round-info"><strong>${esc(t("web.round.number", { round: moment.round }))}</strong>${kindBadge(moment.kind)}</div>
        <span class="trump-info">${esc(t("web.trump.label"))} ${scored.trump ? suitIcon(scored.trump, "1.4em") : esc(t("web.trump.none"))}</span></div>
      <div class="centre">${trick}</div>
      <div class="hand review-hand" aria-label="${esc(t("web.hand.label"))}">${cards}</div>
      <p class="hint">${esc(t("web.review.marks"))}</p>
      <table class="sheet choices-table"><thead><tr><th scope="col">${esc(t("web.review.col.move"))}</th>
        <th scope="col">${esc(t("web.review.col.expected"))}</th></tr></thead>
        <tbody>${choices}</tbody></table></div>`;
  }

  Promise.all([get(`/games/${encodeURIComponent(gameId)}/score`), get(`/games/${encodeURIComponent(gameId)}/record`)])
    .then(([report, record]) => {
      Object.assign(s, { report, record });
      if (!(s.seat >= 0 && s.seat < report.players.length)) s.seat = 0;
      load();
    })
    .catch((error) => {
      s.error = error;
      render();
    });
  render();
  return { render, stop: () => clearTimeout(s.timer) };
}

/** The expert's hint for the caller's seat at table `tableId`: the suggested bid or card
 * and the expected points of the top choices; `play(action)` makes the suggested move. */
export async function showHint(tableId, play) {
  let hint;
  try {
    hint = await post(`/tables/${encodeURIComponent(tableId)}/hint`);
  } catch (error) {
    if (error.status !== 429) toast(t("web.error.server", { detail: error.message }), "error");
    return;
  }
  const rows = hint.choices
    .map((choice) => `<tr><th scope="row">${esc(actionLabel(choice.action))}</th><td>${points(choice.points)}</td></tr>`)
    .join("");
  const body = openDialog(
    t("web.hint.title"),
    `<p class="hint-suggested" data-action="${esc(hint.suggested)}">${esc(t("web.hint.suggested", { move: actionLabel(hint.suggested) }))}</p>
    ${hint.reason ? `<p class="hint-reason">${esc(t("web.hint.why", { reason: reasonText(hint.reason) }))}</p>` : ""}
    ${rows ? `<table class="sheet choices-table"><thead><tr><th scope="col">${esc(t("web.review.col.move"))}</th><th scope="col">${esc(t("web.review.col.expected"))}</th></tr></thead><tbody>${rows}</tbody></table>` : ""}
    <p class="hint">${esc(t("web.hint.note"))}</p>
    <button class="primary play-hint">${esc(t("web.hint.play"))}</button>`,
  );
  body.querySelector(".play-hint").addEventListener("click", () => play(hint.suggested));
}
