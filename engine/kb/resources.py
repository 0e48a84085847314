"""Files shipped inside the package (knowledge/, schema/), found through importlib.resources so
the same code works from a checkout, an editable install and a wheel."""
from __future__ import annotations

import sys
from importlib import resources

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable  # novermin: behind the version check
else:  # 3.10: the same ABC lives in importlib.abc (moved in 3.11, removed from there in 3.14)
    from importlib.abc import Traversable

__all__ = ["Traversable", "root", "path", "read_text", "display_name"]


def root(package: str) -> Traversable:
    return resources.files(f"vllm_kb.{package}")


def path(package: str, *parts: str) -> Traversable:
    node = root(package)
    for part in parts:
        node = node / part
    return node


def read_text(package: str, *parts: str) -> str:
    return path(package, *parts).read_text(encoding="utf-8")


def display_name(package: str, *parts: str) -> str:
    """How a shipped file is named in messages: relative to the project, as in the repo."""
    return "/".join((package,) + parts)
