"""The MCP server through the SDK's own client: in memory for every tool, resource and prompt
(on both the 2026-07-28 protocol and the handshake one), then as a real `stdio` subprocess and
over streamable HTTP. Paths must stay inside the client's roots, symlinks included."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import ListRootsResult, Root
from vllm_kb.engine.audit import audit as engine_audit
from vllm_kb.engine.kb import schemas
from vllm_kb.engine.kb.frameworks import FRAMEWORK_IDS
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import catalogue
from vllm_kb.engine.report import model as report_model
from vllm_kb.engine.report.summary import fit
from vllm_kb.mcp_server.schema import report_schema
from vllm_kb.mcp_server.server import build_server

FIXTURES = Path(__file__).parent / "fixtures"
PROJECTS = ("stale-serve", "offline-batch", "config-yaml", "no-vllm")
TOOLS = {"audit", "audit_details", "detect", "explain_check", "list_checks", "match_scenario", "diagnose", "estimate_memory", "gpu_info"}
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def server():
    return build_server([FIXTURES])


def roots_callback(*folders: Path):
    async def callback(ctx):
        return ListRootsResult(roots=[Root(uri=f.resolve().as_uri(), name=f.name) for f in folders])

    return callback


async def call(server, tool: str, args: dict, **client_kw):
    async with Client(server, **client_kw) as c:
        return await c.call_tool(tool, args)


def error_text(result) -> str:
    assert result.is_error, result.structured_content
    return result.content[0].text


# --- listing -----------------------------------------------------------------------------------

async def test_tools_are_read_only_typed_and_structured(server):
    async with Client(server) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == TOOLS
    for t in tools.values():
        assert t.annotations.read_only_hint is True and t.annotations.destructive_hint is False, t.name
        assert t.output_schema and t.output_schema["type"] == "object", t.name
        assert "roots" not in t.input_schema.get("properties", {}), "the roots resolver leaked into the input schema"
        assert t.description and t.title
    # The audit answers with a bounded summary; the report itself is a resource (its contract,
    # made self-contained, stays published for clients that validate it).
    assert {"report_id", "report_uri", "urgent", "sites", "complete"} <= set(tools["audit"].output_schema["properties"])
    assert "common.schema.json" not in json.dumps(report_schema())
    assert {"report_id", "site", "check", "priority", "cursor"} <= set(tools["audit_details"].input_schema["properties"])
    audit_in = tools["audit"].input_schema["properties"]
    assert {"path", "gpu", "vllm_version", "lang", "select"} <= set(audit_in)
    assert tools["explain_check"].input_schema["required"] == ["check"]
    # match_scenario takes every framework of the registry (knowledge/frameworks), from that one list
    fw_in = json.dumps(tools["match_scenario"].input_schema["properties"]["framework"])
    assert all(f'"{fw}"' in fw_in for fw in ("none", *FRAMEWORK_IDS)), fw_in


# --- audit -------------------------------------------------------------------------------------

@pytest.mark.parametrize("project", PROJECTS)
async def test_audit_matches_the_cli_report(server, project):
    async with Client(server) as c:
        result = await c.call_tool("audit", {"path": project, "gpu": "H100 x4"})
        assert not result.is_error, result.content
        summary = result.structured_content
        report = json.loads((await c.read_resource(summary["report_uri"])).contents[0].text)
        pages, cursor = [], None
        while True:
            page = (await c.call_tool("audit_details", {"report_id": summary["report_id"], "cursor": cursor})).structured_content
            pages += page["items"]
            cursor = page["next_cursor"]
            if cursor is None:
                break
    errors = [e.message for e in schemas.validator("report").iter_errors(report)]
    assert not errors
    cli = report_model.build(engine_audit(FIXTURES / project, gpu="H100 x4"), "en")
    # a page holds a site whole unless the site alone is over an answer's budget (then its largest
    # parts are named in `omitted`: the report resource has them); a page carries no catalogue, so
    # its sites' not-applicable checks come with their reasons
    assert report["sites"] == cli["sites"] and report["catalogue"] == cli["catalogue"]
    assert pages == [fit(catalogue.with_reasons(cli, s)) for s in cli["sites"]]
    assert all(isinstance(r, str) for p in pages for r in p.get("not_applicable", {}).values())
    assert report["summary"] == cli["summary"] == summary["summary"]
    assert report["project"]["root"] == str((FIXTURES / project).resolve()) == summary["root"]
    # the summary holds every P0 and P1 with where to change what, and is not repeated as text
    urgent = [(r["priority"], r["check"]) for s in cli["sites"] for r in s["recommendations"] if r["priority"] in ("P0", "P1")]
    assert sorted((u["priority"], u["check"]) for u in summary["urgent"]) == sorted(urgent) and summary["complete"]
    assert all(":" in u["change"] for u in summary["urgent"])
    assert len(result.content) == 1 and len(result.content[0].text) < 200


async def test_audit_on_the_handshake_protocol_too(server):
    result = await call(server, "audit", {"path": "stale-serve", "gpu": "H100 x4"}, mode="legacy")
    assert result.structured_content["summary"]["recommendations"]["P0"] > 0


async def test_audit_select_keeps_only_those_checks(server):
    async with Client(server) as c:
        result = await c.call_tool("audit", {"path": "stale-serve", "gpu": "H100 x4", "select": ["kv-cache-fp8", "A2", "b3"]})
        page = await c.call_tool("audit_details", {"report_id": result.structured_content["report_id"]})
    site = page.structured_content["items"][0]
    assert sorted([c["id"] for c in site["checks"]] + list(site["not_applicable"])) == ["A2", "B3"]
    assert {r["check"] for r in site["recommendations"] if r["kind"] == "check"} <= {"A2", "B3"}
    assert site["score"]["total"] == 2
    # findings that are not checks (flags vLLM 0.33 does not have) are kept
    assert any(r["kind"] == "finding" for r in site["recommendations"])
    assert "no such check: 'Z9'" in error_text(await call(server, "audit", {"path": "stale-serve", "select": ["Z9"]}))


async def test_audit_in_chinese(server):
    async with Client(server) as c:
        result = await c.call_tool("audit", {"path": "offline-batch", "gpu": "H100 x4", "lang": "zh"})
        report = json.loads((await c.read_resource(result.structured_content["report_uri"])).contents[0].text)
    assert report["lang"] == "zh" and report["sites"][0]["scores"][1]["title"] == "显存管理"
    assert "部署点" in result.content[0].text or "P0" in result.content[0].text


async def test_usage_errors_come_back_as_tool_errors(server):
    assert "unknown GPU 'Z9000'" in error_text(await call(server, "audit", {"path": "stale-serve", "gpu": "Z9000"}))
    assert "no such file or folder" in error_text(await call(server, "audit", {"path": "does-not-exist"}))
    assert "not a version number" in error_text(await call(server, "audit", {"path": "stale-serve", "vllm_version": "banana"}))
    # arguments that fail the input schema are the model's to correct, too
    assert error_text(await call(server, "audit", {"path": "stale-serve", "lang": "fr"}))


# --- roots -------------------------------------------------------------------------------------

async def test_paths_outside_the_fallback_root_are_refused(server):
    for outside in ("..", "/etc", str(FIXTURES.parent / "test_mcp.py"), "file:///etc"):
        text = error_text(await call(server, "detect", {"path": outside}))
        assert "outside the server's root" in text and str(FIXTURES) in text


async def test_a_symlink_out_of_the_root_is_refused(tmp_path):
    root, outside = tmp_path / "project", tmp_path / "secret"
    root.mkdir()
    outside.mkdir()
    (outside / "serve.sh").write_text("vllm serve m --enforce-eager\n")
    (root / "link").symlink_to(outside, target_is_directory=True)
    (root / "inside").mkdir()
    (root / "inside" / "serve.sh").write_text("#!/bin/sh\nvllm serve m --enforce-eager\n")
    srv = build_server([root])
    assert "outside" in error_text(await call(srv, "detect", {"path": "link"}))
    assert "outside" in error_text(await call(srv, "detect", {"path": str(root / "link" / "serve.sh")}))
    ok = await call(srv, "detect", {"path": "inside", "all": True})
    assert ok.structured_content["sites"][0]["file"] == "serve.sh"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_clients_roots_replace_the_fallback(server, mode):
    kw = {"mode": mode, "list_roots_callback": roots_callback(FIXTURES / "offline-batch")}
    inside = await call(server, "detect", {"path": ".", "all": True}, **kw)
    assert inside.structured_content["sites"][0]["file"] == "jobs/batch_infer.py"
    text = error_text(await call(server, "detect", {"path": "../stale-serve"}, **kw))
    assert "outside the client's roots" in text


async def test_several_client_roots(server):
    kw = {"list_roots_callback": roots_callback(FIXTURES / "offline-batch", FIXTURES / "stale-serve")}
    result = await call(server, "detect", {"path": str(FIXTURES / "stale-serve")}, **kw)
    assert result.structured_content["uses_vllm"] is True


# --- the other tools ---------------------------------------------------------------------------

async def test_detect(server):
    first = (await call(server, "detect", {"path": "stale-serve"})).structured_content
    assert first["uses_vllm"] and first["complete"] is False and len(first["evidence"]) >= 1
    found = (await call(server, "detect", {"path": "stale-serve", "all": True})).structured_content
    assert found["uses_vllm"] and found["complete"] and found["sites"] == [{"file": "scripts/serve.sh", "line": 13, "kind": "api_server",
                                                      "syntax": "cli", "mode": "standalone_serve", "framework": "none"}]
    assert found["pins"][0]["text"].startswith("vllm")
    assert {"trigger": "T4 launch-command", "file": "scripts/serve.sh", "line": 13} .items() <= \
        next(e for e in found["evidence"] if e["trigger"].startswith("T4")).items()
    nothing = (await call(server, "detect", {"path": "no-vllm"})).structured_content
    assert nothing["uses_vllm"] is False and nothing["sites"] == [] and nothing["files_scanned"] > 0
    sglang = (await call(server, "detect", {"path": "neg-sglang", "lang": "zh"})).structured_content
    assert sglang["uses_vllm"] is False and sglang["pins"] == [] and "未使用" in sglang["summary"]


async def test_explain_check(server):
    rec = (await call(server, "explain_check", {"check": "swap-space"})).structured_content
    assert rec["id"] == "B4" and rec["category"]["id"] == "B" and rec["rules"][0]["status"] == "recommended"
    assert {"action": "remove", "text": "--swap-space", "keys": None} in rec["enable"][0]["cli"]
    zh = (await call(server, "explain_check", {"check": "B3", "lang": "zh"})).structured_content
    assert zh["title"] == load().checks.get("B3").title.zh
    assert "no such check" in error_text(await call(server, "explain_check", {"check": "nope"}))


async def test_list_checks(server):
    every = (await call(server, "list_checks", {})).structured_content["checks"]
    assert len(every) == len(load().checks) and every[0]["id"] == "A1"
    b = (await call(server, "list_checks", {"category": "b"})).structured_content["checks"]
    assert {c["category"] for c in b} == {"B"} and "B3" in [c["id"] for c in b]
    assert "no such category" in error_text(await call(server, "list_checks", {"category": "Z"}))


async def test_match_scenario(server):
    # a description alone: model, GPUs, mode and framework read from it, the config rendered for them
    out = (await call(server, "match_scenario", {"description": "GRPO with TRL colocate, Qwen2.5-7B on 8xH100",
                                                 "vllm_version": "0.33.0"})).structured_content
    assert out["understood"]["mode"] == "rlhf_colocate" and out["understood"]["framework"] == "trl"
    assert set(out["understood"]["from_description"]) == {"model", "gpu", "mode", "framework"}
    best = out["scenarios"][0]
    assert best["id"] == "S4" and best["status"] == "match" and best["seed"].startswith("场景 4")
    assert "vllm_enable_sleep_mode=True" in best["blocks"][0]["text"] and best["corrections"]
    assert [t["id"] for t in out["tables"]] == ["rlhf-memory-split"]
    # explicit arguments, another syntax and release
    out = (await call(server, "match_scenario", {"model": "meta-llama/Llama-3.3-70B-Instruct", "gpu": "H100-80GB x8",
                                                 "vllm_version": "0.12.0", "syntax": "yaml", "limit": 1,
                                                 "lang": "zh"})).structured_content
    (best,) = out["scenarios"]
    assert best["id"] == "S3" and [b["lang"] for b in best["blocks"]] == ["yaml", "bash"]
    assert "quantization: fp8\n" in best["blocks"][0]["text"] + "\n" and "api-server-count: 4" in best["blocks"][0]["text"]
    assert "从描述与参数中读取" in out["summary"]
    # what nobody said stays unknown: the matches are partial and say what is missing
    out = (await call(server, "match_scenario", {"description": "chat serving on 8 GPUs", "gpu": "none"})).structured_content
    assert out["scenarios"] and all(x["status"] == "partial" and x["missing"] for x in out["scenarios"])
    # every framework the knowledge has is a value the tool takes, rendered in its own keys
    for fw in FRAMEWORK_IDS:
        out = (await call(server, "match_scenario", {"description": "GRPO colocate, Qwen2.5-7B on 8xH100", "framework": fw,
                                                     "limit": 1})).structured_content
        # (a framework that fixes every setting the scenario names, oumi's inference engine, says so instead)
        assert out["understood"]["framework"] == fw and (out["scenarios"][0]["blocks"] or out["scenarios"][0]["blocked"])
    assert "not a version number" in error_text(await call(server, "match_scenario", {"vllm_version": "latest"}))
    assert "unknown GPU" in error_text(await call(server, "match_scenario", {"gpu": "Z9000"}))


async def test_diagnose(server):
    # a symptom over a project inside the roots: the path, the evidence and changes in the site's syntax
    out = (await call(server, "diagnose", {"symptom": "oom", "path": "rl-trl", "gpu": "H100 x8",
                                           "site": "scripts/train_recipe.sh"})).structured_content
    (d,) = out["diagnoses"]
    assert out["symptom"]["id"] == "oom" and d["site"]["id"] == "scripts/train_recipe.sh:7"
    assert [p["node"] for p in d["path"]][:2] == ["oom", "oom.colocated"]
    assert {c["after"] for c in d["changes"]} >= {"--vllm_enable_sleep_mode", "vllm_gpu_memory_utilization: 0.5"}
    # an error message alone: mapped to a symptom, the rest asked, not guessed
    out = (await call(server, "diagnose", {"error": "ValueError: No available memory for the cache blocks.",
                                           "gpu": "none", "lang": "zh"})).structured_content
    assert out["matched"]["matcher"] == "no-cache-blocks" and out["observed"] == {"oom_phase": "kv_cache"}
    q = out["diagnoses"][0]["questions"][0]
    assert q["needs"][0]["observation"] == "colocated" and "GPU" in q["question"] + q["needs"][0]["hint"]
    # answered, the walk goes on
    out = (await call(server, "diagnose", {"error": "No available memory for the cache blocks", "gpu": "H100 x1",
                                           "answers": {"colocated": False}})).structured_content
    assert [p["node"] for p in out["diagnoses"][0]["path"]][:2] == ["oom", "oom.weights"]
    assert "no symptom recognised" in error_text(await call(server, "diagnose", {"error": "chat serving on 8 GPUs"}))
    assert "no such observation" in error_text(await call(server, "diagnose", {"symptom": "itl", "gpu": "none",
                                                                               "answers": {"nope": True}}))
    outside = error_text(await call(server, "diagnose", {"symptom": "oom", "path": "/etc", "gpu": "none"}))
    assert "root" in outside.lower() or "outside" in outside.lower()



async def test_diagnose_names_every_kind_of_launch_hit(server):
    # a wording several causes print, and vLLM's wording no check covers, pass the face's schema too
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB "
           "of which 20.12 MiB is free. Process 4242 has 60.00 GiB memory in use.")
    out = (await call(server, "diagnose", {"error": oom, "gpu": "none"})).structured_content
    assert [(h["id"], h["kind"]) for h in out["launch"]] == [("L37", "closest"), ("L16", "shared")]
    lora = ("ValueError: While loading /a, expected target modules in ['q_proj'] but received ['mlp1.1']. Please verify that "
            "the loaded LoRA module is correct")
    out = (await call(server, "diagnose", {"error": lora, "gpu": "none", "symptom": "oom"})).structured_content
    assert [h["kind"] for h in out["launch"]] == ["uncovered"]


async def test_estimate_memory(server):
    big = (await call(server, "estimate_memory", {"model": "meta-llama/Llama-3.3-70B-Instruct", "gpu": "H100-80GB x8",
                                                   "tensor_parallel_size": 1})).structured_content
    assert big["known"] and big["estimate"]["fits"] is False and big["estimate"]["min_tp"] in (2, 4)
    assert big["gpu"]["count"] == 8 and big["engine"]["tensor_parallel_size"] == 1
    split = (await call(server, "estimate_memory", {"model": "meta-llama/Llama-3.3-70B-Instruct", "gpu": "H100 x8",
                                                     "tensor_parallel_size": 4})).structured_content
    assert split["estimate"]["fits"] is True
    unknown = (await call(server, "estimate_memory", {"model": "acme/mystery", "gpu": "none"})).structured_content
    assert unknown["known"] is False and unknown["estimate"] == {}
    assert "unknown GPU" in error_text(await call(server, "estimate_memory", {"model": "x-8B", "gpu": "Z9000"}))


async def test_gpu_info(server):
    h100 = (await call(server, "gpu_info", {"spec": "H100 x4"})).structured_content
    assert h100["gpu"]["count"] == 4 and h100["gpu"]["arch"] == "hopper" and "H100" in h100["description"]
    none = (await call(server, "gpu_info", {"spec": "none"})).structured_content
    assert none["gpu"] is None
    probed = (await call(server, "gpu_info", {})).structured_content  # NVML: a GPU or a note, never a crash
    assert probed["source"] == "NVML" and (probed["gpu"] or probed["note"])


# --- resources and prompts -----------------------------------------------------------------------

async def test_resources(server):
    knowledge = Path(__file__).parents[1] / "knowledge"
    async with Client(server) as c:
        uris = {str(r.uri) for r in (await c.list_resources()).resources}
        expected = {f"vllm-kb://knowledge/{p.relative_to(knowledge).as_posix()}" for p in knowledge.rglob("*")
                    if p.suffix in (".yaml", ".json") and "__pycache__" not in p.parts}
        assert expected <= uris
        assert {f"vllm-kb://checks/{c.id}" for c in load().checks} <= uris
        assert "vllm-kb://schema/report.schema.json" in uris
        text = (await c.read_resource("vllm-kb://knowledge/checks/B.yaml")).contents[0]
        assert text.text == (knowledge / "checks" / "B.yaml").read_text(encoding="utf-8")
        assert text.mime_type == "application/yaml"
        b3 = json.loads((await c.read_resource("vllm-kb://checks/B3")).contents[0].text)
        assert b3["id"] == "B3" and set(b3["title"]) == {"en", "zh"}


async def test_prompts(server):
    async with Client(server) as c:
        listed = {p.name: p for p in (await c.list_prompts()).prompts}
        assert set(listed) == {"audit-project", "fix-finding"}
        assert listed["audit-project"].title == "Audit this project"
        audit = await c.get_prompt("audit-project", {"path": "stale-serve", "gpu": "H100 x4"})
        text = audit.messages[0].content.text
        assert "`audit`" in text and 'gpu="H100 x4"' in text and "P0" in text
        fix = await c.get_prompt("fix-finding", {"key": "kv-cache-fp8", "path": "stale-serve", "lang": "zh"})
        assert "B3" in fix.messages[0].content.text and "修复" in fix.messages[0].content.text
        finding = await c.get_prompt("fix-finding", {"key": "not-in-version:swap_space"})
        assert "not-in-version:swap_space" in finding.messages[0].content.text


# --- real transports ---------------------------------------------------------------------------

def _server_cmd() -> list[str]:
    # The module entry point works whether or not cli/main.py has registered `vllm-kb mcp` yet.
    return [sys.executable, "-m", "vllm_kb.mcp_server"]


async def test_stdio_session():
    cmd = _server_cmd()
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], cwd=str(FIXTURES), env=dict(os.environ))
    async with Client(params) as c:
        assert {t.name for t in (await c.list_tools()).tools} == TOOLS
        result = await c.call_tool("audit", {"path": "config-yaml", "gpu": "H100 x4"})
        assert not result.is_error and result.structured_content["sites"][0]["id"].startswith("deploy/start.sh:")
        refused = await c.call_tool("audit", {"path": "/"})
        assert refused.is_error


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_streamable_http():
    port = _free_port()
    proc = subprocess.Popen(_server_cmd() + ["--transport", "http", "--port", str(port), "--root", str(FIXTURES)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60  # a loaded CI machine starts it slowly
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp") as c:
            found = await c.call_tool("detect", {"path": "offline-batch", "all": True})
            assert found.structured_content["sites"][0]["kind"] == "LLM()"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_bad_root_is_a_usage_error():
    done = subprocess.run(_server_cmd() + ["--root", str(FIXTURES / "nope")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a folder" in done.stderr


def test_the_cli_registers_mcp():
    from vllm_kb.cli.main import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    if "mcp" not in sub.choices:
        pytest.skip("cli/main.py does not register `vllm-kb mcp` yet (mcp_cmd.add_parser(sub))")
    ns = build_parser().parse_args(["mcp", "--transport", "http", "--port", "9"])
    assert ns.func.__module__ == "vllm_kb.cli.mcp_cmd" and ns.port == 9
