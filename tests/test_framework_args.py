"""Framework keys the pinned framework release's parser does not accept (engine/check/framework_args.py
over knowledge/frameworks/accepted_args.json, read from the wheels by tools/framework_args.py):
a P0 finding with the parser's own words and the first release that has the key; quiet where the
release accepts it, where no framework release is pinned, and where argparse would take the
spelling as an abbreviation. Also the ms-swift 3.1.1–3.2.0 GRPO break on vLLM's V1 engine."""
import textwrap

import pytest
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import compat
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.versions import parse

CODE = "framework-key-not-in-release"


def _run(tmp_path, files: dict, gpu="A100-80GB"):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    return audit(tmp_path, gpu=gpu).sites


def _refused(sites):
    return [f for sr in sites for f in sr.remarks if f.code == CODE]


@pytest.mark.parametrize("fid,parser,key,absent,present", [
    ("ms-swift", "infer", "vllm_gpu_memory_utilization", "3.6.4", "3.7.0"),  # prefixed for swift infer in 3.7
    ("ms-swift", "rlhf", "vllm_gpu_memory_utilization", "3.1.0", "3.1.1"),  # GRPO had it first
    ("trl", "GRPOConfig", "vllm_mode", "0.17.0", "0.18.0"),
    ("trl", "vllm-serve", "data_parallel_size", "0.16.1", "0.17.0"),
    ("llamafactory", "*", "vllm_config", "0.9.0", "0.9.1"),
    ("openrlhf", "train_ppo_ray", "vllm.num_engines", "0.10.1.post2", "0.10.2"),  # the dotted generation
])
def test_the_table_holds_what_each_release_parses(fid, parser, key, absent, present):
    p = compat.accepted_args()["frameworks"][fid]["parsers"][parser]
    spans = p["keys"][key]

    def has(v):
        return any(parse(a) <= parse(v) <= parse(b) for a, b in spans)
    assert {absent, present} <= set(p["releases"])
    assert not has(absent) and has(present)


SWIFT = "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 swift infer --model Qwen/Qwen2.5-7B-Instruct --infer_backend vllm {flag} 0.5\n"


@pytest.mark.parametrize("release,flag,refused", [
    ("3.5.1", "--vllm_gpu_memory_utilization", True),  # arrives for swift infer in 3.7.0
    ("3.7.0", "--vllm_gpu_memory_utilization", False),
    ("3.5.1", "--gpu_memory_utilization", False),
    (None, "--vllm_gpu_memory_utilization", False),  # no release pinned: nothing to say
])
def test_swift_infer_flag_added_later(tmp_path, release, flag, refused):
    files = {"infer.sh": SWIFT.format(flag=flag)}
    if release:
        files["requirements.txt"] = f"ms-swift=={release}\nvllm==0.8.5\n"
    got = _refused(_run(tmp_path, files))
    assert bool(got) is refused
    if refused:
        (f,) = got
        assert f.priority == "P0" and f.line == 2
        text = f.message["en"]
        assert "remaining_argv" in text and "3.7.0" in text and "`gpu_memory_utilization`" in text


GRPO = """\
    from trl import GRPOConfig

    args = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="colocate", vllm_gpu_memory_utilization=0.4)
    """


@pytest.mark.parametrize("trl,refused", [("0.17.0", True), ("0.18.0", False)])
def test_trl_config_keyword_added_later(tmp_path, trl, refused):
    got = _refused(_run(tmp_path, {"requirements.txt": f"trl=={trl}\nvllm==0.8.5\n", "train.py": GRPO}))
    assert bool(got) is refused
    if refused:
        assert "got an unexpected keyword argument 'vllm_mode'" in got[0].message["en"] and "0.18.0" in got[0].message["en"]


def test_trl_cli_abbreviation_is_accepted(tmp_path):
    # TRL 0.26 dropped vllm_max_model_len for vllm_max_model_length: argparse reads the short one as a prefix
    script = "#!/bin/bash\ntrl grpo --model_name_or_path Qwen/Qwen2.5-0.5B --use_vllm --vllm_max_model_len 4096\n"
    assert not _refused(_run(tmp_path, {"requirements.txt": "trl==0.26.0\nvllm==0.11.0\n", "run.sh": script}))


