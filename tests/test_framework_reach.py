"""Every framework the knowledge has, not only the first five: upgrade plans name the NeMo-RL,
EasyR1 or serving-package (Xinference, FastChat, Ray) release that goes with the target, the MCP
match_scenario tool takes each framework id, and `xinference launch` engine keys written with
hyphens (which Xinference hands to AsyncEngineArgs as written) are P0 with the underscore spelling
as the fix."""
from __future__ import annotations

from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import compat
from vllm_kb.engine.upgrade import upgrade

ROOT = Path(__file__).resolve().parents[1]


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def _framework_items(res):
    return [i for p in res.plans for i in p.of("frameworks")]


def test_nemo_rl_upgrade_names_the_release_that_pins_the_target(tmp_path):
    import shutil

    root = tmp_path / "nemo"
    shutil.copytree(ROOT / "tests" / "realcases" / "control--nemo-rl-grpo-math-1b", root)
    (item,) = _framework_items(upgrade(root, "0.11.2", gpu="H100-80GB x8"))
    # the checkout says 0.2.0dev: the 0.2.0 line, which pins vllm==0.8.4; 0.5.0 pins 0.11.2 (pyproject.toml)
    assert item.subject == "nemo-rl" and item.after == "0.5.0" and item.priority == "P0"
    assert "vllm==0.8.4" in item.text["en"] and "0.5.0" in item.text["zh"]


def test_release_lists_of_packages_the_catalog_does_not_read():
    assert compat.releases("nemo-rl")[-1] == "0.7.0" and compat.releases("easyr1") == ["0.3.0", "0.3.1", "0.3.2"]
    assert compat.supporting("nemo-rl", "0.17.1") == ["0.6.0"]
    assert compat.releases("no-such-framework") == []


def test_xinference_upgrade_names_the_release_that_fixed_its_break(tmp_path):
    root = _project(tmp_path, {"requirements.txt": "xinference==1.16.0\nvllm==0.12.0\n", "launch.sh":
                               "xinference launch --model-name Qwen3-Embedding-8B --model-type embedding --model-engine vllm\n"})
    (item,) = _framework_items(upgrade(root, "0.13.0", gpu="A100-80GB x1"))
    # Xinference builds the embedding engine with task="embed", which vLLM 0.13 removed; 2.1.0 passes runner="pooling"
    assert (item.subject, item.before, item.after, item.priority) == ("xinference", "1.16.0", "2.1.0", "P0")
    # an LLM on the same pair: the break is the embedding path's only
    root2 = _project(tmp_path / "llm", {"requirements.txt": "xinference==1.16.0\nvllm==0.12.0\n", "launch.sh":
                                        "xinference launch --model-name qwen2.5-instruct -s 7 --model-engine vllm\n"})
    assert not _framework_items(upgrade(root2, "0.13.0", gpu="A100-80GB x1"))


@pytest.mark.parametrize("fw,block", [("easyr1", "worker.rollout.gpu_memory_utilization="),
                                      ("nemo-rl", "policy.generation.vllm_cfg.gpu_memory_utilization=")])
def test_match_scenario_renders_the_framework_keys(fw, block):
    from mcp_server import tools

    out = tools.match_scenario("GRPO colocate Qwen2.5-7B on 8xH100", model=None, gpu="H100-80GB x8", mode=None, framework=fw,
                               syntax=None, vllm_version="0.20.0", limit=1, lang="en").model_dump()
    assert out["understood"]["framework"] == fw
    assert block in out["scenarios"][0]["blocks"][0]["text"]


XI = ("xinference launch --model_path /models/Qwen2-VL-7B-Instruct --model-engine vllm -n qwen2-vl-instruct -f pytorch -s 7 "
      "--gpu-idx 2 {opt} 0.9\n")


def _xi_site(tmp_path: Path, opt: str, release: str = "0.16.1"):
    root = _project(tmp_path, {"requirements.txt": f"xinference=={release}\nvllm==0.6.3\n", "launch.sh": XI.format(opt=opt)})
    rep = audit(root, gpu="A100-80GB x1")
    (sr,) = rep.sites
    return root, sr


