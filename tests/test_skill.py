"""The Agent Skill bundle: the committed copy equals a fresh build, its frontmatter follows the
Agent Skills spec, its JSON field guide covers the report schema, and `skill install` puts it
where each agent looks (tmp folders only; HOME is a tmp folder for --user)."""
from __future__ import annotations

import re
import zipfile
from argparse import Namespace
from pathlib import Path

import pytest
import yaml
from vllm_kb.engine.kb import catalog, schemas
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import check_docs as records
from vllm_kb.skill import build, install

COMMITTED = Path(__file__).parents[1] / "skill" / build.NAME
TRIGGER_WORDS = ("import", "vllm serve", "python -m vllm.entrypoints", "gpu_memory_utilization", "tensor_parallel_size",
                 "max_model_len", "enforce_eager", "enable_prefix_caching", "use_vllm", "vllm_mode", "rollout.name=vllm",
                 "vllm_num_engines", "infer_backend: vllm", "ms-swift", "sleep_level", "enable_sleep_mode")
ALLOWED_FIELDS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return build.render()


def frontmatter(text: str) -> tuple[dict, str]:
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body


def test_committed_bundle_is_fresh(files, tmp_path):
    built = build.write(tmp_path, files)
    fresh = {p.relative_to(built).as_posix(): p.read_text(encoding="utf-8") for p in built.rglob("*") if p.is_file()}
    committed = {p.relative_to(COMMITTED).as_posix(): p.read_text(encoding="utf-8") for p in COMMITTED.rglob("*") if p.is_file()}
    stale = sorted(k for k in fresh.keys() | committed.keys() if fresh.get(k) != committed.get(k))
    assert not stale, f"skill/{build.NAME} is stale ({', '.join(stale)}): run `vllm-kb skill build`"


def test_rendering_is_deterministic(files):
    assert build.render() == files


def test_frontmatter_follows_the_spec(files):
    meta, body = frontmatter(files["SKILL.md"])
    assert set(meta) <= ALLOWED_FIELDS
    assert meta["name"] == build.NAME == COMMITTED.name
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta["name"]) and len(meta["name"]) <= 64
    desc = meta["description"]
    assert len(desc) <= build.MAX_DESCRIPTION and desc.startswith("Use when")
    assert "---" not in desc  # the reference validator splits the file on it
    for word in TRIGGER_WORDS:
        assert word in desc, word
    # trigger conditions come before what the skill does
    assert desc.index("enable_sleep_mode") < desc.index("Audits")
    assert all(isinstance(v, str) for v in meta["metadata"].values())
    assert len(body.splitlines()) < build.MAX_BODY_LINES


def test_body_explains_running_reading_and_auditing_by_hand(files):
    _, body = frontmatter(files["SKILL.md"])
    assert "vllm-kb audit PATH --format json" in body
    for heading in ("## 1. Run the auditor", "## 2. Read the result", "## 4. Audit by hand"):
        assert heading in body
    for link in re.findall(r"\]\(([^)]+)\)", body):
        assert link in files, f"SKILL.md links to {link}, which the bundle does not have"


def _schema_keys() -> dict[str, tuple[set[str], set[str]]]:
    """section → (required keys, all keys the schema names)."""
    s = schemas.raw("report")
    d = s["$defs"]
    rec = d["site"]["properties"]["recommendations"]["items"]

    def keys(node):
        return set(node.get("required", [])), set(node.get("required", [])) | set(node.get("properties", {}))

    return {"top": keys(s), "site": keys(d["site"]), "check": keys(d["check"]), "recommendation": keys(rec),
            "change": keys(d["change"])}


def test_field_guide_covers_the_report_schema(files):
    guide = build._fields()
    for section, (required, known) in _schema_keys().items():
        documented = set(guide[section])
        assert required <= documented, f"{section}: the schema requires {sorted(required - documented)}; explain them in skill/templates/report-fields.yaml"
        assert documented <= known, f"{section}: {sorted(documented - known)} are not in the report schema"
        for key in required:
            assert f"`{key}`" in files["SKILL.md"] and f"`{key}`" in files["references/zh/README.md"]


def test_every_check_is_in_its_category_reference_in_both_languages(files):
    kb = load()
    for cat in kb.categories:
        name = f"{cat['id']}-{build.slug(cat['title']['en'])}.md"
        for prefix, lang in (("references/", "en"), ("references/zh/", "zh")):
            text = files[prefix + name]
            assert text.startswith(f"# {cat['id']}. {cat['title'][lang]}")
            for c in kb.checks.in_category(cat["id"]):
                assert f"## {c.id} `{c.name}` — {c.title(lang)}" in text

    # the scenario templates and reference tables, generated from their knowledge in both languages
    from vllm_kb.engine.advise import scenarios, tables

    for prefix, lang in (("references/", "en"), ("references/zh/", "zh")):
        text = files[prefix + "scenarios.md"]
        for s in scenarios.load():
            assert f"## {s.id} `{s.name}` — {s.title(lang)}" in text
        assert "vllm serve meta-llama/Llama-3.3-70B-Instruct \\\n    --quantization fp8_per_block" in text
        for tb in tables.load():
            assert f"## {tb.title(lang)}" in files[prefix + "tables.md"]
    assert "coming later" not in files["references/scenarios.md"] + files["references/tables.md"]


