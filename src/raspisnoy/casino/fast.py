"""The advisor's optional fast path: ``raspisnoy.casino.kernels`` compiled by Numba.

The kernels are plain Python written in the subset Numba compiles. Compiling a function
that calls others needs those others compiled too, so every kernel is rebuilt here over
a namespace in which the kernel names are the compiled versions; the pure module stays as
it is, the reference the tests run. Without Numba (or with ``RASPISNOY_NO_JIT=1``)
``compiled()`` is ``None`` and the advisor runs the pure kernels.
"""

from __future__ import annotations

import inspect
import os
import random
import types
from collections.abc import Sequence
from functools import cache
from typing import Any

from raspisnoy.casino import kernels

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
    namespace: dict[str, Any] = dict(vars(kernels))
    for name, function in inspect.getmembers(kernels, inspect.isfunction):
        if function.__module__ != kernels.__name__:
            continue
        rebuilt = types.FunctionType(
            function.__code__, namespace, name, function.__defaults__, function.__closure__
        )
        namespace[name] = numba.njit(cache=True, nogil=True)(rebuilt)
    names = [name for name, value in vars(kernels).items() if inspect.isfunction(value)]
    return types.SimpleNamespace(arrays=_Arrays(numpy), **{name: namespace[name] for name in names})
