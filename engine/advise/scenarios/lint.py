"""`kb validate` for knowledge/scenarios.yaml (called from engine/validate.py): beyond the
schema, every CEL predicate compiles and names known facts or plan fields, every argument,
flag and env var a scenario can render exists in every vLLM release the item covers, literal
values are allowed there, templates compile, and each scenario's own cases hold — the best
match, whether it applies, and what the rendered text contains, with every rendered flag and
value checked against the case's release."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.advise.scenarios.matching import context_for, match
from vllm_kb.engine.advise.scenarios.model import FILE, PLAN_FIELDS, Item, Scenario, Scenarios, parse
from vllm_kb.engine.advise.scenarios.rendering import _jinja, render
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb.errors import KnowledgeError, UsageError
from vllm_kb.engine.kb.knowledge import Text
from vllm_kb.engine.kb.messages import placeholders


def lint(v) -> int:
    """Problems of knowledge/scenarios.yaml, added to a validate.Validator; returns the number of
    scenarios. Beyond the schema: CEL compiles and names known facts (and plan fields), every
    argument / flag / env var exists in every release an item covers, literal values are allowed
    there, templates compile, and every case matches and renders as it says."""
    doc = v.load(("scenarios.yaml",))
    if doc is None:
        return 0
    data = doc.data or {}

    def id_for(path):
        if len(path) >= 2 and path[0] == "scenarios" and isinstance(path[1], int):
            items = data.get("scenarios") or []
            sid = items[path[1]].get("id") if path[1] < len(items) and isinstance(items[path[1]], dict) else None
            return sid or f"scenarios[{path[1]}]", path[2:]
        return "", path

    if not v.schema(FILE, "scenarios", data, id_for):
        return 0
    try:
        scns = parse(data)
    except KnowledgeError as e:
        v.problems += e.problems
        return 0
    for name, tpl in scns.templates.items():
        try:
            _jinja().from_string(tpl["text"])
        except Exception as e:  # jinja2.TemplateSyntaxError
            v.add(FILE, "", f"templates.{name}.text", f"template does not compile: {e}")
        v.text_names(FILE, "", f"templates.{name}.text", tpl["text"], [str(x) for x in v.cat.versions], bare=True)
    for i, s in enumerate(scns):
        _lint_scenario(v, s, scns, f"scenarios[{i}]")
    return len(scns)


def _lint_cel(v, sid: str, path: str, source: str) -> None:
    v.predicate(FILE, sid, path, source, names=lambda parts: _name_error(v, parts))


def _name_error(v, parts: tuple[str, ...]) -> str | None:
    if parts[0] == "plan":
        if len(parts) > 1 and parts[1] not in PLAN_FIELDS:
            return f"unknown plan field {'.'.join(parts)!r} (plan: {', '.join(PLAN_FIELDS)})"
        return None
    return v.fact_name(parts)


def _lint_text(v, sid: str, path: str, text: Text, versions: list[str], removal_ok: bool = False) -> None:
    for lang in ("en", "zh"):
        for ph in placeholders(getattr(text, lang)):
            err = _name_error(v, tuple(ph.split(".")))
            if err:
                v.add(FILE, sid, f"{path}.{lang}", f"placeholder {{{ph}}}: {err}")
        v.text_names(FILE, sid, f"{path}.{lang}", getattr(text, lang), versions, removal_ok=removal_ok)


def _lint_scenario(v, s: Scenario, scns: Scenarios, where: str) -> None:
    from vllm_kb.engine.kb import frameworks

    versions = [str(x) for x in v.cat.versions if s.vllm.contains(x)]
    if not versions:
        v.add(FILE, s.id, "vllm", f"{s.vllm} matches no catalog release ({v.cat.oldest} … {v.cat.newest})")
    for kind, conds in (("requires", s.requires), ("prefers", s.prefers)):
        for i, c in enumerate(conds):
            _lint_cel(v, s.id, f"{kind}[{i}].when", c.when)
            _lint_text(v, s.id, f"{kind}[{i}].why", c.why, versions)
    for kind, items in (("args", s.args), ("env", s.env)):
        for i, item in enumerate(items):
            for key, src in (("when", item.when), ("value_from", item.value_from)):
                if src:
                    _lint_cel(v, s.id, f"{kind}[{i}].{key}", src)
            _lint_item(v, s.id, f"{kind}[{i}]", item, [x for x in versions if item.vllm is None or item.vllm.contains(x)])
    for fid, keys in s.framework_keys.items():
        fw = frameworks.get(fid)
        for i, fk in enumerate(keys):
            if fw.key(fk["key"]) is None:
                v.add(FILE, s.id, f"framework_keys.{fid}[{i}].key", f"{fw.name} has no key {fk['key']!r} (knowledge/frameworks/{fid}.yaml)")
            if fk.get("replaces") and v.cat.arg(fk["replaces"]) is None:
                v.add(FILE, s.id, f"framework_keys.{fid}[{i}].replaces", f"no vLLM argument {fk['replaces']!r}")
    for target, names in s.render.items():
        for name in names:
            if name not in scns.templates:
                v.add(FILE, s.id, f"render.{target}", f"no template {name!r} (templates: {', '.join(scns.templates)})")
    for i, (when, text) in enumerate(s.notes):
        if when:
            _lint_cel(v, s.id, f"notes[{i}].when", when)
        _lint_text(v, s.id, f"notes[{i}].text", text, versions)
    for field_name in ("title", "description"):
        _lint_text(v, s.id, field_name, getattr(s, field_name), versions)
    for i, correction in enumerate(s.corrections):
        _lint_text(v, s.id, f"corrections[{i}]", correction, versions, removal_ok=True)
    for i, case in enumerate(s.cases):
        v.n_cases += 1
        for problem in run_case(s, case, scns):
            v.add(FILE, s.id, f"cases[{i}]", f"case {case['name']!r}: {problem}")


def _lint_item(v, sid: str, path: str, item: Item, versions: list[str]) -> None:
    from vllm_kb.engine.kb.validate import _spans

    entry = v.cat.env(item.name) if item.env else v.cat.arg(item.name)
    what = f"env var {item.name!r}" if item.env else f"argument {item.name!r}"
    if entry is None:
        v.add(FILE, sid, path, f"no vLLM {what} in any catalog release")
        return
    if item.vllm and not versions:
        v.add(FILE, sid, path + ".vllm", f"{item.vllm} matches no release the scenario covers")
    missing = [x for x in versions if not entry.exists(x)]
    if missing:
        v.add(FILE, sid, path, f"{what} is rendered for vLLM {_spans(missing)} but does not exist there")
    if item.env:
        return
    no_flag = [x for x in versions if entry.exists(x) and not v.cat.long_flag(item.name, x)]
    if no_flag:
        v.add(FILE, sid, path, f"{what} has no CLI flag in vLLM {_spans(no_flag)}")
    pairs: list[tuple[tuple[str, ...], Any]] = [((item.name,), item.value)]
    if isinstance(item.value, dict):
        pairs = [((item.name, k), x) for k, x in item.value.items()]
    for vpath, value in pairs:
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            bad = [x for x in versions if (got := v.cat.allowed_values(vpath, x)) and got[0] and str(value) not in {str(y) for y in got[0]}]
            if bad:
                v.add(FILE, sid, path + ".value", f"{value!r} is not an allowed {'.'.join(vpath)} in vLLM {_spans(bad)}")


_FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def run_case(s: Scenario, case: dict, scns: Scenarios | None = None) -> list[str]:
    """What is wrong with one of a scenario's own cases (empty when it holds): the best match,
    whether the scenario applies, the text it renders, and that every flag and value rendered
    exists in the case's vLLM release."""
    cat = catalog_mod.load()
    try:
        ctx = context_for(model=case["model"], gpu=case["gpu"], mode=case["mode"], vllm_version=case["vllm"],
                          framework=case.get("framework", "none"), syntax=case.get("syntax"), args=case.get("args"))
    except UsageError as err:
        return [str(err)]
    found = match(ctx, scns)
    problems = []
    best = found[0].scenario.id if found and found[0].status == "match" else "none"
    if "expect" in case and best != case["expect"]:
        scores = ", ".join(f"{m.scenario.id}={m.score}" for m in found) or "none"
        problems.append(f"best match is {best}, expected {case['expect']} (scores: {scores})")
    mine = next((m for m in found if m.scenario.id == s.id), None)
    applies = case.get("applies", True if case.get("expect") == s.id else None)
    if applies is not None and (mine is not None and mine.status == "match") != applies:
        problems.append(f"{s.id} {'does not apply' if applies else 'applies'}, expected the opposite")
    if mine is None or not (case.get("contains") or case.get("absent") or mine.status == "match"):
        return problems
    blocks = render(mine, ctx, templates=scns.templates if scns else None).blocks
    text = "\n".join(b.text for b in blocks)
    for want in case.get("contains", []):
        if want not in text:
            problems.append(f"rendered text lacks {want!r}:\n{text}")
    for unwanted in case.get("absent", []):
        if unwanted in text:
            problems.append(f"rendered text has {unwanted!r}:\n{text}")
    serve = [b.text for b in blocks if "vllm serve" in b.text]
    for flag in sorted({f for t in serve for f in _FLAG.findall(t)}):
        e = cat.flag(flag)
        if e is None or not e.exists(ctx.version):
            problems.append(f"renders {flag}, which vLLM {ctx.version} does not have")
    for name, value in mine.args:
        allowed = cat.allowed_values((name,), ctx.version)
        if isinstance(value, str) and allowed and allowed[0] and value not in {str(x) for x in allowed[0]}:
            problems.append(f"renders {name}={value!r}, not allowed in vLLM {ctx.version}")
        if isinstance(value, dict):
            for k, x in value.items():
                got = cat.allowed_values((name, k), ctx.version)
                if isinstance(x, str) and got and got[0] and x not in {str(y) for y in got[0]}:
                    problems.append(f"renders {name}.{k}={x!r}, not allowed in vLLM {ctx.version}")
    return problems
