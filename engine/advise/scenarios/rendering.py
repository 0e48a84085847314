"""A matched scenario written in the site's own syntax for its release: flags spelled per
release with the catalog, framework keys through the framework's syntax, jinja2 templates per
target; and what it changes against the site as it is."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from vllm_kb.engine.advise.scenarios.matching import Context, Match, values_for
from vllm_kb.engine.advise.scenarios import template_subset
from vllm_kb.engine.advise.scenarios.model import load
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import Text
from vllm_kb.engine.kb.messages import render as fill

# --- rendering -------------------------------------------------------------------------------

@dataclass
class Block:
    label: str
    lang: str
    text: str


@dataclass
class Rendered:
    blocks: list[Block]
    notes: list[str]
    blocked: list[str]  # settings the site's framework does not let you write
    by_framework: list[str]  # settings the framework already makes
    differences: list[dict]  # {name, current, scenario}


_VAR = re.compile(r"^\$\{?[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}?$")


def _shell(v: Any) -> str:
    from vllm_kb.engine.fix.literals import shell_word

    if isinstance(v, str) and _VAR.match(v):
        return f'"{v}"'
    return shell_word(v)


def _py(v: Any) -> str:
    from vllm_kb.engine.fix.literals import py_literal

    return py_literal(v)


def _yaml(v: Any) -> str:
    from vllm_kb.engine.fix.literals import yaml_scalar

    if isinstance(v, (dict, list)):
        # a JSON string: vLLM's --config reader nests mappings only in recent releases
        return "'" + json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) + "'"
    return yaml_scalar(v)


@lru_cache(maxsize=1)
def _jinja():
    import jinja2

    env = jinja2.Environment(autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                             undefined=jinja2.StrictUndefined)
    env.filters.update(shell=_shell, py=_py, yaml=_yaml)
    return env


_FILTERS = {"shell": _shell, "py": _py, "yaml": _yaml}


@lru_cache(maxsize=256)
def _jinja_template(text: str):
    return _jinja().from_string(text)


class _Template:
    """A template compiled once per process, not once per site: by template_subset where it keeps to
    the forms the knowledge writes (jinja2's output without importing jinja2), else by jinja2."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.nodes = template_subset.compile_template(text, _FILTERS)

    def render(self, **data: Any) -> str:
        if self.nodes is not None:
            try:
                return template_subset.render(self.nodes, data)
            except template_subset.Fallback:  # a value jinja2 reads as undefined: its own answer (an error)
                pass
        return _jinja_template(self.text).render(**data)


@lru_cache(maxsize=256)
def _template(text: str) -> _Template:
    return _Template(text)


def _cli(flag: str, value: Any) -> str | None:
    if isinstance(value, bool):
        return flag if value else None
    return f"{flag} {_shell(value)}"


def render_args(args: list[tuple[str, Any]], version: str) -> list[dict]:
    """Each argument as every syntax writes it in this release."""
    cat = catalog_mod.load()
    out = []
    for name, value in args:
        e = cat.arg(name)
        if e is None or not e.exists(version):
            continue
        flag = cat.long_flag(name, version)
        out.append({"name": name, "value": value, "flag": flag, "cli": _cli(flag, value) if flag else None,
                    "key": flag[2:] if flag else None, "py": _py(value), "yaml": _yaml(value),
                    "engine": cat.is_engine_arg(name)})
    return out


def _fw_lang(syntax: str) -> str:
    return {"python-call": "python", "yaml-config": "yaml", "framework-config": "yaml"}.get(syntax, "bash")


def _framework_lines(m: Match, ctx: Context, lang: str) -> tuple[list[str], list[str], list[str]]:
    """The scenario's settings as the site's framework writes them: lines, blocked, by-framework."""
    from vllm_kb.engine.fix import syntax as site_syntax
    from vllm_kb.engine.kb import frameworks

    site = ctx.site
    fw = frameworks.get(site.framework)
    lines, blocked, done = [], [], []
    replaced = set()
    # the server itself takes no client keys unless a trainer block is rendered beside it
    server_only = not site.engine_elsewhere and "trainer" not in m.scenario.templates_for(ctx.target, fw.id)
    for fk in m.scenario.framework_keys.get(fw.id, []):
        if fk.get("client") and server_only:
            continue
        k = fw.key(fk["key"])
        replaced.add(fk.get("replaces"))
        if not (frameworks.version_matches(fk.get("versions"), site.framework_version)
                and frameworks.version_matches(k.versions if k else None, site.framework_version)):
            continue  # this release of the framework does not have the key
        text = site_syntax.framework_text(site, site_syntax._spelling(site, fw, k) if k else fk["key"], fk["value"], None, site.syntax)
        if text:
            lines.append(text)
    merged: dict[str, Any] = {}
    pt_key = (fw.passthrough or {}).get("key")
    user_args = ctx.facts.get("args", {})
    # a trainer that talks to a rollout server (or TRL's server itself) takes no engine arguments
    client = site.engine_elsewhere or (fw.id == "trl" and site.mode == "rlhf_server")
    for name, value in ([] if client else m.args):
        if name in replaced:
            continue
        if (site.fixed.get(name) == value) or (name not in user_args and site.framework_defaults.get(name) == value):
            done.append(f"{name}={json.dumps(value)}")
            continue
        got = None if name in site.fixed else site_syntax.framework_key(site, name, value)
        if got is None:
            blocked.append(name)
            continue
        key, v = got
        if key == pt_key and isinstance(v, dict):
            merged.update(v)
            continue
        text = site_syntax.framework_text(site, key, v, None, site.syntax)
        if text:
            lines.append(text)
    if merged and pt_key:  # merged only holds what was written under pt_key
        text = site_syntax.framework_text(site, pt_key, merged, None, site.syntax)
        if text:
            lines.append(text)
    return lines, blocked, done


def _serve_args(rargs: list[dict]) -> list[dict]:
    """What `trl vllm-serve` accepts among the settings (its ScriptArguments, knowledge/frameworks/trl.yaml)."""
    from vllm_kb.engine.kb import frameworks

    accepted = set(frameworks.get("trl").raw["serve"]["args"])
    out = []
    for a in rargs:
        if a["name"] in accepted:
            flag = "--" + a["name"].replace("_", "-")
            out.append(dict(a, flag=flag, cli=_cli(flag, a["value"])))
    return [a for a in out if a["cli"]]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


def render(m: Match, ctx: Context, lang: str = "en", target: str | None = None,
           templates: dict | None = None) -> Rendered:
    from vllm_kb.engine.kb import frameworks

    target = target or ctx.target
    site = ctx.site
    rargs = render_args(m.args, ctx.version)
    env = [{"name": n, "value": v} for n, v in m.env]
    fw_name = frameworks.get(site.framework).name if site.framework != "none" else "vLLM"
    lines: list[str] = []
    blocked: list[str] = []
    done: list[str] = []
    if site.framework != "none":
        lines, blocked, done = _framework_lines(m, ctx, lang)
    config_class = site.kind[:-2] if site.kind.endswith("Config()") else "GRPOConfig"
    data = {"model": ctx.model, "args": rargs, "env": env, "fw": lines, "serve_args": _serve_args(rargs),
            "config_class": config_class, "config_file": site.config_file or "serve.yaml", "version": ctx.version,
            "plan": m.plan}
    templates = templates if templates is not None else load().templates
    blocks = []
    for name in m.scenario.templates_for(target, site.framework):
        tpl = templates.get(name)
        if tpl is None:  # kb validate names it
            continue
        body = _template(tpl["text"]).render(**data).strip("\n")
        if not body.strip():
            continue
        label = Text.of(tpl["label"])(lang).format(config_file=data["config_file"], framework=fw_name)
        blocks.append(Block(label, tpl["lang"].replace("{fw_lang}", _fw_lang(site.syntax)), body))
    notes = []
    act = cel.Activation(m.values)
    for when, text in m.scenario.notes:
        if when is None or cel.compile(when).evaluate(act).value is True:
            notes.append(fill(text(lang), values_for(text, m.values)))
    if not m.plan.get("sized"):
        from vllm_kb.engine.kb.knowledge import load as load_kb

        notes.append(load_kb().t("scenario.unsized", lang))
    engine, env_now = ctx.facts.get("engine", {}), ctx.facts.get("env", {})
    diffs = [{"name": n, "current": engine.get(n), "scenario": v} for n, v in m.args
             if not _same(engine.get(n), v) and n not in blocked]
    diffs += [{"name": n, "current": env_now.get(n), "scenario": v} for n, v in m.env if env_now.get(n) != v]
    return Rendered(blocks, notes, blocked, done, diffs)
