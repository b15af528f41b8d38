"""Layout for narrow terminals, shared by the terminal commands (``play``, ``score``,
``review``).

A phone's terminal (Termux) is some 40 columns wide. Rich squeezes a table that is wider
than the terminal by cutting words with «…», which would cut a total, a bid or a kind in
half; so each command draws its usual table where it fits whole and, where it does not,
a compact one: no frame, names shortened (``short_names``), long cells on two lines. Lines
of items such as the cards of a hand are broken between items, never inside one
(``flow``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

__all__ = [
    "ROUND_CELL",
    "compact_table",
    "fits",
    "fitted",
    "flow",
    "name_width",
    "round_cell",
    "short_names",
]

#: The narrowest a shortened name gets: three letters and a dot.
_MIN_NAME = 4
#: The width of a round's cell on a compact score sheet, «12 бескозырка», with the space
#: after it.
ROUND_CELL = 14
#: Wide enough to measure any table at the width it would like.
_UNLIMITED = 10_000


def fits(console: Console, renderable: RenderableType) -> bool:
    """Whether ``renderable`` is drawn at its natural width in ``console``: no column of a
    table squeezed, so no cell is cut or wrapped by Rich."""
    options = console.options.update_width(_UNLIMITED)
    return Measurement.get(console, options, renderable).maximum <= console.width


def compact_table(title: str | None = None, *, show_footer: bool = False) -> Table:
    """A table for a narrow terminal: a rule under the headers, no frame, a space
    between columns."""
    return Table(
        title=title,
        show_footer=show_footer,
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=0,
    )


def round_cell(number: object, kind: str, cards: object, last: str) -> str:
    """A round on a compact score sheet, in one cell of two lines: its number and kind,
    then its cards and ``last`` (the trump, the dealer). With the column names in place
    of the values, the header of that column."""
    return f"{number} {kind}\n{cards} · {last}"


def name_width(width: int, used: int, columns: int) -> int:
    """How wide each of ``columns`` name columns may be in a line of ``width`` cells of
    which other columns use ``used``, with a space before each (at least three letters
    and a dot)."""
    return max(_MIN_NAME, (width - used) // columns - 1)


def short_names(names: Sequence[str], width: int) -> tuple[str, ...]:
    """Each name that is longer than ``width`` cut to its first letters and a dot
    («Борис» → «Бор.»), with as many letters as it takes to tell it from the others."""
    shortened = []
    for name in names:
        if cell_len(name) <= width:
            shortened.append(name)
            continue
        others = [other for other in names if other != name]
        keep = max(width - 1, 1)
        while keep < len(name) and any(other.startswith(name[:keep]) for other in others):
            keep += 1
        shortened.append(name if keep >= len(name) else name[:keep] + ".")
    return tuple(shortened)


def flow(units: Sequence[Text], width: int, gap: str = "  ") -> Text:
    """``units`` on lines of at most ``width`` cells, ``gap`` between two on a line: a
    line is broken between units, never inside one (a card and its number stay
    together). A unit wider than ``width`` has a line of its own."""
    text = Text()
    used = 0
    for unit in units:
        size = cell_len(unit.plain)
        if used and used + cell_len(gap) + size > width:
            text.append("\n")
            used = 0
        elif used:
            text.append(gap)
            used += cell_len(gap)
        text.append_text(unit)
        used += size
    return text


def fitted(console: Console, draw: Callable[[bool], Table]) -> Table:
    """``draw(False)``, the full table, where it fits ``console`` whole; else
    ``draw(True)``, the compact one."""
    table = draw(False)
    return table if fits(console, table) else draw(True)
