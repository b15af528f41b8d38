// Card art, drawn here in SVG: suit shapes, card faces, backs and the joker. Cards use
// the notation of docs/record.md ("TD", "AS", "X", "X1"; joker plays "X:take", ...).
import { t } from "./i18n.js";

export const SUITS = ["S", "C", "D", "H"];
const RED = new Set(["D", "H"]);
const RANK_ORDER = "23456789TJQKA";

/** Each suit's shape in a 100×100 box. */
const SUIT_SHAPES = {
  H: '<path d="M50 90C22 68 4 50 4 30 4 15 15 5 28 5c10 0 18 6 22 15 4-9 12-15 22-15 13 0 24 10 24 25 0 20-18 38-46 60z"/>',
  D: '<path d="M50 3 88 50 50 97 12 50z"/>',
  S: '<path d="M50 4C64 26 96 40 96 63c0 13-10 22-22 22-9 0-16-4-20-11 1 10 6 17 14 22H32c8-5 13-12 14-22-4 7-11 11-20 11C14 85 4 76 4 63 4 40 36 26 50 4z"/>',
  C: '<circle cx="50" cy="28" r="21"/><circle cx="27" cy="60" r="21"/><circle cx="73" cy="60" r="21"/><path d="M45 55h10c0 18 4 31 14 41H31c10-10 14-23 14-41z"/>',
};
const STAR =
  '<path d="M50 6l12 30 32 2-25 20 9 32-28-18-28 18 9-32L6 38l32-2z"/>';

/** "KD" → {rank: "K", suit: "D"}; jokers ("X", "X1", "X:take") → {joker: "X1"...}. */
export function parseCard(code) {
  const card = code.split(":")[0];
  if (card.startsWith("X")) return { joker: card, code: card };
  return { rank: card.slice(0, -1), suit: card.slice(-1), code: card };
}

export function isRed(suit) {
  return RED.has(suit);
}

/** The rank as players of the chosen language write it (В Д К Т in Russian). */
export function rankLabel(rank) {
  if (rank === "T") return "10";
  return /[0-9]/.test(rank) ? rank : t(`web.rank.${rank}`);
}

/** A suit symbol as a small inline SVG (for text, buttons and headers). */
export function suitIcon(suit, size = "1em") {
  return `<svg class="suit-icon ${isRed(suit) ? "red" : "black"}" viewBox="0 0 100 100" width="${size}" height="${size}" role="img" aria-label="${t(`web.suit.${suit}`)}">${SUIT_SHAPES[suit]}</svg>`;
}

/** The card's name for screen readers and tooltips ("queen of hearts"). */
export function cardName(code) {
  const card = parseCard(code);
  if (card.joker) return t("web.joker.name");
  return t("web.card.name", { rank: t(`web.rankname.${card.rank}`), suit: t(`web.suitof.${card.suit}`) });
}

/** A whole card face (or its back) as SVG markup, 5:7. */
export function cardSvg(code, { back = false } = {}) {
  if (back || code === null) {
    return `<svg class="card-art back" viewBox="0 0 50 70" aria-hidden="true">
      <rect x="1" y="1" width="48" height="68" rx="5" class="edge"/>
      <rect x="5" y="5" width="40" height="60" rx="3" class="back-field"/>
      <g transform="translate(15 25) scale(.2)" class="back-mark">${SUIT_SHAPES.D}</g></svg>`;
  }
  const card = parseCard(code);
  if (card.joker) {
    const mark = card.joker.length > 1 ? card.joker.slice(1) : "";
    return `<svg class="card-art joker" viewBox="0 0 50 70" role="img" aria-label="${cardName(code)}">
      <rect x="1" y="1" width="48" height="68" rx="5" class="edge"/>
      <text x="5" y="14" class="corner">★${mark}</text>
      <g transform="translate(9 18) scale(.32)" class="joker-star">${STAR}</g>
      <text x="25" y="62" class="joker-label" text-anchor="middle">${t("web.joker.short")}</text></svg>`;
  }
  const colour = isRed(card.suit) ? "red" : "black";
  const rank = rankLabel(card.rank);
  return `<svg class="card-art ${colour}" viewBox="0 0 50 70" role="img" aria-label="${cardName(code)}">
    <rect x="1" y="1" width="48" height="68" rx="5" class="edge"/>
    <text x="4" y="15" class="corner">${rank}</text>
    <g transform="translate(4 18) scale(.1)">${SUIT_SHAPES[card.suit]}</g>
    <g transform="translate(14 28) scale(.3)">${SUIT_SHAPES[card.suit]}</g>
    <text x="46" y="64" class="corner" text-anchor="end">${rank}</text></svg>`;
}

/** The hand sorted for reading: jokers, then trumps, then the other suits (♠ ♦ ♣ ♥, so
 * colours alternate), high cards first within a suit. */
export function sortHand(hand, trump) {
  const suitOrder = ["S", "D", "C", "H"];
  const key = (code) => {
    const card = parseCard(code);
    if (card.joker) return [-2, card.joker === "X2" ? 1 : 0];
    const group = card.suit === trump ? -1 : suitOrder.indexOf(card.suit);
    return [group, -RANK_ORDER.indexOf(card.rank)];
  };
  return [...hand].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}