def test_xinference_hyphenated_engine_key_is_p0_and_renamed(tmp_path):
    root, sr = _xi_site(tmp_path, "--gpu-memory-utilization")
    (f,) = [f for f in sr.remarks if f.code == "unknown-option"]
    assert f.priority == "P0" and "'gpu-memory-utilization'" in f.message["en"] and "--gpu_memory_utilization" in f.message["zh"]
    (ch,) = [c for c in sr.changes if c.op == "rename"]
    assert ch.after.endswith("--gpu_memory_utilization 0.9")


def test_xinference_underscore_key_and_own_options_are_clean(tmp_path):
    _, sr = _xi_site(tmp_path, "--gpu_memory_utilization")
    assert not [f for f in sr.remarks if f.code == "unknown-option"]
    # Xinference's own later options (2.0.0: --enable-virtual-env, --env KEY VALUE) are no engine keys
    root = _project(tmp_path / "own", {"requirements.txt": "xinference==2.0.0\nvllm==0.11.0\n", "launch.sh":
                                       "xinference launch --model-engine vllm -n qwen2.5-instruct -s 7 --enable-virtual-env "
                                       "--env HF_ENDPOINT https://hf-mirror.com --gpu_memory_utilization 0.9\n"})
    (sr,) = audit(root, gpu="A100-80GB x1").sites
    assert not [f for f in sr.remarks if f.code == "unknown-option"]
    # reasoning_content is popped by VLLMModel.load before AsyncEngineArgs (xorbitsai/inference#4229's launch)
    root = _project(tmp_path / "rc", {"requirements.txt": "xinference==1.12.0\nvllm==0.11.0\n", "launch.sh":
                                      "xinference launch --model-name qwen3 --model-engine vLLM -s 0_6 --enable_thinking false "
                                      "--reasoning_content false --gpu_memory_utilization 0.9 --max_model_len 4096\n"})
    (sr,) = audit(root, gpu="A100-80GB x1").sites
    assert not [f for f in sr.remarks if f.priority == "P0"]


def test_xinference_json_value_is_not_judged_as_argparse_text(tmp_path):
    # the value reaches AsyncEngineArgs as Python text, not through argparse: L32's forms do not apply
    root = _project(tmp_path, {"requirements.txt": "xinference==1.3.1\nvllm==0.7.3\n", "launch.sh":
                               "xinference launch --model-engine vLLM -n qwen2.5-vl-instruct -s 7 -f pytorch "
                               "--limit_mm_per_prompt '{\"image\": 5}'\n"})
    (sr,) = audit(root, gpu="A100-80GB x1").sites
    assert "L32" not in {r.check.id for r in sr.results if r.needs_change}


VERL_RUN = ("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
            "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=2 trainer.n_gpus_per_node=8\n")


@pytest.mark.parametrize("image,vllm", [("verlai/verl:app-verl0.5-transformers4.55.4-vllm0.10.0-mcore0.13.0-te2.2", "0.10.0"),
                                        ("hiyouga/verl:ngc-th2.8.0-cu12.9-vllm0.11.0", "0.11.0"),
                                        ("verlai/verl:vllm012.dev3", None), ("verlai/verl:base-verl0.5-cu126-cudnn9.8-torch2.7.1-fa2.7.4", None)])
def test_framework_image_tag_pins_the_vllm_it_installs(tmp_path, image, vllm):
    root = _project(tmp_path, {"Dockerfile": f"FROM {image}\nWORKDIR /app\nCOPY . .\n", "run.sh": VERL_RUN})
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    # a tag naming only a line (vllm012) or no vLLM (a base image) is no release: nothing is read
    assert (sr.version.version if sr.version.pinned else None) == vllm
    if vllm:
        assert sr.version.pin.file == "Dockerfile" and sr.version.pin.line == 1


def test_llamafactory_image_tag_is_the_framework_release(tmp_path):
    root = _project(tmp_path, {"Dockerfile": "FROM hiyouga/llamafactory:0.9.3\nRUN pip install vllm==0.10.1\n",
                               "infer.yaml": "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\ntemplate: qwen\ninfer_backend: vllm\n",
                               "run.sh": "llamafactory-cli api infer.yaml\n"})
    (sr,) = audit(root, gpu="H100-80GB x1").sites
    # LLaMA-Factory 0.9.2–0.9.3 passes disable_log_requests, which AsyncEngineArgs lost in vLLM 0.10.1
    assert sr.site.framework_version == "0.9.3" and sr.facts["launch"]["fw_problem"] == "error"
    # the image's tag is never rewritten as if it were a requirement
    assert all("llamafactory:" not in (c.after or "") or c.after.startswith("hiyouga/llamafactory:") for c in sr.changes)


