"""Rulesets as data: the options of a game, their metadata, and the presets.

A ``Rules`` value is the fully resolved set of options one game is played by. It is
built from a preset (``raspisnoy.com`` by default) plus per-table overrides, and it is
what a record stores. Every option carries a one-line description in English and
Russian and is validated on construction, so a table, a record or ``--set`` can never
smuggle in a value the engine does not understand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from raspisnoy.core.cards import ALL_CARDS, JOKERS, Card
from raspisnoy.core.errors import InvalidInputError
from raspisnoy.core.kinds import SPECIAL_KINDS, parse_plan_entry

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "OptionInfo",
    "Rules",
    "deck_cards",
    "max_cards",
    "option_info",
    "parse_option_value",
    "resolve_rules",
]

DEFAULT_PRESET = "raspisnoy.com"


#: Bounds of every option that gives points: far beyond any house rule, and small enough
#: that no total can leave a 64-bit integer (at most 100 rounds × 26 tricks × 1,000 points,
#: × 10 for bidding all, × 10 for percent rounds, × 10 for a kind's percentage: < 10¹¹).
_POINTS: dict[str, Any] = {"low": -1000, "high": 1000}
#: Most entries of ``custom_plan`` (the longest standard plan, classic for two players
#: with 52 cards, has 60 rounds).
_MAX_PLAN = 100
#: Most entries of ``special_rounds`` (each kind may be listed more than once).
_MAX_SPECIAL_ROUNDS = 12


def _option(default: Any, en: str, ru: str, **limits: Any) -> Any:
    """A rules option: its default and the metadata that documents and validates it."""
    return field(default=default, metadata={"en": en, "ru": ru, **limits})


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved options of one game. Build it with ``resolve_rules``."""

    preset: str = DEFAULT_PRESET
    min_players: int = _option(
        3, "Fewest players the ruleset allows", "Наименьшее число игроков", low=2, high=10
    )
    max_players: int = _option(
        5, "Most players the ruleset allows", "Наибольшее число игроков", low=2, high=10
    )
    lowest_rank: int = _option(
        6,
        "Lowest rank in the deck: 6 for 36 cards, 2 for 52",
        "Младшая карта колоды: 6 для 36 карт, 2 для 52",
        low=2,
        high=6,
    )
    jokers: tuple[str, ...] = _option(
        ("7S",),
        "Cards that serve as jokers (X; X1 and X2 when there are two)",
        "Карты, которые играют джокером (X; X1 и X2, если их два)",
        max_items=2,
    )
    extra_jokers: int = _option(
        0,
        "Jokers added to the deck (2 for the 54-card deck); X, or X1 and X2",
        "Джокеры, добавленные в колоду (2 для колоды в 54 карты); X или X1 и X2",
        low=0,
        high=2,
    )
    descending: bool = _option(
        False,
        "Play the descending phase M−1…1 after the ascending one",
        "Играть нисходящую часть M−1…1 после восходящей",
    )
    deal_sequence: str = _option(
        "raspisnoy.com",
        "Order of the deals: as on raspisnoy.com (1…M, then M × (N−1)), classic "
        "(1…M−1, M × N, M−1…1) or Georgian (1…M−1, M × N, M−1…1, M × N)",
        "Порядок раздач: как на raspisnoy.com (1…M, затем M × (N−1)), классический "
        "(1…M−1, M × N, M−1…1) или грузинский (1…M−1, M × N, M−1…1, M × N)",
        choices=("raspisnoy.com", "classic", "georgian"),
    )
    special_rounds: tuple[str, ...] = _option(
        ("no-trump", "blind", "misere", "golden"),
        "Special rounds after the deal sequence, each played N times with M cards, in order",
        "Особые раздачи после основных, каждая N раз по M карт, в этом порядке",
        max_items=_MAX_SPECIAL_ROUNDS,
    )
    custom_plan: tuple[str, ...] = _option(
        (),
        "Replace the round plan with this list of deals: a number of cards, or cards and a "
        "kind (e.g. 9:blind, a blind round of 9 cards)",
        "Заменить план раздач этим списком: число карт или карты и вид раздачи "
        "(например 9:blind — тёмная на 9 картах)",
        max_items=_MAX_PLAN,
    )
    control_game: bool = _option(
        False,
        "After the plan, while first place is tied, the last-placed player chooses the kind "
        "and dealer of one more round («контрольная»)",
        "После плана, пока первое место поделено, последний выбирает вид и сдающего ещё одной "
        "раздачи («контрольная»)",
    )
    max_zero_bids_in_a_row: int = _option(
        0,
        "Most rounds in a row a player may bid 0 (the dealer's rule wins a conflict); 0: no limit",
        "Сколько раз подряд можно заказать пас (правило сдающего важнее); 0 — без ограничений",
        low=0,
        high=50,
    )
    zero_total_second: bool = _option(
        False,
        "A final total of exactly 0 cannot win: it counts as second place",
        "Итог ровно 0 не может победить: он считается вторым местом",
    )
    dealer_constraint: bool = _option(
        True,
        "The dealer may not bid so that the bids sum to the cards dealt",
        "Сдающий не может заказать так, чтобы сумма заказов равнялась числу карт",
    )
    trump_when_void: bool = _option(
        False,
        "A player without the suit led must play a trump if they hold one",
        "Без масти хода игрок обязан бить козырем, если он есть",
    )
    rotating_trumps: bool = _option(
        False,
        "Rotating trumps: no card is turned up; each trick's trump is the suit after the suit "
        "led (♠→♣→♦→♥→♠)",
        "Круговые козыри: козырь не открывают; козырь взятки — масть после масти захода "
        "(♠→♣→♦→♥→♠)",
    )
    trump_source: str = _option(
        "undealt",
        "Trump card: the top of the undealt rest, or always the dealer's last card "
        "(redealt if it is a joker)",
        "Козырь: верхняя карта остатка колоды или всегда последняя карта сдающего "
        "(пересдача, если это джокер)",
        choices=("undealt", "dealer_last"),
    )
    max_deal_trump: str = _option(
        "dealer_shows",
        "When every card is dealt: the dealer shows their last card for trump, or no trump",
        "Когда розданы все карты: сдающий открывает свою последнюю карту, или игра без козыря",
        choices=("dealer_shows", "none"),
    )
    joker_lead_take: bool = _option(
        False,
        "A led joker may also announce 'take': it wins, and nobody has to follow a suit",
        "Джокер с хода можно объявить «забираю»: он берёт взятку, масть не обязательна",
    )
    joker_highest_beaten_by_trump: bool = _option(
        False,
        "A joker led as 'highest S' (S not trump) loses to a trump; players void in S must trump",
        "Джокер «по старшей S» (S не козырь) бьётся козырем; у кого нет S, обязан козырять",
    )
    joker_discard_lead_unfollowed: str = _option(
        "first_follower_suit",
        "Joker led as 'discard S', nobody plays S or a trump: the first follower's suit "
        "decides, or the joker wins",
        "Джокер с хода «скидываю S», никто не дал S и не козырнул: решает масть первой карты "
        "после джокера, или джокер берёт",
        choices=("first_follower_suit", "joker_wins"),
    )
    exact_per_trick: int = _option(
        10,
        "Points per trick for an exact bid above 0",
        "Очки за взятку при точном заказе (> 0)",
        **_POINTS,
    )
    exact_bonus: int = _option(
        0,
        "Points added to an exact bid above 0 (Georgian: 50 × bid + 50)",
        "Добавка к точному заказу больше 0 (грузинский: 50 × заказ + 50)",
        **_POINTS,
    )
    exact_zero: int = _option(
        5, "Points for an exact bid of 0", "Очки за сыгранный ноль (пас)", **_POINTS
    )
    bid_all_multiplier: int = _option(
        1,
        "Multiplier for bidding and taking every card of a deal of 2 or more",
        "Множитель, если заказаны и взяты все взятки раздачи из 2 и более карт",
        low=1,
        high=10,
    )
    undertrick_per_trick: int = _option(
        -10, "Points per missing trick (undertrick)", "Очки за каждую недобранную взятку", **_POINTS
    )
    undertrick_counts: str = _option(
        "missing",
        "Undertrick points count the missing tricks, or the whole bid",
        "Штраф за недобор считается по недобранным взяткам или по всему заказу",
        choices=("missing", "bid"),
    )
    overtrick_per_trick: int = _option(
        1,
        "Points per trick counted when taking more than the bid",
        "Очки за каждую засчитанную взятку при переборе",
        **_POINTS,
    )
    overtrick_counts: str = _option(
        "taken",
        "Overtrick points count every trick taken, or only the extra ones",
        "При переборе считаются все взятые взятки или только лишние",
        choices=("taken", "extra"),
    )
    miss_scoring: str = _option(
        "under_over",
        "A missed bid scores as undertrick/overtrick, or per trick taken (Georgian)",
        "Промах считается как недобор/перебор или по взятым взяткам (грузинский)",
        choices=("under_over", "per_trick_taken"),
    )
    miss_per_trick: int = _option(
        10,
        "When a miss scores per trick taken (Georgian): points per trick taken on a miss",
        "Когда промах считается по взятым взяткам (грузинский): очки за взятку при промахе",
        **_POINTS,
    )
    khishti_penalty: int = _option(
        0,
        "Points for taking no trick after a bid of 1 or more («хишти»); 0: off",
        "Очки за ни одной взятки при заказе 1 и больше («хишти»); 0 — не применяется",
        **_POINTS,
    )
    misere_zero: int = _option(
        100, "Misère: points for no tricks", "Мизер: очки без взяток", **_POINTS
    )
    misere_per_trick: int = _option(
        -20, "Misère: points per trick", "Мизер: очки за взятку", **_POINTS
    )
    golden_zero: int = _option(
        -100, "Golden: points for no tricks", "Золотая: очки без взяток", **_POINTS
    )
    golden_per_trick: int = _option(
        20, "Golden: points per trick", "Золотая: очки за взятку", **_POINTS
    )
    misere_all_tricks: int = _option(
        0,
        "Misère: points for taking every trick; 0: counted per trick as usual",
        "Мизер: очки за все взятки; 0 — считать по взяткам как обычно",
        **_POINTS,
    )
    forehead_exact: int = _option(
        50, "Forehead: points for an exact bid", "Лобовая: очки за точный заказ", **_POINTS
    )
    forehead_miss: int = _option(
        -50, "Forehead: points for a miss", "Лобовая: очки за промах", **_POINTS
    )
    percent_multiplier: int = _option(
        3,
        "Percent rounds: all points count this many times",
        "Проценты: все очки умножаются на это число",
        low=1,
        high=10,
    )
    blind_percent: int = _option(
        100, "Blind rounds: points × this / 100", "Тёмная: очки × это / 100", low=1, high=1000
    )
    no_trump_percent: int = _option(
        100,
        "No-trump rounds: points × this / 100",
        "Бескозырка: очки × это / 100",
        low=1,
        high=1000,
    )
    misere_percent: int = _option(
        100, "Misère rounds: points × this / 100", "Мизер: очки × это / 100", low=1, high=1000
    )
    golden_percent: int = _option(
        100, "Golden rounds: points × this / 100", "Золотая: очки × это / 100", low=1, high=1000
    )

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def player_counts(self) -> range:
        """Every number of players the ruleset allows."""
        return range(self.min_players, self.max_players + 1)

    def to_json(self) -> dict[str, Any]:
        """Every option with its value, led by the preset (docs/record.md ``rules`` object)."""
        data: dict[str, Any] = {"preset": self.preset}
        for info in option_info():
            value = getattr(self, info.name)
            data[info.name] = list(value) if isinstance(value, tuple) else value
        return data

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return resolve_rules(self, **changes)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """What one option is: name, type, default and descriptions."""

    name: str
    type: type
    default: Any
    en: str
    ru: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    #: Most items of a list option.
    max_items: int | None = None


