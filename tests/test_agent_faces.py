"""What agents and their registries read: the skill's description names the files and the
symptoms that should bring it up, in English and Chinese; `skill install` writes a manifest and
never deletes what it did not write; the MCP server's server.json for the MCP registry; the
Claude Code plugin manifest."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from vllm_kb.engine.kb import about
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.skill import build, install

ROOT = Path(__file__).resolve().parents[1]


def _description() -> str:
    text = (ROOT / "skill" / build.NAME / "SKILL.md").read_text(encoding="utf-8")
    return json.loads(re.search(r"^description: (.*)$", text, re.M).group(1))


# what people type or see when vLLM goes wrong, and the files that configure it
SYMPTOMS_EN = ("CUDA out of memory", "KV cache", "max_model_len", "slow first token", "OOM in rollout", "TTFT",
               "throughput", "will not start")
SYMPTOMS_ZH = ("显存不足", "KV Cache", "首 token 慢", "吞吐低", "显存溢出", "无法启动")
FILE_KINDS = ("vllm serve", "python -m vllm.entrypoints", "EngineArgs", "Dockerfile", "compose", "Kubernetes", "Helm",
              "gpu_memory_utilization", "use_vllm", "rollout.name=vllm", "vllm_num_engines", "infer_backend: vllm")


def test_the_skill_description_names_files_and_symptoms_in_both_languages():
    desc = _description()
    assert desc == build.description(__import__("vllm_kb.engine.kb.knowledge", fromlist=["load"]).load())
    assert len(desc) <= build.MAX_DESCRIPTION and desc.startswith("Use when")
    for word in SYMPTOMS_EN + SYMPTOMS_ZH + FILE_KINDS:
        assert word in desc, word
    # triggers first: the files and symptoms come before what the skill does
    assert max(desc.index(w) for w in SYMPTOMS_EN) < desc.index("Audits")
    # the count is the knowledge's, not a number typed once
    from vllm_kb.engine.kb.knowledge import load

    assert f"against {len(load().checks)} versioned checks" in desc


# --- skill install never deletes what it did not write -----------------------------------------

def _skill(tmp_path: Path) -> Path:
    return tmp_path / ".claude" / "skills" / build.NAME


def test_install_records_what_it_wrote(tmp_path):
    from vllm_kb.skill.folder import MANIFEST

    skill = install.install("claude", cwd=tmp_path)
    manifest = json.loads((skill / MANIFEST).read_text())
    on_disk = {p.relative_to(skill).as_posix() for p in skill.rglob("*") if p.is_file()} - {MANIFEST}
    assert set(manifest["files"]) == on_disk == set(build.render())
    import hashlib

    assert manifest["files"]["SKILL.md"] == hashlib.sha256((skill / "SKILL.md").read_bytes()).hexdigest()


def test_reinstall_keeps_the_users_own_files_and_removes_only_its_stale_ones(tmp_path):
    skill = install.install("claude", cwd=tmp_path)
    (skill / "NOTES.md").write_text("my notes\n")
    (skill / "references" / "mine").mkdir()
    (skill / "references" / "mine" / "x.md").write_text("mine\n")
    # a file an earlier version wrote and this one no longer does
    from vllm_kb.skill import folder

    files = dict(build.render(), **{"references/old-name.md": "old\n"})
    folder.write(skill, files, build.MARKER)
    assert (skill / "references/old-name.md").is_file()
    install.install("claude", cwd=tmp_path)
    assert not (skill / "references/old-name.md").exists()
    assert (skill / "NOTES.md").read_text() == "my notes\n" and (skill / "references/mine/x.md").read_text() == "mine\n"


def test_a_folder_without_skill_md_or_manifest_is_refused_and_left_alone(tmp_path):
    # the old behaviour deleted a folder that had no SKILL.md
    skill = _skill(tmp_path)
    (skill / "data").mkdir(parents=True)
    (skill / "data" / "keep.txt").write_text("precious\n")
    with pytest.raises(UsageError, match="not written by"):
        install.install("claude", cwd=tmp_path)
    assert (skill / "data" / "keep.txt").read_text() == "precious\n" and not (skill / "SKILL.md").exists()


def test_a_changed_file_of_ours_stops_the_install_before_anything_is_written(tmp_path):
    skill = install.install("claude", cwd=tmp_path)
    ref = next(p for p in sorted((skill / "references").glob("*.md")))
    ref.write_text("edited by hand\n")
    before = {p: p.read_bytes() for p in skill.rglob("*") if p.is_file()}
    with pytest.raises(UsageError, match="changed since vllm-kb wrote them"):
        install.install("claude", cwd=tmp_path)
    assert {p: p.read_bytes() for p in skill.rglob("*") if p.is_file()} == before


def test_a_build_from_before_manifests_is_updated_without_deleting(tmp_path):
    from vllm_kb.skill.folder import MANIFEST

    skill = install.install("claude", cwd=tmp_path)
    (skill / MANIFEST).unlink()  # as `skill install` left it before this release
    (skill / "extra.md").write_text("whose?\n")
    install.install("claude", cwd=tmp_path)
    assert (skill / "extra.md").exists() and (skill / MANIFEST).is_file()


@pytest.mark.parametrize("bad", ['{"files": {"../../etc/passwd": "x"}}', "not json", '{"files": []}'])
def test_a_manifest_that_is_not_ours_is_refused(tmp_path, bad):
    from vllm_kb.skill.folder import MANIFEST

    skill = install.install("claude", cwd=tmp_path)
    (skill / MANIFEST).write_text(bad)
    with pytest.raises(UsageError):
        install.install("claude", cwd=tmp_path)
    assert (skill / "SKILL.md").is_file()


# --- server.json for the MCP registry -----------------------------------------------------------

# The rules of the registry's server.json (modelcontextprotocol/registry, docs/reference/server-json:
# server.schema.json and official-registry-requirements.md) that this file can break, restated.
SERVER_JSON_RULES = {
    "type": "object",
    "required": ["$schema", "name", "description", "version", "packages"],
    "properties": {
        "$schema": {"pattern": r"^https://static\.modelcontextprotocol\.io/schemas/\d{4}-\d{2}-\d{2}/server\.schema\.json$"},
        "name": {"type": "string", "pattern": r"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$", "minLength": 3, "maxLength": 200},
        "description": {"type": "string", "minLength": 1, "maxLength": 100},
        "version": {"type": "string", "maxLength": 255, "not": {"pattern": r"^(latest|[\^~<>=].*|.*\.[x*]$)"}},
        "repository": {"type": "object", "required": ["url", "source"]},
        "packages": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["registryType", "identifier", "version", "transport"],
            "properties": {
                "registryType": {"enum": ["npm", "pypi", "oci", "nuget", "mcpb"]},
                "registryBaseUrl": {"const": "https://pypi.org"},
                "identifier": {"type": "string"}, "version": {"type": "string", "not": {"const": "latest"}},
                "runtimeHint": {"type": "string"}, "transport": {"type": "object", "required": ["type"],
                                                                "properties": {"type": {"enum": ["stdio", "streamable-http", "sse"]}}},
                "packageArguments": {"type": "array", "items": {"type": "object", "required": ["type"],
                                                                "properties": {"type": {"enum": ["positional", "named"]}}}},
                "environmentVariables": {"type": "array"}, "runtimeArguments": {"type": "array"},
                "fileSha256": {"type": "string"},
            }}},
    },
}


def test_server_json_follows_the_registry_and_the_package():
    import jsonschema

    doc = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, SERVER_JSON_RULES)
    owner, repo = about.REPOSITORY.removeprefix("https://github.com/").split("/")
    # a GitHub namespace is io.github.<owner>; the registry checks it against the publisher's login
    assert doc["name"] == f"io.github.{owner}/{repo}" and doc["repository"] == {"url": about.REPOSITORY, "source": "github"}
    (pkg,) = doc["packages"]
    assert doc["version"] == pkg["version"] == about.__version__
    assert pkg["registryType"] == "pypi" and pkg["identifier"] == "vllm-kb" and pkg["transport"] == {"type": "stdio"}
    # the registry proves PyPI ownership by `mcp-name: <name>` in the package's README
    assert f"mcp-name: {doc['name']}" in (ROOT / "README.md").read_text(encoding="utf-8")
    # `uvx vllm-kb mcp`: the arguments start the stdio server
    from vllm_kb.cli.main import build_parser

    ns = build_parser().parse_args([a["value"] for a in pkg["packageArguments"]])
    assert ns.command == "mcp" and ns.transport == "stdio"


def test_claude_plugin_manifest_names_no_count_and_the_same_version():
    manifest = json.loads((ROOT / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert manifest["version"] == about.__version__
    assert not re.search(r"\d+ (versioned )?checks", manifest["description"]), "a count typed once goes stale"
    assert manifest.get("repository", about.REPOSITORY) == about.REPOSITORY


def test_a_build_rewrites_its_own_files_but_keeps_others(tmp_path):
    # `skill build` renders the checkout's generated bundle (under git): its files are rewritten
    # whatever they hold now (a merge changes them), files it did not write still stay
    skill = build.write(tmp_path)
    (skill / "SKILL.md").write_text("merged from another branch\n")
    (skill / "NOTES.md").write_text("mine\n")
    build.write(tmp_path)
    assert (skill / "SKILL.md").read_text(encoding="utf-8") == build.render()["SKILL.md"]
    assert (skill / "NOTES.md").read_text() == "mine\n"
