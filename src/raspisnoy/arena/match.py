"""Duplicate bot matches: every deal is played once per seating of the bots, so that the
cards each seat gets are the same for every bot and card luck cancels.

A match of G games with N players is ceil(G / N) deals, each played with the line-up of
bots rotated through the N seats (the game's seed, and so its shuffles and first dealer,
is the deal's). Games are independent work units, spread over worker processes.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from raspisnoy.bots import BOTS, make_bot
from raspisnoy.core import (
    Game,
    InvalidInputError,
    Rules,
    dumps_record,
    game_to_record,
    resolve_rules,
)
from raspisnoy.files import write_atomically

__all__ = [
    "BotStats",
    "GameResult",
    "KindStats",
    "MatchConfig",
    "MatchResult",
    "difference",
    "play_game",
    "run_match",
    "summarize",
]

_Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What to play: the line-up (one bot name per seat), how many games, on what rules."""

    bots: tuple[str, ...]
    games: int
    seed: int | str = 0
    rules: Rules = field(default_factory=resolve_rules)
    workers: int = 1
    time_ms: float | None = None
    records: Path | None = None

    def __post_init__(self) -> None:
        unknown = [name for name in self.bots if name not in BOTS]
        if unknown:
            raise InvalidInputError(f"unknown bot {unknown[0]!r}; bots: {', '.join(BOTS)}")
        players = len(self.bots)
        if players not in self.rules.player_counts:
            counts = self.rules.player_counts
            raise InvalidInputError(
                f"{self.rules.preset} is played by {counts.start}–{counts.stop - 1} players, "
                f"not {players}"
            )
        if self.games < 1:
            raise InvalidInputError(f"--games must be at least 1, not {self.games}")
        if self.workers < 1:
            raise InvalidInputError(f"--workers must be at least 1, not {self.workers}")

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def deals(self) -> int:
        """Deals in the match: each is played once per seating."""
        return math.ceil(self.games / self.players)

    def units(self) -> Iterator[tuple[int, int]]:
        """(deal, rotation) of every game, deal by deal."""
        for deal in range(self.deals):
            for rotation in range(self.players):
                yield deal, rotation


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One bot's game: its points, its share of the win, its bids and decision times, and
    its points summed over the rounds of each kind (``RoundKind`` value, points), in the
    order the kinds first came."""

    bot: str
    points: int
    win: float
    exact_bids: int
    bids: int
    decision_ms: tuple[float, ...]
    kind_points: tuple[tuple[str, int], ...] = ()

    def points_of(self, kind: str | None) -> int:
        """The game's points (``kind`` ``None``) or those of its rounds of ``kind``."""
        return self.points if kind is None else dict(self.kind_points).get(kind, 0)


@dataclass(frozen=True, slots=True)
class GameResult:
    deal: int
    rotation: int
    seats: tuple[SeatResult, ...]


def seat_names(bots: tuple[str, ...]) -> tuple[str, ...]:
    """Distinct player names for a line-up: the bot's name, numbered when repeated."""
    names = []
    for seat, bot in enumerate(bots):
        repeats = bots[:seat].count(bot)
        names.append(bot if repeats == 0 and bots.count(bot) == 1 else f"{bot} {repeats + 1}")
    return tuple(names)


