"""tomllib, imported when a file is first read as TOML: its import (a parser and its regular
expressions) was paid by every start, also by an audit of a project without a TOML file."""
from __future__ import annotations

import re
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


def error_line(e: Exception) -> int | None:
    """The line a TOMLDecodeError points at: its `lineno` (Python 3.14's tomllib), else the "(at line N,
    column M)" its message ends with (tomllib 3.11-3.13, tomli), so a skipped file is named file:line."""
    if isinstance(line := getattr(e, "lineno", None), int):
        return line
    m = re.search(r"\(at line (\d+), column \d+\)", str(e))
    return int(m.group(1)) if m else None
