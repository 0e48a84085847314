"""Writes knowledge/vllm/model_types.yaml: which transformers release first knows each config.json
`model_type`, and which model types each vLLM release reads with its own config class.

vLLM reads a checkpoint's config through transformers' AutoConfig unless the model type is in its
own `_CONFIG_REGISTRY` (vllm/transformers_utils/config.py); AutoConfig raises "The checkpoint you
are trying to load has model type `X` but Transformers does not recognize this architecture" for a
type its release does not map (CONFIG_MAPPING_NAMES in transformers/models/auto/
configuration_auto.py). Both tables are read with ast, never imported:

    python tools/transformers_model_types.py --transformers DIR --vllm /work/sdists/src --pypi-json FILE

`--pypi-json` is transformers' PyPI JSON (https://pypi.org/pypi/transformers/json): the day each
minor release appeared, so an image built with a vLLM release is known to predate a transformers
release. DIR holds `cfg-<version>.py`: configuration_auto.py of the last patch release of each transformers
minor release (`pip download transformers==X --no-deps`, then unzip that one file). A type is
recorded at the minor release (X.Y.0) of the first such file that maps it, so a pin is held to
lack it only when every version it allows is older than that whole minor release.

    python tools/transformers_model_types.py --keep-transformers --vllm /work/sdists/src

re-reads only the vLLM side (vllm_releases, vllm_requires, vllm_own) and keeps the transformers side
(transformers_first, released) of the table as it is: for new vLLM releases without the wheels.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "model_types.yaml"
_V = re.compile(r"cfg-(\d+)\.(\d+)\.(\d+)\.py$")


def _str_keys(node: ast.AST) -> list[str]:
    """The string keys of a dict literal, an OrderedDict([(k, v), …]) or a Lazy…Dict({…}) call."""
    if isinstance(node, ast.Call):
        for a in node.args:
            got = _str_keys(a)
            if got:
                return got
        return [k.arg for k in node.keywords if k.arg]
    if isinstance(node, ast.Dict):
        return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e.elts[0].value for e in node.elts if isinstance(e, ast.Tuple) and e.elts
                and isinstance(e.elts[0], ast.Constant) and isinstance(e.elts[0].value, str)]
    return []


def assigned_keys(tree: ast.AST, name: str) -> list[str]:
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
            return _str_keys(node.value)
    return []


def transformers_first(folder: Path) -> dict[str, str]:
    files = sorted((tuple(int(x) for x in m.groups()), p) for p in folder.iterdir() if (m := _V.search(p.name)))
    first: dict[str, str] = {}
    for (major, minor, _), p in files:
        for t in mapped_types(p):
            first.setdefault(t, f"{major}.{minor}.0")
    return first


def mapped_types(cfg: Path) -> list[str]:
    """The model types one configuration_auto.py maps: its CONFIG_MAPPING_NAMES, and from 5.6 on
    the table it imports from auto_mappings.py (`map-<version>.py` beside it) with its own update()."""
    tree = ast.parse(cfg.read_text())
    out = assigned_keys(tree, "CONFIG_MAPPING_NAMES")
    beside = cfg.with_name(cfg.name.replace("cfg-", "map-"))
    if beside.is_file():
        out += assigned_keys(ast.parse(beside.read_text()), "CONFIG_MAPPING_NAMES")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "CONFIG_MAPPING_NAMES"):
            out += _str_keys(node)
    return out


def vllm_own(src: Path, releases: list[str]) -> dict[str, list[list[str]]]:
    """model_type → spans of releases whose _CONFIG_REGISTRY (with _CONFIG_REGISTRY_OVERRIDE_HF) maps it."""
    spans: dict[str, list[list[str]]] = {}
    prev: set[str] = set()
    last = None
    for rel in releases:
        f = src / rel / "vllm" / "transformers_utils" / "config.py"
        if not f.is_file():
            continue
        tree = ast.parse(f.read_text())
        now = set(assigned_keys(tree, "_CONFIG_REGISTRY")) | set(assigned_keys(tree, "_CONFIG_REGISTRY_OVERRIDE_HF"))
        for t in now:
            if t in prev and spans[t][-1][1] == last:
                spans[t][-1][1] = rel
            else:
                spans.setdefault(t, []).append([rel, rel])
        prev, last = now, rel
    return spans


# Releases PyPI holds only as wheels (no sdist to read): the transformers specifier of the wheel's
# Requires-Dist (`pip install vllm==X --no-deps --dry-run --report` shows `transformers<5,>=4.56.0`)
WHEEL_REQUIRES = {"0.15.0": ">=4.56.0,<5", "0.15.1": ">=4.56.0,<5"}


def _release_key(v: str) -> tuple:
    return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"[.]|post", v) if x)


def vllm_requires(src: Path, releases: list[str]) -> dict[str, str]:
    """release → the transformers specifier its requirements name (what a fresh install, and its
    image, resolve within): every release read, post releases too, and — for a release PyPI holds only
    as a wheel — the Requires-Dist of the wheel's METADATA unpacked beside it (WHEEL-METADATA)."""
    out: dict[str, str] = {r: WHEEL_REQUIRES[r] for r in releases if r in WHEEL_REQUIRES and not (src / r).is_dir()}
    read = sorted(set(releases) | {p.name for p in src.iterdir() if (p / "vllm").is_dir()}, key=_release_key)
    for rel in read:
        for name in ("requirements/common.txt", "requirements-common.txt", "requirements.txt", "WHEEL-METADATA"):
            f = src / rel / name
            if not f.is_file():
                continue
            for line in f.read_text().splitlines():
                line = line.strip().removeprefix("Requires-Dist:").strip() if name == "WHEEL-METADATA" else line.strip()
                m = re.match(r"^transformers\s*([<>=!~][^#;]*)", line)
                if m:
                    # METADATA writes the clauses sorted (`<5,>=4.56.0`): floor first, as requirement files do
                    parts = sorted(m.group(1).replace(" ", "").split(","), key=lambda c: not c.startswith(">"))
                    out[rel] = ",".join(parts)
                    break
            if rel in out:
                break
    return dict(sorted(out.items(), key=lambda kv: _release_key(kv[0])))


