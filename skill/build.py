"""`vllm-kb skill build`: render the Agent Skill bundle from knowledge/ with jinja2, so the skill
an agent reads says exactly what the engine evaluates.

Layout (Agent Skills spec: https://agentskills.io/specification):

    vllm-optimization/
      SKILL.md                 frontmatter + the English instructions (< 500 lines)
      references/<A…J>-*.md    one file per category: every check's texts, rules and fix spellings
      references/decision-tree.md   the decision tree of knowledge/decision_tree.yaml (vllm-kb diagnose)
      references/scenarios.md  the scenario templates of knowledge/scenarios.yaml, each with a rendered example
      references/tables.md     the reference tables of knowledge/tables.yaml, with vllm-kb's estimates
      references/zh/…          the same files in Chinese, plus README.md (the instructions in Chinese)

One skill with a Chinese reference tree rather than a sibling `vllm-optimization-zh` skill: the
spec gives a skill one SKILL.md whose `name` must equal its folder, and two skills with the same
triggers would compete for activation and double the metadata every agent keeps in context.

The output is deterministic (no dates, no tool version), so the committed bundle can be compared
byte for byte with a fresh build (tests/test_skill.py)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import resources, schemas, yamlio
from vllm_kb.engine.kb.knowledge import Knowledge, load

from vllm_kb.engine.report import check_docs as records

NAME = "vllm-optimization"  # the skill's name and folder (lowercase-hyphen, ≤ 64)
LANGS = ("en", "zh")
MAX_DESCRIPTION = 1024
MAX_BODY_LINES = 500
# Every generated file carries this line; a folder whose SKILL.md lacks it is not ours to replace.
MARKER = "vllm-kb skill build"

# The seed's trigger conditions, most specific first: agents match a skill by its description,
# and the description leads with these.
TRIGGERS = (
    "Python that imports vllm (`from vllm import LLM`, `EngineArgs`, `AsyncEngineArgs`)",
    "shell scripts running `vllm serve` or `python -m vllm.entrypoints.openai.api_server`",
    "configs that set `gpu_memory_utilization`, `tensor_parallel_size`, `max_model_len`, `enforce_eager` or `enable_prefix_caching`",
    "RL trainers that roll out with vLLM: TRL `use_vllm` / `vllm_mode`, verl `rollout.name=vllm`, OpenRLHF `vllm_num_engines`, "
    "LlamaFactory `infer_backend: vllm`, ms-swift `use_vllm`, `sleep_level`, `enable_sleep_mode`",
)
TRIGGERS_ZH = (
    "导入 vllm 的 Python 代码（`from vllm import LLM`、`EngineArgs`、`AsyncEngineArgs`）",
    "运行 `vllm serve` 或 `python -m vllm.entrypoints.openai.api_server` 的脚本",
    "设置了 `gpu_memory_utilization`、`tensor_parallel_size`、`max_model_len`、`enforce_eager` 或 `enable_prefix_caching` 的配置",
    "用 vLLM 做 rollout 的 RL 训练：TRL `use_vllm` / `vllm_mode`、verl `rollout.name=vllm`、OpenRLHF `vllm_num_engines`、"
    "LlamaFactory `infer_backend: vllm`、ms-swift `use_vllm`、`sleep_level`、`enable_sleep_mode`",
)


@dataclass(frozen=True)
class Stub:
    file: str
    key: str  # i18n key of its title


STUBS: tuple[Stub, ...] = ()
# The scenario templates and reference tables (knowledge/scenarios.yaml, knowledge/tables.yaml).
SCENARIOS = Stub("scenarios.md", "scenario.skill_title")
TABLES = Stub("tables.md", "scenario.skill_tables_title")
# Generated references beyond the categories: file, i18n key of its title.
DECISION_TREE = Stub("decision-tree.md", "skill.decision_tree")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@lru_cache(maxsize=1)
def _env():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("vllm_kb.skill", "templates"),
        autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    # A JSON string is a valid YAML double-quoted scalar; unlike jinja's `tojson` it keeps
    # `<`, `>` and non-ASCII text readable.
    env.filters["yaml_str"] = lambda s: json.dumps(s, ensure_ascii=False)
    return env


def _fields() -> dict[str, dict[str, Any]]:
    return yamlio.load(resources.read_text("skill", "templates", "report-fields.yaml")).data


# What the skill's description names so that an agent picks it up: the files that configure
# vLLM, and the words people type when a vLLM run goes wrong (English, then Chinese).
FILE_KINDS = (
    "Python importing vllm (`LLM`, `EngineArgs`)",
    "scripts with `vllm serve` or `python -m vllm.entrypoints`",
    "Dockerfile, compose, Kubernetes or Helm files with a vLLM image",
    "configs setting `gpu_memory_utilization`, `tensor_parallel_size`, `max_model_len`, `enforce_eager`, `enable_prefix_caching`",
    "RL rollouts: TRL `use_vllm`/`vllm_mode`, verl `rollout.name=vllm`, OpenRLHF `vllm_num_engines`, LlamaFactory "
    "`infer_backend: vllm`, ms-swift `use_vllm`, `sleep_level`, `enable_sleep_mode`",
)
SYMPTOMS = ("\"CUDA out of memory\"", "KV cache too small", "max_model_len errors", "slow first token (TTFT)",
            "low throughput", "OOM in rollout", "vLLM will not start after an upgrade")
SYMPTOMS_ZH = ("显存不足", "KV Cache 不够", "max_model_len 报错", "首 token 慢", "吞吐低", "RL rollout 显存溢出（OOM）",
               "升级后 vLLM 无法启动")


def description(kb: Knowledge) -> str:
    """Trigger first (files, then symptoms), then what the skill does; ≤ 1024 characters."""
    ids = [c["id"] for c in kb.categories]
    return (
        "Use when a project runs vLLM or a vLLM run goes wrong. Files: " + "; ".join(FILE_KINDS) + ". "
        "Symptoms: " + ", ".join(SYMPTOMS) + ". "
        f"Audits every launch site against {len(kb.checks)} versioned checks ({ids[0]}–{ids[-1]}) and gives "
        "P0/P1/P2 changes in the site's own syntax for the pinned vLLM release (`vllm-kb audit`, or by hand from "
        "references/). 中文：vLLM " + "、".join(SYMPTOMS_ZH) + "时使用。"
    )


def render(kb: Knowledge | None = None) -> dict[str, str]:
    """Every file of the bundle: path relative to the skill folder → text."""
    kb = kb or load()
    cat = catalog_mod.load()
    env = _env()
    fields = _fields()
    generated = kb.t("skill.generated", "en", version=kb.version)
    cats = []
    for c in kb.categories:
        checks = kb.checks.in_category(c["id"])
        cats.append({"id": c["id"], "title_en": c["title"]["en"], "title_zh": c["title"]["zh"], "n": len(checks),
                     "ids": [x.id for x in checks], "file": f"{c['id']}-{slug(c['title']['en'])}.md",
                     "source": f"knowledge/checks/{c['id']}.yaml"})
    stubs = [{"file": s.file, "key": s.key, "title_en": kb.t(s.key, "en"), "title_zh": kb.t(s.key, "zh")} for s in STUBS]
    decision_tree = {"file": DECISION_TREE.file, "title_en": kb.t(DECISION_TREE.key, "en"), "title_zh": kb.t(DECISION_TREE.key, "zh")}
    more = [{"file": x.file, "title_en": kb.t(x.key, "en"), "title_zh": kb.t(x.key, "zh")} for x in (SCENARIOS, TABLES)]
    common = {
        "decision_tree": decision_tree, "more_references": more,
        "name": NAME, "kb_version": kb.version, "n_checks": len(kb.checks), "categories": cats, "stubs": stubs,
        "oldest": cat.oldest, "newest": cat.newest, "schema_version": _report_schema_version(),
        "statuses": ("enabled", "not_enabled", "recommended", "not_applicable", "unknown"),
        "n_triggers": len(kb.doc("triggers.yaml").data["triggers"]),
    }
    modes = _modes()
    out: dict[str, str] = {}
    out["SKILL.md"] = env.get_template("SKILL.md.j2").render(
        **common, generated=generated, description=description(kb), triggers=TRIGGERS,
        fields={k: [(f, t["en"]) for f, t in v.items()] for k, v in fields.items()},
        priorities=[kb.t(f"report.{p}", "en") for p in ("P0", "P1", "P2")],
        modes=[kb.t(f"mode.{m}", "en") for m in modes],
    )
    out["references/zh/README.md"] = env.get_template("guide.zh.md.j2").render(
        **common, generated=kb.t("skill.generated", "zh", version=kb.version), triggers=TRIGGERS_ZH,
        fields_zh={k: [(f, t["zh"]) for f, t in v.items()] for k, v in fields.items()},
        priorities_zh=[kb.t(f"report.{p}", "zh") for p in ("P0", "P1", "P2")],
        modes_zh=[kb.t(f"mode.{m}", "zh") for m in modes], t=lambda key, **kw: kb.t(key, "zh", **kw),
    )
    for lang in LANGS:
        prefix = "references/" if lang == "en" else "references/zh/"

        def t(key: str, _lang: str = lang, **kw) -> str:
            return kb.t(key, _lang, **kw)

        gen = kb.t("skill.generated", lang, version=kb.version)
        for c in cats:
            recs = [records.record(x, kb, lang, cat) for x in kb.checks.in_category(c["id"])]
            out[prefix + c["file"]] = env.get_template("category.md.j2").render(
                t=t, lang=lang, generated=gen, checks=recs, syntaxes=records.SYNTAXES,
                category={"id": c["id"], "title": c[f"title_{lang}"], "file": c["source"]},
            )
        for s in stubs:
            out[prefix + s["file"]] = env.get_template("later.md.j2").render(t=t, generated=gen, stub=s)
        out[prefix + DECISION_TREE.file] = _decision_tree(env, kb, lang, t, gen, cats)
        out[prefix + SCENARIOS.file] = _scenarios(env, lang, t, gen)
        out[prefix + TABLES.file] = _tables(env, kb, lang, t, gen, cat)
    return {path: _tidy(text) for path, text in sorted(out.items())}


def _decision_tree(env, kb: Knowledge, lang: str, t, generated: str, cats: list[dict]) -> str:
    """references/decision-tree.md from knowledge/decision_tree.yaml (engine/advise/diagnose/tree.py)."""
    from vllm_kb.engine.advise.diagnose.tree import tree as load_tree

    tree = load_tree(kb)
    check_files = {cid: c["file"] for c in cats for cid in c["ids"]}
    return env.get_template("decision-tree.md.j2").render(
        t=t, lang=lang, generated=generated, symptoms=list(tree.symptoms.values()),
        observations=list(tree.observations.values()), matchers=tree.matchers, check_files=check_files)


def _scenarios(env, lang: str, t, generated: str) -> str:
    """references/scenarios.md: each scenario's conditions and settings as data, and its first own
    case rendered the way `vllm-kb audit` renders it."""
    from vllm_kb.engine.advise import scenarios as scn_mod

    def item(x) -> str:
        value = f"`{json.dumps(x.value, ensure_ascii=False)}`" if x.value is not None else ""
        if x.value_from:
            value = f"`<{x.value_from}>`" + (f" (→ {value})" if value else "")
        extra = [t("scenario.skill_setting_vllm", spec=str(x.vllm))] if x.vllm else []
        extra += [t("scenario.skill_setting_when", when=x.when)] if x.when else []
        return f"`{x.name}` = {value}" + (f" — {'; '.join(extra)}" if extra else "")

    out = []
    for s in scn_mod.load():
        settings = [item(a) for a in s.args] + [("env " if lang == "en" else "环境变量 ") + item(e) for e in s.env]
        for fid, keys in s.framework_keys.items():
            settings.append(f"{fid}: " + ", ".join(f"`{k['key']}` = `{json.dumps(k['value'], ensure_ascii=False)}`" for k in keys))
        examples = []
        for case in s.cases:
            if case.get("expect") == s.id or case.get("applies"):
                ctx = scn_mod.context_for(model=case["model"], gpu=case["gpu"], mode=case["mode"], vllm_version=case["vllm"],
                                          framework=case.get("framework", "none"), syntax=case.get("syntax"), args=case.get("args"))
                m = next(x for x in scn_mod.match(ctx) if x.scenario.id == s.id)
                blocks = scn_mod.render(m, ctx, lang).blocks
                examples.append({"model": case["model"], "gpu": case["gpu"], "version": case["vllm"], "blocks": blocks})
                break
        out.append({"id": s.id, "name": s.name, "title": s.title(lang), "description": s.description(lang), "seed": s.seed,
                    "modes": s.modes, "vllm": str(s.vllm), "parallel": s.parallel, "score": s.score,
                    "requires": [{"when": c.when, "why": c.why(lang)} for c in s.requires],
                    "prefers": [{"when": c.when, "why": c.why(lang), "score": c.score} for c in s.prefers],
                    "settings": settings, "examples": examples,
                    "notes": [(f"`{w}` — " if w else "") + n(lang) for w, n in s.notes],
                    "corrections": [c(lang) for c in s.corrections], "sources": s.sources})
    return env.get_template("scenarios.md.j2").render(t=t, lang=lang, generated=generated, scenarios=out)


def _tables(env, kb: Knowledge, lang: str, t, generated: str, cat) -> str:
    """references/tables.md: every row of every table, with the estimate at the newest release."""
    from vllm_kb.engine.advise import tables as tables_mod

    out = []
    for tb in tables_mod.load():
        rows = []
        for r in tb.rows:
            est = None
            if r.get("estimate") and tb.gpu:
                e = r["estimate"]
                est = tables_mod.estimate_text(kb, tables_mod.estimate(e["model"], tb.gpu, tuple(sorted((e.get("args") or {}).items())), cat.newest), lang)
                est = f"{est} ({e['model']})"
            rows.append({"id": r["id"], "when": r["when"], "estimate": est,
                         "cells": [tables_mod._text(r["cells"].get(k, "—"))(lang) for k, _ in tb.columns],
                         "note": _text_of(r.get("note"), lang)})
        cols = [c(lang) for _, c in tb.columns]
        has_estimate = any(r["estimate"] for r in rows)
        if has_estimate:
            cols.append(kb.t("scenario.table_estimate_column", lang, gpu=tb.gpu, version=cat.newest))
        out.append({"title": tb.title(lang), "note": tb.note(lang), "seed": tb.seed, "when": tb.when, "columns": cols,
                    "rows": rows, "has_estimate": has_estimate, "source": tb.source})
    return env.get_template("tables.md.j2").render(t=t, lang=lang, generated=generated, tables=out)


def _text_of(raw, lang: str) -> str | None:
    from vllm_kb.engine.kb.knowledge import Text

    return Text.of(raw)(lang) if raw else None


def _tidy(text: str) -> str:
    # Templates stay readable with blank lines around blocks; the output keeps at most one.
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def _report_schema_version() -> int:
    return int(schemas.raw("report")["properties"]["schema_version"]["const"])


def _modes() -> list[str]:
    return list(schemas.raw("common")["$defs"]["mode"]["enum"])


# --- writing ---------------------------------------------------------------------------------

def source_dir() -> Path | None:
    """The `skill/` folder of a checkout (where the committed bundle lives), or None in an
    installed wheel, whose package folder must not be written to."""
    here = Path(__file__).resolve().parent
    return here if (here / NAME / "SKILL.md").is_file() else None


def write(out: Path, files: dict[str, str] | None = None, *, installed: bool = False) -> Path:
    """Write the bundle to `out/vllm-optimization/`, replacing what an earlier build or install
    wrote there and nothing else (skill/folder.py). `installed`: a copy in an agent's skills
    folder, where a file of ours the user edited stops the write; a build (the checkout's
    generated bundle, under git) rewrites its own files whatever they hold now."""
    from vllm_kb.skill import folder

    return folder.write(out / NAME, files if files is not None else render(), MARKER, keep_edits=installed)
