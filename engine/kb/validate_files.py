"""Knowledge files other than the checks, part of `vllm-kb kb validate` (engine/kb/validate.py's
Validator runs them; each takes it as `v` for its loader, catalog and problem list): effective
defaults, renames, framework mappings, triggers and the UI strings the report template uses."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import cel, resources, value_renames

# What a trigger's `when` may read of an observation.
OBS_FIELDS = ("kind", "name", "file", "line", "vllm_context", "extras", "framework", "mode", "syntax", "tool")

def effective_defaults(v) -> None:
    doc = v.load(("vllm", "effective_defaults.yaml"))
    if doc is None:
        return
    for i, d in enumerate((doc.data or {}).get("defaults", [])):
        if not isinstance(d, dict):
            continue
        if d.get("arg") and v.cat.arg(d["arg"]) is None:
            v.add("knowledge/vllm/effective_defaults.yaml", d.get("arg", ""), f"defaults[{i}].arg", "no such vLLM argument in any catalog release")
        if d.get("when"):
            v.predicate("knowledge/vllm/effective_defaults.yaml", d.get("arg", ""), f"defaults[{i}].when", d["when"])


def renames(v) -> None:
    """Each removed name really ends at `last`, and what it carries to exists after it."""
    f, doc = "knowledge/vllm/renames.yaml", v.load(("vllm", "renames.yaml"))
    value_renames.check(v.cat, (doc.data or {}).get("values") if doc else None, lambda *a: v.add(f, *a))
    for i, r in enumerate(((doc.data or {}).get("renames") or []) if doc else []):
        if not isinstance(r, dict) or "name" not in r:
            continue
        entry = v.cat.env(r["name"]) if r.get("env") else v.cat.arg(r["name"])
        if entry is None:
            v.add(f, r["name"], f"renames[{i}].name", "not in the catalog")
            continue
        last = entry.last if r.get("env") else v.cat.last_release(r["name"])
        if str(r.get("last")) != last:
            v.add(f, r["name"], f"renames[{i}].last", f"says {r.get('last')!r}; the catalog's last release with it is {last!r}")
        for lang in ("en", "zh"):
            v.text_names(f, r["name"], f"renames[{i}].replacement.{lang}", (r.get("replacement") or {}).get(lang, ""), [], removal_ok=True, bare=True)
        if r.get("carry"):
            head = r["carry"].split(".")[0]
            if v.cat.arg(head) is None:
                v.add(f, r["name"], f"renames[{i}].carry", f"no vLLM argument {head!r}")


def frameworks(v) -> None:
    """Framework files: schema, predicates compile, every mapped or fixed argument is vLLM's."""
    from vllm_kb.engine.kb.frameworks import FRAMEWORK_IDS

    for fid in FRAMEWORK_IDS:
        parts = ("frameworks", f"{fid}.yaml")
        name = resources.display_name("knowledge", *parts)
        doc = v.load(parts)
        if doc is None or not v.schema(name, "framework", doc.data):
            continue
        data = doc.data
        for i, k in enumerate(data["keys"]):
            if k.get("arg") and v.cat.arg(k["arg"]) is None:
                v.add(name, k["key"], f"keys[{i}].arg", f"no vLLM argument {k['arg']!r} in any catalog release")
            for j, p in enumerate(k.get("passed_as", [])):
                where = f"keys[{i}].passed_as[{j}]"
                if v.cat.arg(p["arg"]) is None:
                    v.add(name, k["key"], where + ".arg", f"no vLLM argument {p['arg']!r} in any catalog release")
                elif p.get("field") and (v.cat.raw["engine_args"].get(p["arg"]) or {}).get("type") != "dict" \
                        and v.cat.config_field(f"{p['arg']}.{p['field']}") is None:  # a dict's keys are the user's (limit_mm_per_prompt's modalities)
                    v.add(name, k["key"], where + ".field", f"no field {p['field']!r} of {p['arg']} in any catalog release")
                if p.get("when"):
                    _framework_predicate(v, name, where + ".when", p["when"])
        named = [("fixed", i, f["arg"]) for i, f in enumerate(data.get("fixed", []) + (data.get("serve") or {}).get("fixed", []))]
        for section, i, arg in named + [("drops", i, d["arg"]) for i, d in enumerate(data.get("drops", [])) if d["arg"] != "*"]:
            if v.cat.arg(arg) is None:
                v.add(name, arg, f"{section}[{i}].arg", "no vLLM argument of that name in any catalog release")
        for section in ("modes", "findings", "drops"):
            for i, rule in enumerate(data.get(section, [])):
                for field in ("when", "unsure_when"):
                    if field in rule:
                        _framework_predicate(v, name, f"{section}[{i}].{field}", rule[field])


def _framework_predicate(v, name: str, where: str, text: str) -> None:
    """A framework file's CEL predicate compiles and reads only what its activation holds."""
    v.n_predicates += 1
    try:
        p = cel.compile(text)
    except cel.CelSyntaxError as e:
        v.add(name, "", where, f"CEL syntax error: {e}")
        return
    for path in p.paths:
        if path[0] not in ("keys", "command", "framework", "vllm", "peer", "written_as"):
            v.add(name, "", where, f"unknown name {'.'.join(path)!r} (keys, command, framework, vllm, peer, written_as)")


def triggers(v) -> None:
    """Trigger ids are unique and each `when` compiles and reads only `obs`."""
    name = "knowledge/triggers.yaml"
    doc = v.load(("triggers.yaml",))
    seen = set()
    for i, t in enumerate(((doc.data or {}).get("triggers") or []) if doc else []):
        if not isinstance(t, dict) or "when" not in t:
            continue
        if t.get("id") in seen:
            v.add(name, t["id"], f"triggers[{i}].id", "duplicate trigger id")
        seen.add(t.get("id"))
        v.n_predicates += 1
        try:
            p = cel.compile(t["when"])
        except cel.CelSyntaxError as e:
            v.add(name, t.get("id", ""), f"triggers[{i}].when", f"CEL syntax error: {e}")
            continue
        for path in p.paths:
            if path[0] != "obs" or (len(path) > 1 and path[1] not in OBS_FIELDS):
                v.add(name, t.get("id", ""), f"triggers[{i}].when", f"unknown name {'.'.join(path)!r} (obs.{', obs.'.join(OBS_FIELDS)})")


def i18n_usage(v) -> None:
    """Every UI string key used in code or templates exists."""
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    used = set()
    for mod in ("report/templates/report.md.j2",):
        used |= set(re.findall(r"""t\(\s*["']([a-z_]+\.[A-Za-z0-9_.]+)["']""", resources.read_text("engine", *mod.split("/"))))
    for key in sorted(used - set(kb.strings)):
        if key.endswith(("_", ".")) and any(k.startswith(key) for k in kb.strings):
            continue  # a prefix the template completes at run time
        v.add("knowledge/i18n.yaml", key, "", "used by the report template but not defined")
