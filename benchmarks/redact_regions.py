"""The region-by-region redaction of long texts (engine/kb/redact.py `_redact_regions`) against the
whole-text one, on every file of the trees given that holds a trigger word and no `${`: the two
must be equal; their CPU seconds are printed beside each other.

    python benchmarks/redact_regions.py TREE [TREE …]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from vllm_kb.engine.kb import redact


def main(roots: list[str]) -> int:
    n = bad = 0
    t_regions = t_whole = 0.0
    for root in roots:
        for p in sorted(Path(root).rglob("*")):
            if not p.is_file() or ".git" in p.parts:
                continue
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if not redact._triggered(text) or "${" in text:
                continue
            n += 1
            a = time.process_time()
            regions = redact._redact_regions(text)
            b = time.process_time()
            whole = redact._redact_text(text)
            t_regions += b - a
            t_whole += time.process_time() - b
            if regions != whole:
                bad += 1
                print("differs:", p)
    print(f"{n} texts, {bad} differ; regions {t_regions:.2f} s, whole text {t_whole:.2f} s of CPU")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
