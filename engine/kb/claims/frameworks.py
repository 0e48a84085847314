"""The frameworks' per-release claims (knowledge/frameworks/<id>.yaml) against the framework
catalog read from their wheels (knowledge/frameworks/catalog.json):

- a key's `versions` are exactly the releases that have it (under any of its spellings), and a
  key without `versions` is not removed after it appears;
- a key's `default` (one value or its changes) is the default each release declares, where
  the release declares one;
- TRL's `trl vllm-serve` switches (vllm_http, forwards_unknown, fixed/env `trl:` ranges) start
  where the release's vllm_serve.py starts exec'ing `vllm serve`.
A key the catalog does not hold, or a claim it cannot decide, carries `source: {url, reason}`."""
from __future__ import annotations

from vllm_kb.engine.kb import compat, resources, yamlio
from vllm_kb.engine.kb.frameworks import FRAMEWORK_IDS, Key, version_matches
from vllm_kb.engine.kb.versions import SpecifierSet, parse


def _span(vs: list[str]) -> str:
    return vs[0] if len(vs) == 1 else f"{vs[0]} … {vs[-1]}"


def _exists(entry: dict, version: str) -> bool:
    v = parse(version)
    return any(parse(a) <= v <= parse(b) for a, b in entry["in"])


def _default(entry: dict, version: str):
    d = entry.get("default")
    if isinstance(d, dict) and "changes" in d:
        cur = None
        for at, value in d["changes"]:
            if parse(at) <= parse(version):
                cur = value
        return cur
    return d


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


def key_problems(fid: str, raw: dict, releases: list[str], cat_keys: dict) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    floor = min((e["in"][0][0] for n, e in cat_keys.items() if "vllm" in n), key=parse, default=releases[0])
    k = Key(key=raw["key"], default=raw.get("default"), aliases=tuple(raw.get("aliases", ())), versions=raw.get("versions"))
    if raw.get("source"):
        return out
    spellings = [cat_keys[n] for n in (k.key, *k.aliases) if n in cat_keys]
    if not spellings:
        return [("", f"no release of {fid} the catalog read ({_span(releases)}) has this key under any of its spellings: "
                     "fix the key, or add `source:` with where it comes from")]
    have = [v for v in releases if any(_exists(e, v) for e in spellings)]
    if k.versions:
        # releases before the framework drove vLLM at all say nothing about the key
        claimed = [v for v in releases if version_matches(k.versions, v) and parse(v) >= parse(floor)]
        missing = [v for v in claimed if v not in have]
        extra = [v for v in have if v not in claimed]
        if missing:
            out.append(("versions", f"{k.versions!r} claims {fid} {_span(missing)}, which do not have the key (it exists in {_span(have)})"))
        if extra:
            out.append(("versions", f"{k.versions!r} leaves out {fid} {_span(extra)}, which have the key"))
    elif have:
        later = [v for v in releases if parse(v) > parse(have[0]) and v not in have]
        if later:
            out.append(("versions", f"the key is gone from {fid} {_span(later)} (it exists in {_span(have)}): state `versions`"))
    if k.default is not None:
        bad = []
        for v in have:
            declared = next((_default(e, v) for e in spellings if _exists(e, v) and _default(e, v) is not None), None)
            if declared is not None and isinstance(declared, (bool, int, float, str)) and not _same(k.default_for(v), declared):
                bad.append((v, declared, k.default_for(v)))
        if bad:
            v, declared, said = bad[0]
            out.append(("default", f"says {said!r} for {fid} {_span([b[0] for b in bad])}, where the release declares {declared!r} (first at {v})"))
    return out


def trl_serve_problems(serve: dict, feats: dict, releases: list[str]) -> list[tuple[str, str]]:
    """`trl vllm-serve` claims tied to the release exec'ing `vllm serve`."""
    ex = feats.get("serve.execs_vllm")
    if not ex:
        return []
    execs = [v for v in releases if _exists(ex, v) and _default({"default": ex["value"]}, v)]
    out = []
    checks = [("vllm_http", serve.get("vllm_http")), ("forwards_unknown", serve.get("forwards_unknown"))]
    checks += [(f"fixed.{f['arg']}", f.get("trl")) for f in serve.get("fixed", [])]
    checks += [(f"env.{e['name']}", e.get("trl")) for e in serve.get("env", [])]
    for path, spec in checks:
        if not spec:
            continue
        claimed = [v for v in releases if SpecifierSet(spec).contains(v) and _exists(ex, v)]
        if claimed != execs:
            out.append((f"serve.{path}", f"{spec!r} covers TRL {_span(claimed) if claimed else 'none'}, but `trl vllm-serve` "
                        f"execs `vllm serve` (and adds its flags and env) in {_span(execs)}"))
    return out


def problems() -> list[tuple[str, str, str, str]]:
    cat = compat.framework_catalog()["frameworks"]
    out = []
    for fid in FRAMEWORK_IDS:
        file = resources.display_name("knowledge", "frameworks", f"{fid}.yaml")
        data = yamlio.load_cached(resources.read_text("knowledge", "frameworks", f"{fid}.yaml")).data or {}
        fc = cat.get(fid)
        if not fc:
            continue
        for i, raw in enumerate(data.get("keys") or []):
            for suffix, msg in key_problems(fid, raw, fc["releases"], fc["keys"]):
                out.append((file, raw["key"], f"keys[{i}]" + (f".{suffix}" if suffix else ""), msg))
        if fid == "trl" and data.get("serve"):
            for path, msg in trl_serve_problems(data["serve"], fc.get("features") or {}, fc["releases"]):
                out.append((file, "serve", path, msg))
    return out
