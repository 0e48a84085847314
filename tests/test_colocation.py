"""Engines that share a GPU only when the project shows they run together: a backgrounded shell
command before the other, services of one compose file, LLM() engines of one process — never two
scripts that are alternatives."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


# 0.11.0: V1 only, so the free-memory check at start-up is certain for a model the catalog does not
# know (0.9.1-0.10.x fall back to V0 for V0-only architectures, and an unknown model may be one: c1479665)
def _shared(tmp_path, files, version="0.11.0"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="H100-80GB x1")
    return {sr.site.id: (sr.facts["launch"].get("gpu_shared_util"),
                         next(r for r in sr.results if r.check.id == "L37").priority) for sr in rep.sites}


def test_a_backgrounded_server_and_the_next_share_gpu_0(tmp_path):
    got = _shared(tmp_path, {"run.sh": "vllm serve a/b &\nvllm serve c/d --gpu-memory-utilization 0.5\n"})
    assert got == {"run.sh:1": (1.4, "P0"), "run.sh:2": (1.4, "P0")}


def test_sequential_commands_separate_scripts_and_other_gpus_do_not(tmp_path):
    got = _shared(tmp_path, {"run.sh": "vllm serve a/b\nvllm serve c/d\n",
                             "other.sh": "CUDA_VISIBLE_DEVICES=1 vllm serve e/f &\nCUDA_VISIBLE_DEVICES=0 vllm serve g/h\n"})
    assert all(v == (None, None) for v in got.values())


def test_fractions_that_fit_pass(tmp_path):
    got = _shared(tmp_path, {"run.sh": "vllm serve a/b --gpu-memory-utilization 0.45 &\n"
                                       "vllm serve c/d --gpu-memory-utilization 0.45\n"})
    assert got["run.sh:1"] == (0.9, None)


# The shapes below are those of vLLM's own examples (0.10–0.28), which its CI runs: one engine per
# function, a prefill and a decode process, `del llm` before the next; and a real co-residence.
_TWO_IN_ONE_SCOPE = ("from vllm import LLM\n"
                     "a = LLM(model='m/a', gpu_memory_utilization=0.6)\n"
                     "b = LLM(model='m/b', gpu_memory_utilization=0.6)\n")


def test_two_engines_held_at_once_in_one_scope_share_the_gpu(tmp_path):
    got = _shared(tmp_path, {"two.py": _TWO_IN_ONE_SCOPE})
    assert got["two.py:2"] == (1.2, "P0") and got["two.py:3"] == (1.2, "P0")


def test_a_name_reused_without_del_still_holds_the_first_engine(tmp_path):
    got = _shared(tmp_path, {"again.py": "from vllm import LLM\n"
                                         "def main():\n"
                                         "    llm = LLM(model='m/a')\n"
                                         "    llm.generate('x')\n"
                                         "    llm = LLM(model='m/b')\n"})
    assert got["again.py:3"][1] == "P0"


def test_engines_in_separate_functions_branches_or_released_do_not(tmp_path):
    files = {
        "demos.py": "from vllm import LLM\n"
                    "def simple():\n    llm = LLM(model='m/a', gpu_memory_utilization=0.9)\n"
                    "def advanced():\n    llm = LLM(model='m/a', gpu_memory_utilization=0.9)\n",
        "branch.py": "import sys\nfrom vllm import LLM\n"
                     "if sys.argv[1] == 'a':\n    llm = LLM(model='m/a')\n"
                     "elif sys.argv[1] == 'b':\n    llm = LLM(model='m/b')\n"
                     "else:\n    llm = LLM(model='m/c')\n",
        "released.py": "import gc\nfrom vllm import LLM\n"
                       "llm = LLM(model='m/a')\nllm.generate('x')\ndel llm\ngc.collect()\n"
                       "llm = LLM(model='m/b')\n",
        "oneshot.py": "from vllm import LLM\n"
                      "LLM(model='m/a').generate('x')\nLLM(model='m/b').generate('y')\n",
        # vLLM 0.11's tests/v1/e2e/test_kv_sharing_fast_prefill.py: a helper shuts the engine down
        "helper.py": "from vllm import LLM\n"
                     "def cleanup(llm):\n    llm.llm_engine.engine_core.shutdown()\n    del llm\n"
                     "def test():\n    llm = LLM(model='m/a')\n    cleanup(llm)\n    llm = LLM(model='m/b')\n",
        "shutdown.py": "from vllm import LLM\n"
                       "llm = LLM(model='m/a')\nllm.llm_engine.engine_core.shutdown()\nllm = LLM(model='m/b')\n",
    }
    got = _shared(tmp_path, files)
    assert all(v == (None, None) for v in got.values()), got


_HELPER = "def run(llm, prompts):\n    out = llm.generate(prompts)\n    return [o.outputs[0].text for o in out]\n"


def test_an_engine_only_passed_to_a_function_that_uses_it_goes_with_the_statement(tmp_path):
    # NeMo-RL's precision diagnostic builds LLM(...) inline as an argument, once per mode
    files = {"passed.py": "from vllm import LLM\n" + _HELPER +
                          "a = run(LLM(model='m/a', gpu_memory_utilization=0.9), ['x'])\n"
                          "b = run(LLM(model='m/a', gpu_memory_utilization=0.9, enforce_eager=True), ['x'])\n",
             "kept.py": "from vllm import LLM\nKEEP = []\ndef run(llm):\n    KEEP.append(llm)\n"
                        "run(LLM(model='m/a', gpu_memory_utilization=0.6))\nrun(LLM(model='m/b', gpu_memory_utilization=0.6))\n"}
    got = _shared(tmp_path, files)
    assert got["passed.py:5"] == (None, None) and got["passed.py:6"] == (None, None)
    assert got["kept.py:5"][1] == "P0"


def test_an_engine_on_another_accelerator_is_not_sized_by_the_gpus(tmp_path):
    # vLLM 0.10.1's Neuron examples: TP 32 on a Trainium/Inferentia host, not on the --gpu machine
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    (tmp_path / "neuron.py").write_text("from vllm import LLM\n"
                                        "llm = LLM(model='meta-llama/Llama-3.1-70B-Instruct', device='neuron',\n"
                                        "          tensor_parallel_size=32, max_model_len=2048, block_size=2048)\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    (sr,) = rep.sites
    assert "gpu" not in sr.facts
    assert not [r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended"]


def test_an_ascend_npu_site_is_not_judged_by_the_cuda_build(tmp_path):
    # verl's examples/gspo_trainer/run_qwen3_32b_gspo_npu.sh: vllm-ascend, VLLM_ATTENTION_BACKEND=XFORMERS
    (tmp_path / "requirements.txt").write_text("vllm==0.12.0\n")
    (tmp_path / "serve_npu.sh").write_text("export HCCL_CONNECT_TIMEOUT=3600\nexport VLLM_ATTENTION_BACKEND=XFORMERS\n"
                                           "vllm serve Qwen/Qwen3-32B --tensor-parallel-size 16\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    (sr,) = rep.sites
    assert sr.facts["site"]["platform"] == "npu" and "gpu" not in sr.facts
    assert not [r.check.id for r in sr.results if r.priority == "P0"]


def test_a_verl_run_over_two_nodes_may_hold_a_rollout_larger_than_one_node(tmp_path):
    # verl's examples/generation/run_deepseek7b_mutli_node.sh: trainer.nnodes=2, rollout TP 16
    (tmp_path / "gen.sh").write_text("python3 -m verl.trainer.main_generation trainer.nnodes=2 trainer.n_gpus_per_node=8 \\\n"
                                     "    model.path=deepseek-ai/deepseek-llm-7b-chat rollout.tensor_model_parallel_size=16 \\\n"
                                     "    rollout.gpu_memory_utilization=0.8\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    (sr,) = rep.sites
    l34 = next(r for r in sr.results if r.check.id == "L34")
    assert sr.facts["launch"]["multi_node"] and l34.status != "recommended"


def test_detached_containers_on_one_named_device_share_it(tmp_path):
    # `docker run -d` returns at once, so the next launch runs beside it; `--gpus device=N` names the
    # host's GPU (vLLM #17366: two containers at 0.3 on device 0)
    run = ("docker run -itd --gpus '\"device=0\"' vllm/vllm-openai:v0.11.0 --model a/b --gpu-memory-utilization 0.6\n"
           "docker run -d --gpus '\"device={dev}\"' vllm/vllm-openai:v0.11.0 --model c/d --gpu-memory-utilization 0.6\n")
    (tmp_path / "same").mkdir()
    (tmp_path / "other").mkdir()
    same = _shared(tmp_path / "same", {"run.sh": run.format(dev=0)})
    other = _shared(tmp_path / "other", {"run.sh": run.format(dev=1)})
    assert same == {"run.sh:1": (1.2, "P0"), "run.sh:2": (1.2, "P0")}
    assert all(v == (None, None) for v in other.values())


def test_release_that_counts_the_others_leaves_the_last_engine_no_kv(tmp_path):
    # 0.2.5-0.3.0, 0.6.4 and V1 up to 0.9.0.1 size the cache against all memory in use on the GPU:
    # two engines at 0.4 each pass L37 (0.8 of the card) but the second finds no KV memory (L16)
    files = {"run.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.4 --max-model-len 4096 &\n"
                       "vllm serve Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.4 --max-model-len 4096 --port 8001\n"}

    def l16(version, sub):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "requirements.txt").write_text(f"vllm=={version}\n")
        for name, text in files.items():
            (tmp_path / sub / name).write_text(text)
        rep = audit(tmp_path / sub, gpu="A100-80GB x1")
        return [(r.status, r.priority) for sr in rep.sites for r in sr.results if r.check.id == "L16"]

    assert l16("0.8.5", "v1") == [("recommended", "P0")] * 2
    assert l16("0.6.4", "v0-064") == [("recommended", "P0")] * 2
    assert l16("0.7.3", "v0-073") == [("enabled", None)] * 2  # V0 measures from its own start


def test_xinference_launches_naming_one_gpu_idx_share_it(tmp_path):
    # xorbitsai/inference#4637: two `xinference launch --model-engine vllm … --gpu-idx 0` stay up together in
    # the server, each at Xinference's default 0.9: vLLM 0.13's worker refuses the second in init_device
    launch = ("xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 "
              "--model-format pytorch --quantization none --gpu-idx {gpu}\n")
    got = _shared(tmp_path, {"launch.sh": launch.format(gpu=0) + launch.format(gpu=0)}, version="0.13.0")
    assert got == {"launch.sh:1": (1.8, "P0"), "launch.sh:2": (1.8, "P0")}


def test_xinference_launches_on_other_gpus_or_placed_by_the_worker_do_not(tmp_path):
    # without --gpu-idx the worker gives each LLM GPUs no other LLM holds; another endpoint is another server
    launch = "xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 {more}\n"
    got = _shared(tmp_path, {"a.sh": launch.format(more="--gpu-idx 0") + launch.format(more="--gpu-idx 1"),
                             "b.sh": launch.format(more="") + launch.format(more=""),
                             "c.sh": launch.format(more="--gpu-idx 0") + launch.format(more="--gpu-idx 0 -e http://other:9997")},
                  version="0.13.0")
    assert all(v == (None, None) for v in got.values()), got



def test_an_xinference_model_terminated_before_the_next_launch_is_gone(tmp_path):
    launch = ("xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 "
              "--model-uid {uid} --gpu-idx 0\n")
    got = _shared(tmp_path, {"launch.sh": launch.format(uid="a") + "xinference terminate --model-uid a\n"
                             + launch.format(uid="b")}, version="0.13.0")
    assert all(v == (None, None) for v in got.values()), got


_COMPOSE = """services:
  a:
    image: vllm/vllm-openai:v0.11.0
    {pa}
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              device_ids: ["0"]
              capabilities: [gpu]
    command: ["--model", "a/b", "--gpu-memory-utilization", "0.9"]
  b:
    image: vllm/vllm-openai:v0.11.0
    {pb}
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              device_ids: ["{dev}"]
              capabilities: [gpu]
    command: ["--model", "c/d", "--gpu-memory-utilization", "0.9"]
