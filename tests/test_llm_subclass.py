"""Classes that are vllm.LLM under another name (engine/scan/python_subclass.py): a subclass in the
same file or in another project module, a public wrapper (knowledge/deploy/llm_wrappers.yaml), and
a subclass whose own __init__ parameters are not engine arguments."""

import json


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_a_public_wrapper_is_an_llm_site(scanned):
    (s,) = scanned({"gen.py": 'from bonito import Bonito\nb = Bonito("org/m", max_model_len=10000)\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m" and values(s) == {"max_model_len": 10000}
    assert "Bonito" in s.mode_evidence


def test_a_subclass_in_the_same_file(scanned):
    (s,) = scanned({"run.py": 'from vllm import LLM\n\nclass MyLLM(LLM):\n    def extra(self):\n        pass\n\n'
                              'llm = MyLLM(model="org/m", tensor_parallel_size=2)\n'})
    assert s.line == 7 and s.model.value == "org/m" and values(s) == {"tensor_parallel_size": 2}


def test_a_subclass_imported_from_another_project_module(scanned):
    sites = scanned({
        "pkg/__init__.py": "",
        "pkg/engine.py": 'import vllm\n\nclass Engine(vllm.LLM):\n    def __init__(self, model, tag="x", **kwargs):\n'
                         '        self.tag = tag\n        super().__init__(model=model, **kwargs)\n',
        "app/main.py": 'from pkg.engine import Engine\neng = Engine("org/m", tag="y", gpu_memory_utilization=0.8)\n',
        "app/other.py": 'from somewhere.else import Engine\nEngine("org/x", gpu_memory_utilization=0.5)\n'})
    (s,) = [x for x in sites if x.file == "app/main.py"]
    assert s.model.value == "org/m" and values(s) == {"gpu_memory_utilization": 0.8} and not s.unknown
    assert [o["code"] for o in s.opaque] == ["wrapper-arg"]
    assert not [x for x in sites if x.file == "app/other.py"]  # another package's Engine


def test_a_subclass_with_fixed_parameters_reads_what_it_hands_on(scanned):
    # its parameters handed to super().__init__ as they are, their defaults, its own constants
    text = ('from vllm import LLM\n\nclass Fixed(LLM):\n    def __init__(self, path, tp=2):\n'
            '        super().__init__(model=path, tensor_parallel_size=tp, max_model_len=4096)\n\n'
            'Fixed("org/m")\nFixed(path="org/n", tp=4)\n')
    a, b = scanned({"run.py": text})
    assert a.model.value == "org/m" and values(a) == {"tensor_parallel_size": 2, "max_model_len": 4096}
    assert b.model.value == "org/n" and values(b)["tensor_parallel_size"] == 4
    assert b.settings["tensor_parallel_size"].key == "tp"  # a fix rewrites the subclass's own keyword
    # nothing handed on as it is (a value computed from its parameters): not read
    text = ('from vllm import LLM\n\nclass Fixed(LLM):\n    def __init__(self, path):\n        super().__init__(model=path.strip())\n\n'
            'Fixed("org/m")\n')
    assert scanned({"run.py": text}) == []


def test_a_fix_writes_the_subclass_keyword_and_adds_none_it_lacks(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\n")
    (tmp_path / "run.py").write_text('from vllm import LLM\n\nclass Fixed(LLM):\n    def __init__(self, path, tp=1):\n'
                                     '        super().__init__(model=path, tensor_parallel_size=tp)\n\n'
                                     'Fixed("Qwen/Qwen2.5-7B-Instruct", tp=3)\n')
    (sr,) = audit(tmp_path, gpu="RTX-3090 x4").sites
    got = {c.target: (c.after, c.blocked) for c in sr.changes}
    assert got["tensor_parallel_size"] == ("tp=4", None)  # 28 heads: 3 does not divide them
    # (and the transformers bound L125 asks of every release that reads what transformers 5 dropped)
    assert all(after is None for t, (after, _) in got.items() if t not in ("tensor_parallel_size", "vllm", "transformers"))


# https://github.com/canopyai/Orpheus-TTS/issues/44 — OrpheusModel builds AsyncEngineArgs with its
# own bfloat16 default; on a P40 vLLM refuses it
def test_a_forwarder_gives_its_parameters_and_defaults_to_the_engine(scanned):
    (s,) = scanned({"tts.py": 'from orpheus_tts import OrpheusModel\nm = OrpheusModel("canopylabs/orpheus-3b-0.1-ft", '
                              'tokenizer="t", max_model_len=2048)\n'})
    assert s.kind == "AsyncEngineArgs()" and s.model.value == "canopylabs/orpheus-3b-0.1-ft"
    assert values(s) == {"dtype": "bfloat16", "max_model_len": 2048} and "default of OrpheusModel" in s.settings["dtype"].note
    assert [o["code"] for o in s.opaque] == ["wrapper-arg"] and not s.unknown  # its own tokenizer


def test_a_forwarder_keyword_is_renamed_and_its_mapping_spread(scanned):
    (s,) = scanned({"rag.py": 'from langchain_community.llms import VLLM\nllm = VLLM(model="org/m", tensor_parallel_size=2,\n'
                              '    max_new_tokens=128, temperature=0.8, vllm_kwargs={"gpu_memory_utilization": 0.5})\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m"
    assert values(s) == {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.5} and not s.unknown
    (o,) = [x for x in scanned({"tts.py": 'from orpheus_tts import OrpheusModel\nm = OrpheusModel(model_name="org/x", dtype="half")\n'})
            if x.file == "tts.py"]
    assert o.model.value == "org/x" and o.model.key == "model_name" and values(o) == {"dtype": "half"}


def test_a_fix_adds_the_keyword_to_the_forwarder_call(cli, write_project):
    root = write_project({"tts.py": 'from orpheus_tts import OrpheusModel\nm = OrpheusModel(model_name="org/x")\n',
                          "requirements.txt": "vllm==0.7.3\n"})
    cli("audit", str(root), "--gpu", "T4", "--fix")
    assert 'OrpheusModel(model_name="org/x", dtype="half")' in (root / "tts.py").read_text()


# https://github.com/LMCache/lmcache-vllm/issues/29 — the drop-in package re-exports vllm
def test_a_module_that_reexports_vllm_binds_its_names(scanned):
    sites = scanned({"a.py": 'from lmcache_vllm import vllm\nllm = vllm.LLM(model="org/a", tensor_parallel_size=2)\n',
                     "b.py": 'import lmcache_vllm.vllm as v\nllm = v.LLM(model="org/b")\n',
                     "c.py": 'from lmcache_vllm.vllm import LLM\nllm = LLM(model="org/c")\n',
                     "d.py": 'from other_pkg import vllm\nllm = vllm.LLM(model="org/d")\n'})
    assert [(s.file, s.model.value) for s in sites] == [("a.py", "org/a"), ("b.py", "org/b"), ("c.py", "org/c")]


# Unsloth builds vLLM only through `FastLanguageModel.from_pretrained(..., fast_inference=True)`
# (unsloth/models/llama.py → unsloth_zoo/vllm_utils.py load_vllm); its own names become the engine's
_UNSLOTH = ('from unsloth import FastLanguageModel\nm, t = FastLanguageModel.from_pretrained(model_name="org/m", '
            'max_seq_length=4096, {extra}max_lora_rank=32, gpu_memory_utilization=0.6)\n')


def test_unsloth_fast_inference_is_an_llm_site_in_vllms_names(scanned):
    (s,) = scanned({"train.py": _UNSLOTH.format(extra="fast_inference=True, float8_kv_cache=True, ")})
    assert s.kind == "LLM()" and s.mode == "rlhf_colocate" and s.model.value == "org/m" and not s.unknown
    v = values(s)
    assert v["max_model_len"] == 4096 and s.settings["max_model_len"].key == "max_seq_length"
    assert v["gpu_memory_utilization"] == 0.6 and v["max_lora_rank"] == 32 and v["enable_lora"] is True
    # load_in_4bit defaults to True: bitsandbytes; float8_kv_cache=True: an fp8 KV cache — derived, never edited as such
    assert v["quantization"] == "bitsandbytes" and v["kv_cache_dtype"] == "fp8" and s.settings["kv_cache_dtype"].implied
    # the dtype and the batch sizes are unsloth's own choice at run time: unknown, not vLLM's defaults
    assert {"dtype", "max_num_seqs", "max_num_batched_tokens"} <= s.unresolved and not s.opaque


def test_unsloth_without_fast_inference_is_no_site(scanned):
    for extra in ("", "fast_inference=False, ", "fast_inference=flag, "):
        assert scanned({"train.py": _UNSLOTH.format(extra=extra)}) == []
    text = 'from unsloth import FastModel\nFastModel(model_name="org/m", fast_inference=True)\nFastModel.from_config(fast_inference=True)\n'
    assert scanned({"train.py": text}) == []
    (s,) = scanned({"t.py": 'from unsloth import FastVisionModel as F\nF.from_pretrained("org/v", 2048, None, False, fast_inference=True)\n'})
    assert s.model.value == "org/v" and values(s)["max_model_len"] == 2048 and "quantization" not in s.settings


def test_a_fix_writes_unsloths_own_keyword(cli, write_project):
    config = ('{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048, "intermediate_size": 5632, '
              '"num_attention_heads": 32, "num_key_value_heads": 4, "num_hidden_layers": 22, "max_position_embeddings": 1024, '
              '"vocab_size": 32000, "torch_dtype": "bfloat16"}')
    root = write_project({"train.py": 'from unsloth import FastLanguageModel\nm, t = FastLanguageModel.from_pretrained('
                                      'model_name="./ckpt", fast_inference=True)\n',
                          "ckpt/config.json": config, "requirements.txt": "vllm==0.8.2\n"})
    cli("audit", str(root), "--gpu", "A100-80GB", "--fix")  # unsloth's default max_seq_length 2048 > the model's 1024
    assert 'from_pretrained(model_name="./ckpt", fast_inference=True, max_seq_length=1024)' in (root / "train.py").read_text()


def test_unsloths_4bit_default_is_not_judged_against_the_named_checkpoints_method(cli, write_project):
    # unsloth issue 4541 (vLLM 0.18.0): `from_pretrained(model_name="unsloth/gpt-oss-20b", load_in_4bit=True,
    # fast_inference=True)` started loading; Unsloth swapped in its bnb-4bit variant of the mxfp4 model
    # (models/loader.py get_model_name), so the "quantization method does not match" P0 was a false cause
    quant = ('{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048, "intermediate_size": 5632, '
             '"num_attention_heads": 32, "num_key_value_heads": 4, "num_hidden_layers": 22, "max_position_embeddings": 4096, '
             '"vocab_size": 32000, "torch_dtype": "bfloat16", "quantization_config": {"quant_method": "fp8"}}')
    files = {"ckpt/config.json": quant, "requirements.txt": "vllm==0.18.0\n"}
    root = write_project({**files, "train.py": 'from unsloth import FastLanguageModel\nm, t = FastLanguageModel.from_pretrained('
                                               'model_name="./ckpt", load_in_4bit=True, fast_inference=True)\n'})
    assert "L9" not in {r["check"] for site in json.loads(cli("audit", str(root), "--format", "json")[1])["sites"] for r in site["recommendations"]}
    # the same argument written to vLLM itself is still compared with the checkpoint
    root = write_project({**files, "run.py": 'from vllm import LLM\nLLM(model="./ckpt", quantization="bitsandbytes")\n'})
    assert "L9" in {r["check"] for site in json.loads(cli("audit", str(root), "--format", "json")[1])["sites"] for r in site["recommendations"]}


def test_unsloths_gpu_dtype_sizes_the_memory_estimate(tmp_path):
    # unsloth picks float16 below compute capability 8.0 and bfloat16 from it: 16-bit weights either
    # way, so the estimate runs (a 7B model in 16 bits does not fit a T4 at 0.9) while the dtype
    # checks still read the dtype as unknown
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.8.2\n")
    (tmp_path / "train.py").write_text('from unsloth import FastLanguageModel\nm, t = FastLanguageModel.from_pretrained('
                                       'model_name="Qwen/Qwen2.5-7B-Instruct", max_seq_length=4096, load_in_4bit=False, '
                                       'fast_inference=True, gpu_memory_utilization=0.9)\n')
    (sr,) = audit(tmp_path, gpu="T4").sites
    assert sr.facts["memory"]["weights_per_gpu_gib"] > 14
    assert "dtype" not in sr.facts["engine"]
    got = {r.check.id: r for r in sr.results}
    assert (got["L16"].status, got["L16"].priority) == ("recommended", "P0")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert sr.facts["memory"]["weights_per_gpu_gib"] > 14 and got["L4"].status != "recommended"


# https://github.com/BerriAI/litellm/issues/6121 — LiteLLM's in-process `vllm/` provider builds
# `LLM(model=<id>)` inside litellm.completion; the other providers (hosted_vllm/ included) call servers
def test_a_module_function_with_a_provider_prefix_is_an_llm_site(scanned):
    (s,) = scanned({"run.py": 'import litellm\nr = litellm.completion(model="vllm/org/m", messages=[], temperature=0.2)\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m" and values(s) == {} and not s.unknown
    (f,) = scanned({"run.py": 'from litellm import acompletion\nr = acompletion("vllm/org/m", [])\n'})
    assert f.model.value == "org/m"


def test_other_providers_and_unread_models_are_no_site(scanned):
    text = ('import litellm\nimport os\nlitellm.completion(model="gpt-4o", messages=[])\n'
            'litellm.completion(model="hosted_vllm/org/m", messages=[])\nlitellm.completion(model=os.environ["M"], messages=[])\n'
            'from other import completion\ncompletion(model="vllm/org/m")\n')
    assert scanned({"run.py": text}) == []
    # dstack's scripts/release_notes.py: the function imported by name, a Bedrock model from the environment
    text = ('import os\nfrom litellm import completion\nMODEL = os.getenv("LLM_MODEL", "bedrock/us.anthropic.claude")\n'
            'r = completion(model=MODEL, messages=[{"role": "user", "content": "hi"}])\n'
            'r = completion(model="gpt-4o", messages=[])\n')
    assert scanned({"run.py": text}) == []


def test_distilabels_vllm_spreads_its_extra_kwargs(scanned):
    (s,) = scanned({"gen.py": 'from distilabel.models import vLLM\nllm = vLLM(model="org/m", dtype="half", chat_template="t",\n'
                              '    extra_kwargs={"tensor_parallel_size": 2, "max_model_len": 4096})\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m"
    assert values(s) == {"dtype": "half", "tensor_parallel_size": 2, "max_model_len": 4096} and not s.unknown
    assert [o["code"] for o in s.opaque] == ["wrapper-arg"]  # its chat template
    (old,) = scanned({"gen.py": 'from distilabel.llms import vLLM\nllm = vLLM(model="org/m", model_kwargs={"dtype": "float16"})\n'})
    assert values(old) == {"dtype": "float16"}


def test_lm_evals_vllm_class_renames_its_own_keywords(scanned):
    (s,) = scanned({"ev.py": 'from lm_eval.models.vllm_causallms import VLLM\nlm = VLLM("org/m", "float16", tensor_parallel_size=2,\n'
                             '    max_length=2048, batch_size="auto", gpu_memory_utilization=0.8)\n'})
    assert s.model.value == "org/m" and values(s) == {"dtype": "float16", "tensor_parallel_size": 2, "max_model_len": 2048,
                                                      "gpu_memory_utilization": 0.8}
    assert s.settings["max_model_len"].key == "max_length"


def test_lightevals_config_carries_its_bfloat16_default(scanned):
    (s,) = scanned({"ev.py": 'from lighteval.models.vllm.vllm_model import VLLMModelConfig\n'
                             'cfg = VLLMModelConfig(model_name="org/m", max_model_length=4096, data_parallel_size=2)\n'})
    assert s.model.value == "org/m" and values(s) == {"max_model_len": 4096, "dtype": "bfloat16", "max_num_seqs": 128,
                                                      "max_num_batched_tokens": 2048}
    assert "default of VLLMModelConfig" in s.settings["dtype"].note and s.settings["dtype"].key == "dtype"
    # 0.8.x spelled the model `pretrained` and had no dtype of its own
    (old,) = scanned({"ev.py": 'from lighteval.models.vllm.vllm_model import VLLMModelConfig\n'
                               'cfg = VLLMModelConfig(pretrained="org/m")\n'})
    assert old.model.value == "org/m" and values(old) == {}


def test_curator_builds_vllm_only_with_its_vllm_backend(scanned):
    (s,) = scanned({"gen.py": 'from bespokelabs import curator\nllm = curator.LLM(model_name="org/m", backend="vllm",\n'
                              '    backend_params={"max_model_length": 8192, "tensor_parallel_size": 2, "max_tokens": 512})\n'})
    assert s.model.value == "org/m" and values(s) == {"max_model_len": 8192, "tensor_parallel_size": 2, "max_num_seqs": 256,
                                                      "gpu_memory_utilization": 0.95, "trust_remote_code": True}
    assert s.settings["max_model_len"].key == "max_model_length" and s.settings["gpu_memory_utilization"].implied
    assert [o["what"] for o in s.opaque] == ["backend_params['max_tokens']"]
    assert scanned({"gen.py": 'from bespokelabs import curator\nllm = curator.LLM(model_name="gpt-4o-mini")\n'}) == []
    assert scanned({"gen.py": 'from bespokelabs.curator import LLM\nllm = LLM(model_name="org/m", backend="litellm")\n'}) == []
    (d,) = scanned({"gen.py": 'from bespokelabs.curator import LLM\nllm = LLM("org/m", backend="vllm", backend_params=params)\n'})
    assert d.model.value == "org/m" and [o["what"] for o in d.opaque] == ["backend_params=…"]


def test_a_fix_writes_lightevals_own_keywords(cli, write_project):
    root = write_project({"ev.py": 'from lighteval.models.vllm.vllm_model import VLLMModelConfig\n'
                                   'cfg = VLLMModelConfig(model_name="meta-llama/Llama-3.2-1B-Instruct")\n',
                          "requirements.txt": "vllm==0.10.1.1\n"})
    cli("audit", str(root), "--gpu", "T4", "--fix")
    assert 'VLLMModelConfig(model_name="meta-llama/Llama-3.2-1B-Instruct", dtype="half"' in (root / "ev.py").read_text()


def test_lightevals_defaults_start_on_an_ampere_gpu(cli, write_project):
    root = write_project({"ev.py": 'from lighteval.models.vllm.vllm_model import VLLMModelConfig\n'
                                   'cfg = VLLMModelConfig(model_name="meta-llama/Llama-3.2-1B-Instruct", max_model_length=8192)\n',
                          "requirements.txt": "vllm==0.10.1.1\n"})
    _, text, _ = cli("audit", str(root), "--gpu", "A100-80GB", "--format", "json")
    out = json.loads(text)
    assert not [c["id"] for s in out["sites"] for c in s["checks"] if c["priority"] == "P0"]


def test_distilabel_0x_wraps_the_engine_its_caller_built(scanned):
    (s,) = scanned({"gen.py": 'from vllm import LLM\nfrom distilabel.llm import vLLM\n'
                              'llm = vLLM(model=LLM(model="org/m"), task=task)\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m" and s.line == 3


# https://docs.bespokelabs.ai/curator/guides/vllm — the documented form subclasses curator.LLM
def test_a_subclass_of_a_forwarder_takes_its_parameters(scanned):
    (s,) = scanned({"gen.py": 'from bespokelabs import curator\n\nclass RecipeGenerator(curator.LLM):\n'
                              '    def prompt(self, input):\n        return input["cuisine"]\n\n'
                              'gen = RecipeGenerator(model_name="Qwen/Qwen2.5-3B-Instruct", backend="vllm",\n'
                              '    backend_params={"tensor_parallel_size": 1, "gpu_memory_utilization": 0.7})\n'})
    assert s.line == 7 and s.model.value == "Qwen/Qwen2.5-3B-Instruct"
    assert values(s)["gpu_memory_utilization"] == 0.7 and values(s)["max_model_len"] == 4096
    text = ('from bespokelabs import curator\n\nclass Own(curator.LLM):\n    def __init__(self, path):\n'
            '        super().__init__(model_name=path, backend="vllm")\n\nOwn("org/m")\n')
    assert scanned({"gen.py": text}) == []


def test_outlines_vllm_function_hands_its_keywords_to_the_engine(scanned):
    (s,) = scanned({"gen.py": 'import outlines\nmodel = outlines.models.vllm("org/m", dtype="half", max_model_len=2048)\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m" and values(s) == {"dtype": "half", "max_model_len": 2048}
    (m,) = scanned({"gen.py": 'from outlines import models\nmodel = models.vllm(model_name="org/m", tensor_parallel_size=2)\n'})
    assert m.model.value == "org/m" and values(m) == {"tensor_parallel_size": 2}
    (f,) = scanned({"gen.py": 'from outlines.models import vllm\nmodel = vllm("org/m", enforce_eager=True)\n'})
    assert f.model.value == "org/m" and values(f) == {"enforce_eager": True}
    # outlines 1.x takes an engine the caller builds: that LLM() is the site
    (o,) = scanned({"gen.py": 'import outlines\nfrom vllm import LLM\nmodel = outlines.from_vllm_offline(LLM("org/m"))\n'})
    assert o.model.value == "org/m"
