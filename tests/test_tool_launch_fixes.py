"""Every tool that starts vLLM from its own command or its own keywords (knowledge/deploy: Xinference's
CLI and client, OpenLLM, RunPod's env-configured worker in compose and a Dockerfile; the LangChain and
LlamaIndex forwarders), audited with a change to make and fixed on a copy: no crash, no site lost, and
each edit in the tool's own spelling (an Xinference pair is handed on as the keyword written, so
`--kv_cache_dtype fp8`; a worker image reads env vars, so no `command:` that would replace its own)."""
import pytest
from vllm_kb.engine.audit import audit

QWEN = "Qwen/Qwen2.5-7B-Instruct"
FORMS = {
    "xinference-cli": {"requirements.txt": "vllm==0.20.0\n", "launch.sh":
                       "xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 \\\n"
                       "  --model_path /models/Qwen2.5-7B-Instruct --gpu-idx 0 --max_model_len 131072 --swap_space 4\n"},
    "xinference-client": {"requirements.txt": "vllm==0.20.0\n", "launch.py":
                          "from xinference.client import Client\nc = Client('http://localhost:9997')\n"
                          "c.launch_model(model_name='qwen2.5-instruct', model_engine='vllm', model_path='/models/Qwen2.5-7B-Instruct',\n"
                          "               gpu_idx=[0], max_model_len=131072, swap_space=4)\n"},
    "openllm": {"serve.sh": "openllm start meta-llama/Llama-2-7b-chat-hf --backend vllm\n"},
    "runpod-compose": {"docker-compose.yml": f"services:\n  w:\n    image: runpod/worker-v1-vllm:v2.19.0\n    environment:\n"
                                            f"      MODEL_NAME: {QWEN}\n      MAX_MODEL_LEN: \"131072\"\n      SWAP_SPACE: \"4\"\n"},
    "runpod-dockerfile": {"Dockerfile": f"FROM runpod/worker-v1-vllm:v2.19.0\nENV MODEL_NAME={QWEN}\nENV MAX_MODEL_LEN=131072 SWAP_SPACE=4\n"},
    "langchain": {"requirements.txt": "vllm==0.20.0\n", "app.py": "from langchain_community.llms import VLLM\n"
                  f"llm = VLLM(model='{QWEN}', vllm_kwargs={{'max_model_len': 131072, 'swap_space': 4}})\n"},
    "llama-index": {"requirements.txt": "vllm==0.20.0\n", "app.py": "from llama_index.llms.vllm import Vllm\n"
                    f"llm = Vllm(model='{QWEN}', vllm_kwargs={{'max_model_len': 131072, 'swap_space': 4}})\n"},
    # production-stack's operator (engine/scan/deploy/vllmruntime.py): a field the resource has, or vllmConfig.extraArgs
    "vllmruntime": {"vllmruntime.yaml": "apiVersion: production-stack.vllm.ai/v1alpha1\nkind: VLLMRuntime\nmetadata: {name: q}\n"
                    f"spec:\n  model:\n    modelURL: {QWEN}\n    maxModelLen: 131072\n  vllmConfig:\n    v1: true\n"
                    "    extraArgs: [\"--swap-space\", \"4\"]\n  deploymentConfig:\n    resources: {gpu: \"1\"}\n"
                    "    image: {registry: docker.io, name: \"vllm/vllm-openai:v0.20.0\"}\n"},
    # LLMKube (engine/scan/deploy/llmkube.py): a vllmConfig field, or spec.extraArgs
    "llmkube": {"isvc.yaml": "apiVersion: inference.llmkube.dev/v1alpha1\nkind: Model\nmetadata: {name: q}\n"
                f"spec:\n  source: {QWEN}\n---\napiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\n"
                "metadata: {name: s}\nspec:\n  modelRef: q\n  runtime: vllm\n  image: vllm/vllm-openai:v0.20.0\n"
                "  vllmConfig:\n    maxModelLen: 131072\n  extraArgs: [\"--swap-space\", \"4\"]\n  resources: {gpu: 1}\n"},
}
# what the fixed file holds: each tool's own spelling of the change
EXPECT = {
    "xinference-cli": ("launch.sh", ["--max_model_len 32768", "--kv_cache_dtype fp8"], ["--swap_space", "--kv-cache-dtype"]),
    "xinference-client": ("launch.py", ["max_model_len=32768"], ["swap_space"]),
    "runpod-compose": ("docker-compose.yml", ['MAX_MODEL_LEN: "32768"', "KV_CACHE_DTYPE: fp8"], ["SWAP_SPACE", "command:"]),
    "runpod-dockerfile": ("Dockerfile", ["MAX_MODEL_LEN=32768"], ["SWAP_SPACE", "CMD", "ENTRYPOINT"]),
    "langchain": ("app.py", ["'max_model_len': 32768"], ["swap_space"]),
    "llama-index": ("app.py", ["'max_model_len': 32768"], ["swap_space"]),
    "llmkube": ("isvc.yaml", ["maxModelLen: 32768", "--kv-cache-dtype"], ["--swap-space", "131072"]),
    "vllmruntime": ("vllmruntime.yaml", ["maxModelLen: 32768", "--kv-cache-dtype", "enablePrefixCaching: true"], ["--swap-space", "131072"]),
}