"""


def test_compose_services_on_other_device_ids_or_profiles_do_not_share(tmp_path):
    # DEEPGadget/vllm-docker-qwen (eval77): services pinned to GPU 0 and GPU 1, and GPU-mates each under
    # its own profile (the Makefile stops one before starting the other) or publishing one host port: no
    # engine shares a GPU
    for sub, dev, pa, pb in (("same", "0", "", ""), ("other", "1", "", ""),
                             ("profiles", "0", "profiles: [big]", "profiles: [coder]"),
                             ("one-profile", "0", "", "profiles: [coder]"),
                             ("one-port", "0", "ports: ['8000:8000']", "ports: ['8000:8000']")):
        (tmp_path / sub).mkdir()
        got = _shared(tmp_path / sub, {"docker-compose.yml": _COMPOSE.format(dev=dev, pa=pa, pb=pb)})
        shared = {k: v for k, v in got.items() if v != (None, None)}
        if sub in ("same", "one-profile"):
            assert len(shared) == 2 and all(v == (1.8, "P0") for v in shared.values()), (sub, got)
        else:
            assert not shared, (sub, got)


_MENU = """services:
{services}"""
_MENU_SVC = """  m{i}:
    profiles: ["models"]
    image: vllm/vllm-openai:v0.11.0
    gpus: all
    command: ["--model", "org/model-{i}", "--gpu-memory-utilization", "0.7"]
