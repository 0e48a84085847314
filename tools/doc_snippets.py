#!/usr/bin/env python3
"""Write the configuration files the docs show (a fenced YAML block whose first line names the
file, `# .github/workflows/vllm-kb.yml`) into a folder, so CI can check them with the tools
that read them (check-jsonschema's GitHub workflow and GitLab CI schemas, `pre-commit
validate-config`).

    python tools/doc_snippets.py OUT    prints `NAME<TAB>PATH` per file written"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```ya?ml\n# (?P<name>\.?[\w./-]+\.ya?ml)\b[^\n]*\n(?P<body>.*?)^```", re.S | re.M)


def snippets() -> list[tuple[str, str, str]]:
    """(page, file name, text) for every named YAML block of the docs."""
    out = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for m in BLOCK.finditer(page.read_text(encoding="utf-8")):
            out.append((page.relative_to(ROOT).as_posix(), m["name"], m["body"]))
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for n, (page, name, body) in enumerate(snippets()):
        path = out / f"{n:02d}-{Path(page).stem}-{Path(name).name}"
        path.write_text(body, encoding="utf-8")
        print(f"{name}\t{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
