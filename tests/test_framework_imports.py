"""The vLLM names a framework release imports on its vLLM path (knowledge/frameworks/vllm_imports.yaml,
read by tools/framework_vllm_imports.py from the wheels and vLLM's sdists) against the pinned vLLM;
a dev build read with the final release before it; TRL's derived max_model_len."""
import ast
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import compat, resources
from vllm_kb.engine.kb.versions import SpecifierSet

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import framework_vllm_imports as tool  # noqa: E402


def _site(tmp_path, files: dict, gpu="A100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr, next(x for x in sr.results if x.check.id == "L43")


def test_every_row_names_its_release_and_where_each_import_resolves():
    data = yaml.safe_load(resources.read_text("knowledge", "frameworks", "vllm_imports.yaml"))
    # every final release from the first read to the last: 0.9.2, 0.15.0 and 0.15.1 too (relbugs5's reread)
    assert {"0.9.2", "0.11.0", "0.15.0", "0.15.1"} <= set(data["vllm_releases"])
    for r in data["rows"]:
        assert r["source"].split("==")[0] in ("trl", "verl", "openrlhf", "llamafactory", "ms-swift", "vllm-omni", "lmcache", "vllm-backend",
                                              "ray", "lm-eval", "lighteval", "fschat")
        for imp in r["imports"]:
            assert imp["import"].startswith("vllm.") and imp["file"].endswith(".py")
            assert all(SpecifierSet(s) for s in imp["vllm"])


def test_verl_0_7_async_server_needs_vllm_0_9_for_run_headless():
    (row,) = compat.vllm_import_rows("verl", "0.7.1")
    imp = next(i for i in row["imports"] if i["import"] == "vllm.entrypoints.cli.serve.run_headless")
    assert imp["entry"] == "async" and imp["vllm"] == [">=0.9.0"]


def test_a_dev_build_is_read_with_its_final_release_and_the_one_before():
    assert compat.code_releases("llamafactory", "0.9.4.dev0") == ["0.9.4", "0.9.3"]
    assert compat.code_releases("llamafactory", "0.9.3") == ["0.9.3"]


CHAT = "model_name_or_path: Qwen/Qwen3-8B\ntemplate: qwen3\ninfer_backend: vllm\n"


def test_llamafactory_dev_build_passing_disable_log_requests_to_vllm_0_11_is_p0(tmp_path):
    sr, r = _site(tmp_path, {"chat.yaml": CHAT, "run.sh": "llamafactory-cli chat chat.yaml\n",
                             "requirements.txt": "llamafactory==0.9.4.dev0\nvllm==0.11.0\n"})
    assert r.priority == "P0" and r.status == "recommended"
    assert "disable_log_requests" in r.reason_text("en")
    # the final 0.9.4 asks vLLM before passing it
    assert sr.facts["launch"]["fw_fit_framework"] == "==0.9.4"


def test_llamafactory_final_release_with_vllm_0_11_is_not_held_to_it(tmp_path):
    _, r = _site(tmp_path, {"chat.yaml": CHAT, "run.sh": "llamafactory-cli chat chat.yaml\n",
                            "requirements.txt": "llamafactory==0.9.4\nvllm==0.11.0\n"})
    assert r.priority != "P0" and "disable_log_requests" not in r.reason_text("en")


VERL = """\
    python3 -m verl.trainer.main_ppo \\
        actor_rollout_ref.model.path=Qwen/Qwen3-0.6B \\
        actor_rollout_ref.rollout.name=vllm {extra}\\
        trainer.n_gpus_per_node=1
    """


def test_verl_async_server_import_missing_in_the_pinned_vllm_is_p0_with_the_import(tmp_path):
    sr, r = _site(tmp_path, {"run.sh": VERL.format(extra=""), "requirements.txt": "verl==0.7.1\nvllm==0.8.4\n"})
    assert r.priority == "P0" and r.status == "recommended"
    assert "cannot import name 'run_headless' from 'vllm.entrypoints.cli.serve'" in r.reason_text("en")
    assert sr.facts["launch"]["fw_fit_vllm"] == "==0.9.0"


def test_verl_sync_rollout_does_not_load_the_async_server(tmp_path):
    # 0.6.1's default rollout mode is sync: its server's imports are not run
    _, sync = _site(tmp_path, {"run.sh": VERL.format(extra=""), "requirements.txt": "verl==0.6.1\nvllm==0.9.1\n"})
    assert "CoreEngineProcManager" not in sync.reason_text("en")
    (tmp_path / "run.sh").write_text(textwrap.dedent(VERL.format(extra="actor_rollout_ref.rollout.mode=async ")))
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "CoreEngineProcManager" in r.reason_text("en")


def test_a_pair_inside_every_range_stays_quiet(tmp_path):
    _, r = _site(tmp_path, {"run.sh": VERL.format(extra=""), "requirements.txt": "verl==0.7.1\nvllm==0.10.2\n"})
    assert r.status == "enabled"


def test_trl_colocate_derives_max_model_len_from_the_prompt_and_completion_budget(tmp_path):
    src = """\
        from trl import GRPOConfig
        args = GRPOConfig(output_dir="o", max_prompt_length=6144, max_completion_length=2048,
                          use_vllm=True, vllm_mode="colocate")
        """
    (tmp_path / "train.py").write_text(textwrap.dedent(src))
    for release, want in (("0.20.0", 8192), ("0.26.0", None)):
        (tmp_path / "requirements.txt").write_text(f"trl=={release}\nvllm==0.10.2\n")
        (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
        got = sr.site.settings.get("max_model_len")
        assert (got.value if got else None) == want, release


def test_the_tool_follows_module_level_imports_and_skips_guarded_ones(tmp_path):
    pkg = {
        "fw/__init__.py": "",
        "fw/rollout/__init__.py": "from .engine import Engine\n",
        "fw/rollout/engine.py": textwrap.dedent("""\
            from vllm.config import New
            from fw.utils import helper
            try:
                from vllm.old import Gone
            except ImportError:
                Gone = None
            if vllm_version >= "0.9":
                from vllm.x import Gated
            if is_vllm_available():
                from vllm.y import Available
            def f():
                from vllm.z import InFunction
            """),
        "fw/utils.py": "from vllm.lora import Helper\n",
        "fw/unrelated.py": "from vllm.never import Loaded\n",
    }
    trees = {k: ast.parse(v) for k, v in pkg.items()}
    files = tool.loaded(trees, "fw/rollout/__init__.py")
    assert "fw/unrelated.py" not in files and {"fw/rollout/engine.py", "fw/utils.py", "fw/__init__.py"} <= set(files)
    got = {(m, n) for _, _, m, n in tool.vllm_imports(trees, files)}
    assert got == {("vllm.config", "New"), ("vllm.y", "Available"), ("vllm.lora", "Helper")}


def test_the_tool_reads_vllm_release_gates_and_module_only_guards():
    # lm-eval 0.4.9-0.4.11 (lm_eval/models/vllm_causallms.py): `if parse_version(version("vllm")) >=
    # parse_version("0.8.3"): from vllm.entrypoints.chat_utils import resolve_hf_chat_template`, inside
    # `try: … except ModuleNotFoundError: pass` in 0.4.9 (a missing name still raises ImportError)
    src = textwrap.dedent("""\
        try:
            from vllm.utils import get_open_port
            if parse_version(version("vllm")) >= parse_version("0.8.3"):
                from vllm.entrypoints.chat_utils import resolve_hf_chat_template
            else:
                from vllm.old import old_name
        except ModuleNotFoundError:
            pass
        try:
            from vllm.a import caught_all
        except ImportError:
            caught_all = None
        if sys.platform == "linux":
            from vllm.b import platform_gated
        """)
    got = {(m, n): (g, only) for _, _, m, n, g, only in tool.vllm_imports({"m.py": ast.parse(src)}, ["m.py"], gates=True)}
    assert got == {("vllm.utils", "get_open_port"): ((), True),
                   ("vllm.entrypoints.chat_utils", "resolve_hf_chat_template"): ((">=0.8.3",), True),
                   ("vllm.old", "old_name"): (("<0.8.3",), True)}
    assert [x[2:] for x in tool.vllm_imports({"m.py": ast.parse(src)}, ["m.py"])] == []


def test_lm_eval_0_4_11_with_vllm_0_22_is_p0_with_the_release_that_moved_it(tmp_path):
    # vLLM moved resolve_hf_chat_template to vllm/renderers/hf.py (lm-evaluation-harness #3595; lm-eval 0.4.12)
    _, r = _site(tmp_path, {"requirements.txt": "vllm==0.22.1\nlm-eval==0.4.11\n",
                            "eval.sh": "lm_eval --model vllm --model_args pretrained=Qwen/Qwen3-8B --tasks gsm8k\n"}, "H100-80GB")
    assert r.priority == "P0" and r.status == "recommended"
    assert "resolve_hf_chat_template" in r.reason_text("en") and "lm-eval ==0.4.12" in r.reason_text("en")


def test_the_tool_resolves_names_the_way_python_does(tmp_path):
    src = tmp_path / "v"
    (src / "vllm" / "config").mkdir(parents=True)
    (src / "vllm" / "__init__.py").write_text("")
    (src / "vllm" / "config" / "__init__.py").write_text(textwrap.dedent("""\
        from typing import TYPE_CHECKING
        from .lora import LoRAConfig
        class ModelConfig: ...
        if TYPE_CHECKING:
            from .cache import CacheConfig
        """))
    (src / "vllm" / "config" / "lora.py").write_text("MaxLoRARanks = int\n")
    (src / "vllm" / "lazy.py").write_text("def __getattr__(name): ...\n_MAP = {'Later': 'x'}\n")
    tool._vllm_module.cache_clear()
    assert tool.resolves(str(src), "vllm.config", "ModelConfig") and tool.resolves(str(src), "vllm.config", "LoRAConfig")
    assert tool.resolves(str(src), "vllm.config", "lora") and tool.resolves(str(src), "vllm.config.lora", "MaxLoRARanks")
    assert not tool.resolves(str(src), "vllm.config", "CacheConfig")
    assert tool.resolves(str(src), "vllm.lazy", "Later") and not tool.resolves(str(src), "vllm.lazy", "Other")
    assert not tool.resolves(str(src), "vllm.missing.mod", "X")
    assert tool._runs([False, True, True, False, True], ["1", "2", "3", "4", "5"]) == [">=2,<4", ">=5"]


def test_the_reread_fills_the_releases_the_sources_gained(tmp_path):
    # no wheels: a listed import's runs are read again over the releases between the first and last read
    for v, body in (("0.1.0", "X = 1\n"), ("0.2.0", "Y = 1\n"), ("0.3.0", "X = 1\n"), ("0.4.0", "X = 1\n")):
        (tmp_path / v / "vllm").mkdir(parents=True)
        (tmp_path / v / "vllm" / "__init__.py").write_text("")
        (tmp_path / v / "vllm" / "a.py").write_text(body)
    tool._vllm_module.cache_clear()
    row = {"framework": "verl", "releases": "==1.0", "imports": [{"entry": "async", "import": "vllm.a.X", "vllm": [">=0.1.0"]}]}
    table = {"version": 1, "vllm_releases": ["0.1.0", "0.3.0"], "rows": [row]}
    got = tool.reread(table, tmp_path)
    assert got["vllm_releases"] == ["0.1.0", "0.2.0", "0.3.0"]  # 0.4.0 lies past the last release read
    assert got["rows"][0]["imports"][0]["vllm"] == [">=0.1.0,<0.2.0", ">=0.3.0"]
    bad = {**table, "rows": [{**row, "imports": [{**row["imports"][0], "vllm": [">=0.3.0"]}]}]}
    with pytest.raises(SystemExit):  # the sources no longer give the committed runs: a run with the wheels is due
        tool.reread(bad, tmp_path)


def test_a_release_the_tables_once_skipped_is_judged(tmp_path):
    # vllm.entrypoints.openai.protocol is gone in 0.15.0 (its classes moved to per-endpoint modules): verl 0.5.0's
    # async server import was "not known" on 0.15.x while the table read 0.14.1 and 0.16.0 only
    from vllm_kb.engine.kb import vllm_symbols
    read = [str(v) for v in compat.vllm_imports()["vllm_releases"]]
    (row,) = compat.vllm_import_rows("verl", "0.5.0")
    imp = next(i for i in row["imports"] if i["import"] == "vllm.entrypoints.openai.protocol.ChatCompletionRequest")
    assert vllm_symbols.resolves_in(imp["vllm"], "0.15.0", read) is False
    assert vllm_symbols.resolves_in(imp["vllm"], "0.14.1", read) is True


OMNI = "#!/bin/bash\nvllm serve Qwen/Qwen2.5-Omni-7B --port 8000 {flags}\n"


def test_a_plugin_built_for_another_vllm_is_p0_when_the_launch_uses_its_options(tmp_path):
    sr, r = _site(tmp_path, {"serve.sh": OMNI.format(flags="--omni"), "requirements.txt": "vllm==0.16.0\nvllm-omni==0.14.0\n"},
                  gpu="H100-80GB")
    assert r.priority == "P0" and r.status == "recommended"
    assert "vllm-omni 0.14.0 does not load with vLLM 0.16.0" in r.reason_text("en") and "cannot import name" in r.reason_text("en")
    assert sr.facts["launch"]["plugin_fit_vllm"] == "==0.14.0"


def test_the_plugin_with_the_vllm_it_was_built_for_or_unused_stays_quiet(tmp_path):
    _, same = _site(tmp_path, {"serve.sh": OMNI.format(flags="--omni"), "requirements.txt": "vllm==0.14.0\nvllm-omni==0.14.0\n"},
                    gpu="H100-80GB")
    assert same.priority != "P0"
    (tmp_path / "serve.sh").write_text(OMNI.format(flags=""))
    (tmp_path / "requirements.txt").write_text("vllm==0.16.0\nvllm-omni==0.14.0\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert "plugin_problem_text" not in sr.facts["launch"]


def test_verl_recipe_entry_whose_module_name_only_ends_in_main_is_a_verl_site(tmp_path):
    # verl #3842: `python -m recipe.fully_async_policy.fully_async_main` runs the async vLLM server, whose module
    # imports vllm.v1.engine.utils at load; verl 0.6.0 declares vllm<=0.9.1, which lacks it
    run = """\
        python -m recipe.fully_async_policy.fully_async_main actor_rollout_ref.model.path=Qwen/Qwen2.5-7B \\
            actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.mode=async trainer.n_gpus_per_node=4
        """
    sr, r = _site(tmp_path, {"run.sh": run, "requirements.txt": "verl==0.6.0\nvllm==0.9.1\n"})
    assert sr.site.kind == "verl fully_async_main"
    assert r.priority == "P0" and "vllm.v1.engine.utils" in r.reason_text("en")
