"""The engine arguments a framework release passes to vLLM (knowledge/frameworks/engine_kwargs.yaml,
read from the wheels by tools/framework_engine_kwargs.py) against the pinned vLLM's EngineArgs;
framework release bugs as compat rows; keys valid in the pinned framework release."""
import ast
import textwrap

import pytest
import yaml
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import compat, resources


def _l43(tmp_path, files: dict, gpu="A100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    r = next(x for x in sr.results if x.check.id == "L43")
    return sr, r


def test_every_row_names_its_package_release_and_file():
    data = yaml.safe_load(resources.read_text("knowledge", "frameworks", "engine_kwargs.yaml"))
    assert {r["framework"] for r in data["rows"]} == {"trl", "verl", "openrlhf", "llamafactory", "ms-swift", "lighteval", "lm_eval", "openllm", "unsloth_zoo", "xinference"}
    for r in data["rows"]:
        pkg, where = r["source"].split(" ", 1)
        assert "==" in pkg and ".py:" in where, r["source"]
        assert r["kwargs"] and all(isinstance(v["line"], int) for v in r["kwargs"].values())
        # verl's bundled per-release copies call their own EngineArgs, not vLLM's
        assert "third_party/vllm/vllm_v_" not in where


def test_llamafactory_0_9_2_passes_limit_mm_per_prompt_only_for_a_multimodal_template():
    (row,) = [r for r in compat.engine_kwargs("llamafactory", "0.9.2") if r["call"] == "AsyncEngineArgs"]
    assert "mm_plugin" in row["kwargs"]["limit_mm_per_prompt"]["condition"]
    assert "limit_mm_per_prompt" not in next(r for r in compat.engine_kwargs("llamafactory", "0.9.1"))["kwargs"]


def test_a_pre_release_is_read_as_the_release_its_line_became():
    assert compat.code_release("0.9.2.dev0") == "0.9.2"
    assert compat.code_release("1.0.0rc1") == "1.0.0"
    assert compat.code_release("0.6.3.post1") == "0.6.3.post1"


API = """\
    #!/bin/bash
    llamafactory-cli api --model_name_or_path Qwen/Qwen2-VL-7B-Instruct --template {template} --infer_backend vllm
    """


def test_llamafactory_dev_release_with_a_vl_template_on_vllm_0_5_3_is_p0_with_the_nearest_pairs(tmp_path):
    sr, r = _l43(tmp_path, {"api.sh": API.format(template="qwen2_vl"), "requirements.txt": "llamafactory==0.9.2.dev0\nvllm==0.5.3\n"})
    assert r.priority == "P0" and r.status == "recommended"
    text = r.reason_text("en")
    assert "limit_mm_per_prompt" in text and "vllm_engine.py" in text
    # 0.5.5 takes the argument, 0.6.1 is the first that also registers Qwen2-VL
    assert sr.facts["launch"]["fw_fit_vllm"] == "==0.6.1"
    assert "最近可用组合" in r.reason_text("zh")


def test_the_same_release_with_a_text_template_is_not_held_to_the_multimodal_argument(tmp_path):
    _, r = _l43(tmp_path, {"api.sh": API.format(template="llama3").replace("Qwen2-VL-7B-Instruct", "Llama-3.1-8B-Instruct"),
                           "requirements.txt": "llamafactory==0.9.2\nvllm==0.5.3\n"})
    assert r.priority != "P0"


def test_ms_swift_3_6_passes_device_which_vllm_0_10_dropped(tmp_path):
    files = {"infer.sh": "swift infer --model Qwen/Qwen2.5-7B-Instruct --infer_backend vllm\n",
             "requirements.txt": "ms-swift==3.6.2\nvllm==0.10.0\n"}
    sr, r = _l43(tmp_path, files, gpu="A100-80GB")
    assert r.priority == "P0" and "'device'" in r.reason_text("en")
    assert sr.facts["launch"]["fw_fit_framework"] == "==3.7.0"
    # the release that dropped it goes with 0.10.0
    (tmp_path / "requirements.txt").write_text("ms-swift==3.7.0\nvllm==0.10.0\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert next(x for x in sr.results if x.check.id == "L43").priority != "P0"


def test_a_guarded_argument_is_never_held_against_a_vllm(tmp_path):
    # ms-swift asks inspect.signature(EngineArgs) before passing enable_sleep_mode
    rows = compat.engine_kwargs("ms-swift", "3.5.0")
    assert any(r["kwargs"].get("enable_sleep_mode", {}).get("guarded") for r in rows)


SERVE = "trl vllm-serve --model {model} --data_parallel_size {dp}\n"


@pytest.mark.parametrize("trl,vllm,model,dp,priority", [
    ("0.29.1", "0.14.0", "Qwen/Qwen2.5-1.5B", 2, "P0"),  # offline DP refused for a dense model
    ("0.29.1", "0.14.0", "Qwen/Qwen2.5-1.5B", 1, None),  # no DP
    ("0.29.1", "0.14.0", "Qwen/Qwen3-30B-A3B", 2, None),  # MoE: vLLM takes it
    ("1.11.0", "0.19.0", "Qwen/Qwen2.5-1.5B", 2, None),  # execs `vllm serve --data-parallel-size` (online DP)
    ("0.17.0", "0.8.5", "Qwen/Qwen2.5-3B-Instruct", 4, "P1"),  # TRL #3446: reported, not provable
    ("0.17.0", "0.8.5", "Qwen/Qwen2.5-3B-Instruct", 1, None),
])
def test_trl_vllm_serve_data_parallel(tmp_path, trl, vllm, model, dp, priority):
    _, r = _l43(tmp_path, {"serve.sh": SERVE.format(model=model, dp=dp), "requirements.txt": f"trl=={trl}\nvllm=={vllm}\n"})
    got = r.priority if r.status == "recommended" else None
    if priority is None:
        assert got != "P0" and "data parallel" not in r.reason_text("en").lower()
    else:
        assert got == priority


def test_llamafactory_fix_writes_the_dtype_key_of_the_pinned_release(tmp_path):
    chat = """\
        from llamafactory.chat import ChatModel
        ChatModel(dict(model_name_or_path="meta-llama/Meta-Llama-3-8B-Instruct", template="llama3", infer_backend="vllm"))
        """
    for release, key in (("0.8.2.dev0", "vllm_dtype"), ("0.8.1", "vllm_dtype"), ("0.8.3", "infer_dtype"), ("0.9.1", "infer_dtype")):
        (tmp_path / "chat.py").write_text(textwrap.dedent(chat))
        (tmp_path / "requirements.txt").write_text(f"llamafactory=={release}\nvllm==0.4.3\n")
        (sr,) = audit(tmp_path, gpu="V100-32GB").sites
        (change,) = [c for c in sr.changes if "L4" in c.checks]
        assert change.after.startswith(key + "="), (release, change.after)
        ast.parse(change.after)


def test_the_extraction_tool_reads_a_forwarding_actor(tmp_path):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import framework_engine_kwargs as tool

    src = textwrap.dedent("""\
        import vllm
        class Actor:
            def __init__(self, *args, bundle=None, **kwargs):
                kwargs.pop("num_gpus")
                self.kwargs = kwargs
            def start(self):
                self.engine = vllm.AsyncEngineArgs(*self.kwargs and (), **self.kwargs)
        def create(n):
            extra = {"enable_sleep_mode": True}
            if n > 1:
                extra["worker_extension_cls"] = "x.Y"
            return Actor.options(num_gpus=1).remote(model="m", bundle=1, num_gpus=1, **extra)
        """)
    (call,) = tool.calls_in("openrlhf", {"pkg/engine.py": ast.parse(src)})
    assert set(call["kwargs"]) == {"model", "enable_sleep_mode", "worker_extension_cls"}
    assert call["kwargs"]["worker_extension_cls"]["condition"] == "n > 1"


def test_verl_before_0_5_takes_its_own_rollout_below_vllm_0_6_3(tmp_path):
    """verl#2594: verl 0.4.1 on vLLM 0.6.3 imports the "customized" rollout (verl/third_party/vllm's own
    LLM), not vllm_rollout_spmd.py, so its enable_sleep_mode never reaches vLLM 0.6.3; the launch went on
    to vLLM's own dtype check. With vLLM 0.6.4 the spmd module is imported, and its first import of
    verl.third_party.vllm runs verl's dispatch, which refuses 0.6.4 (only 0.5.4, 0.6.3* and 0.7.0+ without
    SGLang) before the keyword could reach vLLM; with 0.6.3.post1 the dispatch passes and the keyword breaks."""
    launch = ("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
              "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=1\n")
    _, r = _l43(tmp_path, {"run.sh": launch, "requirements.txt": "verl==0.4.1\nvllm==0.6.3\n"}, gpu="A100-80GB")
    assert "enable_sleep_mode" not in r.reason_text("en")
    (tmp_path / "requirements.txt").write_text("verl==0.4.1\nvllm==0.6.4\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "vllm version 0.6.4 not supported" in r.reason_text("en")
    (tmp_path / "requirements.txt").write_text("verl==0.4.1\nvllm==0.6.3.post1\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "enable_sleep_mode" in r.reason_text("en")
