"""What a framework release needs from vLLM after its adapter loads (knowledge/frameworks/vllm_uses.yaml,
read by tools/framework_vllm_uses.py from the wheels and vLLM's sdists): the vLLM imports inside the
functions each run calls — a miss in the launch path refuses the launch (P0), one at the first request,
rollout or weight sync is a P1 (`after_start`)."""
import ast
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import yaml
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import framework_imports
from vllm_kb.engine.kb import compat, resources
from vllm_kb.engine.kb.versions import SpecifierSet

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import framework_vllm_attrs as attrs  # noqa: E402
import framework_vllm_uses as tool  # noqa: E402


def test_every_row_names_the_function_and_when_a_miss_fails():
    data = yaml.safe_load(resources.read_text("knowledge", "frameworks", "vllm_uses.yaml"))
    assert data["vllm_releases"] == compat.vllm_imports()["vllm_releases"]
    for r in data["rows"]:
        for use in r["uses"]:
            assert (use.get("import") or "vllm.").startswith("vllm.") and use["when"] in ("launch", "after_start") and use["function"]
            assert sum(k in use for k in ("import", "attribute", "call")) == 1
            assert all(SpecifierSet(s) for s in use["vllm"])


def test_trl_vllm_serve_main_imports_get_open_port_which_vllm_has_from_0_11_1():
    (row,) = compat.vllm_use_rows("trl", "1.5.0")
    use = next(u for u in row["uses"] if u["import"] == "vllm.utils.network_utils.get_open_port")
    assert (use["entry"], use["function"], use["when"], use["vllm"]) == ("trl vllm-serve", "main", "launch", [">=0.11.1"])