@pytest.mark.parametrize("clone,release", [
    ("git clone https://github.com/volcengine/verl.git && cd verl && git checkout v0.4.1 && pip install -e .", "0.4.1"),
    ("git clone -b v0.4.1 --depth 1 https://github.com/volcengine/verl.git /opt/verl && pip install -e /opt/verl", "0.4.1"),
    ("git clone -b v0.4.1 https://github.com/volcengine/verl.git && pip install verl", None),  # PyPI's verl, not the clone
    ("git clone -b v0.4.1 --depth 1 https://github.com/volcengine/verl.git && pip install --no-deps -e ./verl", "0.4.1"),
    ("git clone https://github.com/volcengine/verl.git", None),  # cloned, never installed
])
def test_framework_checkout_built_in_place_is_its_ref(tmp_path, clone, release):
    root = _project(tmp_path, {"Dockerfile": f"FROM python:3.10\nRUN pip install vllm==0.11.0\nRUN {clone}\n", "run.sh": VERL_RUN})
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    assert sr.site.framework_version == release
    if release:  # verl 0.4.1 declares vllm<=0.8.5
        assert sr.facts["launch"]["fw_declared"] == "<=0.8.5"


QWEN25VL_CONFIG = ('{"architectures": ["Qwen2_5_VLForConditionalGeneration"], "model_type": "qwen2_5_vl", "hidden_size": 3584, '
                   '"num_attention_heads": 28, "num_key_value_heads": 4, "num_hidden_layers": 28, "vocab_size": 152064, '
                   '"max_position_embeddings": 128000, "torch_dtype": "bfloat16"}')


@pytest.mark.parametrize("local", [True, False])
def test_xinference_transformers_too_old_p0_only_where_the_config_says_no_remote_class(tmp_path, local):
    # Xinference runs vLLM with trust_remote_code on; that reads the checkpoint's own config class only
    # where config.json's auto_map names AutoConfig. A config.json the project holds without it: P0;
    # a registry name whose config.json is not read: P0 too here, since vLLM 0.7.2's own qwen2_5_vl.py imports
    # transformers.models.qwen2_5_vl (knowledge/vllm/transformers_since.yaml), which no remote config class
    # replaces (the hedge's P1 stays for a model whose vLLM module does not: tests/test_transformers_fit.py)
    files = {"requirements.txt": "xinference==1.3.1\nvllm==0.7.2\ntransformers==4.48.3\n",
             "launch.sh": "xinference launch --model-engine vllm -n qwen2.5-vl-instruct -s 7 -f pytorch"
                          + (" --model-path ./models/Qwen2.5-VL-7B-Instruct\n" if local else "\n")}
    if local:
        files["models/Qwen2.5-VL-7B-Instruct/config.json"] = QWEN25VL_CONFIG
    (sr,) = audit(_project(tmp_path, files), gpu="A100-80GB x1").sites
    (r,) = [r for r in sr.results if r.check.id == "L52" and r.needs_change]
    assert r.priority == "P0"
    assert any(c.op == "pin" and c.target == "transformers" and c.value == ">=4.49.0" for c in sr.changes)


def test_framework_images_in_compose_run_the_vllm_their_tag_names(tmp_path):
    root = _project(tmp_path, {"docker-compose.yml": (
        "services:\n  runner:\n    image: gpustack/runner:cuda12.8-vllm0.10.2\n"
        "    command: [\"vllm\", \"serve\", \"Qwen/Qwen2.5-7B-Instruct\", \"--max-model-len\", \"32768\"]\n"
        "  trainer:\n    image: verlai/verl:app-verl0.5-transformers4.55.4-vllm0.10.0-mcore0.13.0-te2.2\n"
        "    command: python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
        "actor_rollout_ref.rollout.name=vllm\n")})
    got = {sr.site.kind: (sr.version.version, sr.version.basis) for sr in audit(root, gpu="H100-80GB x8").sites}
    assert got == {"vllm serve": ("0.10.2", "image"), "verl main_ppo": ("0.10.0", "image")}
