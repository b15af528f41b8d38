"""The advisor against a brute force built from the engine's own settlement, and the
compiled kernels against the pure ones.

Exact enumeration over the full deck is the benchmark's business; here most of the deck
is "seen" (``seen=``), which leaves a dozen unknown cards: every dealer hand, every
draw and every purchase can then be settled one by one with ``settle_box``.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest
from casino_helpers import cards

from raspisnoy.casino import DECK, Card, dealer_after_purchase, evaluate, settle_box
from raspisnoy.casino_advisor.advisor import advise, advise_purchase
from raspisnoy.casino_advisor.fast import compiled

BOX = cards("QS QH 7D 4C 2S")
UP = Card.parse("9H")


def _seen(keep_unknown: int, seed: int) -> tuple[Card, ...]:
    """All but ``keep_unknown`` of the cards outside the box and the up card."""
    rest = [c for c in DECK if c not in BOX and c != UP]
    random.Random(seed).shuffle(rest)
    return tuple(rest[keep_unknown:])


def _brute_bet(box: tuple[Card, ...], unknown: list[Card]) -> float:
    """Betting's mean net in antes: every dealer hand, buying his game when that is
    worth more than the ante (every draw he may make settled)."""
    nets = []
    for hidden in itertools.combinations(unknown, 4):
        dealer = (*hidden, UP)
        plain: float = settle_box(1, box, dealer).net
        if not evaluate(dealer).qualifies:
            draws = [c for c in unknown if c not in hidden]
            bought = [
                settle_box(1, box, dealer, dealer_bought=dealer_after_purchase(dealer, d)).net
                for d in draws
            ]
            plain = max(plain, sum(bought) / len(bought))
        nets.append(plain)
    return sum(nets) / len(nets)


def _brute_exchange(kept: tuple[Card, ...], draws: int, unknown: list[Card]) -> float:
    values = []
    for drawn in itertools.combinations(unknown, draws):
        rest = [c for c in unknown if c not in drawn]
        values.append(max(-1.0, _brute_bet((*kept, *drawn), rest)) - 1.0)
    return sum(values) / len(values)


SMALL_SEEN = _seen(10, 1)


@pytest.fixture(scope="module")
def brute_force() -> dict[str, float]:
    unknown = [c for c in DECK if c not in BOX and c != UP and c not in SMALL_SEEN]
    return {
        "bet": _brute_bet(BOX, unknown),
        "buy": _brute_exchange(BOX, 1, unknown),
        "change 2S": _brute_exchange(BOX[:4], 1, unknown),
        "change 4C 2S": _brute_exchange(BOX[:3], 2, unknown),
        "change 7D 4C 2S": _brute_exchange(BOX[:2], 3, unknown),
        "change QH 7D 4C 2S": _brute_exchange(BOX[:1], 4, unknown),
        "change QS QH 7D 4C 2S": _brute_exchange((), 5, unknown),
    }


@pytest.mark.parametrize(
    ("fast", "reference"),
    [(False, False), (False, True), (True, False), (True, True)],
    ids=["pure", "pure-reference", "compiled", "compiled-reference"],
)
def test_exact_values_match_the_brute_force(
    fast: bool, reference: bool, brute_force: dict[str, float]
) -> None:
    """Every exchange enumerated (the changes of up to five cards with their shortcuts,
    and by the benchmark's reference path) against every deal settled one by one."""
    if fast and compiled() is None:
        pytest.skip("Numba is not installed")
    advice = advise(
        BOX,
        UP,
        seen=SMALL_SEEN,
        fast=fast,
        exact_draws=10**4,
        only=set(brute_force),
        reference=reference,
    )
    values = {option.option: option for option in advice.options}
    assert values["fold"].value == -1.0
    for name, value in brute_force.items():
        assert values[name].method == "exact"
        assert values[name].value == pytest.approx(value, abs=1e-9)


def test_sampled_values_are_within_their_interval() -> None:
    # The exact figures (checked against the brute force above) are the reference.
    fast = compiled() is not None
    seen = _seen(16 if fast else 10, 2)
    only = {"change 7D 4C 2S", "change QH 7D 4C 2S"}
    exact = advise(BOX, UP, seen=seen, fast=fast, exact_draws=10**4, only=only)
    sampled = advise(
        BOX, UP, seen=seen, fast=fast, exact_draws=0, exact_contenders=0, only=only, seed=3
    )
    for name in only:
        truth = next(o for o in exact.options if o.option == name)
        guess = next(o for o in sampled.options if o.option == name)
        assert truth.method == "exact" and guess.method == "sampled" and guess.error > 0
        # The sampler decides bet or fold roughly after each draw, so it can only fall
        # short of the best play; allow its 95% interval twice and a small margin for that.
        assert truth.value - 2 * guess.error - 0.05 <= guess.value <= truth.value + 2 * guess.error


def test_compiled_kernels_agree_with_the_pure_ones() -> None:
    if compiled() is None:
        pytest.skip("Numba is not installed")
    seen = _seen(14, 4)
    only = {"bet", "buy", "change 4C", "change 4C 2S", "change QS 7D 4C"}
    pure = advise(BOX, UP, seen=seen, fast=False, exact_draws=400, only=only)
    fast = advise(BOX, UP, seen=seen, fast=True, exact_draws=400, only=only)
    assert len(pure.options) == len(only) + 1
    for a, b in zip(pure.options, fast.options, strict=True):
        assert (a.option, a.method) == (b.option, b.method)
        assert a.value == pytest.approx(b.value, abs=1e-12)


#: In a fresh interpreter: ``warm_up()``, then each compiled kernel's signatures and
#: whether Numba caches it on disk.
WARM_UP_PROBE = """
import json
from raspisnoy.casino_advisor import warm_up
from raspisnoy.casino_advisor.fast import compiled
warm_up()
jit = compiled()
print(json.dumps({
    name: [len(kernel.signatures), kernel.stats.cache_path is not None]
    for name, kernel in vars(jit).items() if name != "arrays"
}))
"""
#: The kernels an advice runs (the others are called by these, or only by benchmarks).
ADVICE_KERNELS = (
    "fill_dealer_table",
    "fill_subset_lists",
    "fill_purchase_table",
    "fill_purchase_order",
    "bet_value",
    "exact_exchange",
    "sample_exchange",
)


def test_warm_up_leaves_the_kernels_compiled_and_cached_on_disk() -> None:
    """What the server runs as it starts (``server/app.py``): afterwards no hint waits
    for the compiler, and the next start loads the machine code from Numba's cache."""
    if compiled() is None:
        pytest.skip("Numba is not installed")
    probe = subprocess.run(
        [sys.executable, "-c", WARM_UP_PROBE],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    kernels = json.loads(probe.stdout)
    assert {name: kernels[name][0] > 0 for name in ADVICE_KERNELS} == dict.fromkeys(
        ADVICE_KERNELS, True
    )
    assert all(cached for _count, cached in kernels.values())


def test_the_shortcuts_give_the_reference_values_on_the_whole_deck() -> None:
    """A three-card change from a full deck (15,180 draws: several batches of purchases
    held back, ``kernels.PENDING``) and a bet, with and without the shortcuts."""
    if compiled() is None:
        pytest.skip("Numba is not installed")
    box, up = cards("KS KH 9D 5C 2S"), Card.parse("7H")
    only = {"bet", "change 9D 5C 2S", "change KH 5C 2S"}
    fast = advise(box, up, exact_draws=10**5, only=only)
    slow = advise(box, up, exact_draws=10**5, only=only, reference=True)
    assert [o.option for o in fast.options] == [o.option for o in slow.options]
    for a, b in zip(fast.options, slow.options, strict=True):
        assert a.method == b.method == "exact"
        assert a.value == pytest.approx(b.value, abs=1e-12)


def test_money_limits_the_options() -> None:
    seen = _seen(10, 6)
    options = {o.option for o in advise(BOX, UP, seen=seen, money=2.5, fast=False).options}
    assert options == {"fold", "bet"}
    assert {o.option for o in advise(BOX, UP, seen=seen, money=1, fast=False).options} == {"fold"}
    no_exchange = advise(BOX, UP, seen=seen, exchange=False, fast=False)
    assert {o.option for o in no_exchange.options} == {"fold", "bet"}


def test_purchase_advice_is_exact() -> None:
    box = cards("AS 9S 7S 4S 2S")
    dealer = cards("QH JD 8C 6H 3D")
    advice = advise_purchase(box, dealer)
    values = {option.option: option.value for option in advice.options}
    # 12 of the 42 unknown cards pair the dealer's J 8 6 3; the flush then wins 5:1.
    assert values["buy-dealer"] == pytest.approx((12 * 9 - 30 * 2) / 42)
    assert values["decline"] == 1.0


def test_the_best_option_with_the_whole_deck() -> None:
    """A full-size decision point (compiled when Numba is there): a pair of aces with
    ace-king bets; the listing states its method and error."""
    advice = advise(cards("AS AH KD 8C 9S"), Card.parse("QS"), seed=1)
    assert advice.best.option == "bet" and advice.best.method == "exact"
    assert advice.best.value == pytest.approx(2.0374, abs=1e-3)
    assert advice.considered == 34  # fold, bet, the buy and 31 changes
    for option in advice.options:
        assert (option.error == 0) == (option.method == "exact")
