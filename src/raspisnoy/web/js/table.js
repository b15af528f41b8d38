// A table: seating before the start, then the game (seats, trick, hand, bidding, the
// joker dialog, last trick, score sheet) and the results. All game state comes from the
// server's messages; the page only draws it and sends the actions the view lists as legal.
import { post, socketErrorText } from "./api.js";
import { cardName, cardSvg, parseCard, sortHand, suitIcon, SUITS } from "./cards.js";
import { tableChat } from "./chat.js";
import { TableConnection } from "./connection.js";
import { followButton, followedIds, inviteDialog, showInvitation, spectatorsMarkup, wireFollowButtons } from "./friends.js";
import { t, tMaybe, tn } from "./i18n.js";
import { chartMarkup, kindBadge, sheetMarkup, standingsMarkup } from "./sheet.js";
import { nameLink } from "./leaderboard.js";
import { reportButton, reportFrom } from "./report.js";
import { quickStartDue } from "./quick.js";
import { rematchBox } from "./rematch.js";
import { showHint } from "./review.js";
import { shareMarkup, wireShare } from "./share.js";
import { askNotificationsOnce, turnSignals } from "./turn.js";
import { closeDialog, dialogOpen, element, esc, isDeletedName, openDialog, playerName, seatStats, shortName, signedPoints, toast } from "./ui.js";

/** How long a first digit waits for a second one when bids of 10 or more exist. */
const DIGIT_WAIT_MS = 700;
/** Screens wide enough to show the last round's result unfolded (style.css's phone width). */
const WIDE = "(min-width: 601px)";
/** How long a new hand's deal lasts (style.css: .35 s a card, 45 ms apart). */
const DEAL_MS = 1000;

/** The round bar's buttons: the score sheet (a ruled page) and the last trick (two cards). */
const ICONS = {
  sheet:
    '<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><rect x="4" y="3" width="16" height="18" rx="2"/><path d="M4 8h16M4 13h16M4 18h16M10 3v18"/></svg>',
  hint:
    '<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"/></svg>',
  lastTrick:
    '<svg class="icon-art" viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="6" width="10" height="14" rx="2" transform="rotate(-12 8 13)"/><rect x="10" y="4" width="10" height="14" rx="2"/><path d="M13 11h4m-2-2-2 2 2 2"/></svg>',
};

/** The table `tableId`; `connect(tableId, handlers)` makes its connection: the server's
 * socket, or the engine on this device for an offline game (offline_play.js). */