@lru_cache(maxsize=1)
def option_info() -> tuple[OptionInfo, ...]:
    """The metadata of every option, in declaration order."""
    infos = []
    for f in dataclasses.fields(Rules):
        if f.name == "preset":
            continue
        default = f.default
        infos.append(
            OptionInfo(
                name=f.name,
                type=type(default),
                default=default,
                en=f.metadata["en"],
                ru=f.metadata["ru"],
                low=f.metadata.get("low"),
                high=f.metadata.get("high"),
                choices=f.metadata.get("choices", ()),
                max_items=f.metadata.get("max_items"),
            )
        )
    return tuple(infos)


def _info(name: str) -> OptionInfo:
    for info in option_info():
        if info.name == name:
            return info
    known = ", ".join(i.name for i in option_info())
    raise InvalidInputError(
        f"unknown rules option {name!r} (known: {known})",
        code="unknown_option",
        params={"option": name, "known": known},
    )


#: Preset name -> the options it changes from the defaults, and its description.
PRESETS: dict[str, dict[str, Any]] = {
    "raspisnoy.com": {},
    "classic": {
        "max_players": 6,
        "deal_sequence": "classic",
        "special_rounds": ("blind", "no-trump", "golden", "misere"),
        "trump_when_void": True,
        "max_deal_trump": "none",
        "joker_highest_beaten_by_trump": True,
        "blind_percent": 200,
        "no_trump_percent": 200,
        "misere_zero": 0,
        "golden_zero": 0,
    },
    "ukrainian": {
        "min_players": 2,
        "max_players": 10,
        "deal_sequence": "classic",
        "trump_when_void": True,
        "overtrick_counts": "extra",
        "bid_all_multiplier": 2,
        "misere_zero": 50,
        "blind_percent": 150,
        "no_trump_percent": 150,
        "misere_percent": 150,
        "golden_percent": 150,
    },
    "georgian": {
        "max_players": 6,
        "jokers": ("6S", "6C"),
        "deal_sequence": "georgian",
        "special_rounds": (),
        "trump_when_void": True,
        "joker_highest_beaten_by_trump": True,
        "joker_discard_lead_unfollowed": "joker_wins",
        "exact_per_trick": 50,
        "exact_bonus": 50,
        "exact_zero": 50,
        "miss_scoring": "per_trick_taken",
    },
    "oh-hell": {
        "max_players": 7,
        "lowest_rank": 2,
        "jokers": (),
        "deal_sequence": "classic",
        "special_rounds": (),
        "exact_per_trick": 1,
        "exact_bonus": 10,
        "exact_zero": 10,
        "miss_scoring": "per_trick_taken",
        "miss_per_trick": 1,
    },
}
PRESET_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "raspisnoy.com": (
        "The raspisnoy.com edition: 36 cards, 7♠ joker, trumping optional",
        "Правила raspisnoy.com: 36 карт, джокер 7♠, козырять не обязательно",
    ),
    "classic": (
        "The Russian rules sheet: must trump when void, no trump on the full deal, "
        "blind and no-trump count double",
        "Классический лист правил: без масти бить козырем, на полной раздаче без козыря, "
        "тёмная и бескозырка вдвойне",
    ),
    "ukrainian": (
        "Ukrainian rules: 2-10 players, special rounds ×1.5, all tricks bid and taken ×2, "
        "overtricks count only the extra tricks",
        "Украинские правила: 2-10 игроков, особые раздачи ×1,5, заказ на все взятки ×2, "
        "при переборе считаются только лишние взятки",
    ),
    "georgian": (
        "Georgian Joker: 6♠ and 6♣ are jokers, 1…8, 4 × 9, 8…1, 4 × 9; exact 50 × bid + 50",
        "Грузинский джокер: 6♠ и 6♣ — джокеры, 1…8, 4 × 9, 8…1, 4 × 9; точно 50 × заказ + 50",
    ),
    "oh-hell": (
        "Oh Hell for comparison: 52 cards, no joker, 1 per trick + 10 for an exact bid",
        "«О, чёрт» для сравнения: 52 карты без джокера, 1 за взятку + 10 за точный заказ",
    ),
}