def test_fix_spellings_come_from_the_engine():
    kb, cat = load(), catalog.load()
    swap = records.how_to_enable(kb.checks.get("B4"), cat)[0]
    assert swap["cli"] == [{"action": "remove", "text": "--swap-space"}]
    assert swap["python"] == [{"action": "remove", "text": "swap_space"}]
    eager = records.how_to_enable(kb.checks.get("A2"), cat)[0]
    assert eager["cli"] == [{"action": "remove", "text": "--enforce-eager"}]
    fp8 = next(e for e in records.how_to_enable(kb.checks.get("B3"), cat) if e["vllm"] is None)
    assert fp8["cli"] == [{"action": "write", "text": "--kv-cache-dtype fp8"}]
    assert fp8["yaml"] == [{"action": "write", "text": "kv-cache-dtype: fp8"}]
    assert fp8["python"] == [{"action": "write", "text": 'kv_cache_dtype="fp8"'}]
    env = records.how_to_enable(kb.checks.get("J1"), cat)[0]
    assert env["env"] and env["cli"] == []


# --- install -----------------------------------------------------------------------------------

@pytest.mark.parametrize("target, folder", [("claude", ".claude/skills"), ("codex", ".agents/skills"),
                                            ("agents", ".agents/skills")])
def test_install_project_and_user(tmp_path, monkeypatch, files, target, folder):
    from vllm_kb.cli import skill_cmd

    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(home))
    assert skill_cmd.run_install(Namespace(target=target, scope="project", out=None)) == 0
    assert skill_cmd.run_install(Namespace(target=target, scope="user", out=None)) == 0
    for base in (project, home):
        skill = base / folder / build.NAME
        assert (skill / "SKILL.md").read_text(encoding="utf-8") == files["SKILL.md"]
        assert (skill / "references" / "zh" / "README.md").is_file()
    # installing again replaces the earlier copy
    assert install.install(target, cwd=project) == project / folder / build.NAME


def test_install_zip(tmp_path, files):
    out = install.install("zip", cwd=tmp_path)
    assert out == tmp_path / f"{build.NAME}.zip"
    with zipfile.ZipFile(out) as z:
        assert sorted(z.namelist()) == sorted(f"{build.NAME}/{rel}" for rel in files)
        assert z.read(f"{build.NAME}/SKILL.md").decode() == files["SKILL.md"]
    first = out.read_bytes()
    install.install("zip", cwd=tmp_path)
    assert out.read_bytes() == first  # byte-identical for the same knowledge


def test_install_refuses_to_replace_a_foreign_skill(tmp_path):
    foreign = tmp_path / ".claude" / "skills" / build.NAME
    foreign.mkdir(parents=True)
    (foreign / "SKILL.md").write_text("---\nname: vllm-optimization\ndescription: mine\n---\n")
    with pytest.raises(UsageError, match="not written by"):
        install.install("claude", cwd=tmp_path)
    assert "mine" in (foreign / "SKILL.md").read_text()


def test_build_command_writes_where_asked(tmp_path, capsys):
    from vllm_kb.cli import skill_cmd

    assert skill_cmd.run_build(Namespace(out=str(tmp_path))) == 0
    assert (tmp_path / build.NAME / "SKILL.md").is_file() and "wrote" in capsys.readouterr().out


def test_the_cli_registers_skill():
    from vllm_kb.cli.main import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    if "skill" not in sub.choices:
        pytest.skip("cli/main.py does not register `vllm-kb skill` yet (skill_cmd.add_parser(sub))")
    ns = build_parser().parse_args(["skill", "install", "--target", "codex", "--user"])
    assert ns.scope == "user" and ns.func.__name__ == "run_install"


def test_skills_ref_validator_accepts_the_bundle():
    validator = pytest.importorskip("skills_ref", reason="skills-ref is not installed here; .ci/agents-check runs it")
    assert validator.validate(COMMITTED) == []


def test_claude_code_plugin_manifest():
    import json

    from vllm_kb.engine.report.model import tool_version

    root = Path(__file__).parents[1]
    manifest = json.loads((root / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", manifest["name"])
    assert manifest["version"] == tool_version(), "keep .claude-plugin/plugin.json's version with pyproject.toml's"
    # `skills` lists folders that hold skill folders; ours holds exactly the built bundle
    for folder in manifest["skills"]:
        found = [p.parent.name for p in (root / folder).glob("*/SKILL.md")]
        assert found == [build.NAME]
    assert manifest["mcpServers"]["vllm-kb"] == {"command": "vllm-kb", "args": ["mcp"]}