"""


def test_a_profile_gating_three_or_more_engines_is_a_menu_not_engines_that_run_together(tmp_path):
    # eval81 (jdaln/dgx-spark-inference-stack): every model service under profile `models`, created with
    # `docker compose --profile models up --no-start`; an on-demand starter runs one at a time. Two engines
    # behind one profile still start together under `--profile models up`.
    for n, want in ((3, None), (2, "P0")):
        (tmp_path / str(n)).mkdir()
        got = _shared(tmp_path / str(n), {"docker-compose.yml": _MENU.format(
            services="".join(_MENU_SVC.format(i=i) for i in range(n)))})
        assert len(got) == n and {p for _u, p in got.values()} == {want}, (n, got)


def test_curator_llms_build_and_free_their_engine_per_call(tmp_path):
    # zaidalyafeai/curator examples/vllm-offline/vllm_recipe_structured.py (https://github.com/zaidalyafeai/curator,
    # eval89): two curator.LLM subclasses held in one function; curator builds vllm.LLM when one is called and
    # destroys it when process_requests ends, so they never hold the GPU together (a false L37 P0 ×2)
    gen = ("from bespokelabs import curator\n"
           "class Cuisines(curator.LLM):\n    pass\n"
           "class Recipes(curator.LLM):\n    pass\n"
           "def main():\n"
           "    a = Cuisines(model_name='Qwen/Qwen2.5-3B-Instruct', backend='vllm')\n"
           "    rows = a()\n"
           "    b = Recipes(model_name='Qwen/Qwen2.5-3B-Instruct', backend='vllm')\n"
           "    b(rows)\n")
    got = _shared(tmp_path, {"gen.py": gen}, version="0.34.0")
    assert set(got) == {"gen.py:7", "gen.py:9"} and all(v == (None, None) for v in got.values())
    # vLLM's own LLM kept in the same places does share the GPU
    plain = gen.replace("from bespokelabs import curator\n", "from vllm import LLM\n").replace("curator.LLM", "LLM") \
        .replace(", backend='vllm'", "").replace("model_name=", "model=")
    assert _shared(tmp_path, {"gen.py": plain}, version="0.34.0")["gen.py:7"][1] == "P0"


def test_opencompass_models_of_one_config_run_in_tasks_of_their_own(tmp_path):
    # open-compass/opencompass autotest/model/infer_vllm_base.py (https://github.com/open-compass/opencompass):
    # several `dict(type=VLLM, …, gpu_memory_utilization=0.7, run_cfg=dict(num_gpus=1))` models in one config;
    # the runner builds each in a task process on GPUs it gives that task alone (runners/local.py), so the
    # 0.7 shares never add up on one GPU (27 false L37 P0s in the session-34 census)
    model = ("{name} = dict(type=VLLM, abbr='{name}', path='Qwen/Qwen3-0.6B-Base',\n"
             "    model_kwargs=dict(max_model_len=4096, gpu_memory_utilization=0.7), run_cfg=dict(num_gpus=1))\n")
    cfg = "from opencompass.models import VLLM\n" + model.format(name="a") + model.format(name="b") + "models = [a, b]\n"
    got = _shared(tmp_path, {"infer_vllm.py": cfg}, version="0.34.0")
    assert len(got) == 2 and all(v == (None, None) for v in got.values()), got
    # the same engines built in one process do share the GPU
    plain = ("from vllm import LLM\n"
             "a = LLM(model='Qwen/Qwen3-0.6B-Base', max_model_len=4096, gpu_memory_utilization=0.7)\n"
             "b = LLM(model='Qwen/Qwen3-0.6B-Base', max_model_len=4096, gpu_memory_utilization=0.7)\n")
    assert {u for u, _p in _shared(tmp_path, {"infer_vllm.py": plain}, version="0.34.0").values()} == {1.4}


_ALTERNATIVES = """services:
  cpu:
    image: opea/vllm:latest
    command: --model a/b --port 80
  gaudi:
    image: opea/vllm-gaudi:latest
    runtime: habana
    environment:
      HABANA_VISIBLE_DEVICES: all
    command: --model a/b --port 80
  rocm:
    image: opea/vllm-rocm:latest
    container_name: {rocm_name}
    devices:
      - /dev/kfd:/dev/kfd
      - /dev/dri:/dev/dri
    command: --model a/b --port 8011
  rocm2:
    image: opea/vllm-rocm:latest
    container_name: vllm-rocm
    devices:
      - /dev/kfd:/dev/kfd
      - /dev/dri:/dev/dri
    command: --model c/d --port 8012
