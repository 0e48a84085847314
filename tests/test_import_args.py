"""Launch arguments vLLM imports by dotted path or file path at start-up (engine/check/import_args.py, check L289):
a `vllm.` path the pinned release lacks is a P0; a module no release ever had only in the stock image; the
project's own module or file missing is a P1; a present one, vLLM's own "auto" and a named backend say nothing."""
from __future__ import annotations

import textwrap

from vllm_kb.engine.audit import audit
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.kb.knowledge import load


def _l289(tmp_path, files: dict[str, str], gpu: str = "H100-80GB x1"):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    sites = audit(tmp_path, gpu=gpu).sites
    return [next(r for r in sr.results if r.check.id == "L289") for sr in sites]


def _serve(args: str) -> str:
    return f"#!/bin/bash\nvllm serve Qwen/Qwen2.5-0.5B-Instruct {args}\n"


def test_worker_cls_gone_from_the_pinned_release_is_p0(tmp_path):
    (r,) = _l289(tmp_path, {"requirements.txt": "vllm==0.11.0\n", "run.py": """
        from vllm import LLM
        llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", worker_cls="vllm.worker.worker.Worker")
        """})
    assert r.status == "recommended" and r.priority == "P0"
    assert "No module named 'vllm.worker.worker'" in r.reason_text("en") and "run.py:3" in r.reason_text("en")


def test_the_release_that_has_it_says_nothing(tmp_path):
    (r,) = _l289(tmp_path, {"requirements.txt": "vllm==0.10.2\n", "run.py": """
        from vllm import LLM
        llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", worker_cls="vllm.worker.worker.Worker")
        """})
    assert r.status == "not_applicable"


def test_unpinned_is_p1(tmp_path):
    (r,) = _l289(tmp_path, {"run.py": """
        from vllm import LLM
        llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", worker_cls="vllm.worker.worker.Worker")
        """})
    assert r.status == "recommended" and r.priority == "P1"


def test_a_module_no_release_had_is_p1_outside_the_stock_image(tmp_path):
    # projects copy their own scheduler into vLLM's tree: only the stock image certainly lacks it
    (r,) = _l289(tmp_path, {"requirements.txt": "vllm==0.20.0\n",
                            "run.sh": _serve("--scheduler-cls vllm.v1.core.sched.tau_batch.TauScheduler")})
    assert r.status == "recommended" and r.priority == "P1" and "patched" in r.reason_text("en")


def test_a_module_no_release_had_in_the_stock_image_is_p0(tmp_path):
    (r,) = _l289(tmp_path, {"docker-compose.yaml": """
        services:
          vllm:
            image: vllm/vllm-openai:v0.9.0.1
            command: ["--model", "Qwen/Qwen2.5-0.5B-Instruct", "--middleware", "vllm.entrypoints.openai.middleware.log_opc_header"]
        """})
    assert r.status == "recommended" and r.priority == "P0"
    assert "vllm.entrypoints.openai.middleware" in r.reason_text("en")


def test_a_fork_holding_the_module_says_nothing(tmp_path):
    (r,) = _l289(tmp_path, {"requirements.txt": "vllm==0.20.0\n", "vllm/v1/core/sched/tau_batch.py": "class TauScheduler: ...\n",
                            "run.sh": _serve("--scheduler-cls vllm.v1.core.sched.tau_batch.TauScheduler")})
    assert r.status == "not_applicable"


def test_the_projects_own_middleware(tmp_path):
    files = {"requirements.txt": "vllm==0.9.2\n", "run.sh": _serve("--middleware token_auth.authentication")}
    (r,) = _l289(tmp_path, files | {"token_auth.py": "async def authentication(request, call_next): ...\n"})
    assert r.status == "not_applicable"
    (r,) = _l289(tmp_path / "b", {"requirements.txt": "vllm==0.9.2\n", "run.sh": _serve("--middleware auth.checks.token_check"),
                                  "auth/__init__.py": ""})
    assert r.status == "recommended" and r.priority == "P1" and "project's own package" in r.reason_text("en")
    (r,) = _l289(tmp_path / "c", files)
    assert r.status == "recommended" and r.priority == "P1" and "installed" in r.reason_text("en")


def test_a_parser_plugin_file_the_project_lacks_is_p1(tmp_path):
    (r,) = _l289(tmp_path, {"requirements.txt": "vllm==0.12.0\n",
                            "run.sh": _serve("--enable-auto-tool-choice --tool-call-parser mine --tool-parser-plugin ./plugins/my_parser.py")})
    assert r.status == "recommended" and r.priority == "P1" and "Failed to load module 'my_parser'" in r.reason_text("en")
    (r,) = _l289(tmp_path / "b", {"requirements.txt": "vllm==0.12.0\n", "plugins/my_parser.py": "",
                                  "run.sh": _serve("--enable-auto-tool-choice --tool-call-parser mine --tool-parser-plugin ./plugins/my_parser.py")})
    assert r.status == "not_applicable"


def test_vllms_own_values_import_nothing(tmp_path):
    (r,) = _l289(tmp_path, {"requirements.txt": "vllm==0.11.0\n", "run.py": """
        from vllm import LLM
        llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", worker_cls="auto", distributed_executor_backend="mp")
        """})
    assert r.status == "not_applicable"


def test_diagnose_names_the_check():
    kb = load()
    for text in ("RuntimeError: Failed to load 0th LogitsProcessor plugin mypkg.procs:Dummy",
                 "ERROR 07-18 [abstract_tool_parser.py:160] Failed to load module 'my_parser' from ./plugins/my_parser.py.",
                 "ModuleNotFoundError: No module named 'vllm.entrypoints.openai.middleware'"):
        assert "L289" in [h.id for h in launch.recognise(kb, text)], text
