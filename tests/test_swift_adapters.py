"""ms-swift with --adapters and no --model (engine/scan/swift_adapters.py): swift loads the base model
the adapter's args.json names (BaseArguments.load_args_from_ckpt, 3.0-3.10; examples/deploy/lora/
server.sh: "there is no need to explicitly set --model"), with the RoPE scaling saved there; peft's
adapter_config.json names it where swift's file is absent. An adapter folder outside the project
leaves the model unknown, as before. And a fix the pinned framework release has no key for names
the release that has one (engine/fix/changes.py _not_here), never the key itself."""
import json

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import frameworks

DEPLOY = "swift deploy --adapters {ad} --infer_backend vllm --max_model_len 80000\n"


def _site(rep):
    return rep.sites[0]


def _project(write_project, args=None, peft=None, ad="output/v0/checkpoint-10"):
    files = {"requirements.txt": "ms-swift==3.5.0\nvllm==0.8.5\n", "deploy.sh": DEPLOY.format(ad=ad)}
    if args is not None:
        files["output/v0/checkpoint-10/args.json"] = json.dumps(args)
    if peft is not None:
        files["output/v0/checkpoint-10/adapter_config.json"] = json.dumps(peft)
    return write_project(files)


def _p0(sr):
    return {r.check.id for r in sr.results if r.priority == "P0" and r.needs_change}


def test_the_base_model_comes_from_the_adapters_args_json(write_project):
    sr = _site(audit(_project(write_project, args={"model": "Qwen/Qwen2.5-7B-Instruct"}), gpu="A100-80GB"))
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and sr.site.model.implied
    assert "L14" in _p0(sr)  # 80000 past the model's 32768, now that the model is known


def test_peft_config_names_it_where_swift_saved_no_args(write_project):
    sr = _site(audit(_project(write_project, peft={"base_model_name_or_path": "Qwen/Qwen2.5-7B-Instruct", "r": 8}),
                     gpu="A100-80GB"))
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"


def test_rope_scaling_saved_with_the_adapter_is_applied_to_the_base(write_project):
    args = {"model": "Qwen/Qwen2.5-7B-Instruct", "rope_scaling": {"type": "yarn", "factor": 4.0}}
    sr = _site(audit(_project(write_project, args=args), gpu="A100-80GB"))
    assert "rope_scaling" in sr.site.launch.get("model_config_keys", [])
    assert "L14" not in _p0(sr)


def test_an_adapter_outside_the_project_leaves_the_model_unknown(write_project):
    sr = _site(audit(_project(write_project, ad="swift-lora=swift/test_lora"), gpu="A100-80GB"))
    assert sr.site.model is None or not sr.site.model.resolved
    assert not _p0(sr)


def test_a_key_a_later_release_reads_is_named_with_that_release():
    fw = frameworks.get("nemo-rl")
    assert fw.newer_key("dtype", "0.2.0") == ("policy.generation.vllm_cfg.precision", "0.2.1")
    assert fw.newer_key("dtype", "0.2.1") is None  # it has the key itself
    assert fw.newer_key("dtype", None) is None