def _validate(rules: Rules) -> None:
    for info in option_info():
        value = getattr(rules, info.name)
        if not _has_type(value, info.type):
            raise _wrong_type(info, value)
        if info.choices and value not in info.choices:
            choices = ", ".join(info.choices)
            raise InvalidInputError(
                f"rules option {info.name} must be one of {choices}, not {value!r}",
                code="option_choice",
                params={"option": info.name, "choices": choices, "value": repr(value)},
            )
        if info.low is not None and info.high is not None and not info.low <= value <= info.high:
            shown = _shortened(value)
            raise InvalidInputError(
                f"rules option {info.name} must be between {info.low} and {info.high}, not {shown}",
                code="option_range",
                params={"option": info.name, "low": info.low, "high": info.high, "value": shown},
            )
        if info.max_items is not None and len(value) > info.max_items:
            raise InvalidInputError(
                f"rules option {info.name} has at most {info.max_items} entries, not {len(value)}",
                code="option_entries",
                params={"option": info.name, "most": info.max_items, "count": len(value)},
            )
    if rules.min_players > rules.max_players:
        raise InvalidInputError(
            "rules: min_players is greater than max_players",
            code="players_order",
            params={"low": rules.min_players, "high": rules.max_players},
        )
    _validate_jokers(rules)
    for number, entry in enumerate(rules.custom_plan, start=1):
        parse_plan_entry(number, entry)
    for entry in rules.special_rounds:
        if entry not in SPECIAL_KINDS:
            kinds = ", ".join(SPECIAL_KINDS)
            raise InvalidInputError(
                f"rules option special_rounds: {entry!r} is not one of {kinds}",
                code="special_round",
                params={"entry": entry, "kinds": kinds},
            )
    if len(deck_cards(rules)) // rules.max_players < 1:
        raise InvalidInputError(
            "rules: the deck is too small for max_players",
            code="deck_too_small",
            params={"high": rules.max_players},
        )


