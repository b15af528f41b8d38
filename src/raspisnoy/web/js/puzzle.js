// Puzzles («задачи», /?puzzles, docs/review.md "Puzzles on the server"): the next puzzle
// (of a theme, if one is chosen), the daily puzzle (/?puzzles=daily) or one by its id
// (/?puzzles=ID), the player's puzzle rating, and the verdict with its reason in words.
// The position is table.js itself, behind PuzzleConnection: the seat's view drawn by the
// table's own components, and the move the player makes there is the answer.
import { ApiError, get, post } from "./api.js";
import { TableConnection } from "./connection.js";
import { fill, t, tn } from "./i18n.js";
import { actionLabel, reasonText } from "./review.js";
import { showTable } from "./table.js";
import { esc, signedPoints } from "./ui.js";

/** The themes a player may choose (docs/review.md, "Puzzles"), as the server names them. */
const THEMES = ["misere", "golden", "blind", "joker-lead", "dealer-bid", "bid", "play"];

/** The table socket's interface (connection.js) over one puzzle: a single `state` with
 * the solver's view, and a move made at the table is the answer sent to the server. */
class PuzzleConnection extends TableConnection {
  constructor(puzzle, app, handlers) {
    super(puzzle.id, handlers);
    // nothing to reconnect to: the base class's waking is not needed
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    this.offline = true; // table.js leaves out the chat and the hint
    this.puzzle = puzzle;
    this.app = app;
  }

  /** A puzzle names nobody (its seats are "Player 1"…): the solver's seat is theirs, by
   * their name, and every other seat «Игрок N», worded here at each drawing (so a change
   * of language rewords it). The table words a seat without a person as a bot, so each
   * seat has a person's place (an id of the puzzle's own, not an account: nothing to
   * follow or report, and `you` has no account either, so the table offers neither). */
  connect() {
    const { puzzle, app } = this;
    const me = puzzle.game.seat;
    const seats = puzzle.game.hand_sizes.map((_, seat) => ({
      seat,
      user_id: seat === me ? app.user.id : `puzzle-seat-${seat + 1}`,
      get nickname() {
        return seat === me ? app.user.nickname : t("web.puzzles.seat", { seat: seat + 1 });
      },
      bot: null,
      registered: false,
      connected: true,
      away: false,
    }));
    const table = { id: puzzle.id, status: "playing", rules: puzzle.rules, players: seats.length, seats, names: null, deadline_ms: null, rated: true, offline: true };
    this.version = 0;
    this.handlers.onStatus(null);
    this.handlers.onState({ type: "state", version: 0, table, you: { seat: me, user_id: null }, game: puzzle.game, last_round: null });
  }

  /** The move made is the answer: its verdict goes to `onVerdict`, a refusal to `onRefused`. */
  act(action) {
    post(`/puzzles/${encodeURIComponent(this.puzzle.id)}/answer`, { move: action })
      .then((verdict) => this.handlers.onVerdict(verdict))
      .catch((error) => this.handlers.onRefused(error));
  }

  report() {
    return Promise.resolve(null);
  }

  send() {}

  stop() {
    this.stopped = true;
  }

  heartbeat() {}
}

