"""Launch forms people write in public reports, each as the smallest project: the audit must find
one site with the model, the tensor-parallel size and the release the command runs. The forms came
from reading vLLM/TRL/verl/LLaMA-Factory/HF reports (CHANGELOG.md, session 8, has the tally); the ones
first recognised in December 2026 (hf jobs, apptainer/singularity, kubectl run, docker compose run,
tmux, screen, uvx/pipx run, `from vllm import *`) sit beside older forms kept as guards."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit


def _nb(lines: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": lines, "outputs": [],
                                  "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


# id: (files, model, tp, release the site runs or None for the project's pin)
FORMS = {
    # a project's own launcher handed the command (NVIDIA's DGX Spark playbooks: `./launch-cluster.sh exec vllm serve …`)
    "project-launcher-exec": ({"run.sh": "./launch-cluster.sh exec vllm serve Qwen/Qwen3-8B --port 8000 -tp 2\n"},
                              "Qwen/Qwen3-8B", 2, None),
    "hf-jobs-run": ({"run.sh": "hf jobs run --flavor h200x2 --expose 8000 --timeout 2h \\\n  vllm/vllm-openai:v0.11.0 \\\n"
                                "  vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --max-model-len 32768\n"},
                    "Qwen/Qwen3-30B-A3B", 2, "0.11.0"),
    "apptainer-exec-sif": ({"run.sh": "apptainer exec --nv -B /data:/data vllm.sif vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
                           "Qwen/Qwen3-8B", 2, None),
    "singularity-exec-docker": ({"run.sh": "singularity exec --nv docker://vllm/vllm-openai:v0.9.2 python3 -m "
                                           "vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
                                "Qwen/Qwen3-8B", 2, "0.9.2"),
    # parallelworks/activate-rag-vllm start_service_v5.sh: the binary looked up, the image a variable the files do not set
    "singularity-looked-up-unknown-image": ({"run.sh": 'bin=$(command -v singularity || command -v apptainer)\n'
                                                      'exec "${bin}" exec --nv --bind "/m:/m" "${container_ref}" python3 -m '
                                                      "vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
                                            "Qwen/Qwen3-8B", 2, None),
    "apptainer-run-entrypoint": ({"run.sh": "apptainer run --nv docker://vllm/vllm-openai:v0.9.2 --model Qwen/Qwen3-8B -tp 2\n"},
                                 "Qwen/Qwen3-8B", 2, "0.9.2"),
    "kubectl-run-args": ({"run.sh": "kubectl run vllm --image=vllm/vllm-openai:v0.9.2 -- --model Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
                         "Qwen/Qwen3-8B", 2, "0.9.2"),
    "kubectl-run-command": ({"run.sh": "kubectl run vllm --image vllm/vllm-openai:v0.10.1 --command -- vllm serve Qwen/Qwen3-8B -tp 2\n"},
                            "Qwen/Qwen3-8B", 2, "0.10.1"),
    "docker-compose-run": ({"run.sh": "docker compose run --rm vllm vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
                           "Qwen/Qwen3-8B", 2, None),
    "docker-compose-v1-run": ({"run.sh": "docker-compose run --rm -e HF_HOME=/data vllm python3 -m vllm.entrypoints.openai.api_server "
                                         "--model Qwen/Qwen3-8B --tensor-parallel-size 2\n"}, "Qwen/Qwen3-8B", 2, None),
    "tmux-new-string": ({"run.sh": "tmux new -d -s vllm 'vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2'\n"}, "Qwen/Qwen3-8B", 2, None),
    "tmux-ds": ({"run.sh": 'tmux new -ds vllm "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2"\n'}, "Qwen/Qwen3-8B", 2, None),
    "tmux-send-keys": ({"run.sh": "tmux new-session -d -s vllm\ntmux send-keys -t vllm 'CUDA_VISIBLE_DEVICES=0,1 vllm serve "
                                  "Qwen/Qwen3-8B --tensor-parallel-size 2' Enter\n"}, "Qwen/Qwen3-8B", 2, None),
    "screen-dmS-bash-c": ({"run.sh": "screen -dmS vllm bash -c 'vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2'\n"},
                          "Qwen/Qwen3-8B", 2, None),
    "screen-S-dm": ({"run.sh": "screen -S vllm -dm vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n"}, "Qwen/Qwen3-8B", 2, None),
    "uvx-from-pin": ({"run.sh": "uvx --from vllm==0.10.1 vllm serve openai/gpt-oss-20b --max-model-len 8192\n"},
                     "openai/gpt-oss-20b", 1, "0.10.1"),
    "uvx-at-version": ({"run.sh": "uvx vllm@0.9.1 serve Qwen/Qwen3-8B\n"}, "Qwen/Qwen3-8B", 1, "0.9.1"),
    "uv-tool-run": ({"run.sh": "uv tool run --python 3.12 vllm serve Qwen/Qwen3-8B -tp 2\n"}, "Qwen/Qwen3-8B", 2, None),
    "uv-run-with-pin": ({"run.sh": "uv run --with vllm==0.9.2 vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n"},
                        "Qwen/Qwen3-8B", 2, "0.9.2"),
    "pipx-run-spec": ({"run.sh": "pipx run --spec vllm==0.8.5 vllm serve Qwen/Qwen3-8B\n"}, "Qwen/Qwen3-8B", 1, "0.8.5"),
    "star-import": ({"gen.py": 'from vllm import *\n\nif __name__ == "__main__":\n    llm = LLM(model="google/gemma-3-27b-it", tensor_parallel_size=2)\n'},
                    "google/gemma-3-27b-it", 2, None),
    # guards: forms read before
    "env-prefix-modelscope": ({"run.sh": "CUDA_VISIBLE_DEVICES=0,1 vllm serve /root/.cache/modelscope/hub/models/Qwen/Qwen2.5-1.5B-Instruct "
                                        "--tensor-parallel-size 2 --gpu_memory_utilization 0.9\n"},
                              "/root/.cache/modelscope/hub/models/Qwen/Qwen2.5-1.5B-Instruct", 2, None),
    "nohup-background": ({"start.sh": "nohup python3 -m vllm.entrypoints.openai.api_server --model /data/models/Qwen2.5-72B-Instruct-AWQ "
                                      "--tensor-parallel-size 4 > vllm.log 2>&1 &\n"}, "/data/models/Qwen2.5-72B-Instruct-AWQ", 4, None),
    "docker-entrypoint-bash-c": ({"run.sh": 'docker run --gpus all --ipc=host --entrypoint bash vllm/vllm-openai:v0.10.1 -c '
                                            '"source /opt/env.sh && exec vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2"\n'},
                                 "Qwen/Qwen3-32B", 2, "0.10.1"),
    "srun-sbatch": ({"job.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 4\n"},
                    "meta-llama/Llama-3.3-70B-Instruct", 4, None),
    "notebook-llm": ({"nb.ipynb": _nb(["from vllm import LLM\n", "llm = LLM(model=\"microsoft/phi-4\", max_model_len=16384)\n"])},
                     "microsoft/phi-4", 1, None),
    "llm-alias": ({"gen.py": 'from vllm import LLM as VLLM\n\nif __name__ == "__main__":\n    e = VLLM(model="Qwen/Qwen3-8B", tensor_parallel_size=2)\n'},
                  "Qwen/Qwen3-8B", 2, None),
}


@pytest.mark.parametrize("name", sorted(FORMS))
def test_launch_form_is_read(tmp_path: Path, name: str) -> None:
    files, model, tp, release = FORMS[name]
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    rep = audit(tmp_path, gpu="A100-80GB x8")
    assert len(rep.sites) == 1, [s.site.id for s in rep.sites]
    sr = rep.sites[0]
    assert sr.facts["model"]["name"] == model
    assert sr.facts["model"].get("family"), "the catalog should know the model"
    assert sr.facts["engine"]["tensor_parallel_size"] == tp
    assert sr.version.version == (release or "0.8.5")


def test_apptainer_shares_host_ipc_and_hf_jobs_shm_is_unknown(tmp_path: Path) -> None:
    """Apptainer runs in the host's IPC namespace (its /dev/shm is the host's); HF Jobs' /dev/shm is
    the platform's: neither is the 64 MiB of a plain container, so L40 gives no P0."""
    (tmp_path / "run.sh").write_text(
        "apptainer exec --nv vllm.sif vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n"
        "hf jobs run --flavor a100x2 vllm/vllm-openai:v0.11.0 vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n")
    rep = audit(tmp_path, gpu="A100-80GB x2")
    assert len(rep.sites) == 2
    for sr in rep.sites:
        l40 = next(r for r in sr.results if r.check.id == "L40")
        assert not (l40.status == "recommended" and l40.priority == "P0"), sr.site.id


def test_the_image_tag_of_each_launch_is_edited_even_when_two_launches_share_it(cli, tmp_path: Path) -> None:
    """A pin fix inside a container launch is an edit of that launch's image tag (hf jobs run,
    apptainer's docker:// reference), byte for byte, though the same tag starts two launches."""
    script = ("hf jobs run --flavor h100x1 vllm/vllm-openai:v0.6.0 vllm serve google/gemma-3-27b-it --max-model-len 8192\n"
              "apptainer exec --nv docker://vllm/vllm-openai:v0.6.0 vllm serve google/gemma-3-12b-it --max-model-len 8192\n")
    (tmp_path / "run.sh").write_text(script)
    cli("audit", str(tmp_path), "--gpu", "H100-80GB", "--fix", "--unsafe-fixes", "--fixable", "L21", "-q")
    assert (tmp_path / "run.sh").read_text() == script.replace("v0.6.0", "v0.8.0")