def _shortened(value: int) -> str:
    """A number as text for a message; an absurdly long one (a client may send any, and
    Python refuses to print one of over 4,300 digits) by its size."""
    return str(value) if abs(value) < 10**24 else f"a number of {value.bit_length()} bits"


_TYPE_NAMES = {
    bool: "true or false",
    int: "a whole number",
    tuple: "a list of texts",
    str: "a text",
}
#: The error code of a value of the wrong type, by the option's type.
_TYPE_CODES = {bool: "option_not_bool", int: "option_not_int", tuple: "option_not_list"}


def _wrong_type(info: OptionInfo, value: object) -> InvalidInputError:
    """The error of option ``info`` given ``value`` of the wrong type: from a rules object
    (any JSON value) or from ``--set`` text (shown as the text typed)."""
    return InvalidInputError(
        f"rules option {info.name} must be {_TYPE_NAMES[info.type]}, not {value!r}",
        code=_TYPE_CODES.get(info.type, "option_not_text"),
        params={"option": info.name, "value": repr(value)},
    )


def _has_type(value: Any, kind: type) -> bool:
    if kind is tuple:
        return isinstance(value, tuple) and all(isinstance(item, str) for item in value)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _validate_jokers(rules: Rules) -> None:
    if len(rules.jokers) + rules.extra_jokers > 2:
        raise InvalidInputError(
            "rules: a deck has at most two jokers (jokers + extra_jokers)",
            code="jokers_count",
            params={"count": len(rules.jokers) + rules.extra_jokers},
        )
    seen = set()
    for text in rules.jokers:
        card = Card.parse(text)
        if card.is_joker or card.rank < rules.lowest_rank:
            raise InvalidInputError(
                f"rules option jokers: {text} is not a card of this deck",
                code="joker_card",
                params={"card": text},
            )
        if card in seen:
            raise InvalidInputError(
                f"rules option jokers names {text} twice", code="joker_twice", params={"card": text}
            )
        seen.add(card)