def _sites(root):
    rep = audit(root, gpu="RTX-4090")
    assert not [s for s in rep.skipped if s.code == "scanner-error"]
    return sorted((sr.site.file, sr.site.kind, sr.site.tool) for sr in rep.sites)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_tool_launch_fixed_on_a_copy_keeps_its_site_and_its_own_spelling(cli, write_project, form):
    root = write_project(FORMS[form])
    before = _sites(root)
    assert len(before) == 1
    cli("audit", str(root), "--gpu", "RTX-4090", "--fix", "--unsafe-fixes")
    assert _sites(root) == before
    if form in EXPECT:
        name, present, absent = EXPECT[form]
        text = (root / name).read_text()
        assert all(p in text for p in present), text
        assert not any(a in text for a in absent), text
        assert text != FORMS[form][name]


def test_an_xinference_pair_of_its_own_keyword_is_not_an_engine_option(write_project):
    # xorbitsai/inference#2440: `--model_path` (the old spelling of --model-path) is handed on as the
    # keyword model_path, which launch_model takes for itself; vLLM never sees it
    root = write_project({"launch.sh": "xinference launch --model-engine vllm --model-name glm4-chat --size-in-billions 9 \\\n"
                                       "  --model-format pytorch --model_path /usr/models/glm-4-9b-chat\n"})
    (sr,) = audit(root, gpu="RTX-4090").sites
    assert not [f for f in sr.remarks if f.code in ("unknown-option", "not-in-version")]
    assert sr.site.model.value == "/usr/models/glm-4-9b-chat" and "model_path" not in sr.site.unknown


def test_xinference_download_hub_is_the_workers_own_keyword(write_project):
    # `--download_hub modelscope` reaches Xinference's worker (launch_builtin_model's download_hub, where the
    # weights come from), never vLLM: it is no unknown engine option
    root = write_project({"requirements.txt": "vllm==0.6.3\n",
                          "launch.sh": "xinference launch --model-engine vLLM --model-name qwen2.5-instruct --size-in-billions 32 \\\n"
                                       "  --model-format gptq --quantization Int8 --gpu-idx 1,2 --download_hub modelscope\n"})
    (sr,) = audit(root, gpu="A100-80GB x2").sites
    assert not [f for f in sr.remarks if f.code in ("unknown-option", "not-in-version")]
    assert "download_hub" not in sr.site.unknown and "download_hub" not in sr.site.settings


def test_xinference_own_keyword_in_the_hyphen_form_is_told_as_xinferences(write_project, cli):
    # the web UI copies `--download-hub modelscope --reasoning-content false`; the CLI hands the hyphen
    # form on to AsyncEngineArgs (xorbitsai/inference#3469): the finding names Xinference's own keyword,
    # never a "close vLLM option" like --download-dir, and the fix writes the underscore form
    root = write_project({"requirements.txt": "xinference==1.5.1\nvllm==0.8.5.post1\n",
                          "launch.sh": "xinference launch --model-engine vLLM --model-name qwen2.5-instruct --size-in-billions 7 \\\n"
                                       "  --model-format pytorch --download-hub modelscope --reasoning-content false\n"})
    (sr,) = audit(root, gpu="A100-80GB").sites
    told = {f.subject: f for f in sr.remarks if f.code == "unknown-option"}
    assert set(told) == {"download_hub", "reasoning_content"}
    assert all("Xinference's own keyword" in f.message["en"] and "--download-dir" not in f.message["en"] for f in told.values())
    cli("audit", str(root), "--gpu", "A100-80GB", "--fix")
    text = (root / "launch.sh").read_text()
    assert "--download_hub modelscope --reasoning_content false" in text
    (again,) = audit(root, gpu="A100-80GB").sites
    assert not [f for f in again.remarks if f.code == "unknown-option"]


@pytest.mark.parametrize("release,told", [("1.6.0.post1", True), ("1.17.0", False)])
def test_xinference_enable_thinking_is_a_flag_only_from_1_17(write_project, release, told):
    # `--enable-thinking` became a click flag of `xinference launch` in 1.17.0; before, `--enable-thinking true`
    # is an extra pair handed on to the engine as written (xorbitsai/inference#3469)
    root = write_project({"requirements.txt": f"xinference=={release}\nvllm==0.8.5.post1\n",
                          "launch.sh": "xinference launch --model-engine vLLM --model-name qwen3 --size-in-billions 8 \\\n"
                                       "  --model-format pytorch --enable-thinking true\n"})
    (sr,) = audit(root, gpu="A100-80GB").sites
    assert bool([f for f in sr.remarks if f.code == "unknown-option" and f.subject == "enable_thinking"]) is told


def test_xinference_dashed_key_whose_value_changes_is_written_once_renamed(cli, tmp_path):
    # xinference#2525: `--gpu-memory-utilization 0.6` is handed to vLLM as the keyword written (refused), and
    # on a 24 GB card 0.6 leaves no KV cache for a 7B model (L16): one edit, the value under the underscored key
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3.post1\nxinference==0.16.0\n")
    (tmp_path / "launch.sh").write_text("xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 \\\n"
                                        "  --model-format pytorch --gpu-memory-utilization 0.6\n")
    (sr,) = audit(tmp_path, gpu="RTX-4090").sites
    (ch,) = [c for c in sr.changes if c.target == "gpu_memory_utilization"]
    assert ch.op == "set" and ch.after.startswith("--gpu_memory_utilization ") and "L16" in ch.checks
    assert any(c.startswith("unknown-option") for c in ch.checks)
    # the value comes from the memory estimate (L16), so only --unsafe-fixes writes it (docs/ci.md)
    cli("audit", str(tmp_path), "--gpu", "RTX-4090", "--fix", "--unsafe-fixes")
    assert "--gpu_memory_utilization " in (tmp_path / "launch.sh").read_text()
    assert "--gpu-memory-utilization" not in (tmp_path / "launch.sh").read_text()
