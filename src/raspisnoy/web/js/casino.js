// Casino Russian poker (/casino): one player against the dealer with play money
// (docs/casino.md, "The page"). The server deals and settles; this screen only sends
// decisions (POST /api/casino/…) and draws the hand it gets back. Before the deal it
// shows the commitment (SHA-256) of the next shuffle; once the hand is settled it checks
// that the revealed seed hashes to it, and the history lists every hand with its record
// and the command line that replays it.
import { get, post } from "./api.js";
import { cardName, cardSvg, parseCard, rankLabel, suitIcon } from "./cards.js";
import { formatDecimal, formatNumber, t } from "./i18n.js";
import { esc, openDialog, pendingMarkup, signedPoints, toast } from "./ui.js";

const CHIPS = [1, 5, 10, 25, 100];
const SPOTS = 6;
const MAX_BOXES = 3;
const SHOWN_KEY = "raspisnoy.casino.shown";
const TABLE_KEY = "raspisnoy.casino.table";

/** The SHA-256 of `text` as hex, or null where the browser offers no digest (a page
 * served over plain http from another host than localhost). */
async function sha256(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** "ok" when the seed hashes to the commitment (and to the one shown before the deal,
 * if this browser saw it), "bad" when not, "na" when the browser cannot hash. */
async function checkSeed(seed, commitment, shownBefore) {
  const hash = await sha256(seed);
  if (hash === null) return "na";
  return hash === commitment && (!shownBefore || shownBefore === commitment) ? "ok" : "bad";
}

/** The commitments this browser showed before each hand's deal, by hand id. */
function shownCommitments() {
  try {
    return JSON.parse(localStorage.getItem(SHOWN_KEY) || "{}");
  } catch {
    return {};
  }
}

/** The chip and the spots taken last time (kept over a reload and between visits). */
function savedTable() {
  try {
    const saved = JSON.parse(localStorage.getItem(TABLE_KEY) || "{}");
    const spots = (saved.spots || []).filter(([spot, ante]) => spot >= 1 && spot <= SPOTS && CHIPS.includes(ante));
    return { chip: CHIPS.includes(saved.chip) ? saved.chip : 10, spots: new Map(spots.slice(0, MAX_BOXES)) };
  } catch {
    return { chip: 10, spots: new Map() };
  }
}

function saveTable(chip, spots) {
  localStorage.setItem(TABLE_KEY, JSON.stringify({ chip, spots: [...spots.entries()] }));
}

function rememberShown(handId, commitment) {
  const shown = shownCommitments();
  shown[handId] = commitment;
  const kept = Object.fromEntries(Object.entries(shown).slice(-200));
  localStorage.setItem(SHOWN_KEY, JSON.stringify(kept));
}

const combination = (name) => t(`web.casino.combination.${name}`);
const cards = (codes, extra = () => "") =>
  codes.map((code) => `<span class="card" data-card="${esc(code)}" ${extra(code)}>${cardSvg(code)}</span>`).join("");
const backs = (count) => Array.from({ length: count }, () => `<span class="card back">${cardSvg(null, { back: true })}</span>`).join("");
const pretty = (code) => cardName(code);

/** A card in a line of text, as markup: its rank in the page's language and its suit. */
function shortCard(code) {
  const card = parseCard(code);
  return `<span class="short-card" title="${esc(pretty(code))}">${esc(rankLabel(card.rank))}${suitIcon(card.suit)}</span>`;
}

/** The message `key` as markup, its `{name}` placeholders filled with the markup in
 * `parts` (card symbols), the rest of its text escaped. */
function tMarkup(key, parts) {
  const kept = Object.fromEntries(Object.keys(parts).map((name) => [name, `{${name}}`]));
  return Object.entries(parts).reduce((text, [name, markup]) => text.replace(`{${name}}`, markup), esc(t(key, kept)));
}

/** What a box's hint option is called, as markup: "change 8C 9S" → "change 8♣ 9♠". */
function optionLabel(option) {
  const [word, ...codes] = option.split(" ");
  const label = esc(t(`web.casino.option.${word}`));
  return codes.length ? `${label} ${codes.map(shortCard).join(" ")}` : label;
}

export function showCasino(view) {
  const table = savedTable();
  const s = {
    state: null,
    hand: null,
    chip: table.chip,
    spots: table.spots,
    selected: new Set(),
    busy: false,
    error: null,
    check: null,
    stopped: false,
    fairness: false, // whether the hashes are unfolded (kept over redraws)
  };

  async function load() {
    try {
      s.state = await get("/casino");
      s.hand = s.state.hand ?? (s.hand?.phase === "over" ? s.hand : null);
      s.error = null;
    } catch (error) {
      s.error = error;
    }
    if (!s.stopped) screen.render();
  }

  /** Sends a request that changes the game, one at a time; a refusal is shown as is. */
  async function send(path, body) {
    if (s.busy) return null;
    s.busy = true;
    screen.render();
    try {
      return await post(path, body);
    } catch (error) {
      toast(error.message, "error");
      return null;
    } finally {
      s.busy = false;
    }
  }

  async function deal() {
    const antes = [...s.spots.entries()].sort((a, b) => a[0] - b[0]).map(([, ante]) => ante);
    const committed = s.state.next_commitment;
    const hand = await send("/casino/hands", { antes });
    if (hand) {
      rememberShown(hand.id, committed);
      s.hand = hand;
      s.selected.clear();
      s.check = null;
    }
    await load();
  }

  async function decide(action) {
    const body = { box: s.hand.to_act, action };
    if (action === "change") body.cards = [...s.selected];
    const hand = await send("/casino/hand/decision", body);
    if (hand) {
      s.hand = hand;
      s.selected.clear();
      if (hand.phase === "over") {
        s.check = await checkSeed(hand.seed, hand.commitment, shownCommitments()[hand.id]);
        await load();
        return;
      }
    }
    if (!s.stopped) screen.render();
  }

  async function hint() {
    const body = openDialog(t("web.casino.hint.title"), `<p class="loading">${esc(t("web.casino.hint.wait"))}</p>`);
    try {
      const advice = await get("/casino/hand/hint");
      const rows = advice.options
        .map(
          (option) => `<tr class="${option.option === advice.best ? "best" : ""}"><td>${optionLabel(option.option)}</td>
            <td class="num">${esc((option.ev > 0 ? "+" : "") + formatDecimal(option.ev, 3))}</td>
            <td>${esc(option.method === "exact" ? t("web.casino.hint.exact") : t("web.casino.hint.sampled", { error: formatDecimal(option.error, 3) }))}</td></tr>`,
        )
        .join("");
      const head = tMarkup("web.casino.hint.head", { cards: advice.cards.map(shortCard).join(" "), up: shortCard(advice.up) });
      body.innerHTML = `<p>${head}</p>
        <table class="board advice"><thead><tr><th>${esc(t("web.casino.hint.option"))}</th><th>${esc(t("web.casino.hint.value"))}</th><th>${esc(t("web.casino.hint.error"))}</th></tr></thead>
        <tbody>${rows}</tbody></table>
        <p class="best-option">${tMarkup("web.casino.hint.best", { option: optionLabel(advice.best) })}</p>`;
    } catch (error) {
      body.innerHTML = `<p class="form-error">${esc(error.message)}</p>`;
    }
  }

  async function history() {
    const body = openDialog(t("web.casino.history.title"), `<p class="loading">${esc(t("web.loading"))}</p>`, { wide: true });
    try {
      const { hands } = await get("/casino/history");
      const shown = shownCommitments();
      const checks = await Promise.all(hands.map((hand) => checkSeed(hand.seed, hand.commitment, shown[hand.id])));
      body.innerHTML = hands.length
        ? `<ol class="casino-history">${hands.map((hand, i) => historyLine(hand, checks[i])).join("")}</ol>`
        : `<p class="empty">${esc(t("web.casino.history.none"))}</p>`;
    } catch (error) {
      body.innerHTML = `<p class="form-error">${esc(error.message)}</p>`;
    }
  }

  function historyLine(hand, check) {
    const results = (hand.results || [])
      .map((result) => `<li>${esc(t("web.casino.spot", { number: result.box }))}: ${esc(t(`web.casino.outcome.${result.outcome}`))}, ${signedPoints(result.net)}</li>`)
      .join("");
    return `<li class="history-hand" data-hand="${hand.number}">
      <h3>${esc(t("web.casino.history.line", { number: hand.number, antes: hand.antes.join(" + "), net: "" }))}${signedPoints(hand.net)}</h3>
      <ul class="plain">${results}</ul>
      ${fairness(`<p class="hash">${esc(t("web.casino.hand.committed", { number: hand.number, hash: hand.commitment }))}</p>
        <p class="hash">${esc(t("web.casino.seed", { seed: hand.seed }))}</p>`)}
      ${verifyStatus(check)}
      <p><a class="button small" href="${esc(hand.record_url)}" download="${esc(hand.file)}">${esc(t("web.casino.history.download"))}</a></p>
      <p class="muted">${esc(t("web.casino.history.command"))} <code>${esc(hand.verify)}</code></p></li>`;
  }

  /** The hashes that let a player check the shuffle, folded under «проверка честности»:
   * long hex strings that would take a fifth of a phone's screen. */
  function fairness(markup) {
    return `<details class="fairness" ${s.fairness ? "open" : ""}><summary>${esc(t("web.casino.fairness"))}</summary>${markup}</details>`;
  }

  function verifyStatus(check) {
    if (check === null) return "";
    const key = { ok: "web.casino.verified", bad: "web.casino.mismatch", na: "web.casino.unverified" }[check];
    return `<p class="verify-status ${check}" data-status="${check}">${esc(t(key))}</p>`;
  }

  function cost() {
    const antes = [...s.spots.entries()].sort((a, b) => a[0] - b[0]).map(([, ante]) => ante);
    return antes.reduce((sum, ante) => sum + ante, 0) + (antes.length === MAX_BOXES ? 2 * antes[2] : 0);
  }

  function dealerRow(hand) {
    if (!hand) return `<div class="casino-cards dealer-cards">${backs(5)}</div>`;
    if (!hand.dealer) {
      return `<div class="casino-cards dealer-cards">${backs(4)}${cards([hand.up_card])}</div>`;
    }
    const draw = hand.dealer_draw;
    const shown = cards(hand.dealer, (code) => (draw && code === draw.discard ? 'data-discarded="true"' : ""));
    const drawn = draw ? cards([draw.draw], () => 'data-drawn="true"') : "";
    const valued = hand.dealer_bought || hand.dealer_hand;
    const note = valued.qualifies
      ? t("web.casino.dealer.qualifies", { combination: combination(valued.combination) })
      : t("web.casino.dealer.out");
    const drew = draw ? `<p class="dealer-note">${tMarkup("web.casino.dealer.drew", { discard: shortCard(draw.discard), draw: shortCard(draw.draw) })}</p>` : "";
    return `<div class="casino-cards dealer-cards">${shown}${drawn}</div>${drew}<p class="dealer-note" data-qualifies="${valued.qualifies}">${esc(note)}</p>`;
  }

  function spotsMarkup() {
    const order = [...s.spots.keys()].sort((a, b) => a - b);
    return Array.from({ length: SPOTS }, (_, i) => {
      const spot = i + 1;
      const ante = s.spots.get(spot);
      const closed = order.length === MAX_BOXES && order[2] === spot;
      const label = ante === undefined ? t("web.casino.spot.empty") : t("web.casino.spot.ante", { ante: formatNumber(ante) });
      return `<button type="button" class="spot ${ante === undefined ? "" : "taken"}" data-spot="${spot}" aria-pressed="${ante !== undefined}"
        ${s.busy ? "disabled" : ""}><b>${esc(t("web.casino.spot", { number: spot }))}</b><span>${esc(label)}</span>${closed ? `<span class="closed-mark">${esc(t("web.casino.box.closed"))}</span>` : ""}</button>`;
    }).join("");
  }

  function boxState(box) {
    if (box.folded) return t("web.casino.box.folded");
    if (box.closed) return t("web.casino.box.closed");
    if (box.bet) return t("web.casino.box.bet", { bet: formatNumber(2 * box.ante) });
    return t("web.casino.box.waiting");
  }

  function resultMarkup(result) {
    const paid = result.outcome === "win"
      ? [t("web.casino.paid", { combination: combination(result.combination), pays: result.combination_pays })]
          .concat(result.second ? [t("web.casino.paid.second", { combination: combination(result.second), pays: result.second_pays })] : [])
          .join(" ")
      : combination(result.combination);
    const costs = result.costs ? ` · ${t("web.casino.costs", { costs: formatNumber(result.costs) })}` : "";
    return `<p class="box-result ${result.outcome}" data-outcome="${result.outcome}" data-net="${result.net}">
      <b>${esc(t(`web.casino.outcome.${result.outcome}`))}</b> · ${esc(paid)}${esc(costs)} · ${esc(t("web.casino.net", { net: "" }))}${signedPoints(result.net)}</p>`;
  }

  function boxMarkup(hand, box) {
    const acting = hand.to_act === box.number;
    const picking = acting && hand.phase === "decide" && hand.legal.includes("change");
    const result = hand.results.find((r) => r.box === box.number);
    let shown = backs(5);
    if (box.cards && picking) {
      shown = box.cards
        .map((code) => {
          const on = s.selected.has(code);
          return `<button type="button" class="card pick ${on ? "selected" : ""}" data-card="${esc(code)}" aria-pressed="${on}"
            aria-label="${esc(t("web.casino.card.pick", { card: pretty(code) }))}" ${s.busy ? "disabled" : ""}>${cardSvg(code)}</button>`;
        })
        .join("");
    } else if (box.cards) {
      shown = cards(box.cards);
    }
    const marks = [box.exchanged ? t("web.casino.box.exchanged") : null, box.bought_dealer ? t("web.casino.box.bought") : null].filter(Boolean);
    const named = box.cards ? ` · ${combination(box.combination)}` : "";
    return `<div class="casino-box ${acting ? "to-act" : ""}" data-box="${box.number}">
      <div class="box-head"><b>${esc(t("web.casino.box", { number: box.number, ante: formatNumber(box.ante) }))}</b>
        <span class="box-state">${esc(boxState(box) + named)}</span></div>
      <div class="casino-cards">${shown}</div>
      ${marks.length ? `<p class="box-marks">${esc(marks.join(" · "))}</p>` : ""}
      ${result ? resultMarkup(result) : ""}</div>`;
  }

  function actButton(action, label, extra = "") {
    return `<button type="button" class="act" data-action="${action}" ${s.busy ? "disabled" : ""} ${extra}>${esc(label)}</button>`;
  }

  function actionsMarkup() {
    const hand = s.hand;
    const state = s.state;
    if (!hand || hand.phase === "over") {
      const over = hand?.phase === "over"
        ? `<p class="total">${esc(t("web.casino.total", { net: "" }))}${signedPoints(hand.net)}</p>
           ${fairness(`<p class="hash">${esc(t("web.casino.seed", { seed: hand.seed }))}</p>`)}${verifyStatus(s.check)}`
        : "";
      const chips = CHIPS.map(
        (value) => `<button type="button" class="chip" data-chip="${value}" aria-pressed="${value === s.chip}"
          aria-label="${esc(t("web.casino.chip", { value }))}">${formatNumber(value)}</button>`,
      ).join("");
      const price = cost();
      const refill = state.can_refill
        ? `<p class="muted">${esc(t("web.casino.refill.note"))}</p><button type="button" class="refill primary">${esc(t("web.casino.refill", { balance: formatNumber(state.limits.start_balance) }))}</button>`
        : "";
      // a deal the balance cannot pay says so, and what to do (a smaller stake, or the refill)
      const short = s.spots.size && price > state.balance;
      const why = short
        ? `<p class="deal-why" id="deal-why" role="status">${esc(t("web.casino.deal.short", { cost: formatNumber(price), balance: formatNumber(state.balance) }))}</p>`
        : "";
      return `${over}<fieldset class="chips"><legend>${esc(t("web.casino.chips"))}</legend>${chips}</fieldset>
        <p class="hint">${esc(t("web.casino.place.hint"))}</p>${refill}${why}
        <button type="button" class="deal primary big" ${short ? 'aria-describedby="deal-why"' : ""} ${!s.spots.size || short || s.busy ? "disabled" : ""}>${esc(t("web.casino.deal", { cost: formatNumber(price) }))}</button>`;
    }
    const box = hand.boxes[hand.to_act - 1];
    const hintButton = `<button type="button" class="hint-button" ${s.busy ? "disabled" : ""}>${esc(t("web.casino.hint"))}</button>`;
    if (hand.phase === "purchase") {
      const buttons = [
        hand.legal.includes("buy-dealer") ? actButton("buy-dealer", t("web.casino.buy-dealer", { ante: formatNumber(box.ante) })) : "",
        actButton("decline", t("web.casino.decline")),
      ].join("");
      return `<p class="prompt mine">${esc(t("web.casino.purchase", { number: box.number }))}</p><div class="choices">${buttons}${hintButton}</div>`;
    }
    const picking = hand.legal.includes("change");
    const buttons = [
      actButton("fold", t("web.casino.fold")),
      hand.legal.includes("bet") ? actButton("bet", t("web.casino.bet", { bet: formatNumber(2 * box.ante) })) : "",
      hand.legal.includes("buy") ? actButton("buy", t("web.casino.buy", { ante: formatNumber(box.ante) })) : "",
      picking
        ? actButton("change", t("web.casino.change", { count: s.selected.size, ante: formatNumber(box.ante) }), s.selected.size ? "" : "disabled")
        : "",
    ].join("");
    return `<p class="prompt mine">${esc(t("web.casino.turn", { number: box.number }))}</p>
      ${picking ? `<p class="hint text-centre">${esc(t("web.casino.select.hint"))}</p>` : ""}
      <div class="choices">${buttons}${hintButton}</div>`;
  }

  function wire() {
    view.querySelectorAll("details.fairness").forEach((box) => box.addEventListener("toggle", () => (s.fairness = box.open)));
    view.querySelectorAll(".spot").forEach((button) =>
      button.addEventListener("click", () => {
        const spot = Number(button.dataset.spot);
        if (s.spots.has(spot)) s.spots.delete(spot);
        else if (s.spots.size < MAX_BOXES) s.spots.set(spot, s.chip);
        saveTable(s.chip, s.spots);
        screen.render();
      }),
    );
    view.querySelectorAll(".chip").forEach((button) =>
      button.addEventListener("click", () => {
        s.chip = Number(button.dataset.chip);
        saveTable(s.chip, s.spots);
        screen.render();
      }),
    );
    view.querySelectorAll(".card.pick").forEach((button) =>
      button.addEventListener("click", () => {
        const code = button.dataset.card;
        if (s.selected.has(code)) s.selected.delete(code);
        else s.selected.add(code);
        screen.render();
      }),
    );
    view.querySelectorAll("button.act").forEach((button) => button.addEventListener("click", () => decide(button.dataset.action)));
    view.querySelector("button.deal")?.addEventListener("click", deal);
    view.querySelector("button.hint-button")?.addEventListener("click", hint);
    view.querySelector("button.history-button")?.addEventListener("click", history);
    view.querySelector("button.refill")?.addEventListener("click", async () => {
      if (await send("/casino/refill")) toast(t("web.casino.balance", { balance: formatNumber(s.state.limits.start_balance) }));
      await load();
    });
  }

  const screen = {
    render() {
      const pending = pendingMarkup(s.error, s.state !== null);
      if (pending) {
        view.innerHTML = pending;
        return;
      }
      const hand = s.hand;
      const playing = hand && hand.phase !== "over";
      const balance = playing ? hand.balance : s.state.balance;
      const table = playing || hand?.phase === "over"
        ? `<div class="casino-boxes">${hand.boxes.map((box) => boxMarkup(hand, box)).join("")}</div>`
        : "";
      const spots = playing ? "" : `<div class="spots" role="group" aria-label="${esc(t("web.casino.spots"))}">${spotsMarkup()}</div>`;
      const commitment = playing
        ? t("web.casino.hand.committed", { number: hand.number, hash: hand.commitment })
        : t("web.casino.committed", { hash: s.state.next_commitment });
      view.innerHTML = `<section class="casino" data-phase="${playing ? hand.phase : hand ? "over" : "betting"}"
          data-to-act="${playing ? hand.to_act : ""}" data-busy="${s.busy}" data-hand="${hand?.number ?? ""}" data-balance="${balance}">
        <h1 class="casino-title">${esc(t("web.casino.title"))}</h1>
        <div class="casino-bar"><b class="balance">${esc(t("web.casino.balance", { balance: formatNumber(balance) }))}</b>
          <button type="button" class="small history-button">${esc(t("web.casino.history"))}</button></div>
        <div class="casino-felt">
          <div class="dealer-row"><span class="label">${esc(t("web.casino.dealer"))}</span>${dealerRow(hand)}</div>
          ${table}${spots}
        </div>
        <div class="casino-actions">${actionsMarkup()}</div>
        ${fairness(`<p class="hash commitment">${esc(commitment)}</p>`)}</section>`;
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
