"""Framework keys the pinned framework release's own argument parser does not accept
(knowledge/frameworks/accepted_args.json, read from each release's wheel by
tools/framework_args.py): a key added in a later release, or one a later release dropped, stops
the launch before vLLM starts — ms-swift `ValueError: remaining_argv: [...]`, HfArgumentParser
`Some specified arguments are not used by the HfArgumentParser: [...]` (TRL, LLaMA-Factory), a
config class's `TypeError: ... got an unexpected keyword argument '...'`, argparse `unrecognized
arguments` (OpenRLHF). Only where the framework release is pinned and the table read releases on
both sides of it; a key the table never saw for that parser says nothing."""
from __future__ import annotations

from dataclasses import dataclass

from vllm_kb.engine.kb import compat, frameworks
from vllm_kb.engine.kb.frameworks import normalise_key
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.scan.site import Setting, Site

CODE = "framework-key-not-in-release"
# how each parser refuses a key it does not have (the framework's own words)
REFUSAL = {
    "ms-swift": "ValueError: remaining_argv: ['--{key}', …]",
    "trl": "ValueError: Some specified arguments are not used by the HfArgumentParser: ['--{key}', …]",
    "llamafactory": "ValueError: Some specified arguments are not used by the HfArgumentParser: ['{key}']",
    "openrlhf": "error: unrecognized arguments: --{key}",
}
CONFIG_REFUSAL = "ValueError: Some keys are not used by the HfArgumentParser: ['{key}']"
HYDRA_REFUSAL = "Could not override '{key}'. To append to your config use +{key}=… Key '{leaf}' is not in struct"
CALL_REFUSAL = "TypeError: {cls}.__init__() got an unexpected keyword argument '{key}'"
TRL_COMMANDS = {"grpo": "GRPOConfig", "rloo": "RLOOConfig", "online_dpo": "OnlineDPOConfig", "xpo": "XPOConfig", "nash_md": "NashMDConfig"}


@dataclass(frozen=True)
class Refusal:
    written: str
    setting: Setting
    key: str
    parser: str
    first: str | None  # the first release after the pinned one that accepts it (None: it was dropped)
    last: str | None  # the last release before the pinned one that accepted it
    instead: str | None  # another spelling of the same engine argument the pinned release accepts


def parsers_for(site: Site) -> list[str]:
    """The parsers (accepted_args.json) that read this site's keys; several: any that accepts will do."""
    table = ((compat.accepted_args()["frameworks"].get(site.framework) or {}).get("parsers")) or {}
    fid, kind, command = site.framework, site.kind or "", site.framework_command or ""
    if fid == "ms-swift":
        names = [command]
    elif fid == "trl":
        if kind == "trl vllm-serve":
            names = ["vllm-serve"]
        elif kind.endswith("Config()"):
            names = [kind[:-2]]
        elif command in TRL_COMMANDS:
            names = [TRL_COMMANDS[command]]
        else:  # a user script or a recipe: whichever trainer config it parses
            names = [p for p in table if p != "vllm-serve"]
    elif fid == "llamafactory":
        names = ["*"]
    elif fid == "openrlhf":
        names = ["train_ppo_ray"] if kind.endswith("train_ppo_ray") else []
    elif fid == "verl":
        # verl's own trainer config only: a project config or recipe entry has a struct of its own
        names = ["train"] if kind == "verl main_ppo" and not site.config_file else []
    else:
        names = []
    return [n for n in names if n in table]


def _accepts(spans: list, read: list[str], version: str) -> bool | None:
    """Whether a release inside the read range accepts the key; None when the table cannot tell
    (below the first release read, or between two read releases that disagree)."""
    v = try_parse(version)
    if v is None or not read:
        return None

    def has(r: str) -> bool:
        return any(parse(a) <= parse(r) <= parse(b) for a, b in spans)
    if version in read:
        return has(version)
    below = [r for r in read if parse(r) < v]
    above = [r for r in read if parse(r) > v]
    if not below:
        return None
    if not above:  # newer than every release read: a span that reaches the newest goes on
        return has(below[-1])
    return has(below[-1]) if has(below[-1]) == has(above[0]) else None


