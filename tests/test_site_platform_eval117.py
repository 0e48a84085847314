"""eval117's non-CUDA sites (platform39b): a framework's device key, a container handed AMD's /dev/kfd, vLLM's CPU
image, a TPU image. Each reduced from the file the blind audit misjudged under --gpu "H100-80GB x8" (URLs at the
commits of /work/scratch/eval117/REPOS.txt): no CUDA-graph advice where the site runs no CUDA graphs."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.docker_run import device_node_platform

_MINDSPEED = "https://github.com/Ascend/MindSpeed-RL/blob/05a90d77cb6cfad8999e2aee21068284db959579/tests/verl_examples/configs/test_dapo_deepseekv3_671b_megatron_A3.sh"
_OPENMANUS = "https://github.com/OpenManus/OpenManus-RL/blob/c66d493022bc4c58e875ba73e8f6a07dd5d499a2/scripts/serve_model.sh"
_OPEA = "https://github.com/opea-project/GenAIExamples/blob/15b0d468f6dd7c8f679a3c7f729ebe8a7655b5b1/ChatQnA/docker_compose/intel/cpu/xeon/compose.perf.yaml"
_TPU = "https://github.com/AI-Hypercomputer/tpu-recipes/blob/c8cfe2f689081d36701a101cd73a70965d80926b/inference/trillium/vLLM/Gemma4/docker-compose-gemma4-31B.yml"


def _sites(path, gpu="H100-80GB x8"):
    return {sr.site.id: sr for sr in audit(path, gpu=gpu).sites}


def _status(sr, cid):
    return next(r.status for r in sr.results if r.check.id == cid)


def test_device_nodes():
    assert device_node_platform("/dev/kfd") == "rocm" and device_node_platform("/dev/kfd:/dev/kfd") == "rocm"
    assert device_node_platform("/dev/davinci0") == "npu" and device_node_platform("/dev/davinci_manager") == "npu"
    assert device_node_platform("/dev/dri") is None and device_node_platform("/dev/kfdx") is None
    assert device_node_platform("nvidia.com/gpu=all") is None


def test_verl_trainer_device_npu(tmp_path):
    """MindSpeed-RL's verl example (_MINDSPEED:185): `trainer.device="npu"` is the platform."""
    (tmp_path / "run.sh").write_text(
        "python3 -m verl.trainer.main_ppo \\\n    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\\n"
        "    actor_rollout_ref.rollout.name=vllm \\\n    actor_rollout_ref.rollout.enforce_eager=True \\\n"
        "    trainer.n_gpus_per_node=8 \\\n    trainer.device=\"npu\" $@\n")
    (sr,) = _sites(tmp_path).values()
    assert sr.facts["site"]["platform"] == "npu" and "gpu" not in sr.facts
    assert _status(sr, "A2") == "not_applicable"


def test_container_handed_kfd_runs_rocm(tmp_path):
    """OpenManus-RL (_OPENMANUS:10): the server runs by `docker exec` in the container scripts/docker_setup.sh started
    with --device=/dev/kfd --device=/dev/dri from a snapshot image whose name says nothing of its platform."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "docker_setup.sh").write_text(
        "docker run -it -d --name openmanus-rl \\\n  --ipc=host --shm-size=64g \\\n"
        "  --device=/dev/kfd --device=/dev/dri --group-add video \\\n  verl-agent:rocm-snap1 bash\n")
    (tmp_path / "scripts" / "serve_model.sh").write_text(
        "docker exec -it openmanus-rl bash -c '\nexport VLLM_USE_ROCM=1\n"
        "vllm serve Qwen/Qwen2.5-7B-Instruct --dtype bfloat16 --gpu-memory-utilization 0.55 \\\n"
        "  --max-model-len 16384 --enforce-eager --device cuda --port 8000\n'\n")
    sites = _sites(tmp_path)
    sr = next(s for i, s in sites.items() if i.startswith("scripts/serve_model.sh"))
    assert sr.facts["site"]["platform"] == "rocm" and "gpu" not in sr.facts  # not the H100 of --gpu
    assert _status(sr, "B3") == "not_applicable"  # "the GPU supports FP8": an H100's, not this machine's
    assert _status(sr, "A2") == "recommended"  # HIP graphs: eager mode costs on ROCm too
    hw = sr.site.container["device_platform"]
    assert hw == ("rocm", "/dev/kfd")


def test_compose_kfd_device(tmp_path):
    (tmp_path / "compose.yaml").write_text(
        "services:\n  vllm:\n    image: acme/llm-server:1.0\n    devices:\n      - /dev/kfd\n      - /dev/dri\n"
        "    command: [vllm, serve, Qwen/Qwen2.5-7B-Instruct, --enforce-eager]\n")
    (sr,) = _sites(tmp_path).values()
    assert sr.facts["site"]["platform"] == "rocm"


def test_nvidia_container_stays_on_the_gpu(tmp_path):
    (tmp_path / "run.sh").write_text(
        "docker run --gpus all --device /dev/dri acme/llm-server:1.0 vllm serve Qwen/Qwen2.5-7B-Instruct --enforce-eager\n")
    (sr,) = _sites(tmp_path).values()
    assert sr.facts["site"]["platform"] == "cuda" and _status(sr, "A2") == "recommended"


def test_vllm_cpu_image_gets_no_graph_advice(tmp_path):
    """GenAIExamples' Xeon compose (_OPEA:10): vLLM's CPU release image captures no graphs (0.10.0
    vllm/platforms/cpu.py:190 empties cudagraph_capture_sizes)."""
    (tmp_path / "compose.perf.yaml").write_text(
        "services:\n  vllm-service:\n    image: public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.10.0\n"
        "    environment:\n      VLLM_CPU_SGL_KERNEL: 1\n"
        "    command: --model meta-llama/Meta-Llama-3-8B-Instruct --host 0.0.0.0 --port 80 --enforce-eager\n")
    (sr,) = _sites(tmp_path).values()
    assert sr.facts["site"]["platform"] == "cpu"
    assert _status(sr, "A2") == "not_applicable" and _status(sr, "A5") == "not_applicable"
    reason = next(r for r in sr.results if r.check.id == "A2")
    assert "CPU" in reason.reason_text("en") and "CPU" in reason.reason_text("zh")


def test_cpu_hint_alone_keeps_the_graph_checks(tmp_path):
    """VLLM_CPU_KVCACHE_SPACE alone may ride along a GPU launch: A2 is still judged."""
    (tmp_path / "run.sh").write_text("VLLM_CPU_KVCACHE_SPACE=40 vllm serve Qwen/Qwen2.5-7B-Instruct --enforce-eager\n")
    (sr,) = _sites(tmp_path).values()
    assert _status(sr, "A2") == "recommended"


def test_vllm_tpu_image_compose(tmp_path):
    """tpu-recipes' Trillium Gemma 4 compose (_TPU:2): vllm/vllm-tpu is the TPU build."""
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  vllm:\n    image: vllm/vllm-tpu:gemma4\n    privileged: true\n    network_mode: host\n"
        "    command: [vllm, serve, google/gemma-2-9b-it, --max-model-len, '16384', --tensor-parallel-size, '8']\n")
    (sr,) = _sites(tmp_path).values()
    assert sr.facts["site"]["platform"] == "tpu" and _status(sr, "A2") == "not_applicable"