def released(pypi_json: Path, versions: set[str]) -> dict[str, str]:
    """version → the day its first file reached PyPI (the JSON API's upload_time)."""
    import json
    data = json.loads(pypi_json.read_text())["releases"]
    return {v: min(f["upload_time"] for f in data[v])[:10] for v in sorted(versions) if data.get(v)}


def _kept_first(table: dict) -> dict[str, str]:
    """transformers_first as the table holds it. The types of the oldest scanned release are left out
    there; an empty name stands for them, so that release stays the oldest (and is left out again)."""
    first = {str(k): str(v) for k, v in table["transformers_first"].items()}
    return first | {"": str(table["transformers_scanned"][0])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--transformers", type=Path)
    ap.add_argument("--vllm", required=True, type=Path)
    ap.add_argument("--pypi-json", type=Path, help="https://pypi.org/pypi/transformers/json, saved")
    ap.add_argument("--keep-transformers", action="store_true", help="keep the table's transformers side; re-read vLLM's")
    args = ap.parse_args(argv)
    import yaml
    if not args.keep_transformers and (args.transformers is None or args.pypi_json is None):
        ap.error("--transformers and --pypi-json are required unless --keep-transformers")
    releases = yaml.safe_load((OUT.parent / "architectures.yaml").read_text())["releases"]
    kept = yaml.safe_load(OUT.read_text()) if args.keep_transformers else None
    first = _kept_first(kept) if kept else transformers_first(args.transformers)
    own = vllm_own(args.vllm, releases)
    tf_versions = sorted({v for v in first.values()}, key=lambda v: tuple(int(x) for x in v.split(".")))
    lines = [
        "# Which transformers release first maps each config.json model_type (AutoConfig's",
        "# CONFIG_MAPPING_NAMES), and the model types each vLLM release reads with its own config class",
        "# (_CONFIG_REGISTRY in vllm/transformers_utils/config.py). Built by",
        "# tools/transformers_model_types.py from the transformers wheels (the last patch of each minor",
        "# release, recorded at its X.Y.0) and vLLM's sdists. Do not edit by hand.",
        "version: 1",
        f"transformers_scanned: [{', '.join(repr(v) for v in (tf_versions[0], tf_versions[-1]))}]",
        f"vllm_releases: [{', '.join(repr(r) for r in releases)}]",
        "transformers_first:",
    ]
    oldest = tf_versions[0]
    lines += [f"  {t!r}: {v!r}" for t, v in sorted(first.items()) if v != oldest]
    lines.append("released:")
    days = {str(v): str(d) for v, d in kept["released"].items()} if kept else released(args.pypi_json, set(first.values()))
    lines += [f"  {v!r}: {d!r}" for v, d in days.items()]
    lines.append("vllm_requires:")
    lines += [f"  {r!r}: {spec!r}" for r, spec in vllm_requires(args.vllm, releases).items()]
    lines.append("vllm_own:")
    lines += [f"  {t!r}: {[list(s) for s in sp]!r}" for t, sp in sorted(own.items())]
    OUT.write_text("\n".join(lines).replace("'", '"') + "\n")
    print(f"wrote {OUT}: {len(first)} model types ({len(lines)} lines), {len(own)} with vLLM's own config")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