def refusals(site: Site, release: str | None = None) -> list[Refusal]:
    """The keys the site's framework release refuses; `release`: judged at that release instead of the
    pinned one (a range pin's other releases, engine/check/framework_range.py)."""
    fid, version = site.framework, release or site.framework_version
    if fid in (None, "none") or not version or try_parse(version) is None:
        return []
    if site.framework_fork:
        # the project is the framework's own source, a fork that keeps its name and version (TinyZero,
        # Search-R1 keep verl 0.1's) but adds keys: the released parser says nothing of its own
        return []
    table = (compat.accepted_args()["frameworks"].get(fid) or {}).get("parsers") or {}
    names = parsers_for(site)
    if not names:
        return []
    fw = frameworks.get(fid)
    out = []
    for written, s in (site.framework_written or {}).items():
        if written.lstrip().startswith(("+", "~")):
            continue  # Hydra's explicit addition / deletion
        if fid == "verl" and (s.syntax != "hydra-override" or ".engine_kwargs." in written):
            continue  # a key of the project's own YAML; engine_kwargs.<backend> is an open mapping
        key = normalise_key(written)
        verdicts = []
        for name in names:
            p = table[name]
            spans = key_spans(p).get(key)
            ok = None
            if spans is not None:
                # a pre-release may hold what the final release before it or the one it leads to has
                got = [_accepts(spans, p["releases"], r) for r in compat.code_releases(fid, version)]
                ok = False if got and all(g is False for g in got) else (True if any(got) else None)
            if ok is not True and s.syntax == "cli" and _abbreviates(key, p, version):
                ok = True  # argparse reads it as the one longer option it begins (only without an exact match)
            verdicts.append((name, ok, spans))
        if verdicts and all(sp is None and ok is None for _, ok, sp in verdicts) and _elsewhere(site, table, names, key, version):
            # a vLLM key another command of the framework takes and no release of this one does
            # (ms-swift 3.x `swift rlhf` has vllm_enforce_eager, never infer's enforce_eager)
            out.append(Refusal(written, s, key, names[0], None, None, _instead(fw, key, table[names[0]], version)))
            continue
        if not verdicts or any(ok is not False for _, ok, _ in verdicts):
            continue
        name, _, found = verdicts[0]
        spans = found or []  # a False verdict always comes with the key's spans
        v = parse(compat.code_release(version))
        first = next((a for a, _ in spans if parse(a) > v), None)
        last = next((b for _, b in reversed(spans) if parse(b) < v), None)
        out.append(Refusal(written, s, key, name, first, last, _instead(fw, key, table[name], version)))
    return out


def _elsewhere(site: Site, table: dict, names: list[str], key: str, version: str) -> bool:
    """Only for parsers read whole (ms-swift commands, a TRL config class, `trl vllm-serve`), and
    only inside the releases read for this one."""
    # TRL configs also take transformers' TrainingArguments (log_level …), which the table does not read
    exact = site.framework == "ms-swift" or (site.framework == "trl" and len(names) == 1 and "vllm" in key)
    if not exact or any(_accepts([], table[n]["releases"], version) is None for n in names):
        return False
    return any(key in key_spans(p) for n, p in table.items() if n not in names)


def key_spans(parser: dict) -> dict[str, list]:
    return {normalise_key(k): v for k, v in parser["keys"].items()}


def _abbreviates(key: str, parser: dict, version: str) -> bool:
    """argparse takes a unique prefix of a longer option (allow_abbrev, on in HfArgumentParser and
    OpenRLHF's parser): TRL 0.26's CLI reads `--vllm_max_model_len` as `--vllm_max_model_length`."""
    longer = [k for k, sp in key_spans(parser).items() if k != key and k.startswith(key)
              and _accepts(sp, parser["releases"], version) is not False]
    return len(longer) == 1


def _instead(fw, key: str, parser: dict, version: str) -> str | None:
    """The spelling of the same engine argument this release's parser takes (ms-swift 3.5's
    `gpu_memory_utilization` for `vllm_gpu_memory_utilization`)."""
    k = fw.key(key)
    if k is None or not k.arg:
        return None
    for other in fw.keys:
        if other.arg != k.arg or other is k:
            continue
        for name in (other.key, *other.aliases):
            spans = parser["keys"].get(name)
            if spans and _accepts(spans, parser["releases"], version):
                return name
    return None


def refusal_words(site: Site, r: Refusal) -> str:
    if site.syntax == "python-call" and site.kind.endswith("()"):
        return CALL_REFUSAL.format(cls=site.kind[:-2], key=r.key)
    if site.framework == "verl":
        return HYDRA_REFUSAL.format(key=r.written, leaf=r.written.rsplit(".", 1)[-1])
    if r.setting.syntax == "framework-config" and site.framework in ("trl", "llamafactory", "ms-swift"):
        return CONFIG_REFUSAL.format(key=r.key)  # HfArgumentParser.parse_dict / parse_yaml_file
    return REFUSAL.get(site.framework, "").format(key=r.key)
