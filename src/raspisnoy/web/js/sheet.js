// The score sheet («расписная»: rounds as rows, players as columns with bid, taken and
// points, running totals) and the SVG chart of the totals round by round. Both read the
// `raspisnoy replay --json` report that GET /api/games/{id}/score returns.
import { formatNumber, t, tn } from "./i18n.js";
import { suitIcon } from "./cards.js";
import { esc, playerName, shortName, signedPoints } from "./ui.js";

/** One colour per seat, for the chart and the legend. */
export const SEAT_COLOURS = ["#d1495b", "#00798c", "#edae49", "#66a182", "#8d5fd3", "#2e4057", "#f08a4b", "#3a86ff", "#b5838d", "#6d6875"];

/** Running totals after every round that has points: one array per round. */
function runningTotals(report) {
  const totals = report.players.map(() => 0);
  return report.rounds.map((round) => {
    if (round.points) round.points.forEach((points, seat) => (totals[seat] += points));
    return [...totals];
  });
}

/** The round's kind as a short mark with its full name as a tooltip. */
export function kindBadge(kind) {
  if (kind === "normal") return "";
  return `<span class="kind kind-${esc(kind)}" title="${esc(t(`web.kind.${kind}`))}">${esc(t(`web.kind.${kind}`))}</span>`;
}

/** The sheet as a table; `names` are the players' names in seat order; `rowAction(round)`
 * may add markup (a button) to each round's heading. Bids and tricks not entered yet
 * show as "–". */
export function sheetMarkup(report, names = report.players.map(playerName), { rowAction = null } = {}) {
  const running = runningTotals(report);
  const head = names
    .map((name, seat) => `<th scope="col"><span class="dot" style="background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}"></span>${shortName(name)}</th>`)
    .join("");
  const rows = report.rounds
    .map((round, index) => {
      const cells = names
        .map((_, seat) => {
          const bid = round.bids ? (round.bids[seat] ?? "–") : null;
          const taken = round.taken[seat] ?? "–";
          const points = round.points ? round.points[seat] : null;
          const dealer = round.dealer === seat ? `<span class="dealer-mark" title="${esc(t("web.seat.dealer"))}">${esc(t("web.seat.dealer.short"))}</span>` : "";
          const tricks = `<span class="bt">${bid === null ? "" : `${bid}/`}${taken}</span>`;
          const result = points === null ? "" : `<span class="pts">${signedPoints(points)}</span><span class="total">${formatNumber(running[index][seat])}</span>`;
          return `<td><span class="cell">${dealer}${tricks}${result}</span></td>`;
        })
        .join("");
      const trump = round.trump ? suitIcon(round.trump) : "";
      const action = rowAction ? rowAction(round) : "";
      return `<tr data-round="${round.round}"><th scope="row"><span class="cell"><span class="round-no">${round.round}</span><span class="cards-no">${esc(t("web.sheet.cards", { cards: round.cards }))}</span>${trump}${kindBadge(round.kind)}${action}</span></th>${cells}</tr>`;
    })
    .join("");
  const foot = names.map((_, seat) => `<td><strong data-sheet-total="${seat}">${formatNumber(report.totals[seat])}</strong></td>`).join("");
  // Five players and more: their names stand upright in the header on a phone.
  // A sheet of many players may scroll sideways: its box can be focused and scrolled by keys.
  // --players sizes the names' columns (style.css), which cut a long name with an ellipsis
  return `<div class="sheet-scroll" tabindex="0" role="region" aria-label="${esc(t("web.sheet.title"))}"><table class="sheet ${names.length >= 5 ? "many" : ""}" style="--players: ${names.length}">
    <caption>${esc(t("web.sheet.legend"))}</caption>
    <thead><tr><th scope="col">${esc(t("web.sheet.round"))}</th>${head}</tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">${esc(t("web.sheet.total"))}</th>${foot}</tr></tfoot></table></div>`;
}

/** The winners and the final places: `names` and `totals` by seat, `winners` their seats. */
export function standingsMarkup(names, totals, winners) {
  const best = winners.map((seat) => names[seat]);
  const places = names
    .map((name, seat) => ({ name, seat, total: totals[seat] }))
    .sort((a, b) => b.total - a.total)
    .map((row) => `<li class="${winners.includes(row.seat) ? "winner" : ""}"><span>${esc(row.name)}</span><b data-total-seat="${row.seat}">${formatNumber(row.total)}</b></li>`)
    .join("");
  return `<p class="winners">${esc(t(best.length > 1 ? "web.results.winners" : "web.results.winner", { names: best.join(", ") }))}</p>
      <ol class="final">${places}</ol>`;
}

/** An SVG line chart of everyone's running total after each round. */
export function chartMarkup(report, names = report.players.map(playerName)) {
  const running = runningTotals(report).filter((_, index) => report.rounds[index].points);
  const series = names.map((_, seat) => [0, ...running.map((totals) => totals[seat])]);
  const all = series.flat();
  const low = Math.min(0, ...all);
  const high = Math.max(10, ...all);
  // The left margin fits the longest axis label, so a minus sign is never cut off.
  const labels = [high, 0, low].map(formatNumber);
  const [width, height] = [320, 180];
  const pad = 10 + 6.5 * Math.max(...labels.map((label) => label.length));
  const bottom = 28;
  const steps = Math.max(1, running.length);
  const x = (i) => pad + ((width - pad - 8) * i) / steps;
  const y = (value) => 8 + ((height - 8 - bottom) * (high - value)) / (high - low || 1);
  const lines = series
    .map((points, seat) => {
      const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      const path = points.map((value, i) => `${x(i).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
      return `<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2.5" stroke-linejoin="round"><title>${esc(names[seat])}</title></polyline>`;
    })
    .join("");
  const legend = names
    .map((name, seat) => `<li><span class="dot" style="background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}"></span>${esc(name)}: <strong data-chart-total="${seat}">${formatNumber(report.totals[seat])}</strong></li>`)
    .join("");
  return `<figure class="chart">
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(t("web.chart.title"))}">
      <line x1="${pad}" x2="${width - 8}" y1="${y(0)}" y2="${y(0)}" class="axis"/>
      <text x="${pad - 4}" y="${y(high) + 4}" text-anchor="end" class="tick">${labels[0]}</text>
      <text x="${pad - 4}" y="${y(0) + 4}" text-anchor="end" class="tick">${labels[1]}</text>
      ${low < 0 ? `<text x="${pad - 4}" y="${y(low) + 4}" text-anchor="end" class="tick" data-low="${low}">${labels[2]}</text>` : ""}
      <text x="${width - 8}" y="${height - 6}" text-anchor="end" class="tick">${esc(tn("web.chart.rounds", running.length))}</text>
      ${lines}
    </svg>
    <figcaption><ul class="legend">${legend}</ul></figcaption></figure>`;
}
