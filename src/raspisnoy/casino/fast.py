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
import types
from functools import cache
from typing import Any

from raspisnoy.casino import kernels

__all__ = ["compiled"]


@cache
def compiled() -> types.SimpleNamespace | None:
    """The kernels compiled by Numba, by name; ``None`` where Numba is missing or off."""
    if os.environ.get("RASPISNOY_NO_JIT"):
        return None
    try:
        import numba
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
    return types.SimpleNamespace(**{name: namespace[name] for name in names})
