"""Framework releases that break on vLLM's V1 engine (knowledge/frameworks/compat.yaml rows with
`needs`): P0 where the pinned vLLM runs V1 for the site, quiet where the site turns V1 (or its
multiprocessing) off; Python's words for such a break named as L43 by `diagnose`; the frameworks'
own launch refusals (knowledge/frameworks/*.yaml › findings): `trl vllm-serve` before TRL 0.16,
verl's eager/free-cache assertion."""
import re
import textwrap

import pytest
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.versions import SpecifierSet

KB = load()
PPO = """\
    #!/bin/bash
    {env}python3 -m openrlhf.cli.train_ppo_ray --actor_num_gpus_per_node 4 --ref_num_gpus_per_node 2 \\
        --vllm_num_engines 2 --vllm_tensor_parallel_size 1 --pretrain OpenRLHF/Llama-3-8b-sft-mixture \\
        --prompt_data OpenRLHF/prompt-collection-v0.1 --bf16
    """


def _l43(tmp_path, files: dict, gpu="A100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(x for x in sr.results if x.check.id == "L43")


@pytest.mark.parametrize("openrlhf,env,priority,words", [
    ("0.6.3", "", "P0", "no attribute 'model_executor'"),  # collective_rpc through llm_engine.model_executor (0.8.2)
    ("0.6.3", "export VLLM_ENABLE_V1_MULTIPROCESSING=0\n    ", "P1", "declares"),  # what OpenRLHF 0.6.4 does
    ("0.6.1", "", "P0", "get_kv_cache_spec"),  # a V0 Worker subclass as worker_cls, run by V1
    ("0.6.1", "export VLLM_USE_V1=0\n    ", "P1", "declares"),
])
def test_openrlhf_on_vllm_0_8_2(tmp_path, openrlhf, env, priority, words):
    r = _l43(tmp_path, {"requirements.txt": f"vllm==0.8.2\nopenrlhf=={openrlhf}\n", "train.sh": PPO.format(env=env)})
    assert (r.status, r.priority) == ("recommended", priority)
    assert words in r.reason_text("en")


@pytest.mark.parametrize("swift,vllm,env,broken", [
    ("3.1.0", "0.7.3", "export VLLM_USE_V1=1\n", True),  # opted into V1 (ms-swift#3139)
    ("3.1.0", "0.7.3", "", False),  # 0.7.3 runs V0 unless asked
    ("3.2.1", "0.8.5", "", True),  # V1 by default from 0.8.0
    ("3.2.2", "0.8.5", "", False),  # 3.2.2 asks hasattr(engine, "engine") first
])
def test_swift_infer_reaches_into_the_v0_engine_after_it_starts(tmp_path, swift, vllm, env, broken):
    r = _l43(tmp_path, {"requirements.txt": f"ms-swift=={swift}\nvllm=={vllm}\n",
                        "run.sh": f"{env}swift infer --model Qwen/Qwen2.5-7B-Instruct --infer_backend vllm --val_dataset d.jsonl\n"})
    said = r.status == "recommended" and "'AsyncLLM' object has no attribute 'engine'" in r.reason_text("en")
    assert said is broken
    if broken:
        assert r.priority == "P1"  # vLLM starts; the first batch fails


def test_openrlhf_worker_cls_below_compute_capability_8_runs_v0(tmp_path):
    # vLLM 0.8.x falls back to V0 below compute capability 8.0 (EngineArgs._is_v1_supported_oracle)
    r = _l43(tmp_path, {"requirements.txt": "vllm==0.8.2\nopenrlhf==0.6.1\n", "train.sh": PPO.format(env="")}, gpu="V100-32GB x8")
    assert r.priority != "P0"


GRPO = """\
    {head}from trl import GRPOConfig, GRPOTrainer

    args = GRPOConfig(output_dir="out", use_vllm=True, vllm_gpu_memory_utilization=0.6)
    GRPOTrainer(model="Qwen/Qwen2.5-1.5B-Instruct", reward_funcs=[len], args=args).train()
    """


@pytest.mark.parametrize("vllm,head,priority", [
    ("0.8.0", "", "P0"),
    ("0.8.0", 'import os\n\n    os.environ["VLLM_USE_V1"] = "0"\n\n    ', "P1"),
    ("0.7.3", "", "P1"),  # V0 engine: the weight sync works (the pin is only outside TRL's declared ==0.7.2)
])
def test_trl_0_15_colocated_weight_sync_needs_the_v0_engine(tmp_path, vllm, head, priority):
    r = _l43(tmp_path, {"requirements.txt": f"vllm=={vllm}\ntrl==0.15.2\n", "train.py": GRPO.format(head=head)})
    assert r.priority == priority


SERVE = """\
    #!/bin/bash
    {env}trl vllm-serve --model Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.9
    """


@pytest.mark.parametrize("trl,vllm,env,priority,words", [
    # 0.17: LLM.collective_rpc goes through llm_engine.model_executor in vLLM 0.8.2 only
    ("0.17.0", "0.8.2", "", "P0", "no attribute 'model_executor'"),
    ("0.17.0", "0.8.2", "export VLLM_ENABLE_V1_MULTIPROCESSING=0\n    ", "P1", "declares"),
    ("0.17.0", "0.8.3", "", None, ""),
    # 0.16: a V0 Worker subclass as worker_cls, built by the V1 engine from vLLM 0.8.2
    ("0.16.0", "0.8.2", "", "P0", "get_state_cls"),
    ("0.16.0", "0.8.2", "export VLLM_USE_V1=0\n    ", None, ""),
    ("0.16.0", "0.8.1", "", None, ""),  # 0.8.1 still fell back to V0 for a custom worker_cls
    ("0.16.0", "0.6.6", "", "P0", "collective_rpc"),  # LLM.collective_rpc arrives in vLLM 0.7.0
])
def test_trl_vllm_serve_on_the_v1_engine(tmp_path, trl, vllm, env, priority, words):
    r = _l43(tmp_path, {"requirements.txt": f"vllm=={vllm}\ntrl=={trl}\n", "serve.sh": SERVE.format(env=env)}, gpu="A100-80GB")
    assert (r.priority if r.status == "recommended" else None) == priority
    assert words in r.reason_text("en")


@pytest.mark.parametrize("line", [
    "AttributeError: 'LLMEngine' object has no attribute 'model_executor'",
    "ModuleNotFoundError: No module named 'vllm.transformers_utils.tokenizer'",
    "AttributeError: 'WorkerWrap' object has no attribute 'get_kv_cache_spec'",
    # raised in the framework's own frame
    'Traceback (most recent call last):\n  File "/env/lib/python3.11/site-packages/verl/workers/rollout/vllm_rollout/x.py", line 9, in f\n'
    "    self.inference_engine.sleep()\nAttributeError: 'Foo' object has no attribute 'sleep'",
])
def test_a_framework_reaching_into_vllm_is_named_framework_vllm(line):
    assert "L43" in [h.id for h in launch.recognise(KB, line)][:3]


@pytest.mark.parametrize("line", [
    "'ColumnParallelLinear' object has no attribute 'input_scale'",  # a model layer: vLLM's own bug
    "ModuleNotFoundError: No module named 'vllm._C'",  # a broken build
    "ModuleNotFoundError: No module named 'vllm'",
])
def test_vllm_internal_attribute_and_build_errors_are_not_framework_vllm(line):
    assert "L43" not in [h.id for h in launch.recognise(KB, line)]


def test_a_line_another_check_words_keeps_that_check_first():
    line = "ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be stored in KV cache (1216)."
    hits = [h.id for h in launch.recognise(KB, line + "\nAttributeError: 'LLMEngine' object has no attribute 'model_executor'")]
    assert hits[0] != "L43" and "L43" in hits


def _findings(tmp_path, files: dict, gpu="A100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return {f.code: f for f in sr.remarks if f.priority == "P0"}, sr


@pytest.mark.parametrize("trl,p0", [("0.15.2", True), ("0.13.0", True), ("0.16.0", False), ("0.17.0", False)])
def test_trl_vllm_serve_exists_from_0_16(tmp_path, trl, p0):
    found, sr = _findings(tmp_path, {"requirements.txt": f"vllm==0.8.5\ntrl=={trl}\n",
                                     "serve.sh": "#!/bin/bash\ntrl vllm-serve --model Qwen/Qwen2.5-7B-Instruct\n"})
    assert ("trl-no-vllm-serve" in found) == p0
    if p0:
        # the finding's `>=0.16.0`, or the release of it L43 names as the nearest that takes vLLM 0.8.5 (one pin holds both)
        (pin,) = [c for c in sr.changes if c.op == "pin" and c.target == "trl"]
        assert "trl-no-vllm-serve" in pin.checks and (pin.value == ">=0.16.0" or SpecifierSet(">=0.16.0").contains(pin.value.lstrip("=")))


def test_an_unpinned_trl_is_not_judged_by_the_serve_command(tmp_path):
    found, _ = _findings(tmp_path, {"requirements.txt": "vllm==0.8.5\ntrl\n",
                                    "serve.sh": "#!/bin/bash\ntrl vllm-serve --model Qwen/Qwen2.5-7B-Instruct\n"})
    assert "trl-no-vllm-serve" not in found


VERL = """\
    #!/bin/bash
    python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
        actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=1 {extra}
    """


@pytest.mark.parametrize("pins,extra,p0", [
    ("vllm==0.6.3\n", "actor_rollout_ref.rollout.enforce_eager=False", True),  # every verl for vLLM <= 0.6.3 asserts
    ("vllm==0.8.5\nverl==0.4.1\n", "actor_rollout_ref.rollout.enforce_eager=False", True),  # the spmd path too
    ("vllm==0.6.3\n", "actor_rollout_ref.rollout.enforce_eager=False actor_rollout_ref.rollout.free_cache_engine=False", False),
    ("vllm==0.6.3\n", "actor_rollout_ref.rollout.enforce_eager=True", False),
    ("vllm==0.6.3\n", "", False),  # not written: old verl's own default is eager
    ("vllm==0.8.5\n", "actor_rollout_ref.rollout.enforce_eager=False", False),  # verl 0.5+ may run it: unknown release
    ("vllm==0.8.5\nverl==0.5.0\n", "actor_rollout_ref.rollout.enforce_eager=False", False),
    ("vllm==0.10.0\nverl==0.6.1\n", "actor_rollout_ref.rollout.enforce_eager=False", False),
    ("vllm==0.8.5\nverl==0.4.1\n", "actor_rollout_ref.rollout.enforce_eager=False actor_rollout_ref.rollout.mode=async", False),
])
def test_verl_asserts_eager_with_free_cache_engine(tmp_path, pins, extra, p0):
    found, sr = _findings(tmp_path, {"requirements.txt": pins, "run.sh": VERL.format(extra=extra)})
    assert ("verl-eager-free-cache" in found) == p0
    if p0:
        assert any(c.target == "enforce_eager" and c.value is True for c in sr.changes)


@pytest.mark.parametrize("pins,extra,kept", [
    ("vllm==0.6.3\n", "actor_rollout_ref.rollout.enforce_eager=True", True),  # hkust-nlp/simpleRL-reason (verl 0.1)
    ("vllm==0.8.5\nverl==0.4.1\n", "actor_rollout_ref.rollout.enforce_eager=True", True),  # A5's advice too (vLLM >= 0.8)
    ("vllm==0.8.5\nverl==0.5.0\n", "actor_rollout_ref.rollout.enforce_eager=True", False),  # 0.5.0 asserts only for vLLM <= 0.6.3
    ("vllm==0.6.3\n", "actor_rollout_ref.rollout.enforce_eager=True actor_rollout_ref.rollout.free_cache_engine=False", False),
    ("vllm==0.8.5\nverl==0.4.1\n", "actor_rollout_ref.rollout.enforce_eager=True actor_rollout_ref.rollout.mode=async", False),
])
def test_cuda_graphs_are_not_advised_where_verl_asserts_eager(tmp_path, pins, extra, kept):
    # verl 0.1 … 0.4.1 (0.5.0 with vLLM <= 0.6.3) assert enforce_eager while free_cache_engine is on:
    # A2 and A5 say why instead of proposing enforce_eager=False
    _, sr = _findings(tmp_path, {"requirements.txt": pins, "run.sh": VERL.format(extra=extra)})
    eager_off = [r.check.id for r in sr.results if r.status == "recommended" and any(c.target == "enforce_eager" for c, _ in r.fix)]
    assert (eager_off == []) == kept
    if kept:
        a2 = next(r for r in sr.results if r.check.id == "A2")
        assert a2.status == "not_applicable" and all("free_cache_engine" in a2.reason_text(lang) for lang in ("en", "zh"))


@pytest.mark.parametrize("line,code", [
    ("TRL CLI: error: argument command: invalid choice: 'vllm-serve' (choose from 'chat', 'dpo', 'env', 'grpo', 'kto', 'sft')",
     "trl-no-vllm-serve"),
    ("AssertionError: disable CUDA graph (enforce_eager = False) if free cache engine", "verl-eager-free-cache"),
    ("megatron rlhf: error: argument --rlhf_type: invalid choice: 'grpo' (choose from 'dpo', 'kto', 'rm')",
     "ms-swift-megatron-no-grpo"),
    ("megatron rlhf: error: argument --rlhf_type: invalid choice: 'grpo' (choose from dpo, kto, rm)",
     "ms-swift-megatron-no-grpo"),
])
def test_framework_refusals_are_recognised(line, code):
    assert [h.id for h in launch.recognise(KB, line)][0] == code


TRAINER = """\
    from trl import GRPOConfig, GRPOTrainer

    args = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="server"{port})
    GRPOTrainer(model="Qwen/Qwen2.5-7B-Instruct", reward_funcs=[len], args=args).train()
    """


@pytest.mark.parametrize("trl,server,port,p0", [
    ("0.18.2", "vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000", "", True),
    ("0.18.2", "vllm serve Qwen/Qwen2.5-7B-Instruct", ", vllm_server_port=8000", True),
    ("0.18.2", "trl vllm-serve --model Qwen/Qwen2.5-7B-Instruct", "", False),  # TRL's own server
    ("0.18.2", "vllm serve Qwen/Qwen2.5-7B-Instruct --port 8001", "", False),  # not the port it connects to
    ("1.11.0", "vllm serve Qwen/Qwen2.5-7B-Instruct", "", False),  # the client speaks vLLM's own routes
])
def test_trl_server_mode_against_a_plain_vllm_serve(tmp_path, trl, server, port, p0):
    for name, text in {"requirements.txt": f"vllm==0.10.2\ntrl=={trl}\n", "train.py": TRAINER.format(port=port),
                       "serve.sh": f"#!/bin/bash\n{server}\n"}.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    p0s = {f.code for sr in audit(tmp_path, gpu="A100-80GB x2").sites for f in sr.remarks if f.priority == "P0"}
    assert ("trl-plain-vllm-server" in p0s) == p0


@pytest.mark.parametrize("vllm,priority", [("0.7.3", "P0"), ("0.8.5.post1", None)])
def test_swift_rollout_passes_the_worker_extension_a_vllm_before_080_does_not_take(tmp_path, vllm, priority):
    """ms-swift 3.4.0+ `swift rollout` adds worker_extension_cls to the engine keywords (ms-swift#4202 on
    vLLM 0.7.3); the framework release proposed instead has the rollout command (3.4.0+), or none is."""
    r = _l43(tmp_path, {"requirements.txt": f"ms-swift==3.5.0\nvllm=={vllm}\n",
                        "rollout.sh": "#!/bin/sh\nswift rollout --model Qwen/Qwen2.5-7B-Instruct\n"}, gpu="A100-80GB x2")
    assert r.priority == priority
    if priority:
        text = r.reason_text("en")
        assert "worker_extension_cls" in text and not re.search(r"ms-swift ==(2\.|3\.[0-3]\.)", text)


@pytest.mark.parametrize("swift,vllm,priority", [("3.12.6", "0.14.0", "P0"), ("3.12.6", "0.13.0", None), ("4.0.0", "0.14.0", None)])
def test_swift_rollout_of_3x_loses_get_open_port_on_vllm_014(tmp_path, swift, vllm, priority):
    """ms-swift 3.4.0-3.12.6 import vllm.utils.get_open_port under a try that swallows the ImportError, and
    SwiftRolloutDeploy.__init__ calls it: vLLM 0.14.0 dropped the re-export (NameError); 4.0.0 tries network_utils."""
    r = _l43(tmp_path, {"requirements.txt": f"ms-swift=={swift}\nvllm=={vllm}\n",
                        "rollout.sh": "#!/bin/sh\nswift rollout --model Qwen/Qwen2.5-7B-Instruct\n"}, gpu="A100-80GB x2")
    assert r.priority == priority
    if priority:
        assert "get_open_port" in r.reason_text("en")


RAY_SERVE = """\
    applications:
    - name: llm_app
      route_prefix: /
      import_path: ray.serve.llm:build_openai_app
      args:
        llm_configs:
        - model_loading_config:
            model_id: Qwen/Qwen2.5-7B-Instruct
          deployment_config:
            autoscaling_config: {min_replicas: 1, max_replicas: 1}
    """


@pytest.mark.parametrize("ray,vllm,broken", [
    ("2.46.0", "0.9.0", True),  # ray #52975: 0.8.5's keywords, model_config required from 0.9
    ("2.46.0", "0.8.5.post1", False),
    ("2.47.0", "0.9.0", False),  # 2.47 passes model_config (ray #52991)
])
def test_ray_serve_llm_chat_format_call(tmp_path, ray, vllm, broken):
    r = _l43(tmp_path, {"requirements.txt": f"ray[serve,llm]=={ray}\nvllm=={vllm}\n", "serve_config.yaml": RAY_SERVE},
             gpu="A10G x1")
    said = r.status == "recommended" and "model_config" in r.reason_text("en")
    assert said is broken


@pytest.mark.parametrize("kserve,vllm,broken", [
    ("0.14.0", "0.6.4.post1", True),  # kserve #4076: --task in KServe's parser and in vLLM's engine arguments
    ("0.14.0", "0.6.3.post1", False),  # KServe 0.14's pin: no --task in vLLM yet
    ("0.15.0", "0.8.5", False),  # 0.15 adds its --task only without the vLLM backend
])
def test_kserve_huggingfaceserver_task_clash(tmp_path, kserve, vllm, broken):
    r = _l43(tmp_path, {"requirements.txt": f"kserve=={kserve}\nvllm=={vllm}\n",
                        "run.sh": "python -m huggingfaceserver --model_id=Qwen/Qwen2.5-1.5B-Instruct --model_name=m\n"},
             gpu="A10G x1")
    said = r.status == "recommended" and "conflicting option string: --task" in r.reason_text("en")
    assert said is broken
    if broken:
        assert r.priority == "P0"


FORK_SETUP = """\
    from setuptools import find_packages, setup


    def _fetch_version():
        with open("version.txt", "r") as f:
            return f.read().strip()


    def _fetch_package_name():
        return "openrlhf"


    setup(name=_fetch_package_name(), version=_fetch_version(), packages=find_packages(),
          extras_require={"vllm": ["vllm==0.8.3"]})
    """


@pytest.mark.parametrize("kwarg,priority", [("worker_extension_cls", "P1"), ("worker_cls", "P0")])
def test_an_openrlhf_fork_runs_its_own_code_not_the_release_its_version_file_names(tmp_path, kwarg, priority):
    # eval89 yyht/openrlhf_async_pipline (https://github.com/yyht/openrlhf_async_pipline): version.txt still says
    # 0.6.0.post2, but the fork's vllm_engine.py passes worker_extension_cls (what 0.6.3 moved to), so the V0
    # worker_cls break of 0.5.2-0.6.2 is not in the code that runs; a fork that still passes worker_cls keeps the P0
    ray = tmp_path / "openrlhf" / "trainer" / "ray"
    ray.mkdir(parents=True)
    for pkg in (tmp_path / "openrlhf", tmp_path / "openrlhf" / "trainer", ray):
        (pkg / "__init__.py").write_text("")
    (ray / "vllm_engine.py").write_text(f'import vllm\n\n\ndef make(llm):\n    return llm(model="m", {kwarg}="openrlhf.trainer.ray.vllm_worker_wrap.WorkerWrap")\n')
    (ray / "vllm_worker_wrap.py").write_text("class WorkerWrap:\n    pass\n")
    r = _l43(tmp_path, {"setup.py": FORK_SETUP, "version.txt": "0.6.0.post2\n", "train.sh": PPO.format(env="")})
    assert r.priority == priority or (priority == "P1" and r.status != "recommended")
    assert ("get_kv_cache_spec" in r.reason_text("en")) is (priority == "P0")


def test_a_v1_break_with_the_gpu_unknown_is_a_p1(tmp_path):
    # OpenRLHF 0.6.3 reaches llm_engine.model_executor, which vLLM 0.8.2's V1 LLMEngine lacks; on a GPU below
    # compute capability 8.0 vLLM 0.8.2 runs V0 and has it (EngineArgs._is_v1_supported_oracle)
    files = {"requirements.txt": "vllm==0.8.2\nopenrlhf==0.6.3\n", "train.sh": PPO.format(env="")}
    assert _l43(tmp_path, files).priority == "P0"
    r = _l43(tmp_path, files, gpu=None)
    assert (r.status, r.priority) == ("recommended", "P1") and "no attribute 'model_executor'" in r.reason_text("en")
    assert "--gpu" in r.reason_text("en")