def test_llamafactory_yaml_key_added_later(tmp_path):
    cfg = "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\ntemplate: qwen\ninfer_backend: vllm\nvllm_config:\n  max_num_seqs: 64\n"
    got = _refused(_run(tmp_path, {"requirements.txt": "llamafactory==0.9.0\nvllm==0.6.3\n", "infer.yaml": cfg}))
    assert got and "Some keys are not used by the HfArgumentParser" in got[0].message["en"] and "0.9.1" in got[0].message["en"]


@pytest.mark.parametrize("line", [
    "ValueError: remaining_argv: ['--vllm_gpu_memory_utilization', '0.5']",
    "ValueError: Some specified arguments are not used by the HfArgumentParser: ['--vllm_mode', 'colocate']",
])
def test_diagnose_names_the_refused_key(line):
    assert CODE in [h.id for h in launch.recognise(load(), line)][:3]


GRPO_SWIFT = "#!/bin/bash\n{env}swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm true --dataset d.jsonl\n"


@pytest.mark.parametrize("swift,env,p0", [
    ("3.2.0", "", True),  # V0 AsyncLLMEngine path on the V1 AsyncLLM
    ("3.2.0", "export VLLM_USE_V1=0\n", False),
    ("3.2.1", "", False),  # builds the engine with use_async_engine=False and loads through its inner model
])
def test_ms_swift_grpo_on_the_v1_engine(tmp_path, swift, env, p0):
    (sr,) = _run(tmp_path, {"requirements.txt": f"ms-swift=={swift}\nvllm==0.8.2\n", "grpo.sh": GRPO_SWIFT.format(env=env)},
                 gpu="A100-80GB x8")
    r = next(x for x in sr.results if x.check.id == "L43")
    assert (r.status == "recommended" and r.priority == "P0") is p0
    if p0:
        assert "'AsyncLLM' object has no attribute 'engine'" in r.reason_text("en")


VERL = ("#!/bin/bash\npython3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct "
        "actor_rollout_ref.rollout.name=vllm {key}actor_rollout_ref.rollout.mode=async trainer.n_gpus_per_node=8\n")


@pytest.mark.parametrize("verl,plus,refused", [
    ("0.3.0.post1", "", True),  # rollout.mode arrives in verl 0.4.0's trainer config
    ("0.3.0.post1", "+", False),  # Hydra's explicit addition
    ("0.4.0", "", False),
])
def test_verl_override_added_later(tmp_path, verl, plus, refused):
    got = _refused(_run(tmp_path, {"requirements.txt": f"verl=={verl}\nvllm==0.8.2\n", "run.sh": VERL.format(key=plus)},
                        gpu="A100-80GB x8"))
    assert bool(got) is refused
    if refused:
        assert "Key 'mode' is not in struct" in got[0].message["en"] and "0.4.0" in got[0].message["en"]


@pytest.mark.parametrize("flag,refused", [
    ("--enforce_eager true", True),  # `swift infer`'s spelling; no release of `swift rlhf` takes it
    ("--vllm_enforce_eager true", False),
])
def test_swift_rlhf_refuses_another_commands_vllm_flag(tmp_path, flag, refused):
    script = f"#!/bin/bash\nswift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm true {flag} --dataset d.jsonl\n"
    got = _refused(_run(tmp_path, {"requirements.txt": "ms-swift==3.2.2\nvllm==0.7.3\n", "grpo.sh": script}, gpu="A100-80GB x8"))
    assert bool(got) is refused
    if refused:
        assert "no release of `rlhf` has it" in got[0].message["en"] and "`vllm_enforce_eager`" in got[0].message["en"]


def test_trl_config_takes_transformers_arguments(tmp_path):
    # log_level is a `trl vllm-serve` flag and a TrainingArguments field: GRPOConfig takes it
    text = 'from trl import GRPOConfig\n\nargs = GRPOConfig(output_dir="o", use_vllm=True, log_level="info")\n'
    assert not _refused(_run(tmp_path, {"requirements.txt": "trl==0.18.0\nvllm==0.8.5\n", "train.py": text}))


