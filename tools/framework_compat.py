#!/usr/bin/env python3
"""Build knowledge/frameworks/compat.yaml (schema/compat.schema.json) from a framework↔vLLM
compatibility extraction: for each framework release, the vLLM versions it declares
(`declared`, the wheel's Requires-Dist or its requirements file), the version gates its code
enforces (`runtime_check`: require_version/check_version, asserts and raises on
vllm.__version__, "supports vLLM versions from A to B" warnings) and the combinations reported or
shown to fail although allowed (`known_break`). Consecutive releases that say the same thing
become one row.

Input: the YAML the research helper wrote from the released wheels and sdists
(frameworks: {id: [{release, vllm, source, runtime_check: [{file, line, kind, text}]}]},
known_breaks: [...]). Rows other sessions add by hand are kept when their `source` has no
`generated: true`.

Usage: python tools/framework_compat.py --research framework_vllm_compat.yaml [-o knowledge/frameworks/compat.yaml]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_catalog import vkey  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PYPI = {"trl": "trl", "verl": "verl", "openrlhf": "openrlhf", "llamafactory": "llamafactory", "ms-swift": "ms-swift"}
# Gates a release runs only for some launches: (framework, file) -> the launch keys that reach the call.
# ms-swift 2.2.0-2.2.5 call require_version('vllm>=0.5') only where MODEL_MAPPING[model_type] carries a
# vllm_config (swift/llm/utils/vllm_utils.py get_vllm_engine, 2.2.0 :92-93, 2.2.5 :94-95), which the seven
# LLaVA and Phi-3-vision types do in every one of those wheels (swift/llm/utils/model.py register_model)
ONLY_FOR = {
    ("ms-swift", "swift/llm/utils/vllm_utils.py"): {"model_type": [
        "llava1_5-7b-instruct", "llava1_5-13b-instruct", "llava1_6-mistral-7b-instruct", "llava1_6-vicuna-7b-instruct",
        "llava1_6-vicuna-13b-instruct", "llava1_6-yi-34b-instruct", "phi3-vision-128k-instruct"]},
}
FINAL = re.compile(r"^\d+(\.\d+)*(\.post\d+)?$")
VER = r"\d+(?:\.\d+)+(?:\.post\d+)?"


def gate(text: str) -> list[str]:
    """The vLLM specifiers a runtime check's message or argument states ([] when none)."""
    t = text.replace(" ", "")
    m = re.search(rf"vllm((?:(?:>=|<=|==|>|<|!=){VER},?)+)", t, re.I)
    if m:
        return [m.group(1).rstrip(",")]
    m = re.search(rf"from({VER})to({VER})", t)
    if m:
        return [f">={m.group(1)},<={m.group(2)}"]
    m = re.search(rf"versionsare({VER})\+", t)
    if m:
        return [f">={m.group(1)}"]
    m = re.search(rf"versionsare((?:{VER},?(?:and)?)+)\.?$", t)
    if m:
        return [f"=={v}" for v in re.findall(VER, m.group(1))]
    m = re.search(rf"(?:only)?supports?(?:vllm|vLLM)(>=|>)({VER})", t, re.I)
    if m:
        return [f"{m.group(1)}{m.group(2)}"]
    return []


def _range(first: str, last: str) -> str:
    return f"=={first}" if first == last else f">={first},<={last}"