"""


def test_services_for_other_hardware_a_deviceless_one_or_one_container_name_do_not_share(tmp_path):
    # OPEA GenAIComps comps/third_parties/vllm/deployment/docker_compose/compose.yaml (eval119): a CPU image,
    # a Gaudi service (runtime: habana) and a ROCm one (/dev/kfd) are alternatives for different machines,
    # and a container handed no device holds no GPU; two ROCm services of one container_name cannot run
    # together, two of different names can (a false L37 ×6 there)
    for sub, name, want in (("one-name", "vllm-rocm", set()), ("two-names", "vllm-rocm-a", {"docker-compose.yml:17", "docker-compose.yml:24"})):
        (tmp_path / sub).mkdir()
        got = _shared(tmp_path / sub, {"docker-compose.yml": _ALTERNATIVES.format(rocm_name=name)})
        assert {k for k, v in got.items() if v[1] is not None} == want, (sub, got)


def test_docker_runs_of_one_container_name_do_not_share(tmp_path):
    # GenAIComps tests/agent/test_agent_langchain_on_intel_hpu.sh (eval119): each start function runs
    # `docker run -d --name test-comps-vllm-gaudi-service …`; Docker refuses a second container of that name
    run = "docker run -d --gpus all --name {n} vllm/vllm-openai:v0.11.0 --model {m} --gpu-memory-utilization 0.6\n"
    for sub, names, want in (("same", ("svc", "svc"), 0), ("other", ("svc-a", "svc-b"), 2)):
        (tmp_path / sub).mkdir()
        got = _shared(tmp_path / sub, {"run.sh": run.format(n=names[0], m="a/b") + run.format(n=names[1], m="c/d")})
        assert sum(1 for v in got.values() if v[1] is not None) == want, (sub, got)