/** The puzzle screen; `which` is "daily", a puzzle's id, or empty for the next one. */
export function showPuzzles(view, app, which) {
  const s = { which, theme: sessionStorage.getItem("raspisnoy.puzzleTheme") ?? "", puzzle: null, rating: null, verdict: null, error: null, table: null };

  function path() {
    if (s.which === "daily") return "/puzzles/daily";
    if (s.which) return `/puzzles/${encodeURIComponent(s.which)}`;
    return `/puzzles/next${s.theme ? `?theme=${encodeURIComponent(s.theme)}` : ""}`;
  }

  async function load() {
    s.table?.stop();
    Object.assign(s, { table: null, puzzle: null, verdict: null, error: null });
    render();
    try {
      [s.puzzle, s.rating] = await Promise.all([get(path()), get("/puzzles/rating")]);
      s.verdict = s.puzzle.verdict;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      s.error = error.message;
    }
    render();
  }

  function ratingMarkup() {
    if (!s.rating) return "";
    if (!s.rating.rated) return `<p class="hint puzzle-rating">${esc(t("web.puzzles.guest"))}</p>`;
    return `<p class="puzzle-rating">${esc(t("web.puzzles.rating", { rating: s.rating.rating }))} ·
      ${esc(tn("web.puzzles.record", s.rating.attempts, { solved: s.rating.solved }))}</p>`;
  }

  function themeMarkup() {
    const options = ["", ...THEMES]
      .map((theme) => `<option value="${theme}" ${theme === s.theme ? "selected" : ""}>${esc(t(`web.puzzles.theme.${theme || "any"}`))}</option>`)
      .join("");
    return `<label class="puzzle-theme">${esc(t("web.puzzles.theme"))} <select>${options}</select></label>`;
  }

  function verdictMarkup() {
    const v = s.verdict;
    if (!v) return "";
    // the change is markup (its sign coloured): filled in once the sentence is escaped
    const change = v.rating
      ? `<p class="puzzle-change">${fill(esc(t("web.puzzles.change", { rating: v.rating.after })), { change: signedPoints(v.rating.change) })}</p>`
      : "";
    return `<section class="panel verdict ${v.solved ? "solved" : "missed"}" data-solved="${v.solved}" aria-live="polite">
      <h3>${esc(t(v.solved ? "web.puzzles.solved" : "web.puzzles.missed"))}</h3>
      <p class="puzzle-best">${esc(t("web.puzzles.best", { move: actionLabel(v.best) }))}</p>
      <p class="review-reason">${esc(reasonText(v.reason))}</p>${change}
      <button class="primary next-puzzle">${esc(t("web.puzzles.next"))}</button></section>`;
  }

  function headMarkup() {
    const p = s.puzzle;
    const about = p
      ? `<p class="puzzle-about">${p.day ? `<b>${esc(t("web.puzzles.daily"))}</b> · ` : ""}${esc(t(`web.puzzles.theme.${p.theme}`))} ·
          ${esc(t("web.puzzles.puzzle_rating", { rating: p.rating }))}</p>
        ${s.verdict ? "" : `<p class="puzzle-task">${esc(t("web.puzzles.task"))}</p>`}`
      : "";
    return `<section class="panel puzzle-head" data-puzzle="${esc(p?.id ?? "")}"><h2>${esc(t("web.puzzles.title"))}</h2>${ratingMarkup()}
      <div class="actions-row">${themeMarkup()}<a class="button daily-puzzle" data-nav href="/?puzzles=daily">${esc(t("web.puzzles.daily"))}</a></div>
      ${about}</section>`;
  }

  /** The player's move and the best one marked in the hand, once answered. */
  function markMoves() {
    if (!s.verdict) return;
    const mark = (action, name) => view.querySelector(`.hand .card[data-card="${action.split(":")[0]}"]`)?.classList.add(name);
    mark(s.verdict.answer, "played-move");
    mark(s.verdict.best, "best-move");
  }

  function render() {
    if (s.error) {
      view.innerHTML = `${headMarkup()}<p class="panel error">${esc(s.error)}</p>`;
      return wire();
    } else if (!s.puzzle) {
      view.innerHTML = `<p class="panel loading">${esc(t("web.loading"))}</p>`;
      return wire();
    } else if (s.table === null) {
      view.innerHTML = `<div class="puzzle-top">${headMarkup()}${verdictMarkup()}</div><div class="puzzle-table"></div>`;
      s.table = showTable(view.querySelector(".puzzle-table"), app, s.puzzle.id, (id, handlers) =>
        new PuzzleConnection(s.puzzle, app, { ...handlers, onVerdict: answered, onRefused: refused }),
      );
    } else {
      view.querySelector(".puzzle-top").innerHTML = headMarkup() + verdictMarkup();
      s.table.render();
    }
    markMoves();
    wire();
  }

  function wire() {
    view.querySelector(".puzzle-theme select")?.addEventListener("change", (event) => {
      s.theme = event.target.value;
      sessionStorage.setItem("raspisnoy.puzzleTheme", s.theme);
      app.navigate("/?puzzles");
    });
    view.querySelector(".next-puzzle")?.addEventListener("click", () => app.navigate("/?puzzles"));
  }

  async function answered(verdict) {
    s.verdict = verdict;
    s.rating = await get("/puzzles/rating").catch(() => s.rating);
    render();
    view.querySelector(".verdict")?.scrollIntoView({ block: "start" });
  }

  function refused(error) {
    s.error = error.message;
    s.table?.stop();
    render();
  }

  load();
  return { render, stop: () => s.table?.stop() };
}