def rows_for(fid: str, releases: list[dict]) -> list[dict]:
    rels = sorted((r for r in releases if FINAL.match(str(r["release"]))), key=lambda r: vkey(str(r["release"])))
    out = []

    def flush(kind, items, spec, extra):
        if not items:
            return
        first, last = str(items[0]["release"]), str(items[-1]["release"])
        row = {"framework": fid, "releases": _range(first, last), "vllm": spec, "kind": kind}
        row.update(extra)
        row["source"] = {"title": f"{fid} {first} on PyPI" + (f" … {last}" if last != first else ""),
                         "url": f"https://pypi.org/project/{PYPI[fid]}/{first}/", "generated": True}
        out.append(row)

    run, spec = [], None
    for r in rels:
        s = (r.get("vllm") or "").replace(" ", "")
        s = s if re.match(r"^(>=|<=|==|>|<|!=|~=)", s) else ""  # a requirement without a version bounds nothing
        if s != spec:
            flush("declared", run, spec, {"where": run[0].get("source", "")[:160]} if run else {})
            run, spec = [], s
        if s:
            run.append(r)
    flush("declared", run, spec, {"where": run[0].get("source", "")[:160]} if run else {})

    # runtime gates: (spec, message) pairs, grouped over consecutive releases
    runs: dict[tuple, list] = {}
    order: list[tuple] = []
    for r in rels:
        for c in r.get("runtime_check") or []:
            text = str(c.get("text", ""))
            if (c.get("kind") == "warning" and "support" not in text) or "not been implemented" in text:
                continue  # a warning about something else, or a range that is *not* supported
            for spec in gate(text):
                effect = "warning" if c.get("kind") == "warning" else "error"
                scope = "feature" if re.search(r"required to use|requires? vLLM|not supported in vLLM|to return|attribute is not supported|"
                                               r"must be greater|is required for|Please upgrade", text, re.I) else "install"
                key = (spec, effect, scope, text if c.get("kind") not in ("require_version", "check_version") else f"{c['kind']}({text})")
                if key not in runs:
                    order.append(key)
                runs.setdefault(key, []).append((r, c))
    for key in order:
        spec, effect, scope, text = key
        items = runs[key]
        # split where the releases are not consecutive
        idx = [next(i for i, r in enumerate(rels) if r is it[0]) for it in items]
        start = 0
        for i in range(1, len(items) + 1):
            if i == len(items) or idx[i] != idx[i - 1] + 1:
                chunk = items[start:i]
                c = chunk[0][1]
                only = ONLY_FOR.get((fid, str(c.get("file"))))
                flush("runtime_check", [x[0] for x in chunk], spec,
                      {"effect": effect, "scope": "feature" if only else scope, **({"when": only} if only else {}),
                       "error": text, "where": f"{c.get('file')}:{c.get('line')}"})
                start = i
    return out


def _spec(text: str) -> str | None:
    t = str(text).strip()
    m = re.match(rf"^({VER})\s*-\s*({VER})", t)
    if m:
        return f">={m.group(1)},<={m.group(2)}"
    m = re.match(rf"^((?:(?:>=|<=|==|>|<)\s*{VER}\s*,?\s*)+)", t)
    if m:
        return re.sub(r"\s+", "", m.group(1)).rstrip(",")
    return None


def known_breaks(items: list[dict]) -> list[dict]:
    out = []
    for k in items:
        fid = {"llmtuner": "llamafactory"}.get(k["framework"], k["framework"])
        fr, vr = _spec(k["framework_releases"]), _spec(k["vllm_releases"])
        if fid not in PYPI or fr is None:
            continue
        # a break on a code path few runs take (V0 only) or in the framework's own CLI is not
        # one every install with that vLLM hits
        narrow = re.search(r"likely harmless|CLI-level|only reached", str(k.get("notes", "")))
        row = {"framework": fid, "releases": fr, "vllm": vr or "", "kind": "known_break", "effect": "error",
               "scope": "feature" if narrow else "install",
               "error": str(k["error"]).strip(), "where": str(k.get("where", ""))[:240], "id": k["id"]}
        url = k.get("source_url") or f"https://pypi.org/project/{PYPI[fid]}/"
        row["source"] = {"title": k["id"], "url": url, "generated": True}
        if k.get("notes"):
            row["note"] = str(k["notes"])[:400]
        out.append(row)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--research", type=Path, required=True)
    ap.add_argument("-o", "--output", type=Path, default=ROOT / "knowledge" / "frameworks" / "compat.yaml")
    ns = ap.parse_args(argv)
    data = yaml.safe_load(ns.research.read_text())
    rows = []
    for fid, rels in data["frameworks"].items():
        if fid in PYPI:
            rows += rows_for(fid, rels)
    rows += known_breaks(data.get("known_breaks") or [])
    kept, listed = [], {}
    if ns.output.exists():
        old = yaml.safe_load(ns.output.read_text()) or {}
        kept = [r for r in old.get("rows", []) if not (r.get("source") or {}).get("generated")]
        listed = old.get("releases") or {}  # hand-written release lists of packages catalog.json does not read
    head = ("# Framework ↔ vLLM compatibility (schema/compat.schema.json). One table for every session:\n"
            "# rows with `source.generated: true` come from tools/framework_compat.py (re-run it to refresh\n"
            "# them); add hand-written rows below them with a source link and no `generated`.\n")
    body = yaml.safe_dump({"version": 1, **({"releases": listed} if listed else {}), "rows": rows + kept}, sort_keys=False,
                          allow_unicode=True, width=140)
    ns.output.write_text(head + body)
    print(f"{ns.output}: {len(rows)} generated rows, {len(kept)} kept", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
