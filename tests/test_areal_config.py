"""inclusionAI/AReaL experiment configs (engine/scan/areal_config.py): the allocation mode's vLLM
servers, the `vllm:` section as the flags AReaL's launcher writes, `${a.b}` within the file, and
the pin of its second project file (pyproject.vllm.toml)."""
from __future__ import annotations

import json

CONFIG = """\
experiment_name: gsm8k-grpo
seed: 7
rollout:
  backend: "vllm:d2p1t2"
actor:
  path: Qwen/Qwen2.5-7B-Instruct
  dtype: bfloat16
vllm:
  model: ${actor.path}
  seed: ${seed}
  dtype: ${actor.dtype}
  skip_tokenizer_init: false
  max_model_len: 16384
  gpu_memory_utilization: 0.85
  no_enable_prefix_caching: true
  enforce_eager: ${missing.key}
"""


def _audit(cli, root, *extra):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", *extra)
    assert code in (0, 1), err
    return json.loads(out)


def test_the_vllm_section_and_the_allocation(cli, write_project):
    root = write_project({"examples/math/grpo.yaml": CONFIG,
                          "pyproject.vllm.toml": '[project]\nname="areal"\nversion="1.0"\n[project.optional-dependencies]\nvllm=["vllm==0.19.1"]\n'})
    (site,) = _audit(cli, root)["sites"]
    assert (site["kind"], site["mode"], site["vllm"]["version"]) == ("areal vllm server", "rlhf_server", "0.19.1")
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct" and site["gpu_request"] == 2
    got = {s["name"]: (s["value"], s["resolved"]) for s in site["settings"]}
    assert got["tensor_parallel_size"] == (2, True) and got["pipeline_parallel_size"] == (1, True)
    assert got["dtype"] == ("bfloat16", True) and got["seed"] == (7, True) and got["enable_prefix_caching"] == (False, True)
    assert got["enforce_eager"] == (None, False)  # an interpolation the file does not hold is unknown
    assert "skip_tokenizer_init" not in got  # False: AReaL writes no flag for it
    assert not any(c.get("fixable") for c in site["changes"])


def test_an_sglang_rollout_is_not_a_vllm_site(cli, write_project):
    root = write_project({"examples/math/grpo.yaml": CONFIG.replace("vllm:d2p1t2", "sglang:d2p1t2")})
    assert _audit(cli, root)["sites"] == []


def test_the_older_top_level_allocation_mode(cli, write_project):
    text = CONFIG.replace('rollout:\n  backend: "vllm:d2p1t2"\n', "allocation_mode: vllm.d4p1t1+d4p1t1\n")
    (site,) = _audit(cli, write_project({"grpo.yaml": text}))["sites"]
    assert {s["name"]: s["value"] for s in site["settings"]}["tensor_parallel_size"] == 1
