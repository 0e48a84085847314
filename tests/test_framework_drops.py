"""Settings a framework release does not hand to vLLM (knowledge/frameworks/<id>.yaml › drops): verl
0.6.0 … 0.9.0 build vLLM's command line from the rollout config and skip a False boolean, so vLLM's own
default holds; 0.9.1 passes `--no-KEY` but raises max_num_batched_tokens to max_model_len itself."""
from __future__ import annotations

import pytest

SCRIPT = """\
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \\
    actor_rollout_ref.rollout.enable_chunked_prefill=False \\
    actor_rollout_ref.rollout.max_num_batched_tokens=8192 {extra}
"""


def _site(json_site, write_project, verl: str, extra: str = ""):
    root = write_project({"run.sh": SCRIPT.format(extra=extra), "requirements.txt": f"verl=={verl}\nvllm==0.12.0\n"})
    site = json_site(root, "H100-80GB x8")
    return site, {s["name"] for s in site["settings"]}


@pytest.mark.parametrize("verl, extra, chunked_kept, batched_kept", [
    ("0.5.0", "", True, True),                                    # LLM(enable_chunked_prefill=False, …)
    ("0.6.1", "", True, True),                                    # sync mode (0.6's default) builds LLM(…)
    ("0.6.1", "actor_rollout_ref.rollout.mode=async", False, True),  # async mode: the command-line builder
    ("0.7.0", "", False, True),
    ("0.9.0", "", False, True),
    ("0.9.1", "", True, False),                                   # --no-enable-chunked-prefill, batched tokens raised
])
def test_what_reaches_vllm(json_site, write_project, verl, extra, chunked_kept, batched_kept):
    site, names = _site(json_site, write_project, verl, extra)
    assert ("enable_chunked_prefill" in names) is chunked_kept
    assert ("max_num_batched_tokens" in names) is batched_kept
    dropped = set(site["framework_info"]["unmapped"])
    assert ("actor_rollout_ref.rollout.enable_chunked_prefill" in dropped) is not chunked_kept


LONG = "data.max_prompt_length=16384 data.max_response_length=16384"


@pytest.mark.parametrize("verl, extra, p0", [("0.5.0", LONG, True), ("0.5.0", "", False), ("0.7.0", "", False), ("0.9.1", "", False)])
def test_the_batched_tokens_refusal_follows_what_reaches_vllm(json_site, write_project, verl, extra, p0):
    # vLLM 0.12.0 honours chunked prefill off (V1 from 0.11.1) and raises when 8192 < max_model_len;
    # verl 0.5.0 sizes max_model_len as prompt + response length (32768 here, else 512 + 512)
    site, _ = _site(json_site, write_project, verl, extra)
    assert ("L17" in [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]) is p0


@pytest.mark.parametrize("verl, told", [("0.5.0", False), ("0.7.0", True), ("0.9.1", False)])
def test_the_user_is_told_the_switch_stays_on(json_site, write_project, verl, told):
    site, _ = _site(json_site, write_project, verl)
    checks = [r["check"] for r in site["recommendations"]]
    assert ("verl-false-not-passed" in checks) is told


@pytest.mark.parametrize("verl, extra, want", [
    ("0.5.0", "", 1024),                                                   # 512 + 512 (ppo_trainer.yaml)
    ("0.5.0", "data.max_prompt_length=1024 data.max_response_length=3072", 4096),
    ("0.5.0", "actor_rollout_ref.rollout.max_model_len=2048", 2048),       # the config's own key wins
    ("0.5.0", "data.max_prompt_length=$PROMPT_LEN", None),                 # unreadable: unknown
    ("0.7.0", "", None),                                                   # the model's own length (vLLM's default)
])
def test_verl_before_070_sizes_max_model_len_from_its_lengths(json_site, write_project, verl, extra, want):
    # TinyZero's verl 0.1 examples with Qwen2.5-32B at TP 4 and gmu 0.3 were a false KV P0 at 32768
    site, _ = _site(json_site, write_project, verl, extra)
    got = {s["name"]: s["value"] for s in site["settings"]}.get("max_model_len", site["framework_info"]["defaults"].get("max_model_len"))
    assert got == want


@pytest.mark.parametrize("files", [
    {"run.sh": "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=org/m actor_rollout_ref.rollout.name=vllm "
               "+actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space={value}\n"},
    {"ppo_trainer.yaml": "actor_rollout_ref:\n  hybrid_engine: true\n  model: {{path: org/m}}\n  rollout:\n    name: vllm\n"
                         "    engine_kwargs:\n      vllm:\n        swap_space: {value}\n"},
])
@pytest.mark.parametrize("value, reaches", [("null", False), ("4", True)])
def test_verl_drops_a_null_engine_kwarg(json_site, write_project, files, value, reaches):
    # every verl release with engine_kwargs pops a None value before vLLM sees it (0.6.1
    # vllm_rollout_spmd.py:212, 0.9.1 vllm_async_server.py:288): oumi's `swap_space: null` (eval85) is no
    # swap_space at vLLM 0.21.0, which has none; a number still is, and 0.21.0's `vllm serve` refuses it
    root = write_project({**{k: v.format(value=value) for k, v in files.items()}, "requirements.txt": "verl==0.9.1\nvllm==0.21.0\n"})
    site = json_site(root, "H100-80GB x8")
    assert ("swap_space" in {s["name"] for s in site["settings"]}) is reaches
    refused = {r["check"] for r in site["recommendations"] if r["priority"] == "P0"} & {"B4", "not-in-version:swap_space"}
    assert bool(refused) is reaches
    assert not any("swap_space" in r["check"] for r in site["recommendations"] if not reaches)


def test_verl_06_refusal_names_its_own_length_and_key(json_site, write_project):
    # eval117 MindSpeed-RL test_dapo_deepseekv3_671b_megatron_A3.sh:78 on its documented verl 0.6.1: verl hands
    # vLLM max_model_len = prompt + response (0.6.1 vllm_rollout_spmd.py:195), 2048 + 8192, not the model's
    # 163840, so the budget to raise is 10240, written where the script sets it
    script = ("python3 -m recipe.dapo.main_dapo data.max_prompt_length=2048 data.max_response_length=8192 "
              "actor_rollout_ref.model.path=deepseek-ai/DeepSeek-V3-Base actor_rollout_ref.rollout.name=vllm "
              "actor_rollout_ref.rollout.tensor_model_parallel_size=8 actor_rollout_ref.rollout.enable_chunked_prefill=False "
              "actor_rollout_ref.rollout.max_num_batched_tokens=2048\n")
    site = json_site(write_project({"run.sh": script, "requirements.txt": "verl==0.6.1\nvllm==0.12.0\n"}), "H100-80GB x8")
    assert site["effective"]["max_model_len"] == 10240
    l17 = [r for r in site["recommendations"] if r["check"] == "L17"]
    assert l17 and "max_model_len (10240)" in l17[0]["reason"]
    assert [c["after"] for c in l17[0]["changes"]] == ["actor_rollout_ref.rollout.max_num_batched_tokens=10240"]
