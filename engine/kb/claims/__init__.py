"""Versioned claims verified against the vLLM catalog: collect.py reads every claim the
knowledge makes about releases (check and rule gates, decision-tree fix items, scenarios and
their settings, effective defaults, version literals in CEL), facts.py decides the catalog
facts they rest on per release, verify.py checks each claim in every release it covers.
`vllm-kb kb validate` runs it; tests/test_claims.py asserts it over the shipped knowledge."""
from __future__ import annotations

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.claims import collect
from vllm_kb.engine.kb.claims.collect import Claim
from vllm_kb.engine.kb.claims.verify import verify
from vllm_kb.engine.kb.knowledge import CATEGORY_FILES

__all__ = ["Claim", "all_claims", "problems"]


def _doc(*parts: str):
    try:
        return yamlio.load_cached(resources.read_text("knowledge", *parts)).data or {}
    except (yamlio.YamlError, FileNotFoundError):
        return {}  # kb validate reports unreadable files itself


def all_claims() -> list[Claim]:
    name = resources.display_name
    out: list[Claim] = []
    out += collect.checks({name("knowledge", "checks", f"{c}.yaml"): _doc("checks", f"{c}.yaml") for c in CATEGORY_FILES})
    out += collect.effective_defaults(name("knowledge", "vllm", "effective_defaults.yaml"), _doc("vllm", "effective_defaults.yaml"))
    out += collect.scenarios(name("knowledge", "scenarios.yaml"), _doc("scenarios.yaml"))
    out += collect.decision_tree(name("knowledge", "decision_tree.yaml"), _doc("decision_tree.yaml"))
    return out


def problems(cat: Catalog) -> list[tuple[str, str, str, str]]:
    """(file, id, path, message) for every claim that does not hold."""
    return [(c.file, c.id, c.path + suffix, msg) for c, suffix, msg in verify(all_claims(), cat)] + rename_problems(cat)


def rename_problems(cat: Catalog) -> list[tuple[str, str, str, str]]:
    """knowledge/vllm/renames.yaml: what a removed name carries to exists in the first release
    without it, and a replacement's "(0.11.1+)" is the first release of the flag it names."""
    import re

    from vllm_kb.engine.kb.versions import parse

    file = resources.display_name("knowledge", "vllm", "renames.yaml")
    out = []
    for i, r in enumerate(_doc("vllm", "renames.yaml").get("renames") or []):
        after = [v for v in cat.versions if v > parse(str(r.get("last")))]
        if r.get("carry") and after:
            head, _, key = r["carry"].partition(".")
            e = cat.config_field(r["carry"]) if key else cat.arg(head)
            if e is not None and not e.exists(str(after[0])):
                out.append((file, r["name"], f"renames[{i}].carry", f"{r['carry']} does not exist in {after[0]}, the first release without {r['name']}"))
        text = (r.get("replacement") or {}).get("en", "")
        for flag, since in re.findall(r"(--[a-z0-9-]+)[^()]*?\((\d+\.\d+(?:\.\d+)?)\+", text):
            e = cat.flag(flag)
            first = e.first if e is not None else None
            want = since if since.count(".") == 2 else since + ".0"
            if first is not None and parse(first) != parse(want):
                out.append((file, r["name"], f"renames[{i}].replacement", f"says {flag} from {since}; the catalog has it from {first}"))
    return out