@lru_cache(maxsize=64)
def deck_cards(rules: Rules) -> tuple[Card, ...]:
    """The cards of the deck: the cards named in ``jokers`` become jokers, ``extra_jokers`` are
    added; one joker is X, two are X1 and X2."""
    replaced = {Card.parse(text) for text in rules.jokers}
    cards = [c for c in ALL_CARDS[:52] if c.rank >= rules.lowest_rank and c not in replaced]
    jokers = len(replaced) + rules.extra_jokers
    cards.extend(JOKERS[:1] if jokers == 1 else JOKERS[1 : 1 + jokers])
    return tuple(cards)


def max_cards(rules: Rules, players: int) -> int:
    """The hand-size cap M: the deck divided by the players, rounded down."""
    return len(deck_cards(rules)) // players


def parse_option_value(name: str, text: str) -> Any:
    """Convert ``--set NAME=TEXT`` text to the option's type."""
    info = _info(name)
    cleaned = text.strip()
    if info.type is bool:
        lowered = cleaned.lower()
        if lowered in {"true", "yes", "on", "1"}:
            return True
        if lowered in {"false", "no", "off", "0"}:
            return False
        raise _wrong_type(info, text)
    if info.type is int:
        try:
            return int(cleaned)
        except ValueError:
            raise _wrong_type(info, text) from None
    if info.type is tuple:
        return tuple(part.strip() for part in cleaned.split(",") if part.strip())
    return cleaned