def play_game(config: MatchConfig, deal: int, rotation: int) -> GameResult:
    """Play one game of the match: deal ``deal`` with the line-up rotated ``rotation`` seats."""
    players = config.players
    lineup = tuple(config.bots[(seat + rotation) % players] for seat in range(players))
    seed = f"{config.seed}/{deal}"
    game = Game(config.rules, seat_names(lineup), seed=seed)
    bots = [
        make_bot(name, seed=f"{seed}/{seat}", time_ms=config.time_ms)
        for seat, name in enumerate(lineup)
    ]
    times: list[list[float]] = [[] for _ in range(players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        started = time.perf_counter()
        action = bots[seat].act(view)
        if len(view.legal_actions) > 1:  # a forced move is no decision
            times[seat].append((time.perf_counter() - started) * 1000)
        game.apply(action, seat)
    if config.records is not None:
        path = config.records / f"deal-{deal:05d}-seating-{rotation}.json"
        write_atomically(path, dumps_record(game_to_record(game)))
    winners = game.winners()
    rounds = [r for r in game.rounds() if r.bids is not None]
    scored = [r for r in game.rounds() if r.points is not None]
    kinds = list(dict.fromkeys(r.kind.value for r in scored))
    return GameResult(
        deal,
        rotation,
        tuple(
            SeatResult(
                bot=lineup[seat],
                points=game.totals[seat],
                win=1.0 / len(winners) if seat in winners else 0.0,
                exact_bids=sum(r.bids[seat] == r.taken[seat] for r in rounds if r.bids),
                bids=len(rounds),
                decision_ms=tuple(times[seat]),
                kind_points=tuple(
                    (kind, sum(r.points[seat] for r in scored if r.points and r.kind == kind))
                    for kind in kinds
                ),
            )
            for seat in range(players)
        ),
    )


def _play_unit(args: tuple[MatchConfig, int, int]) -> GameResult:
    return play_game(*args)


def play_games(config: MatchConfig) -> Iterator[GameResult]:
    """Every game of the match, as it finishes (in any order with several workers)."""
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
    units = [(config, deal, rotation) for deal, rotation in config.units()]
    if config.workers == 1:
        yield from map(_play_unit, units)
        return
    with ProcessPoolExecutor(max_workers=config.workers) as pool:
        yield from pool.map(_play_unit, units, chunksize=1)


@dataclass(frozen=True, slots=True)
class KindStats:
    """One bot's points per game from the rounds of one kind, with a 95% interval."""

    kind: str
    mean_points: float
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {"mean_points": self.mean_points, "ci95": [self.ci95[0], self.ci95[1]]}


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's figures over a match (points are per game), and its points per game
    from each kind of round."""

    name: str
    mean_points: float
    ci95: tuple[float, float]
    win_rate: float
    exact_bid_rate: float
    decision_ms_p50: float
    decision_ms_p95: float
    round_kinds: tuple[KindStats, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mean_points": self.mean_points,
            "ci95": [self.ci95[0], self.ci95[1]],
            "win_rate": self.win_rate,
            "exact_bid_rate": self.exact_bid_rate,
            "decision_ms_p50": self.decision_ms_p50,
            "decision_ms_p95": self.decision_ms_p95,
            "round_kinds": {stats.kind: stats.to_json() for stats in self.round_kinds},
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    games: int
    bots: tuple[BotStats, ...]

    def to_json(self) -> dict[str, Any]:
        """Exactly the arena's ``--json`` document."""
        return {"games": self.games, "bots": [bot.to_json() for bot in self.bots]}


def summarize(config: MatchConfig, results: list[GameResult]) -> MatchResult:
    """Per distinct bot: mean points per game with a 95% confidence interval, win rate,
    exact-bid rate and decision times. The interval comes from the spread of the bot's
    mean over whole deals (all seatings of one deal together), the independent units of
    a duplicate match; the same for the points of each kind of round."""
    seats: dict[str, list[SeatResult]] = defaultdict(list)
    for result in results:
        for seat in result.seats:
            seats[seat.bot].append(seat)
    kinds = list(dict.fromkeys(k for r in results for s in r.seats for k, _ in s.kind_points))
    stats = []
    for name in dict.fromkeys(config.bots):
        entries = seats[name]
        mean, (low, high) = _deal_mean(results, name, None)
        by_kind = tuple(KindStats(kind, *_deal_mean(results, name, kind)) for kind in kinds)
        times = sorted(ms for entry in entries for ms in entry.decision_ms)
        bids = sum(entry.bids for entry in entries)
        stats.append(
            BotStats(
                name=name,
                mean_points=mean,
                ci95=(low, high),
                win_rate=statistics.fmean(entry.win for entry in entries),
                exact_bid_rate=sum(entry.exact_bids for entry in entries) / bids if bids else 0.0,
                decision_ms_p50=_percentile(times, 0.50),
                decision_ms_p95=_percentile(times, 0.95),
                round_kinds=by_kind,
            )
        )
    return MatchResult(len(results), tuple(stats))


def _deal_means(results: list[GameResult], name: str, kind: str | None) -> dict[int, float]:
    """Bot ``name``'s mean points per game (``kind``: from the rounds of that kind) in
    each deal it played."""
    by_deal: dict[int, list[int]] = defaultdict(list)
    for result in results:
        for seat in result.seats:
            if seat.bot == name:
                by_deal[result.deal].append(seat.points_of(kind))
    return {deal: statistics.fmean(points) for deal, points in by_deal.items()}


def _deal_mean(
    results: list[GameResult], name: str, kind: str | None
) -> tuple[float, tuple[float, float]]:
    """Bot ``name``'s mean points per game (of ``kind``'s rounds) and its 95% interval."""
    deal_means = list(_deal_means(results, name, kind).values())
    points = [s.points_of(kind) for r in results for s in r.seats if s.bot == name]
    mean = statistics.fmean(deal_means)
    half = _half_interval(deal_means, points)
    return mean, (mean - half, mean + half)


def difference(
    results: list[GameResult], first: str, second: str, kind: str | None = None
) -> tuple[float, tuple[float, float]]:
    """How many more points per game bot ``first`` scored than bot ``second`` (from the
    rounds of ``kind``, or all), paired by deal: the mean over deals of the two bots'
    difference in that deal, with its 95% interval. Pairing cancels the luck of the
    cards, which the two bots held alike, so the interval is narrower than the two
    bots' own intervals would suggest."""
    ours, theirs = _deal_means(results, first, kind), _deal_means(results, second, kind)
    gaps = [ours[deal] - theirs[deal] for deal in ours if deal in theirs]
    if not gaps:
        raise InvalidInputError(f"{first} and {second} never played the same deal")
    mean = statistics.fmean(gaps)
    half = _half_interval(gaps, gaps)
    return mean, (mean - half, mean + half)


def _half_interval(deal_means: list[float], points: list[int] | list[float]) -> float:
    """Half the width of the 95% interval of the mean: over deals, or with a single deal
    over its games (zero for a single game)."""
    sample: list[float] | list[int] = deal_means if len(deal_means) > 1 else points
    if len(sample) < 2:
        return 0.0
    return _Z95 * statistics.stdev(sample) / math.sqrt(len(sample))


def _percentile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values (0.0 when there are none)."""
    if not ordered:
        return 0.0
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[round(q * 100) - 1]


def run_match(
    config: MatchConfig, progress: Callable[[GameResult], None] | None = None
) -> MatchResult:
    """Play the whole match, calling ``progress`` after each game, and sum it up."""
    results = []
    for result in play_games(config):
        results.append(result)
        if progress is not None:
            progress(result)
    return summarize(config, results)
