"""tomllib, imported when a file is first read as TOML: its import (a parser and its regular
expressions) was paid by every start, also by an audit of a project without a TOML file."""
from __future__ import annotations

import sys
from types import ModuleType


def toml() -> ModuleType:
    """tomllib (tomli before Python 3.11). An `except toml().TOMLDecodeError` clause calls it only
    when an exception is matched."""
    if sys.version_info >= (3, 11):
        import tomllib  # novermin: behind the version check
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib
