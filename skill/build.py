"""`vllm-kb skill build`: render the Agent Skill bundle from knowledge/ with jinja2, so the skill
an agent reads says exactly what the engine evaluates.

Layout (Agent Skills spec: https://agentskills.io/specification):

    vllm-optimization/
      SKILL.md                 frontmatter + the English instructions (< 500 lines)
      references/<A…J>-*.md    one file per category: every check's texts, rules and fix spellings
      references/{scenarios,decision-tree,tables}.md   placeholders for knowledge still to come
      references/zh/…          the same files in Chinese, plus README.md (the instructions in Chinese)

One skill with a Chinese reference tree rather than a sibling `vllm-optimization-zh` skill: the
spec gives a skill one SKILL.md whose `name` must equal its folder, and two skills with the same
triggers would compete for activation and double the metadata every agent keeps in context.

The output is deterministic (no dates, no tool version), so the committed bundle can be compared
byte for byte with a fresh build (tests/test_skill.py)."""
from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from vllm_kb.engine import catalog as catalog_mod
from vllm_kb.engine import resources, schemas, yamlio
from vllm_kb.engine.errors import UsageError
from vllm_kb.engine.knowledge import Knowledge, load

from vllm_kb.engine import records

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


STUBS = (Stub("scenarios.md", "skill.scenarios"), Stub("decision-tree.md", "skill.decision_tree"),
         Stub("tables.md", "skill.tables"))


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


def description(kb: Knowledge) -> str:
    # each category by the first word of its title: short enough for the 1024-character cap
    areas = ", ".join(c["title"]["en"].split()[0] for c in kb.categories)
    return (
        "Use when a project runs vLLM: " + "; ".join(TRIGGERS) + ". "
        f"Audits every vLLM launch site against {len(kb.checks)} versioned optimization checks "
        f"({areas}) and gives "
        "P0/P1/P2 changes in the site's own syntax for the project's pinned vLLM release, with `vllm-kb audit "
        "--format json` when installed or by hand from references/. 中文：vLLM 推理优化审计。"
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
    common = {
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
    return {path: _tidy(text) for path, text in sorted(out.items())}


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


def write(out: Path, files: dict[str, str] | None = None) -> Path:
    """Write the bundle to `out/vllm-optimization/`, replacing a previous build there."""
    files = files if files is not None else render()
    target = out / NAME
    if target.exists():
        skill_md = target / "SKILL.md"
        if not target.is_dir() or (skill_md.exists() and MARKER not in skill_md.read_text(encoding="utf-8", errors="replace")):
            raise UsageError(f"{target} exists and was not written by `vllm-kb skill build`; not replacing it")
        shutil.rmtree(target)
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return target
