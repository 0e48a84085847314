"""Write knowledge/vllm/release_dates.yaml: the day each final vLLM release reached PyPI.

A prebuilt image tagged with a build date (lmcache/vllm-openai:2025-05-05-v1) holds a vLLM no newer
than the newest release published by that day; the audit judges it as that release.

    curl -s https://pypi.org/pypi/vllm/json -o vllm.json
    python tools/vllm_release_dates.py --releases vllm.json -o knowledge/vllm/release_dates.yaml
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_catalog import pypi_releases, vkey  # noqa: E402

HEADER = """\
# The day each final vLLM release was first uploaded to PyPI (the earliest file's upload_time in
# https://pypi.org/pypi/vllm/json). Written by tools/vllm_release_dates.py; a prebuilt image tagged
# with a build date is judged as the newest release published by that day.
"""


def dates(doc: dict) -> dict[str, str]:
    out = {}
    for v in sorted(pypi_releases(doc), key=vkey):
        files = doc["releases"][v]
        out[v] = min(f["upload_time"] for f in files)[:10]
    return out


def render(table: dict[str, str]) -> str:
    rows = "".join(f'  "{v}": "{d}"\n' for v, d in table.items())
    return HEADER + "version: 1\nreleased:\n" + rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--releases", type=Path, required=True, help="PyPI JSON of the vllm project")
    ap.add_argument("-o", "--output", type=Path, required=True)
    ns = ap.parse_args(argv)
    ns.output.write_text(render(dates(json.loads(ns.releases.read_text()))), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
