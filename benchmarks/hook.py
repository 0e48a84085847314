"""How long an agent waits for `vllm-kb hook`: a fresh process per event, as Claude Code and Codex
start it, on a copy of the bundled example (examples/quickstart, made a git root).

    python benchmarks/hook.py [--repeat 7] [--json]

Events: Claude Code writes deploy/serve.sh (the P0 `--swap-space 8`: the answer blocks with the
fix), Codex patches that flag (`--swap-space 16`: the same P0), Claude Code writes a Python file that is no vLLM site (the
fast path: nothing to say), and a session starts. Times are medians of --repeat runs after one
warm-up: wall clock (interpreter start included) and CPU (user + system, from os.wait4), which
says what the hook costs on a machine shared with other jobs. Target: the P0 reaches the agent
within 1 s."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import vllm_kb  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "quickstart"
PATCH = """*** Begin Patch
*** Update File: deploy/serve.sh
@@
-    --swap-space 8 \\
+    --swap-space 16 \\
*** End Patch
"""


def events(root: Path) -> dict[str, dict]:
    serve = root / "deploy" / "serve.sh"
    return {
        "claude Write deploy/serve.sh (P0)": {
            "hook_event_name": "PostToolUse", "cwd": str(root), "tool_name": "Write",
            "tool_input": {"file_path": str(serve), "content": serve.read_text()}},
        "codex apply_patch deploy/serve.sh": {
            "hook_event_name": "PostToolUse", "cwd": str(root), "tool_name": "apply_patch", "turn_id": "t",
            "tool_input": {"command": PATCH}},
        "claude Write app/util.py (no vLLM)": {
            "hook_event_name": "PostToolUse", "cwd": str(root), "tool_name": "Write",
            "tool_input": {"file_path": str(root / "app" / "util.py"), "content": "x = 1\n"}},
        "claude SessionStart": {"hook_event_name": "SessionStart", "cwd": str(root), "source": "startup"},
    }


def once(argv: list[str], payload: bytes) -> tuple[float, float, bytes]:
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdin.write(payload)
    p.stdin.close()
    out = p.stdout.read()
    _, _, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    ns = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="vllm-kb-hook-bench-") as tmp:
        root = Path(tmp) / "quickstart"
        shutil.copytree(EXAMPLE, root)
        (root / ".git").mkdir()
        (root / "app").mkdir()
        (root / "app" / "util.py").write_text("x = 1\n")
        serve = root / "deploy" / "serve.sh"
        evs = events(root)  # the Write event carries the example as it is
        serve.write_text(serve.read_text().replace("--swap-space 8", "--swap-space 16"))
        for name, ev in evs.items():
            agent = "codex" if name.startswith("codex") else "claude"
            argv_ = vllm_kb() + ["hook", "--agent", agent]
            payload = json.dumps(ev).encode()
            once(argv_, payload)  # warm-up: page cache, bytecode, the vllm-kb cache
            runs = [once(argv_, payload) for _ in range(ns.repeat)]
            out = runs[-1][2]
            rows.append({"event": name, "wall_s": statistics.median(r[0] for r in runs),
                         "cpu_s": statistics.median(r[1] for r in runs),
                         "answer": (json.loads(out).get("decision") or "context") if out.strip() else "nothing"})
    if ns.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'event':<38} {'wall':>7} {'cpu':>7}  answer")
        for r in rows:
            print(f"{r['event']:<38} {r['wall_s']:>6.2f}s {r['cpu_s']:>6.2f}s  {r['answer']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
