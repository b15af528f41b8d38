"""The advisor's optional fast path: its kernels (``raspisnoy.casino_advisor.kernels``) and
the rules' hand ranking they call (``raspisnoy.casino.ranking``) compiled by Numba.

Both modules are plain Python written in the subset Numba compiles. Compiling a function
that calls others needs those others compiled too, so every function of both is rebuilt
here over one namespace in which their names are the compiled versions; the pure modules
stay as they are, the reference the tests run (and the rules' own arithmetic). Without
Numba (or with ``RASPISNOY_NO_JIT=1``) ``compiled()`` is ``None`` and the advisor runs
the pure kernels. ``cache=True`` keeps the machine code in ``__pycache__`` beside the
sources, so only the first start after installing compiles.
"""

from __future__ import annotations

import inspect
import os
import random
import types
from collections.abc import Sequence
from functools import cache
from typing import Any

from raspisnoy.casino import ranking
from raspisnoy.casino_advisor import kernels

__all__ = ["compiled"]


class _Arrays:
    """The kernels' buffers as NumPy arrays, for the compiled kernels."""

    def __init__(self, numpy: Any) -> None:
        self._numpy = numpy

    def ints(self, size: int) -> Any:
        return self._numpy.zeros(size, dtype=self._numpy.int64)

    def floats(self, size: int) -> Any:
        return self._numpy.zeros(size, dtype=self._numpy.float64)

    def of(self, values: Sequence[int]) -> Any:
        return self._numpy.array(values, dtype=self._numpy.int64)

    def order(self, keys: Sequence[int]) -> Any:
        return self._numpy.argsort(keys, kind="stable")

    def uniforms(self, rng: random.Random, size: int) -> Any:
        return self._numpy.random.default_rng(rng.getrandbits(64)).random(size)


@cache
def compiled() -> types.SimpleNamespace | None:
    """The kernels compiled by Numba, by name, and ``arrays`` (their buffers); ``None``
    where NumPy or Numba is missing or ``RASPISNOY_NO_JIT`` is set."""
    if os.environ.get("RASPISNOY_NO_JIT"):
        return None
    try:
        import numba
        import numpy
    except ImportError:
        return None
    modules = (ranking, kernels)
    namespace: dict[str, Any] = {**vars(ranking), **vars(kernels)}
    names = [
        name
        for module in modules
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__
    ]
    for name in names:
        function = namespace[name]
        rebuilt = types.FunctionType(
            function.__code__, namespace, name, function.__defaults__, function.__closure__
        )
        namespace[name] = numba.njit(cache=True, nogil=True)(rebuilt)
    return types.SimpleNamespace(arrays=_Arrays(numpy), **{name: namespace[name] for name in names})
