"""The words a file must contain before a scanner parses it: cheap substring tests that every
launch site and vLLM configuration passes. They sit apart (no imports) so that an agent hook can
drop a file that cannot configure vLLM without loading the engine."""
from __future__ import annotations

# Words a script must contain to be worth lexing; a script that launches a training script
# through a launcher may name vLLM only in the recipe it passes (accelerate launch x.py --config r.yaml).
# `python -m pkg.main_ppo actor_rollout_ref.…` runs verl through a project Hydra entry point;
# `--model-engine vLLM` (Xinference) and other tools spell the name in capitals; Xinference before 0.11.0
# chose vLLM without naming it. LLaMA-Factory's scripts
# before llamafactory-cli (`python src/cli_demo.py cfg.yaml`) may name vLLM only in the config; MinerU's
# mineru-openai-server runs `vllm serve` without naming it; a POST to Xinference's /v1/models may name vLLM
# only in the JSON file it sends (`curl -d @launch.json`, engine/scan/xinference_rest.py); Docker Model Runner's
# `docker model run hf.co/…` hands a safetensors model to its vLLM backend (engine/scan/dmr_launch.py); SkyRL's
# scripts (`-m skyrl.train.entrypoints.serve generator.inference_engine.…`) leave vLLM to its default backend.
FRAMEWORK_WORDS = ("verl.", "openrlhf.cli", "llamafactory-cli", "lmf ", "swift ", "trl ", "use_vllm", "rollout.name",
                   "accelerate", "torchrun", "deepspeed", "vllm_infer", "--config", "actor_rollout_ref", "trl.scripts",
                   "vLLM", "VLLM", "openllm ", "run_grpo", "run_eval", "api_demo.py", "cli_demo.py", "web_demo.py",
                   "mineru-openai-server", "xinference launch", "/v1/models", "docker model run",
                   "skyrl", "inference_engine.")
# Only YAML that could configure vLLM is parsed: tools that configure it without naming it (KServe's
# Hugging Face runtime, KubeAI, llm-d's modelservice, Ray Serve LLM configs) count, and so do an
# EasyR1 config (its rollout is vLLM unless named otherwise) and a NeMo-RL config that inherits its
# generation block (`defaults: grpo_math_1B.yaml`); llm-d-deployer's quickstart values (`sampleApplication`,
# engine/scan/deploy/llmd_deployer.py) may leave the vLLM image to the chart.
YAML_WORDS = ("vllm", "VLLM", "vLLM", "use_vllm", "actor_rollout_ref", "infer_backend", "servingEngineSpec",
              "serving.kserve.io", "kubeai.org", "modelArtifacts", "llm_configs", "model_loading_config", "kaito.sh/",
              "rollout:", "defaults:", "sampleApplication")
# A script that runs a project's own vLLM entry point (`python server.py --tensor-parallel-size 2`,
# engine/scan/argv_entry.py) need not name vLLM: it runs Python with one of vLLM's engine flags.
ENTRY_FLAG_WORDS = ("--model", "parallel-size", "parallel_size", "gpu-memory", "gpu_memory", "max-model-len",
                    "max_model_len", "--quantization", "--dtype", "--kv-cache", "--kv_cache")
# Python that can start vLLM without the word: Ray Serve LLM's LLMConfig, Xinference's
# Client.launch_model before 0.11.0 (it picked vLLM itself, engine/scan/xinference_engine.py).
PYTHON_WORDS = ("vllm", "vLLM", "LLMConfig", "xinference")


def framework_words(text: str) -> bool:
    return any(w in text for w in FRAMEWORK_WORDS)


def runs_entry_point(text: str, ctx=None) -> bool:
    """A command line that may run a project script handing its flags to vLLM: Python with one of
    vLLM's engine flags, or a console script the project declares for such a module."""
    if "python" in text and any(w in text for w in ENTRY_FLAG_WORDS):
        return True
    index = (getattr(ctx, "entry_index", None) or {}) if ctx is not None else {}
    return any(name in text for name in (index.get("console") or {})) or any(name in text for name in index.get("launchers") or ())


def sets_devices(text: str) -> bool:
    """A script that picks the GPUs of a Python file it runs (engine/scan/entry_env.py)."""
    return "CUDA_VISIBLE_DEVICES" in text and ".py" in text


def yaml_candidate(text: str) -> bool:
    return any(w in text for w in YAML_WORDS)


def python_candidate(text: str) -> bool:
    return any(w in text for w in PYTHON_WORDS)


def may_configure_vllm(text: str) -> bool:
    """False only for a text no scanner and no detect trigger can find anything in (every
    trigger needs a site, a pin, a key or a VLLM_ variable, each of which names vLLM or a
    framework that drives it)."""
    return ("vllm" in text.lower() or framework_words(text) or yaml_candidate(text) or python_candidate(text)
            or runs_entry_point(text) or sets_devices(text))
