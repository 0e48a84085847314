#!/usr/bin/env python3
"""ms-swift's `declared` rows of knowledge/frameworks/compat.yaml. ms-swift's wheels list no vllm
in Requires-Dist (not even as an extra): what each release declares is the requirements table of
its package description (the README in the wheel's METADATA), a row
`| vllm | >=0.5.1 | 0.8.5.post1 | Inference/Deployment/Evaluation |` — the range and the release
it recommends. Consecutive releases that say the same thing become one row; releases whose
description has no such row declare nothing.

The rows are written between the markers `# ms-swift declared (tools/swift_declared.py)` and
`# end ms-swift declared` of compat.yaml (added before the hand-written rows the first time);
everything else in the file is left as it is.

Usage: python tools/swift_declared.py --wheels DIR [--compat knowledge/frameworks/compat.yaml]
"""
from __future__ import annotations

import argparse
import re
import sys
import zipfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_catalog import vkey  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FINAL = re.compile(r"^\d+(\.\d+)*(\.post\d+)?$")
ROW = re.compile(r"^\|\s*vllm\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|", re.M)
BEGIN, END = "# ms-swift declared (tools/swift_declared.py)", "# end ms-swift declared"
ANCHOR = "# Hand-written rows (issue 14)"


def declared(wheel: Path) -> tuple[str, str] | None:
    with zipfile.ZipFile(wheel) as z:
        meta = next((n for n in z.namelist() if n.endswith(".dist-info/METADATA")), None)
        text = z.read(meta).decode("utf-8", "replace") if meta else ""
    m = ROW.search(text)
    if not m or not re.match(r"^(>=|<=|==|>|<|~=)", m.group(1).replace(" ", "")):
        return None
    return m.group(1).replace(" ", ""), m.group(2)


def rows(wheels: Path) -> list[dict]:
    found = {}
    for w in wheels.glob("ms_swift-*.whl"):
        v = w.name.split("-")[1]
        if FINAL.match(v):
            found[v] = w
    runs: list[tuple[list[str], tuple[str, str] | None, list[str]]] = []
    for v in sorted(found, key=vkey):
        d = declared(found[v])
        # one row per declared range; the recommended release is kept in the note
        if runs and (runs[-1][1] or ("",))[0] == (d or ("",))[0]:
            runs[-1][0].append(v)
            runs[-1][2].append(d[1] if d else "")
        else:
            runs.append(([v], d, [d[1] if d else ""]))
    out = []
    for versions, d, recommended in runs:
        if d is None:
            continue
        first, last = versions[0], versions[-1]
        out.append({
            "framework": "ms-swift", "releases": f"=={first}" if first == last else f">={first},<={last}",
            "vllm": d[0], "kind": "declared",
            "where": f"pypi METADATA ms_swift-{first}-py3-none-any.whl: requirements table | vllm | {d[0]} | {d[1]} (recommended) |",
            "source": {"title": f"ms-swift {first} on PyPI" + (f" … {last}" if last != first else ""),
                       "url": f"https://pypi.org/project/ms-swift/{first}/", "generated": True},
            "note": f"recommended vLLM: {recommended[0]} ({first})" + (f" … {recommended[-1]} ({last})" if last != first else ""),
        })
    return out


def write(compat: Path, new_rows: list[dict]) -> None:
    text = compat.read_text(encoding="utf-8")
    block = BEGIN + "\n" + yaml.safe_dump(new_rows, sort_keys=False, width=140, allow_unicode=True) + END + "\n"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + r"[\s\S]*?" + re.escape(END) + r"\n", lambda _m: block, text)
    else:
        text = text.replace(ANCHOR, block + ANCHOR, 1)
    yaml.safe_load(text)  # still one valid document
    compat.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, required=True)
    ap.add_argument("--compat", type=Path, default=ROOT / "knowledge" / "frameworks" / "compat.yaml")
    args = ap.parse_args(argv)
    got = rows(args.wheels)
    write(args.compat, got)
    print(f"{len(got)} ms-swift declared rows → {args.compat}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