@pytest.mark.parametrize("dtype, bf16_refused", [("float16", False), (None, True)])
def test_swift_torch_dtype_is_the_engines(tmp_path, dtype, bf16_refused):
    # ms-swift builds vLLM with dtype = the model's torch_dtype (VllmEngine, 3.x/4.x): --torch_dtype float16
    # on a V100 is what the engine runs, so the bfloat16 checkpoint's refusal does not apply
    extra = f" --torch_dtype {dtype}" if dtype else ""
    sites = _run(tmp_path, {"requirements.txt": "ms-swift==3.2.1\nvllm==0.7.3\n",
                            "train.sh": "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm true "
                                        f"--vllm_gpu_memory_utilization 0.5 --vllm_max_model_len 1024{extra} --dataset d\n"},
                 gpu="V100-32GB x4")
    (sr,) = sites
    assert ("L4" in {r.check.id for r in sr.results if r.priority == "P0" and r.needs_change}) is bf16_refused


@pytest.mark.parametrize("flags,p0", [
    ("--rope_scaling yarn --max_length 128000 --max_model_len 131072", False),  # swift stretches the config vLLM gets
    ("--max_model_len 131072", True),  # Qwen3-8B's config says 40960: vLLM refuses
])
def test_swift_rope_scaling_is_applied_to_the_config_vllm_reads(tmp_path, flags, p0):
    """ms-swift #4893: `swift infer --rope_scaling yarn --max_model_len 131072` on Qwen3-8B started."""
    files = {"infer.sh": f"#!/bin/bash\nswift infer --model Qwen/Qwen3-8B --infer_backend vllm {flags}\n",
             "requirements.txt": "ms-swift==3.6.0\nvllm==0.9.2\n"}
    (sr,) = _run(tmp_path, files)
    l14 = next(r for r in sr.results if r.check.id == "L14")
    assert (l14.status == "recommended" and l14.priority == "P0") is p0


def test_swift_1x_example_script_is_swift_infer(tmp_path):
    """ms-swift 1.x from its checkout: examples/pytorch/llm/llm_infer.py only calls infer_main(), so it
    is read as `swift infer` (modelscope/ms-swift#527: --infer_backend vllm --tensor_parallel_size 100)."""
    sites = _run(tmp_path, {
        "requirements.txt": "ms-swift==1.7.3\nvllm==0.3.3\n",
        "infer.sh": "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python examples/pytorch/llm/llm_infer.py \\\n"
                    "    --infer_backend vllm --ckpt_dir output/checkpoint-800 --tensor_parallel_size 100\n"})
    (sr,) = sites
    assert (sr.site.kind, sr.site.framework, sr.site.mode) == ("swift infer", "ms-swift", "framework_integrated")
    assert sr.site.settings["tensor_parallel_size"].value == 100


def test_swift_1x_tensor_parallel_beyond_the_visible_gpus(tmp_path):
    """The engine swift builds in its own process needs TP × PP GPUs like any other (L34 P0)."""
    sites = _run(tmp_path, {
        "requirements.txt": "ms-swift==1.7.3\nvllm==0.3.3\n",
        "infer.sh": "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python examples/pytorch/llm/llm_infer.py --infer_backend vllm "
                    "--ckpt_dir output/checkpoint-800 --tensor_parallel_size 100\n"}, gpu="A100-80GB x8")
    (sr,) = sites
    assert any(r.check.id == "L34" and r.priority == "P0" for r in sr.results if r.needs_change)


GRPO = """\
from trl import GRPOConfig

args = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="colocate")
"""


@pytest.mark.parametrize("pin,priority", [
    ("trl==0.14.0", "P0"),  # that release's GRPOConfig has no vllm_mode (0.18.0 adds it)
    ("trl>=0.14.0", "P1"),  # pip installs the newest TRL it resolves, which has it (eval70 KG_GRPO)
    ("trl>=0.14.0,<0.17", "P0"),  # every release the range allows lacks it
])
def test_a_key_added_later_under_an_open_lower_bound_is_no_p0(tmp_path, pin, priority):
    got = _refused(_run(tmp_path, {"train.py": GRPO, "requirements.txt": f"{pin}\nvllm==0.8.5\n"}))
    assert [f.priority for f in got] == [priority]
    if priority == "P1":
        assert "trl>=0.14.0" in got[0].message["en"] and "trl>=0.14.0" in got[0].message["zh"]
