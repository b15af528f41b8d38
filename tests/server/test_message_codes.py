"""Every error code and close code the protocol uses has a translation for clients."""

from __future__ import annotations

from raspisnoy.i18n import LANGUAGES, catalog
from raspisnoy.server.connection import CloseCode
from raspisnoy.server.errors import SOCKET_ERRORS


def test_every_error_and_close_code_is_translated() -> None:
    closes = [value for name, value in vars(CloseCode).items() if name.isupper()]
    keys = [f"server.error.{code}" for code in SOCKET_ERRORS]
    keys += [f"server.close.{code}" for code in closes]
    for lang in LANGUAGES:
        missing = [key for key in keys if key not in catalog(lang)]
        assert missing == [], lang
