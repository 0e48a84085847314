"""vLLM's own examples as controls: each release's `examples/` folder, audited as that release.

vLLM's CI runs its examples against the release they ship with, so a P0 ("vLLM will refuse to
start") on one of them is a false P0 unless the example needs hardware beyond `--gpu` (a 1T
model on 8 × 80 GB) or is meant to fail. Every P0 is listed for review; none is expected.

    python benchmarks/own_examples.py [--src DIR] [--gpu "H100-80GB x8"] [VERSION ...]

`--src DIR` reads DIR/<version>/examples (unpacked sdists); otherwise each sdist is fetched from
PyPI (benchmarks/run.py's fetch, sha256-checked) into a temporary folder. Exit status 1 when
any P0 is found, so a reviewer sees it.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402

RELEASES = ["0.6.3", "0.8.5", "0.10.1", "0.11.0", "0.12.0", "0.20.0", "0.28.0", "0.34.0"]


def examples(version: str, src: Path | None, work: Path) -> Path | None:
    tree = src / version if src else run.fetch_vllm_tree(work, version)
    ex = tree / "examples"
    if not ex.is_dir():
        return None
    dest = work / f"examples-{version}"
    if not dest.exists():
        shutil.copytree(ex, dest / "examples")
    return dest


def p0s(report: dict) -> list[str]:
    out = []
    for site in report["sites"]:
        for check in site["checks"]:
            if check.get("priority") == "P0" and check.get("status") == "recommended":
                out.append(f"{site['file']}:{site['line']} {check['id']} {check.get('reason', '')[:200]}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("versions", nargs="*", default=RELEASES)
    ap.add_argument("--src", type=Path, help="a folder of unpacked sdists, one per release")
    ap.add_argument("--gpu", default="H100-80GB x8")
    args = ap.parse_args(argv)
    found = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for version in args.versions:
            tree = examples(version, args.src, work)
            if tree is None:
                print(f"{version}: no examples folder")
                continue
            out = work / f"{version}.json"
            subprocess.run([*run.vllm_kb(), "audit", str(tree), "--gpu", args.gpu, "--vllm-version", version,
                            "--format", "json", "-o", str(out), "--exit-zero"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            report = json.loads(out.read_text(encoding="utf-8"))
            listed = p0s(report)
            found += len(listed)
            print(f"{version}: {len(report['sites'])} sites, {len(listed)} P0")
            for line in listed:
                print(f"  {line}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
