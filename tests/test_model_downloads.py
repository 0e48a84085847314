"""A local model folder the project itself fills from a Hub repository (engine/scan/model_downloads.py):
the folder's facts are that repository's, for certain."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.model_downloads import Download, downloads, link


def _one(text: str, rel: str = "run.sh") -> list[tuple[str, str]]:
    return [(d.repo, d.folder) for d in downloads(text, rel)]


def test_cli_forms():
    assert _one("huggingface-cli download Qwen/Qwen3-8B --local-dir ./models/q3\n") == [("Qwen/Qwen3-8B", "./models/q3")]
    assert _one("hf download --repo-type model Qwen/Qwen3-8B --local-dir=/m/q3 --exclude '*.pth'\n") == \
        [("Qwen/Qwen3-8B", "/m/q3")]
    assert _one("modelscope download --model qwen/Qwen2.5-7B-Instruct --local_dir /data/q25\n") == \
        [("qwen/Qwen2.5-7B-Instruct", "/data/q25")]
    # a GGUF file out of a repository: the folder still holds that repository's file
    assert _one("huggingface-cli download unsloth/gemma-3-4b-it-GGUF gemma-3-4b-it-Q4_K_M.gguf --local-dir gguf && ls\n") == \
        [("unsloth/gemma-3-4b-it-GGUF", "gguf")]
    # continued lines, a Dockerfile's RUN and its ARG
    text = "ARG MODEL=google/gemma-2-9b-it\nRUN pip install -U huggingface_hub && \\\n    huggingface-cli download $MODEL \\\n    --local-dir /models/gemma\n"
    assert _one(text, "Dockerfile") == [("google/gemma-2-9b-it", "/models/gemma")]
    # into the cache (no --local-dir) or a folder named by an unknown variable: no link
    assert _one("huggingface-cli download Qwen/Qwen3-8B\nhf download Qwen/Qwen3-8B --local-dir $OUT\n") == []


def test_clone_and_python():
    assert _one("git lfs install\ngit clone https://huggingface.co/THUDM/glm-4-9b-chat\n") == [("THUDM/glm-4-9b-chat", "glm-4-9b-chat")]
    assert _one("git clone --depth 1 https://www.modelscope.cn/Qwen/Qwen2.5-7B-Instruct.git /data/qwen\n") == \
        [("Qwen/Qwen2.5-7B-Instruct", "/data/qwen")]
    assert _one("git clone https://github.com/vllm-project/vllm.git\n") == []
    py = ('from huggingface_hub import snapshot_download\nREPO = "mistralai/Mistral-7B-Instruct-v0.3"\n'
          'path = snapshot_download(repo_id=REPO,\n    local_dir="./mistral")\n'
          "snapshot_download('Qwen/Qwen2-7B', local_dir='/m/qwen2')\nsnapshot_download(repo_id='x/y')\n")
    assert _one(py, "get.py") == [("mistralai/Mistral-7B-Instruct-v0.3", "./mistral"), ("Qwen/Qwen2-7B", "/m/qwen2")]


def test_link_paths():
    d = [Download("Qwen/Qwen3-8B", "./models/q3", "a:1"), Download("google/gemma-2-9b-it", "/data/gemma", "b:2")]
    assert link("models/q3/", d).repo == "Qwen/Qwen3-8B"
    assert link("/workspace/models/q3", d).repo == "Qwen/Qwen3-8B"  # the same trailing folders
    assert link("/data/gemma/gemma-2-9b-it-Q4_K_M.gguf", d).repo == "google/gemma-2-9b-it"
    assert link("/model", d, {"/model": ["/data/gemma"]}).repo == "google/gemma-2-9b-it"  # the volume mounted there
    assert link("/data/other", d) is None
    # one folder filled from two repositories: neither
    two = d + [Download("Qwen/Qwen3-8B-FP8", "./models/q3", "c:3")]
    assert link("./models/q3", two) is None


def test_audit_reads_the_repository(tmp_path: Path):
    (tmp_path / "requirements.txt").write_text("vllm==0.6.6.post1\n")
    (tmp_path / "serve.sh").write_text(
        "#!/bin/sh\nhuggingface-cli download Qwen/Qwen2.5-7B-Instruct --local-dir /srv/llm/q\n"
        "vllm serve /srv/llm/q --max-model-len 4096\n")
    rep = audit(tmp_path, gpu="V100-32GB")
    (site,) = rep.sites
    m = site.facts["model"]
    assert (m["identity"], m["resolved_as"], m["linked_by"]) == ("download", "Qwen/Qwen2.5-7B-Instruct", "serve.sh:2")
    assert m["torch_dtype"] == "bfloat16" and m["name"] == "/srv/llm/q"
    got = {r.check.name: r.priority for r in site.results if r.status == "recommended"}
    assert got.get("bfloat16-gpu") == "P0"  # the repository's bf16 on a V100: certain


def test_file_fetch():
    url = "https://huggingface.co/TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF/resolve/main/tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf"
    repo = "TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF"
    assert _one(f"wget {url}\n") == [(repo, "tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf")]
    # renamed: the file's name no longer says what it holds (models/mistral.gguf is TinyLlama)
    assert _one(f"wget {url} -O models/mistral.gguf\n") == [(repo, "models/mistral.gguf")]
    assert _one(f"wget -P models/ {url}\n") == [(repo, "models/tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf")]
    assert _one(f"curl -L -o model.gguf {url}\ncurl -L {url} > x.gguf\n") == [(repo, "model.gguf")]
    d = downloads(f"wget {url} -O models/mistral.gguf\n", "get.sh")
    assert link("./models/mistral.gguf", d).repo == repo
    assert link("/app/models/mistral.gguf", d).repo == repo


def test_exec_form_lists():
    # a compose service or Dockerfile RUN in exec form
    text = 'command: ["huggingface-cli", "download", "Qwen/Qwen3-8B", "--local-dir", "/models/q3"]\n'
    assert _one(text, "compose.yaml") == [("Qwen/Qwen3-8B", "/models/q3")]
    text = "RUN [\"hf\", \"download\", \"google/gemma-3-4b-it\", \"--local-dir=/m/g\"]\n"
    assert _one(text, "Dockerfile") == [("google/gemma-3-4b-it", "/m/g")]


def test_python_export_writes_the_repository_it_loaded():
    py = ('from transformers import AutoModelForCausalLM, AutoTokenizer\nBASE = "Qwen/Qwen3-1.7B"\nOUT = "/app/model"\n'
          'model = AutoModelForCausalLM.from_pretrained(BASE, torch_dtype="auto")\n'
          'tok = AutoTokenizer.from_pretrained(BASE)\nmodel.save_pretrained(OUT)\ntok.save_pretrained("/app/model")\n')
    assert [(d.repo, d.folder, d.where) for d in downloads(py, "export.py")] == [("Qwen/Qwen3-1.7B", "/app/model", "export.py:6")]
    # not read: a checkpoint quantized as it loads, a model reassigned (merged, converted), a tokenizer alone
    q = py.replace('torch_dtype="auto"', "quantization_config=bnb")
    assert downloads(q, "export.py") == []
    merged = py.replace("model.save_pretrained", "model = model.merge_and_unload()\nmodel.save_pretrained")
    assert downloads(merged, "export.py") == []
    assert downloads(py.replace("model.save_pretrained(OUT)\n", ""), "export.py") == []


def test_audit_reads_an_exported_model(tmp_path: Path):
    # the model a Dockerfile serves is written by the project's own export script: its architecture is the repository's
    (tmp_path / "export_model.py").write_text(
        'from transformers import AutoModelForCausalLM\nm = AutoModelForCausalLM.from_pretrained("Qwen/Qwen3-1.7B")\n'
        'm.save_pretrained("/app/model")\n')
    (tmp_path / "Dockerfile").write_text(
        'FROM vllm/vllm-openai:v0.4.2\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "/app/model"]\n')
    (site,) = audit(tmp_path, gpu="A100-80GB").sites
    assert site.facts["model"]["resolved_as"] == "Qwen/Qwen3-1.7B"
    got = {r.check.id: r.priority for r in site.results if r.status == "recommended"}
    assert got.get("L21") == "P0"  # no Qwen3 in vLLM 0.4.2
