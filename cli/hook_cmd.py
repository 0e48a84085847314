"""`vllm-kb hook --agent claude|codex`: answer a coding agent's hook event (JSON on stdin).

    PostToolUse (Claude Code Write/Edit/MultiEdit, Codex apply_patch) on a vLLM launch file or
        configuration: the P0/P1 findings of the lines just written, with their one-line fixes,
        as context for the model (a P0 as a "block" decision with the reason: the agent fixes it
        before moving on; --no-block keeps it as context). Any other file: nothing.
    SessionStart in a repository that uses vLLM: one line saying so and what the agent can use.

It never breaks the agent: whatever goes wrong — bad JSON, a missing file, an unknown argument,
a bug, the --timeout — it prints nothing and exits 0, and writes one line about it (secrets
redacted) to hook.log in the vllm-kb cache folder ($VLLM_KB_CACHE_DIR, else
$XDG_CACHE_HOME/vllm-kb, else ~/.cache/vllm-kb). main.py routes `hook` here before its own parser,
whose usage errors exit 2 — the code Claude Code reads as "block with stderr"."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

LOG_MAX_BYTES = 256 * 1024


class _Timeout(BaseException):
    """Raised by the timer; a BaseException so that no `except Exception` on the way swallows it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print and exit 2
        raise ValueError(f"arguments: {message}")


def _options(p) -> None:
    p.add_argument("--agent", choices=("claude", "codex"), default="claude", help="whose hook protocol (default claude)")
    p.add_argument("--lang", choices=("en", "zh"), help="language of the answer (default: the project's config, else en)")
    p.add_argument("--gpu", help='hardware to check against, e.g. "H100-80GB x8" (default: the project\'s config, else none)')
    p.add_argument("--timeout", type=float, default=5.0, help="seconds before giving up silently (default 5)")
    p.add_argument("--no-block", action="store_true", help="report a P0 as context instead of a block decision")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="vllm-kb hook", description=__doc__.splitlines()[0])
    _options(p)
    return p


def add_parser(sub) -> None:
    """What `vllm-kb --help` and docs/cli.md show; main.py hands `hook` to main() below before
    its own parser sees it."""
    _options(sub.add_parser("hook", help="answer a Claude Code or Codex hook event on stdin (never fails the agent)",
                            description=__doc__.splitlines()[0]))


def main(argv: list[str]) -> int:
    start = time.monotonic()
    if "-h" in argv or "--help" in argv:
        parser().print_help()
        return 0
    try:
        ns, _unknown = parser().parse_known_args(argv)  # an argument from a newer release is ignored
    except ValueError as e:
        _log(None, str(e), start)
        return 0
    try:
        with _deadline(ns.timeout):
            raw = _read_stdin()
            out = answer(raw, ns)
    except (Exception, _Timeout, KeyboardInterrupt, SystemExit) as e:  # noqa: BLE001 — the boundary
        _log(ns, f"{type(e).__name__}: {e}", start)
        return 0
    if out is not None:
        try:
            sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
            sys.stdout.flush()
        except (OSError, ValueError) as e:
            _log(ns, f"cannot write the answer: {e}", start)
    return 0


def answer(raw: bytes, ns) -> dict | None:
    from vllm_kb.skill import hook_answer, hook_events

    ev = hook_events.parse(raw)
    if ev.name == "SessionStart":
        # a session opened in the home folder or at / is no project: walking it would only cost time
        if not ev.cwd.is_dir() or ev.cwd in (Path.home(), Path(ev.cwd.anchor)):
            return None
        from vllm_kb.engine.advise import detect
        from vllm_kb.engine.check import config

        lang = ns.lang or config.resolve(ev.cwd).lang or "en"
        return hook_answer.session_start(hook_answer.session_line(detect.detect(ev.cwd), lang))
    if ev.name != "PostToolUse" or ev.tool not in hook_events.EDIT_TOOLS:
        return None
    from vllm_kb.engine import touched

    touches = [t for t in ev.touches if touched.relevant(t.path, ev.cwd)]
    if not touches:
        return None
    result = touched.audit_touched(touches, cwd=ev.cwd, lang=ns.lang, gpu=ns.gpu)
    return hook_answer.post_tool_use(result, result.lang if result else "en", block=not ns.no_block)


def _read_stdin() -> bytes:
    from vllm_kb.skill.hook_events import MAX_EVENT_BYTES

    if sys.stdin is None or sys.stdin.isatty():
        return b""
    return sys.stdin.buffer.read(MAX_EVENT_BYTES + 1)


class _deadline:
    """SIGALRM where there is one (the main thread on POSIX); elsewhere a timer thread that
    ends the process silently."""

    def __init__(self, seconds: float):
        self.seconds = max(0.05, seconds)
        self.old = None
        self.timer = None

    def __enter__(self):
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            def fire(signum, frame):
                raise _Timeout(f"no answer within {self.seconds:g} s")

            self.old = signal.signal(signal.SIGALRM, fire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        else:
            self.timer = threading.Timer(self.seconds, lambda: os._exit(0))
            self.timer.daemon = True
            self.timer.start()
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)
        if self.timer is not None:
            self.timer.cancel()
        return False


def _log(ns, message: str, start: float) -> None:
    """One line per failure; the log is cut in half when it grows past LOG_MAX_BYTES."""
    try:
        from vllm_kb.engine.kb.cache import cache_dir
        from vllm_kb.engine.kb.redact import redact_text

        d = cache_dir()
        if d is None:
            return
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = d / "hook.log"
        if path.exists() and path.stat().st_size > LOG_MAX_BYTES:
            keep = path.read_bytes()[-LOG_MAX_BYTES // 2:]
            path.write_bytes(keep[keep.find(b"\n") + 1:])
        line = " ".join(redact_text(message).split())[:500]
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{stamp} {getattr(ns, 'agent', '?')} {time.monotonic() - start:.2f}s {line}\n")
    except Exception:  # noqa: BLE001 — logging must not fail the hook either
        pass
