"""The one exception root and the exit codes every face maps errors to.

Exit codes (documented in docs/cli.md):
  0  clean (no finding at or above --fail-on)
  1  findings at or above --fail-on
  2  usage, configuration or knowledge error
  3  internal error (a bug in vllm-kb)
"""
from __future__ import annotations

from dataclasses import dataclass

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


class VllmKbError(Exception):
    """Root of every error vllm-kb raises on purpose."""

    exit_code = EXIT_INTERNAL


class UsageError(VllmKbError):
    """The user asked for something that cannot be done (bad flag value, missing path)."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class Problem:
    """One defect in the knowledge base, located as `file › id › json-path`."""

    file: str
    id: str
    path: str
    message: str

    def __str__(self) -> str:
        parts = [self.file]
        if self.id:
            parts.append(self.id)
        if self.path:
            parts.append(self.path)
        return " › ".join(parts) + f": {self.message}"


class KnowledgeError(VllmKbError):
    """The knowledge base itself is invalid; carries every problem found, not just the first."""

    exit_code = EXIT_USAGE

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