def test_trl_vllm_serve_whose_main_imports_a_name_the_pinned_vllm_lacks_is_p0(tmp_path):
    (tmp_path / "run.sh").write_text("trl vllm-serve --model Qwen/Qwen2.5-0.5B-Instruct\n")
    (tmp_path / "requirements.txt").write_text("trl==1.3.0\nvllm==0.10.2\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "inside main (trl/scripts/vllm_serve.py:445)" in r.reason_text("en")
    # the trainer side of the same release does not run vllm-serve's main
    site = SimpleNamespace(kind="python", framework="trl", settings={}, framework_keys={})
    assert not framework_imports._call_breaks("trl", "1.3.0", "0.10.2", site)


def test_a_miss_after_the_engine_starts_is_marked_after_start():
    site = SimpleNamespace(kind="trl vllm-serve", framework="trl", settings={}, framework_keys={})
    rows = framework_imports._call_breaks("trl", "1.0.0", "0.6.3", site)
    (row,) = rows  # one per `when`: the weight-sync setup's StatelessProcessGroup (vLLM 0.6.4 on)
    assert row.raw["after_start"] and "StatelessProcessGroup" in row.raw["error"]
    assert "init_communicator" in row.raw["error"] and "once the engine serves" in row.raw["error"]


PKG = {
    "fw/__init__.py": "",
    "fw/engine.py": textwrap.dedent("""\
        from fw.util import sync
        class Engine:
            def __init__(self):
                from vllm.a import BeforeBuild
                self.llm = LLM(model="m")
                self.start()
                if self.lora:
                    self.optional()
            def start(self):
                from vllm.b import Started
                try:
                    from vllm.c import Guarded
                except ImportError:
                    pass
                if hasattr(self, "x"):
                    from vllm.d import AskedFirst
                if vllm_version >= "0.9.0":
                    from vllm.e import Gated
                sync()
            def optional(self):
                from vllm.f import OnlyWithLora
            def never(self):
                from vllm.g import NotCalled
        """),
    "fw/util.py": "def sync():\n    from vllm.h import InHelper\n",
}


def test_the_tool_follows_unconditional_calls_from_the_seeds_only():
    trees = {k: ast.parse(v) for k, v in PKG.items()}
    got = {(m + "." + n, fn, when, gates) for _, _, fn, m, n, gates, when in
           tool.function_imports(trees, {"fw/engine.py": {"Engine.__init__": "after_start"}})}
    assert got == {("vllm.a.BeforeBuild", "Engine.__init__", "launch", ()),  # above LLM(…) in the same function
                   ("vllm.b.Started", "Engine.start", "after_start", ()),
                   ("vllm.e.Gated", "Engine.start", "after_start", (("vllm_version >= '0.9.0'", True),)),
                   ("vllm.h.InHelper", "sync", "after_start", ())}


VLLM = {
    "vllm/entrypoints/llm.py": """\
        class LLM:
            def __init__(self):
                self.llm_engine = None
            def generate(self): ...
        """,
    "vllm/engine/base.py": "class EngineClient:\n    def reset_prefix_cache(self): ...\n",
    "vllm/engine/async_llm_engine.py": """\
        from vllm.engine.base import EngineClient
        class AsyncLLMEngine(EngineClient):
            def __init__(self):
                self.engine = object()
        if envs.VLLM_USE_V1:
            from vllm.v1.engine.async_llm import AsyncLLM
            AsyncLLMEngine = AsyncLLM
        """,
    "vllm/v1/engine/async_llm.py": """\
        from vllm.engine.base import EngineClient
        class AsyncLLM(EngineClient):
            def collective_rpc(self): ...
        """,
    "vllm/v1/engine/llm_engine.py": "class LLMEngine:\n    def __getattr__(self, name): ...\n",
}


def test_the_attribute_reading_follows_bases_and_both_engines(tmp_path):
    for path, text in VLLM.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(textwrap.dedent(text))
    src = str(tmp_path)
    assert attrs.class_attrs(src, "vllm/v1/engine/async_llm.py", "AsyncLLM") == {"collective_rpc", "reset_prefix_cache"}
    assert attrs.present(src, "LLM", ("generate",)) == (True, None)
    assert attrs.present(src, "LLM", ("sleep",)) == (False, None)
    # V1's AsyncLLM lacks V0's inner engine; both have the base's method
    assert attrs.present(src, "AsyncLLMEngine", ("engine",)) == (False, True)
    assert attrs.present(src, "AsyncLLMEngine", ("reset_prefix_cache",)) == (True, True)
    # a class with __getattr__ takes any name: not judged
    assert attrs.present(src, "LLM", ("llm_engine", "model_executor")) == (None, None)


FW = {
    "fw/__init__.py": "",
    "fw/actor.py": textwrap.dedent("""\
        from vllm import LLM
        class Actor:
            def __init__(self):
                self.llm = LLM(model="m")
                self.other = None
            def step(self):
                self.llm.collective_rpc("x")
                out = self.llm.llm_engine.model_executor.driver_worker
                if hasattr(self.llm, "sleep"):
                    self.llm.sleep()
                ok = self.ready and self.llm.wake_up()
        """),
}


def test_the_tool_reads_unguarded_attributes_on_a_bound_engine():
    trees = {k: ast.parse(v) for k, v in FW.items()}
    got = {(eng, hops) for *_, eng, hops, _ in tool.attribute_uses(trees, {"fw/actor.py": {"Actor.step": "after_start"}})}
    assert got == {("LLM", ("collective_rpc",)), ("LLM", ("llm_engine",)), ("LLM", ("llm_engine", "model_executor"))}


def test_openrlhf_0_6_weight_sync_needs_llm_collective_rpc_from_vllm_0_7():
    (row,) = compat.vllm_use_rows("openrlhf", "0.6.0")
    use = next(u for u in row["uses"] if u.get("attribute") == "LLM.collective_rpc")
    assert use["function"] == "LLMRayActor.init_process_group" and use["vllm"] == [">=0.7.0"]
    site = SimpleNamespace(kind="python -m openrlhf.cli.train_ppo_ray", framework="openrlhf", settings={}, framework_keys={})
    (r,) = framework_imports._call_breaks("openrlhf", "0.6.0", "0.6.5", site)
    assert r.raw["after_start"] and "'LLM' object has no attribute 'collective_rpc'" in r.raw["error"] and "needs" not in r.raw


def test_xinference_reads_guided_decoding_params_per_request_only_where_its_version_test_is_parsed():
    # 1.4.1-1.8.0 compare vllm.__version__ >= "0.6.3" as strings: "0.12.0" fails it, no import there
    assert not compat.vllm_use_rows("xinference", "1.8.0")
    (row,) = compat.vllm_use_rows("xinference", "1.14.0")
    (use,) = row["uses"]
    assert (use["entry"], use["function"], use["when"], use["vllm"]) == ("llm", "VLLMModel.async_generate", "after_start", [">=0.4.1,<0.12.0"])


def test_version_tests_beside_an_installed_test_are_read_as_version_tests():
    body = ast.parse(textwrap.dedent("""\
        if VLLM_INSTALLED and vllm.__version__ >= "0.6.3":
            from vllm.a import A
        if not is_vllm_available():
            from vllm.b import B
        else:
            from vllm.c import C
        """)).body
    got = [(ast.unparse(s), g) for s, g in tool._gated(body)]
    assert got == [("from vllm.a import A", (("vllm.__version__ >= '0.6.3'", True),)), ("from vllm.c import C", ())]
