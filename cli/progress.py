"""The progress display of a long audit: one line per phase — listing the files, reading them,
checking the sites, writing the report — on stderr, only on a terminal, only once a run has
taken long enough to want one. Each phase is marked done when the next starts, and the display
is gone when the run ends (rich's transient live display), before the report is written."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported only when a bar is shown (keeps start-up fast)
    from rich.progress import Progress as Bar
    from rich.progress import TaskID

DELAY_S = 0.4  # a run that ends sooner never shows a bar
PHASES = ("walk", "scan", "check", "render")


class Progress:
    def __init__(self, enabled: bool, lang: str):
        self.enabled = enabled
        self.lang = lang
        self.bar: Bar | None = None
        self.tasks: dict[str, TaskID] = {}
        self.counts: dict[str, int] = {}
        self.totals: dict[str, int | None] = {}
        self.start = time.monotonic()
        self.current: str | None = None

    def __call__(self, phase: str, total: int) -> None:
        """One more unit of `phase` done, of `total` (0: not known in advance)."""
        if not self.enabled:
            return
        self.counts[phase] = self.counts.get(phase, 0) + 1
        self.totals[phase] = total or None
        if self.bar is None:
            if time.monotonic() - self.start < DELAY_S:
                return
            self._open()
        self._show(phase)

    def _open(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=Console(stderr=True), transient=True)
        self.bar.start()

    def _show(self, phase: str) -> None:
        from vllm_kb.engine.kb.knowledge import load

        assert self.bar is not None  # _open ran
        if phase != self.current:
            if self.current is not None and self.current in self.tasks:
                done = self.counts[self.current]
                self.bar.update(self.tasks[self.current], total=done, completed=done)
            self.current = phase
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(load().t(f"config.progress_{phase}", self.lang), total=self.totals[phase])
        self.bar.update(self.tasks[phase], completed=self.counts[phase], total=self.totals[phase])

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