export function showTable(view, app, tableId, connect = (id, handlers) => new TableConnection(id, handlers)) {
  const s = {
    table: null,
    you: null,
    game: null,
    lastRound: null,
    busy: false,
    fatal: null,
    report: null,
    digits: "",
    digitTimer: null,
    status: "connecting",
    sheetOpen: false,
    dealtRound: null,
    dealtAt: 0,
    turnShown: null,
    tricksSeen: null,
    resultOpen: null, // {round, open}: the last round's result as the player unfolded it
    spectators: null, // the last `spectators` message: who watches
    following: null, // whom the viewer follows (user ids), for the follow buttons
    followingAsked: false,
  };
  const connection = connect(tableId, {
    onState(message) {
      s.table = message.table;
      s.you = message.you;
      s.game = message.game;
      s.lastRound = message.last_round;
      s.busy = connection.waiting(); // an action resent after reconnecting is still on its way
      if (!s.followingAsked && s.you.user_id !== null) {
        s.followingAsked = true; // once per visit; the buttons keep it up to date
        followedIds().then(followed);
      }
      render();
      // A quick game starts once its player is here, so no stand-in plays their first turn.
      if (s.table.status === "open" && quickStartDue(tableId)) lobbyCall("start");
    },
    onEvent(message) {
      const wasMyTurn = myTurn();
      s.game = message.game;
      s.table = { ...s.table, deadline_ms: message.deadline_ms };
      if (message.round) {
        s.lastRound = message.round;
        s.report = null;
        if (s.sheetOpen) openSheet(); // the open sheet gets the round just finished
      }
      if (message.action.seat === mySeat()) s.busy = false;
      render();
      if (!wasMyTurn && myTurn()) {
        navigator.vibrate?.(60); // a nudge on phones
        turn.yourTurn(promptText());
      }
    },
    onTable(message) {
      s.table = message.table;
      render();
    },
    onAck() {
      // an action resent after a reconnect may turn out to be applied already
      if (s.busy && !connection.waiting()) {
        s.busy = false;
        render();
      }
    },
    onError(message) {
      s.busy = false;
      toast(socketErrorText(message), "error");
      render();
    },
    onStatus(status) {
      s.status = status;
      showStatus(status);
    },
    onFatal(code) {
      // the connection has given up (no such table, an expired session...): it does not
      // try again when the tab comes back or the network returns, no badge says it is
      // still connecting, and the dock (🔔, 💬) goes with the table
      connection.stop();
      s.fatal = code;
      s.status = null;
      if (code === 4401) app.user = null;
      render();
    },
    onChat: (message) => chat.receive(message),
    onRematch: (message) => rematch.receive(message),
    onSpectators(message) {
      s.spectators = message;
      view.querySelector(".spectators")?.replaceWith(element(spectatorsMarkup(message)));
    },
    onInvitation: showInvitation,
  });
  const chat = tableChat(connection, () => s.you?.user_id ?? null);
  const turn = turnSignals(chat.element);
  const rematch = rematchBox(connection, () => ({ seat: mySeat(), names: names(), navigate: app.navigate }));

  const mySeat = () => s.you?.seat ?? null;
  const myTurn = () => mySeat() !== null && s.game?.to_act === mySeat();
  /** Players' names by seat: people as the game knows them (a deleted account's in the
   * page's language), bots in the page's language. */
  const names = () =>
    s.table.seats.map((seat) =>
      seat.user_id === null
        ? t("web.seat.bot", { seat: seat.seat + 1 })
        : playerName(s.table.names?.[seat.seat] ?? seat.nickname),
    );
  const botLevel = (bot) => tMaybe(`web.bot.${bot}`) ?? bot;
  /** A follow button for the seat's person, unless it is the viewer, one they follow, or
   * a deleted account. */
  const followable = (seat) =>
    seat.user_id && seat.user_id !== s.you?.user_id && s.following && !s.following.has(seat.user_id) && !isDeletedName(s.table.names?.[seat.seat]);
  const followMarkup = (seat, name) => (followable(seat) ? followButton(seat.user_id, name) : "");
  function followed(ids) {
    s.following = ids;
    if (s.table && (s.table.status === "open" || s.game?.phase === "over")) render();
  }

  function act(action) {
    if (s.busy) return;
    s.busy = true;
    askNotificationsOnce();
    closeDialog();
    connection.act(action);
    render();
  }

  // ------------------------------------------------------------------ drawing

  /** The markup last drawn by `draw` and the element it became. */
  let drawn = { markup: "", element: null };

  /** Puts `markup` in the view unless the view already shows exactly it, so a redraw that
   * changes nothing (the following list arriving, a state resent) keeps the elements: a
   * button is not replaced between a finger's down and up, which would lose the tap.
   * True when it drew, and the new elements need their handlers. */
  function draw(markup) {
    if (markup === drawn.markup && drawn.element?.isConnected) return false;
    view.innerHTML = markup;
    drawn = { markup, element: view.firstElementChild };
    return true;
  }

  function render() {
    showStatus(s.status);
    // nobody to talk to offline, nor at a table the connection gave up on
    chat.element.hidden = connection.offline || s.fatal !== null;
    if (s.fatal !== null) {
      // offline, the way on is the offline screen (its form, its kept games): the lobby needs the server
      const back = connection.offline ? `<a class="button primary" data-nav href="/?offline">${esc(t("web.offline.title"))}</a>` : `<a class="button primary" data-nav href="/">${esc(t("web.back.lobby"))}</a>`;
      view.innerHTML = `<section class="panel error"><p>${esc(tMaybe(`web.close.${s.fatal}`) ?? t("web.error.server", { detail: s.fatal }))}</p>
        ${back}</section>`;
      return;
    }
    if (s.table === null) {
      view.innerHTML = `<p class="panel loading">${esc(t("web.loading"))}</p>`;
      return;
    }
    if (s.table.status === "open" || s.game === null) renderSeating();
    else if (s.game.phase === "over") renderResults();
    else renderGame();
  }

  function renderSeating() {
    const table = s.table;
    const host = table.host_id === s.you.user_id;
    const seated = mySeat() !== null;
    const link = new URL(table.invite, location.href).href;
    const seats = table.seats
      .map((seat) => {
        const who = seat.user_id
          ? `<strong>${nameLink(seat.registered && seat.user_id, seat.nickname)}</strong>${seat.user_id === table.host_id ? ` <span class="badge">${esc(t("web.seat.host"))}</span>` : ""}`
          : `<span class="free">${esc(t("web.seating.free", { bot: botLevel(seat.bot) }))}</span>`;
        const sit = seat.user_id === null ? `<button class="small sit" data-seat="${seat.seat}">${esc(t(seated ? "web.seating.move" : "web.seating.sit"))}</button>` : followMarkup(seat, seat.nickname);
        return `<li class="seat-line ${seat.seat === mySeat() ? "mine" : ""}"><span class="seat-no">${seat.seat + 1}</span><span class="who">${who}</span>${sit}</li>`;
      })
      .join("");
    const settings = [
      tMaybe(`web.preset.${table.rules.preset}`) ?? table.rules.preset,
      table.turn_seconds ? t("web.create.timer.seconds", { seconds: table.turn_seconds }) : t("web.create.timer.none"),
      t(table.public ? "web.seating.public" : "web.seating.private"),
      ...(table.rated ? [t("web.create.rated")] : []),
    ].join(" · ");
    const drew = draw(`<section class="panel seating">
      <h2>${esc(t("web.seating.title"))}</h2>
      <p class="muted">${esc(settings)}</p>
      <div class="invite"><label for="invite-link">${esc(t("web.invite.label"))}</label>
        ${shareMarkup(link, { id: "invite-link", label: t("web.invite.label") })}
        <small class="hint">${esc(t("web.invite.hint"))}</small></div>
      <ol class="seat-list">${seats}</ol>
      ${spectatorsMarkup(s.spectators)}
      ${seated ? `<button type="button" class="invite-friend">${esc(t("web.invite.button"))}</button>` : ""}
      ${host && seated ? `<button class="primary big start">${esc(t("web.seating.start"))}</button>` : `<p class="waiting">${esc(t(seated ? "web.seating.wait" : "web.seating.choose"))}</p>`}
      ${seated ? `<button class="leave">${esc(t("web.seating.leave"))}</button>` : ""}
    </section>`);
    if (!drew) return;
    wireShare(view, t("web.lobby.share.table"));
    view.querySelector(".start")?.addEventListener("click", () => lobbyCall("start"));
    view.querySelector(".invite-friend")?.addEventListener("click", () => inviteDialog(tableId));
    wireFollowButtons(view, followed);
    view.querySelector(".leave")?.addEventListener("click", () => lobbyCall("leave"));
    for (const button of view.querySelectorAll(".sit")) {
      button.addEventListener("click", () => lobbyCall("sit", { seat: Number(button.dataset.seat) }));
    }
  }

  async function lobbyCall(command, body) {
    if (command === "sit") askNotificationsOnce();
    try {
      s.table = await post(`/tables/${encodeURIComponent(tableId)}/${command}`, body);
      connection.sync(); // our seat at this table changed: ask for the state of the new seat
    } catch (error) {
      toast(t("web.error.server", { detail: error.message }), "error");
    }
  }

  /** Seats in the order they sit around the table, starting at the left of `seat`. */
  function aroundFrom(seat) {
    const count = s.table.players;
    const start = seat === null ? 0 : seat + 1;
    return Array.from({ length: seat === null ? count : count - 1 }, (_, i) => (start + i) % count);
  }

  /** One seat's chip; `place` positions it around the table on wide screens. */
  function seatChip(seat, place = "") {
    const game = s.game;
    const info = s.table.seats[seat];
    const turn = game.to_act === seat;
    const bid = game.bids ? game.bids[seat] : null;
    const badges = [];
    if (game.dealer === seat) badges.push(`<span class="badge dealer" title="${esc(t("web.seat.dealer"))}">${esc(t("web.seat.dealer.short"))}</span>`);
    if (info.user_id !== null && info.away) badges.push(`<span class="badge away">${esc(t("web.seat.away"))}</span>`);
    else if (info.user_id !== null && !info.connected) badges.push(`<span class="badge offline">${esc(t("web.seat.offline"))}</span>`);
    const deadline = turn && s.table.deadline_ms ? `<span class="countdown" data-deadline="${s.table.deadline_ms}"></span>` : "";
    const stats = seatStats([
      [t("web.seat.bid"), game.bids === null ? null : (bid ?? "–")],
      [t("web.seat.taken"), game.taken[seat]],
      [t("web.seat.points"), game.totals[seat]],
    ]);
    const shown = game.shown_hands[seat];
    const shownCards = shown ? `<span class="shown">${shown.map((card) => `<span class="mini-card">${cardSvg(card)}</span>`).join("")}</span>` : "";
    const level = info.user_id === null ? ` title="${esc(t("web.seat.level", { bot: botLevel(info.bot) }))}"` : "";
    // Another person at the table may be reported to the moderators (not a bot, not oneself).
    const other = info.user_id !== null && s.you?.user_id && info.user_id !== s.you.user_id;
    const report = other ? reportButton(names()[seat], { user: info.user_id, place: "table", table: tableId }) : "";
    return `<li class="seat-chip ${place} ${turn ? "turn" : ""} ${seat === mySeat() ? "mine" : ""}" data-seat="${seat}" data-bid="${bid ?? ""}"${level}>
      <div class="seat-name"><span class="name short-name" title="${esc(names()[seat])}">${nameLink(info.registered && info.user_id, names()[seat])}</span>${badges.join("")}${deadline}${report}</div>
      ${stats}${shownCards}</li>`;
  }

  function jokerModeLabel(action) {
    const [, mode, suit] = action.split(":");
    if (!mode) return "";
    if (mode === "take") return t("web.joker.takes");
    return t(`web.joker.${mode}.played`, { suit: t(`web.suit.${suit}`) });
  }

  /** Cards of a trick, each with who played it; the winner's card marked. */
  function trickMarkup(trick) {
    const count = s.table.players;
    return `<ol class="trick-cards">${trick.cards
      .map((action, i) => {
        const seat = (trick.leader + i) % count;
        const won = trick.winner === seat;
        return `<li class="played ${won ? "won" : ""}" data-seat="${seat}" data-card="${esc(action)}">
          <span class="card face">${cardSvg(action)}</span>
          <span class="who">${shortName(names()[seat])}</span>
          ${action.includes(":") ? `<span class="joker-mode">${esc(jokerModeLabel(action))}</span>` : ""}</li>`;
      })
      .join("")}</ol>`;
  }

  function centreMarkup() {
    const game = s.game;
    if (game.trick.cards.length) return trickMarkup(game.trick);
    const finished = game.tricks.at(-1);
    if (finished) {
      return `${trickMarkup(finished)}<p class="centre-note">${esc(t("web.trick.took", { name: names()[finished.winner] }))}</p>`;
    }
    const last = s.lastRound;
    if (last && last.round === game.round - 1) {
      const lines = names()
        .map((name, seat) => {
          const points = last.points[seat];
          const bid = last.bids ? `${last.bids[seat]}/` : "";
          return `<li><span>${esc(name)}</span><span class="muted">${bid}${last.taken[seat]}</span><b>${signedPoints(points)}</b></li>`;
        })
        .join("");
      // folded on a phone: while the next round is bid its room goes to the hand and the bids
      const mine = mySeat() === null ? "" : ` · ${esc(names()[mySeat()])} ${signedPoints(last.points[mySeat()])}`;
      const open = (s.resultOpen?.round === last.round ? s.resultOpen.open : matchMedia(WIDE).matches) ? "open" : "";
      return `<details class="round-result" data-round="${last.round}" ${open}><summary>${esc(t("web.round.over", { round: last.round }))}${mine}</summary><ul>${lines}</ul></details>`;
    }
    return `<p class="centre-note">${esc(t("web.trick.empty"))}</p>`;
  }

  function promptText() {
    const game = s.game;
    const mine = myTurn();
    const who = game.to_act === null ? "" : names()[game.to_act];
    if (game.phase === "bid") {
      if (!mine) return t("web.prompt.waitbid", { name: who });
      return t(game.kind === "blind" ? "web.prompt.bidblind" : "web.prompt.bid");
    }
    if (game.phase === "choose") return mine ? t("web.prompt.choose") : t("web.prompt.waitchoose", { name: who });
    if (!mine) return t("web.prompt.waitplay", { name: who });
    return t(game.trick.cards.length ? "web.prompt.follow" : "web.prompt.lead");
  }

  function bidMarkup() {
    const game = s.game;
    const me = mySeat();
    if (game.phase !== "bid" || game.to_act !== me || me === null) return "";
    const buttons = [];
    const forbidden = [];
    for (let n = 0; n <= game.cards; n += 1) {
      const legal = game.legal.includes(String(n));
      if (!legal) forbidden.push(n);
      buttons.push(`<button class="bid" data-bid="${n}" ${legal && !s.busy ? "" : "disabled"}>${n}</button>`);
    }
    let reason = "";
    if (forbidden.length) {
      const others = game.bids.reduce((sum, bid, seat) => sum + (seat === me || bid === null ? 0 : bid), 0);
      const dealerRule = game.dealer === me && forbidden.length === 1 && others + forbidden[0] === game.cards;
      reason = dealerRule
        ? tn("web.bid.dealer", game.cards, { bid: forbidden[0] })
        : t("web.bid.forbidden", { bids: forbidden.join(", ") });
    }
    return `<div class="bids" role="group" aria-label="${esc(t("web.prompt.bid"))}">${buttons.join("")}</div>
      ${reason ? `<p class="reason">${esc(reason)}</p>` : ""}`;
  }

  function chooseMarkup() {
    const game = s.game;
    if (game.phase !== "choose" || game.to_act !== mySeat()) return "";
    return `<div class="choices">${game.legal
      .map((action) => {
        const [, kind, dealer] = action.split(":");
        return `<button class="choice" data-action="${esc(action)}" ${s.busy ? "disabled" : ""}>${esc(t("web.control.option", { kind: t(`web.kind.${kind}`), name: names()[Number(dealer)] }))}</button>`;
      })
      .join("")}</div>`;
  }

  function handMarkup() {
    const game = s.game;
    const me = mySeat();
    if (me === null) return "";
    const playing = game.phase === "play" && myTurn();
    if (game.hand === null) {
      const backs = Array.from({ length: game.hand_sizes[me] }, () => `<span class="card back">${cardSvg(null, { back: true })}</span>`);
      return `<div class="hand face-down" aria-label="${esc(t("web.hand.hidden"))}">${backs.join("")}</div>
        <p class="hint text-centre">${esc(t(game.kind === "blind" ? "web.hand.blind" : "web.hand.hidden"))}</p>`;
    }
    const cards = sortHand(game.hand, game.trump).map((code) => {
      const legal = playing && game.legal.some((action) => action === code || action.startsWith(`${code}:`));
      const state = playing ? (legal ? "legal" : "illegal") : "";
      const trump = parseCard(code).suit === game.trump ? "trump" : "";
      return `<button class="card ${state} ${trump}" data-card="${esc(code)}" ${legal && !s.busy ? "" : "disabled"} title="${esc(cardName(code))}">${cardSvg(code)}</button>`;
    });
    return `<div class="hand" role="group" aria-label="${esc(t("web.hand.label"))}">${cards.join("")}</div>`;
  }

  function trumpMarkup() {
    const game = s.game;
    if (game.trump_hidden) return `<span class="trump-info">${esc(t("web.trump.hidden"))}</span>`;
    const card = game.trump_card ? `<span class="mini-card">${cardSvg(game.trump_card)}</span>` : "";
    const suit = game.trump ? `<span class="suit-chip">${suitIcon(game.trump, "1.4em")}</span>` : `<b>${esc(t("web.trump.none"))}</b>`;
    return `<span class="trump-info">${card}<span>${esc(t("web.trump.label"))} ${suit}</span></span>`;
  }

  /** What a special round means, with this table's points (misère and golden differ
   * between rulesets). */
  function kindHelp() {
    const kind = s.game.kind;
    const rules = s.table.rules;
    const values = {
      misere: { zero: rules.misere_zero, trick: rules.misere_per_trick },
      golden: { zero: rules.golden_zero, trick: rules.golden_per_trick },
    }[kind];
    const text = tMaybe(`web.kindhelp.${kind}`, values);
    return text ? `<p class="kind-help">${esc(text)}</p>` : "";
  }

  /** The bids so far against the cards dealt («заказано 7 из 9»), once a bid is in: under
   * (fewer bids than tricks), over, or even (possible only where the dealer may make it so). */
  function bidSumMarkup() {
    const game = s.game;
    const bids = (game.bids ?? []).filter((bid) => bid !== null);
    if (!bids.length) return "";
    const sum = bids.reduce((a, b) => a + b, 0);
    const diff = sum - game.cards;
    const side = diff > 0 ? "over" : diff < 0 ? "under" : "even";
    const detail = diff === 0 ? t("web.bids.even") : t(`web.bids.${side}`, { count: Math.abs(diff) });
    return `<span class="bid-sum ${side}" data-sum="${sum}" data-cards="${game.cards}">${esc(t("web.bids.sum", { sum, cards: game.cards }))} · ${esc(detail)}</span>`;
  }

  /** Plays the deal (a new round's hand flies in) and the taking of a trick (its cards
   * move to the winner) once each: a redraw during the deal carries it on where it was;
   * style.css turns both off for people who ask their system for less motion. */
  function animateChanges() {
    const game = s.game;
    const round = game.round;
    if (s.dealtRound !== round) Object.assign(s, { dealtRound: round, dealtAt: Date.now() });
    const elapsed = Date.now() - s.dealtAt;
    if (elapsed < DEAL_MS) {
      view.querySelectorAll(".hand .card").forEach((card, i) => {
        card.style.setProperty("--i", i);
        card.style.setProperty("--elapsed", `${elapsed}ms`);
        card.classList.add("dealing");
      });
    }
    const done = `${round}:${game.tricks.length}`;
    if (s.tricksSeen !== null && s.tricksSeen !== done && !game.trick.cards.length && game.tricks.length) {
      view.querySelector(".centre .trick-cards")?.classList.add("taking");
    }
    s.tricksSeen = done;
  }

  /** On a phone the bids and the hand are below the table: when the player's turn comes,
   * the page scrolls them into view (all of them, if they are partly off the screen),
   * below the round bar that sticks under the header (at the screen's top on a short
   * screen, where the header scrolls away: style.css); with them the player's own seat
   * above, and while cards are played the trick above that, where the screen has room. */
  function showActions() {
    const game = s.game;
    // one turn: a round's bid or a trick's card (a turn may follow this player's own)
    const turn = myTurn() ? `${game.round}:${game.phase}:${game.tricks.length}` : null;
    if (turn !== null && turn !== s.turnShown) {
      const actions = view.querySelector(".actions").getBoundingClientRect();
      const bar = view.querySelector(".round-bar");
      // the bar sticks as far down as the header that stays above it reaches
      const header = parseFloat(getComputedStyle(bar).top) + bar.getBoundingClientRect().height;
      // the table dock (🔔, 💬) sits at the bottom corner: the hand ends above it, unless
      // the dock stands beside the table (a short screen's margin) or is hidden (offline)
      const dock = document.querySelector(".table-dock")?.getBoundingClientRect();
      const clear = !dock?.width || dock.left >= actions.right;
      const bottom = clear ? innerHeight : Math.min(innerHeight, dock.top - 4);
      // the highest of what belongs with the actions that still fits the room between
      const above = [view.querySelector(".seats.me"), game.phase === "play" ? view.querySelector(".centre") : null];
      let top = actions.top;
      for (const part of above.filter(Boolean)) {
        const partTop = part.getBoundingClientRect().top;
        if (actions.bottom - partTop <= bottom - header) top = partTop;
      }
      if (actions.bottom > bottom) scrollBy(0, Math.min(actions.bottom - bottom, top - header));
      else if (top < header) scrollBy(0, top - header);
    }
    s.turnShown = turn;
  }

  function renderGame() {
    const game = s.game;
    const me = mySeat();
    const meInfo = me === null ? null : s.table.seats[me];
    const awayBanner = meInfo?.away
      ? `<div class="banner away-banner"><span>${esc(t("web.away.text"))}</span><button class="primary small back-button">${esc(t("web.away.back"))}</button></div>`
      : "";
    // the last trick of this round, or of the round before while this one's bids go on
    const lastTrick = game.tricks.length
      ? { trick: game.tricks.at(-1), round: game.round, number: game.tricks.length }
      : s.lastRound?.tricks.length
        ? { trick: s.lastRound.tricks.at(-1), round: s.lastRound.round, number: s.lastRound.tricks.length }
        : null;
    const focused = document.activeElement?.closest?.(".game button")?.dataset ?? {};
    view.innerHTML = `<div class="game ${myTurn() ? "my-turn" : ""}" data-round="${game.round}" data-phase="${game.phase}" data-kind="${game.kind}"
      data-to-act="${game.to_act ?? ""}" data-me="${me ?? ""}" data-version="${connection.version}" data-busy="${s.busy}">
      <div class="round-bar">
        <div class="round-info"><strong>${esc(t("web.round.number", { round: game.round }))}</strong>
          <span>${esc(tn("web.round.cards", game.cards))}</span>${kindBadge(game.kind)}${bidSumMarkup()}</div>
        ${trumpMarkup()}
        <div class="bar-buttons">
          ${myTurn() && !s.table.rated && !s.table.offline ? `<button class="small hint-button" title="${esc(t("web.hint.button"))}">${ICONS.hint}<span class="label">${esc(t("web.hint.button"))}</span></button>` : ""}
          <button class="small last-trick" ${lastTrick ? "" : "disabled"} title="${esc(t("web.lasttrick.button"))}">${ICONS.lastTrick}<span class="label">${esc(t("web.lasttrick.button"))}</span></button>
          <button class="small open-sheet" title="${esc(t("web.sheet.button"))}">${ICONS.sheet}<span class="label">${esc(t("web.sheet.button"))}</span></button></div>
      </div>
      ${kindHelp()}${awayBanner}
      <div class="felt opponents-${aroundFrom(me).length}">
        <ol class="seats">${aroundFrom(me).map((seat, i) => seatChip(seat, `pos-${i + 1}`)).join("")}</ol>
        <div class="centre ${game.phase === "bid" && !game.trick.cards.length ? "bidding" : ""}" aria-live="polite">${centreMarkup()}</div></div>
      ${me === null ? `<p class="spectator text-centre">${esc(t("web.spectator"))}</p>` : `<ol class="seats me">${seatChip(me)}</ol>`}
      <div class="actions">
        <p class="prompt ${myTurn() ? "mine" : ""}" role="status">${esc(promptText())}</p>
        ${bidMarkup()}${chooseMarkup()}
        ${handMarkup()}
      </div>
      ${me === null ? "" : `<p class="keys-hint">${esc(t("web.keys.hint"))}</p>`}
      ${spectatorsMarkup(s.spectators)}
    </div>`;
    // a player in another tab sees their turn in the tab's title
    document.title = myTurn() ? t("web.title.turn") : t("web.app.title");
    tickCountdowns();
    animateChanges();
    showActions();
    const refocus = focused.card ? `.hand button.card[data-card="${focused.card}"]` : focused.bid ? `button.bid[data-bid="${focused.bid}"]` : null;
    if (refocus) view.querySelector(refocus)?.focus();
    const result = view.querySelector(".round-result");
    result?.addEventListener("toggle", () => (s.resultOpen = { round: Number(result.dataset.round), open: result.open }));
    view.querySelector(".open-sheet").addEventListener("click", openSheet);
    view.querySelector(".last-trick").addEventListener("click", () => showLastTrick(lastTrick));
    view.querySelector(".back-button")?.addEventListener("click", () => connection.back());
    view.querySelector(".hint-button")?.addEventListener("click", () => showHint(tableId, act));
    for (const button of view.querySelectorAll(".seat-chip button.report")) button.addEventListener("click", () => reportFrom(button));
    for (const button of view.querySelectorAll("button.bid")) button.addEventListener("click", () => act(button.dataset.bid));
    for (const button of view.querySelectorAll("button.choice")) button.addEventListener("click", () => act(button.dataset.action));
    for (const button of view.querySelectorAll(".hand button.card")) button.addEventListener("click", () => playCard(button.dataset.card));
  }

  function playCard(code) {
    const modes = s.game.legal.filter((action) => action.startsWith(`${code}:`));
    if (!modes.length) act(code);
    else if (modes.length === 1) act(modes[0]);
    else jokerDialog(modes);
  }

  /** The joker's modes that are legal now: take, highest of a suit, or discard naming a suit. */
  function jokerDialog(modes) {
    const leading = s.game.trick.cards.length === 0;
    const button = (action, label, extra = "") =>
      `<button class="joker-option ${extra}" data-action="${esc(action)}">${label}</button>`;
    const group = (mode) => {
      const actions = SUITS.map((suit) => modes.find((action) => action.endsWith(`:${mode}:${suit}`))).filter(Boolean);
      if (!actions.length) return "";
      const buttons = actions
        .map((action) => {
          const suit = action.slice(-1);
          const trump = suit === s.game.trump;
          const label = mode === "highest" && trump ? t("web.joker.highest.trumps") : t(`web.suit.${suit}`);
          return button(action, `${suitIcon(suit, "1.6em")}<span>${esc(label)}</span>`, trump ? "trump" : "");
        })
        .join("");
      return `<section class="joker-group"><h3>${esc(t(`web.joker.${mode}.title`))}</h3>
        <p class="hint">${esc(t(helpKey(mode)))}</p><div class="suit-buttons">${buttons}</div></section>`;
    };
    // Under some rulesets (classic, georgian) a trump beats a joker led as "highest".
    const helpKey = (mode) =>
      mode === "highest" && s.table.rules.joker_highest_beaten_by_trump ? "web.joker.highest.help.trumped" : `web.joker.${mode}.help`;
    const take = modes.find((action) => action.endsWith(":take"));
    const body = openDialog(
      t("web.joker.title"),
      `<p>${esc(t(leading ? "web.joker.leading" : "web.joker.following"))}</p>
      ${take ? `<section class="joker-group">${button(take, esc(t("web.joker.take")), "primary big")}<p class="hint">${esc(t("web.joker.take.help"))}</p></section>` : ""}
      ${group("highest")}${group("discard")}`,
    );
    for (const option of body.querySelectorAll(".joker-option")) option.addEventListener("click", () => act(option.dataset.action));
    body.querySelector(".joker-option")?.focus();
  }

  /** The last trick, saying which round (and which of its tricks) it is from. */
  function showLastTrick({ trick, round, number }) {
    const from = round === s.game.round ? "web.lasttrick.round" : "web.lasttrick.previous";
    openDialog(t("web.lasttrick.title"), `<p class="trick-from">${esc(t(from, { round, trick: number }))}</p>
      <div class="centre">${trickMarkup(trick)}</div>
      <p class="centre-note">${esc(t("web.trick.took", { name: names()[trick.winner] }))}</p>`);
  }

  async function loadReport() {
    if (s.report === null) s.report = await connection.report();
    return s.report;
  }

  /** The score sheet as it stands now (the round in play shows its bids so far). */
  async function openSheet() {
    try {
      s.report = await connection.report();
      s.sheetOpen = true;
      openDialog(t("web.sheet.title"), sheetMarkup(s.report, names()), {
        wide: true,
        onClose: () => (s.sheetOpen = false),
      });
    } catch (error) {
      toast(t("web.error.server", { detail: error.message }), "error");
    }
  }

  /** Links to the profiles of the registered players; nothing when none is. */
  function profilesMarkup() {
    const links = s.table.seats.filter((seat) => seat.registered).map((seat) => nameLink(seat.user_id, names()[seat.seat]));
    return links.length ? `<p class="profiles">${esc(t("web.results.profiles"))}: ${links.join(" · ")}</p>` : "";
  }

  /** The people of the finished game the viewer does not follow yet, to follow. */
  function followPeopleMarkup() {
    const lines = s.table.seats
      .map((seat) => [seat, followMarkup(seat, names()[seat.seat])])
      .filter(([, button]) => button)
      .map(([seat, button]) => `<li class="game-row"><span>${esc(names()[seat.seat])}</span>${button}</li>`);
    return lines.length ? `<ul class="list follow-people">${lines.join("")}</ul>` : "";
  }

  /** An online game's way on: its replay, its review, the lobby. */
  function onlineLinks() {
    return `<a class="button" data-nav href="/?replay=${esc(tableId)}">${esc(t("web.games.replay"))}</a>
      <a class="button review-link" data-nav href="/?review=${esc(tableId)}&seat=${mySeat() ?? 0}">${esc(t("web.review.open"))}</a>
      <a class="button primary" data-nav href="/">${esc(t("web.back.lobby"))}</a>`;
  }

  /** An offline game's way on: another game against the bots, or the offline screen. */
  function offlineLinks() {
    return `<a class="button primary" data-nav href="/?offline=new">${esc(t("web.offline.again"))}</a>
      <a class="button" data-nav href="/?offline">${esc(t("web.offline.title"))}</a>`;
  }

  function renderResults() {
    const totals = s.game.totals;
    const best = Math.max(...totals);
    const winners = totals.flatMap((total, seat) => (total === best ? [seat] : []));
    const drew = draw(`<section class="panel results" id="results">
      <h2>${esc(t("web.results.title"))}</h2>
      ${standingsMarkup(names(), totals, winners)}
      ${profilesMarkup()}
      ${s.table.offline ? "" : followPeopleMarkup()}
      ${s.table.offline ? `<p class="offline-terms">${esc(t("web.offline.note"))}</p>` : '<div class="rematch-box"></div>'}
      <div class="report">${esc(t("web.loading"))}</div>
      <div class="actions-row">${s.table.offline ? offlineLinks() : onlineLinks()}</div></section>`);
    if (!drew) return;
    if (!s.table.offline) {
      rematch.render(view.querySelector(".rematch-box"));
      wireFollowButtons(view, followed);
    }
    loadReport()
      .then((report) => {
        const box = view.querySelector(".results .report");
        if (box) box.innerHTML = chartMarkup(report, names()) + sheetMarkup(report, names());
      })
      .catch((error) => toast(t("web.error.server", { detail: error.message }), "error"));
  }

  // ------------------------------------------------------------------ timers and keys

  function tickCountdowns() {
    for (const box of view.querySelectorAll(".countdown")) {
      const left = Math.max(0, Math.ceil((Number(box.dataset.deadline) - Date.now()) / 1000));
      box.textContent = t("web.seat.timeleft", { seconds: left });
      box.classList.toggle("urgent", left <= 5);
    }
  }
  const clock = setInterval(tickCountdowns, 1000);

  function submitDigits() {
    clearTimeout(s.digitTimer);
    const bid = s.digits;
    s.digits = "";
    view.querySelector(`button.bid[data-bid="${bid}"]:not([disabled])`)?.click();
  }

  function onKey(event) {
    if (dialogOpen() || event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[0-9]$/.test(event.key) && view.querySelector("button.bid")) {
      event.preventDefault();
      s.digits += event.key;
      clearTimeout(s.digitTimer);
      if (Number(`${s.digits}0`) > s.game.cards) submitDigits();
      else s.digitTimer = setTimeout(submitDigits, DIGIT_WAIT_MS);
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const cards = [...view.querySelectorAll(".hand button.card:not([disabled]), .bids button.bid:not([disabled])")];
      if (!cards.length) return;
      event.preventDefault();
      const index = cards.indexOf(document.activeElement);
      const step = event.key === "ArrowRight" ? 1 : -1;
      cards[index === -1 ? 0 : (index + step + cards.length) % cards.length].focus();
    }
  }
  document.addEventListener("keydown", onKey);

  connection.connect();
  render();
  return {
    render() {
      render();
      chat.render();
      turn.render();
    },
    stop() {
      document.title = t("web.app.title");
      connection.stop();
      chat.stop();
      turn.stop();
      rematch.stop();
      clearInterval(clock);
      clearTimeout(s.digitTimer);
      document.removeEventListener("keydown", onKey);
      showStatus(null);
    },
  };
}

/** The connection badge in the header: connecting, online, offline (reconnecting) or
 * local (an offline game on this device); none when `status` is null. Its words are also
 * its title: on a phone the badge shows only its dot (style.css). */
function showStatus(status) {
  const badge = document.getElementById("conn");
  badge.hidden = status === null;
  if (status === null) return;
  badge.className = `conn ${status}`;
  badge.dataset.status = status;
  badge.textContent = t(`web.conn.${status}`);
  badge.title = badge.textContent;
}