def _coerce(name: str, value: Any) -> Any:
    """JSON has lists where options have tuples; jokers are kept in canonical notation."""
    if _info(name).type is tuple and isinstance(value, list):
        value = tuple(value)
    if name == "jokers" and isinstance(value, tuple):
        value = tuple(str(Card.parse(text)) if isinstance(text, str) else text for text in value)
    return value


def resolve_rules(spec: str | Mapping[str, Any] | Rules | None = None, **overrides: Any) -> Rules:
    """Resolve a preset name or a ``{"preset": NAME, option: value}`` object into ``Rules``.

    ``None`` means the default preset. Keyword ``overrides`` are applied last. Unknown
    presets and options, and values of the wrong type or range, raise ``InvalidInputError``.
    """
    if isinstance(spec, Rules):
        changes = {name: _coerce(name, value) for name, value in overrides.items()}
        return dataclasses.replace(spec, **changes) if changes else spec
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise InvalidInputError(
            f"rules must be a preset name or an object, not {spec!r}",
            code="rules_type",
            params={"value": repr(spec)},
        )
    options = dict(spec)
    preset = options.pop("preset", DEFAULT_PRESET)
    if not isinstance(preset, str) or preset not in PRESETS:
        known = ", ".join(PRESETS)
        raise InvalidInputError(
            f"unknown rules preset {preset!r} (known: {known})",
            code="unknown_preset",
            params={"preset": str(preset), "known": known},
        )
    values: dict[str, Any] = dict(PRESETS[preset])
    for name, value in {**options, **overrides}.items():
        values[name] = _coerce(name, value)
    return Rules(preset=preset, **values)
