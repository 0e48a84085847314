"""Loader bugs of some releases (tools/vllm_release_bugs.py → knowledge/vllm/release_bugs.yaml), the
facts read from the table (engine/check/startup_release_bugs.py) and L133 on an audited project."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_release_bugs import BUGS, build, scan  # noqa: E402

from vllm_kb.engine.audit import audit  # noqa: E402
from vllm_kb.engine.check.startup_release_bugs import model_bug_facts, release_bug_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realcases_score as rs  # noqa: E402

_BEFORE = '''
    class DefaultModelLoader:
        def _prepare_weights(self, name):
            return glob.glob(os.path.join(name, "*.safetensors"))
'''
_AFTER = '''
    class DefaultModelLoader:
        def _prepare_weights(self, name):
            files = glob.glob(os.path.join(name, "*.safetensors"))
            return filter_duplicate_safetensors_files(files, name)
'''
_ML = "vllm/model_executor/model_loader/loader.py"


def test_scan_tells_affected_from_fixed(tmp_path):
    bug = next(b for b in BUGS if b["id"] == "consolidated-default")
    assert scan(write_release(tmp_path / "a", {_ML: _BEFORE}), bug)[0] == "affected"
    assert scan(write_release(tmp_path / "b", {_ML: _AFTER}), bug)[0] == "fixed"
    assert scan(write_release(tmp_path / "c", {"vllm/other.py": "x = 1\n"}), bug) is None


def test_build_spans_and_first_fix(tmp_path):
    src = tmp_path / "src"
    for v, text in (("0.4.1", _BEFORE), ("0.4.2", _BEFORE), ("0.4.3", _AFTER), ("0.5.0", _AFTER)):
        write_release(src / v, {_ML: text})
    row = next(b for b in build([src])["bugs"] if b["id"] == "consolidated-default")
    assert row["affected"] == [["0.4.1", "0.4.2"]] and row["fixed"] == "0.4.3"
    assert [e["release"] for e in row["evidence"]] == ["0.4.2", "0.4.3"]


def _table():
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("name,engine,version,expected", [
    ("mistralai/Mistral-7B-Instruct-v0.3", {}, "0.4.2", ("consolidated-default", True)),
    ("/models/Mistral-7B-Instruct-v0.3", {}, "0.4.2", ("consolidated-default", False)),
    ("mistralai/Mistral-7B-Instruct-v0.3", {}, "0.4.3", None),
    ("mistralai/Mistral-7B-Instruct-v0.2", {}, "0.4.2", None),
    ("mistralai/Ministral-8B-Instruct-2410", {"quantization": "bitsandbytes"}, "0.6.3", ("consolidated-bnb", True)),
    ("mistralai/Ministral-8B-Instruct-2410", {"quantization": "bitsandbytes"}, "0.8.1", None),
    ("mistralai/Ministral-8B-Instruct-2410", {}, "0.6.3", None),
    ("mistralai/Mistral-7B-Instruct-v0.3", {"load_format": "mistral"}, "0.4.2", None),
])
def test_facts(name, engine, version, expected):
    f = release_bug_facts({"name": name}, engine, _table(), version)
    assert ((f["release_bug"], f["release_bug_certain"]) if f else None) == expected


@pytest.mark.parametrize("pin,launch,fixed", [
    ("0.4.2", "python -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-v0.3", "0.4.3"),
    ("0.8.4", "vllm serve THUDM/GLM-4-9B-0414 --max-model-len 8192", "0.8.5"),  # a model class (model_bugs)
])
def test_l133_pins_the_fixed_release(tmp_path, pin, launch, fixed):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(launch + "\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L133")
    assert r.status == "recommended" and r.priority == "P0", r.reason_text("en")
    assert [(op.kind, op.target, v) for op, v in r.fix] == [("pin", "vllm", ">=" + fixed)]


_GLM4 = "vllm/model_executor/models/glm4.py"
_GLM4_BROKEN = '''
    class Glm4DecoderLayer:
        def forward(self, positions, hidden_states, residual):
            hidden_states = self.post_self_attn_layernorm(hidden_states)
            hidden_states = self.post_attention_layernorm(hidden_states, residual)
            return self.mlp(hidden_states), residual
'''
_GLM4_FIXED = '''
    class Glm4DecoderLayer:
        def forward(self, positions, hidden_states, residual):
            hidden_states = self.post_self_attn_layernorm(hidden_states)
            hidden_states, residual = self.post_attention_layernorm(
                hidden_states, residual)
            return self.mlp(hidden_states), residual
'''


@pytest.mark.parametrize("arch,engine,version,expected", [
    ("Glm4ForCausalLM", {}, "0.8.4", "0.8.5"),
    ("Glm4ForCausalLM", {}, "0.8.5", None),
    ("Glm4ForCausalLM", {"model_impl": "transformers"}, "0.8.4", None),  # the Transformers backend's class
    ("ChatGLMModel", {}, "0.8.4", None),  # GLM-4-9B-chat: another class
])
def test_model_bug_facts(arch, engine, version, expected):
    f = model_bug_facts(arch, engine, _table(), version)
    assert f.get("release_bug_fixed") == expected



_QWEN = "vllm/model_executor/models/qwen.py"
_QWEN_071 = '''
    class QWenVLProcessor:
        def __init__(self, config, tokenizer):
            special_tokens = tokenizer.special_tokens
            self.img_start_id = special_tokens[IMG_START]
'''
_QWEN_073 = '''
    class QWenLMHeadModel:
        def __init__(self, *, vllm_config, prefix=""):
            if hasattr(vllm_config.model_config.hf_config, "visual"):
                hf_overrides = {"architectures": ["QwenVLForConditionalGeneration"]}
                raise RuntimeError(f"{hf_overrides!r}")
'''


@pytest.mark.parametrize("releases,bug,expected", [
    # GLM-4-0414's class broken in one release
    ((("0.8.3", {"vllm/other.py": "x = 1\n"}), ("0.8.4", {_GLM4: _GLM4_BROKEN}), ("0.8.5", {_GLM4: _GLM4_FIXED})),
     "glm4-0414-post-attention-norm", {"arch": "Glm4ForCausalLM", "affected": [["0.8.4", "0.8.4"]], "fixed": "0.8.5"}),
    # the Qwen-VL processor that 0.7.1-0.7.2 build for the text Qwen too
    ((("0.7.0", {_QWEN: "class QWenLMHeadModel:\n    pass\n"}), ("0.7.1", {_QWEN: _QWEN_071}), ("0.7.2", {_QWEN: _QWEN_071}),
      ("0.7.3", {_QWEN: _QWEN_073})),
     "qwen1-text-vl-processor", {"config_lacks": "visual", "affected": [["0.7.1", "0.7.2"]], "fixed": "0.7.3"}),
    # the text class's refusal of a `visual` config, from 0.7.3 until the class leaves (no fixed release)
    ((("0.7.2", {_QWEN: _QWEN_071}), ("0.7.3", {_QWEN: _QWEN_073}), ("0.8.0", {_QWEN: _QWEN_073}),
      ("0.24.0", {"vllm/model_executor/models/qwen2.py": "class Qwen2ForCausalLM:\n    pass\n"})),
     "qwen-vl-text-class", {"config_has": "visual", "affected": [["0.7.3", "0.8.0"]], "fixed": None}),
])
def test_build_reads_a_model_class_broken_in_some_releases(tmp_path, releases, bug, expected):
    for v, files in releases:
        write_release(tmp_path / "src" / v, files)
    row = next(b for b in build([tmp_path / "src"])["model_bugs"] if b["id"] == bug)
    assert {k: row[k] for k in expected} == expected


@pytest.mark.parametrize("multimodal,version,expected", [
    (False, "0.7.2", "0.7.3"),  # Qwen-7B-Chat: the tokenizer has no <img> (xinference #2950)
    (False, "0.7.1", "0.7.3"),
    (True, "0.7.1", None),  # Qwen-VL shares the class; its tokenizer has the image tokens
    (None, "0.7.1", None),  # unknown: not a certain text checkpoint
    (False, "0.7.0", None),
    (False, "0.7.3", None),
])
def test_qwen1_text_only(multimodal, version, expected):
    f = model_bug_facts("QWenLMHeadModel", {}, _table(), version, {"multimodal": multimodal})
    assert f.get("release_bug_fixed") == expected


_VL_CONFIG = ('{"architectures": ["QWenLMHeadModel"], "model_type": "qwen", "hidden_size": 4096, "num_hidden_layers": 32,'
              ' "num_attention_heads": 32, "intermediate_size": 22016, "vocab_size": 151936, "seq_length": 2048,'
              ' %s}')


@pytest.mark.parametrize("multimodal,engine,version,hit", [
    (True, {}, "0.7.3", True),  # Qwen-VL: QWenLMHeadModel refuses the `visual` config
    (True, {}, "0.23.0", True),
    (True, {"hf_overrides": {"architectures": ["QwenVLForConditionalGeneration"]}}, "0.7.3", False),
    (True, {"hf_overrides": '{"architectures": ["QwenVLForConditionalGeneration"]}'}, "0.8.0", False),
    (True, {"hf_overrides": "not json"}, "0.8.0", False),  # unreadable: may name the class
    (True, {}, "0.7.2", False),  # the class still builds the processor then
    (True, {}, "0.24.0", False),  # QWenLMHeadModel is gone (another check)
    (False, {}, "0.7.3", False),  # a text Qwen starts
    (None, {}, "0.7.3", False),
])
def test_qwen_vl_needs_overrides(multimodal, engine, version, hit):
    f = model_bug_facts("QWenLMHeadModel", engine, _table(), version, {"multimodal": multimodal})
    assert (f.get("release_bug") == "qwen-vl-text-class") is hit
    assert "release_bug_fixed" not in f


@pytest.mark.parametrize("pin,launch,visual,p0", [
    # 0.7.1-0.7.2: the text model meets the Qwen-VL processor
    ("0.7.2", "vllm serve Qwen/Qwen-7B-Chat --trust-remote-code", None, True),
    ("0.7.2", "vllm serve Qwen/Qwen-VL-Chat --trust-remote-code", None, False),  # control: the vision model starts
    ("0.7.2", "vllm serve ./models/qwen --trust-remote-code", False, True),  # a local copy: its config.json decides
    ("0.7.2", "vllm serve ./models/qwen --trust-remote-code", True, False),
    # 0.7.3 on: the text class refuses the vision model
    ("0.8.0", "vllm serve Qwen/Qwen-VL-Chat --trust-remote-code", None, True),
    ("0.8.0", "vllm serve Qwen/Qwen-VL-Chat --trust-remote-code --hf-overrides '{\"architectures\": [\"QwenVLForConditionalGeneration\"]}'",
     None, False),  # control: the launch the error asks for
    ("0.8.0", "vllm serve Qwen/Qwen-7B-Chat --trust-remote-code", None, False),
    ("0.8.0", "vllm serve ./models/qwen --trust-remote-code", True, True),  # a local copy: its config.json decides
    ("0.8.0", "vllm serve ./models/qwen --trust-remote-code", False, False),
])
def test_l133_qwen1_on_an_audited_project(tmp_path, pin, launch, visual, p0):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(launch + "\n")
    if visual is not None:
        extra = '"visual": {"image_size": 448, "layers": 48, "width": 1664}' if visual else '"rotary_pct": 1.0'
        (tmp_path / "models" / "qwen").mkdir(parents=True)
        (tmp_path / "models" / "qwen" / "config.json").write_text(_VL_CONFIG % extra)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L133")
    assert (r.status == "recommended" and r.priority == "P0") is p0, r.reason_text("en")


_RERANKER = '{"architectures": ["Qwen3ForSequenceClassification"], "classifier_from_token": ["no", "yes"], "is_original_qwen3_reranker": true}'


@pytest.mark.parametrize("engine,version,hit", [
    ({"hf_overrides": _RERANKER, "tensor_parallel_size": 2}, "0.9.2", True),
    ({"hf_overrides": {"method": "from_2_way_softmax", "architectures": ["Qwen2ForSequenceClassification"]},
      "tensor_parallel_size": 4}, "0.9.2", True),  # mxbai-rerank-v2's override
    ({"hf_overrides": _RERANKER, "tensor_parallel_size": 1}, "0.9.2", False),  # one GPU: the copy fits (control of gpustack#2490)
    ({"hf_overrides": _RERANKER}, "0.9.2", False),
    ({"hf_overrides": _RERANKER, "tensor_parallel_size": 2}, "0.10.0", False),  # the weight loader shards it
    ({"tensor_parallel_size": 2}, "0.9.2", False),  # no two-way-softmax head asked for
    # the keys act on a sequence-classification class only: without `architectures` the original
    # reranker's config.json builds Qwen3ForCausalLM, whose loader reads neither key
    ({"hf_overrides": {"classifier_from_token": ["no", "yes"], "is_original_qwen3_reranker": True},
      "tensor_parallel_size": 2}, "0.9.2", False),
    ({"hf_overrides": {"method": "from_2_way_softmax", "classifier_from_token": ["no", "yes"]},
      "tensor_parallel_size": 2}, "0.9.2", False),
    # is_original_qwen3_reranker is read by Qwen3ForSequenceClassification's config hook alone
    ({"hf_overrides": {"architectures": ["Qwen2ForSequenceClassification"], "is_original_qwen3_reranker": True},
      "tensor_parallel_size": 2}, "0.9.2", False),
    ({"hf_overrides": _RERANKER, "tensor_parallel_size": 2, "model_impl": "transformers"}, "0.9.2", False),
])
def test_two_way_softmax_reranker_under_tp_on_092(engine, version, hit):
    f = model_bug_facts(None, engine, _table(), version)  # whatever class config.json names, or none known
    assert (f.get("release_bug") == "seq-cls-2way-softmax-tp") == hit
    if hit:
        assert f["release_bug_fixed"] == "0.10.0" and f["release_bug_arch"].endswith("ForSequenceClassification")


def test_two_way_softmax_override_without_architectures_takes_the_config_class():
    """A checkpoint whose own config.json names the classifier (a converted reranker) needs no `architectures`."""
    engine = {"hf_overrides": {"method": "from_2_way_softmax", "classifier_from_token": ["no", "yes"]}, "tensor_parallel_size": 2}
    f = model_bug_facts("Qwen2ForSequenceClassification", engine, _table(), "0.9.2")
    assert f.get("release_bug") == "seq-cls-2way-softmax-tp" and f["release_bug_arch"] == "Qwen2ForSequenceClassification"
    assert not model_bug_facts("Qwen2ForCausalLM", engine, _table(), "0.9.2")


def _before(arch, version, passed, registered):
    from vllm_kb.engine.check.startup_release_bugs import release_before_bug
    from vllm_kb.engine.kb.catalog import load as catalog

    bug = model_bug_facts(arch, {}, load().doc("vllm", "release_bugs.yaml").data, version, {"quant_ignore_unfused": ["visual.gate_up_proj"]})
    return release_before_bug(bug, load().doc("vllm", "release_bugs.yaml").data, {"registered": registered}, version, passed, catalog())


@pytest.mark.parametrize("arch,version,passed,registered,expected", [
    # vllm#30969 went back to 0.11.0, vllm#23320 to 0.10.0: the release before the span, which has the class
    ("Qwen2_5_VLForConditionalGeneration", "0.10.1", {"max_model_len": 8192}, {"Qwen2_5_VLForConditionalGeneration": [["0.7.2", "0.34.0"]]}, "0.10.0"),
    # a class that arrived with the broken release: nothing older to go back to
    ("Qwen2_5_VLForConditionalGeneration", "0.10.1", {}, {"Qwen2_5_VLForConditionalGeneration": [["0.10.1", "0.34.0"]]}, None),
    # an option the older release does not have would stop its argparse instead
    ("Qwen2_5_VLForConditionalGeneration", "0.10.1", {"mm_processor_cache_gb": 0}, {"Qwen2_5_VLForConditionalGeneration": [["0.7.2", "0.34.0"]]}, None),
])
def test_release_before_a_model_class_regression(arch, version, passed, registered, expected):
    got = _before(arch, version, passed, registered)
    assert got.get("release_bug_before") == expected, got


def test_l133_proposes_the_release_before_the_regression_beside_the_fixed_one(tmp_path):
    # vllm#23320: a W4A16 Qwen2.5-VL whose ignore list names the vision MLP's shards, on 0.10.1; the
    # reporter went back to 0.10.0, the fix came with 0.10.2
    out = rs.run(Path(__file__).resolve().parent / "realcases" / "release-loader-bug--vllm-23320")
    assert out.predicted and out.fix
    (sr,) = audit(Path(__file__).resolve().parent / "realcases" / "release-loader-bug--vllm-23320", gpu="A100-80GB",
                  exclude=lambda rel: rel == "case.yaml").sites
    pins = sorted((c.value, c.blocked) for c in sr.changes if c.op == "pin" and c.target == "vllm")
    assert pins == [("==0.10.0", "alternative"), (">=0.10.2", None)]


_INTERNLM2 = ('{"architectures": ["InternLM2ForCausalLM"], "model_type": "internlm2", "hidden_size": 4096,'
              ' "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,'
              ' "vocab_size": 92544, "max_position_embeddings": 32768, "torch_dtype": "bfloat16"%s}')


@pytest.mark.parametrize("quant,pin,p0", [
    # 0.3.1-0.5.4 view every wqkv tensor per head while loading: GPTQ/AWQ packed tensors do not fit
    # (xinference #2013, vLLM #7580 on 0.5.4 with ModelCloud/internlm-2.5-7b-chat-gptq-4bit)
    ("gptq", "0.5.4", True),
    ("awq", "0.4.0", True),
    ("gptq", "0.5.5", False),  # control: 0.5.5 loads wqkv whole and splits it at run time
    (None, "0.5.4", False),  # control: the 16-bit checkpoint's wqkv.weight splits per head
])
def test_l133_internlm2_packed_wqkv(tmp_path, quant, pin, p0):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "run.py").write_text('from vllm import LLM\nllm = LLM(model="./internlm2_5-7b-chat-q", trust_remote_code=True, max_model_len=2048)\n')
    qc = (', "quantization_config": {"quant_method": "%s", "bits": 4, "group_size": 128%s}'
          % (quant, ', "desc_act": true' if quant == "gptq" else ', "zero_point": true, "version": "gemm"')) if quant else ""
    (tmp_path / "internlm2_5-7b-chat-q").mkdir()
    (tmp_path / "internlm2_5-7b-chat-q" / "config.json").write_text(_INTERNLM2 % qc)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L133")
    assert (r.status == "recommended" and r.priority == "P0") is p0, r.reason_text("en")


# vLLM #33464: Qwen3-VL-Reranker with its card's hf_overrides on 0.15.0 (adapters.py:509 takes the score head
# from the VLM's inner Qwen3LLMForCausalLM); 0.15.1 looks there only where the head exists
_VL_RERANKER = {"architectures": ["Qwen3VLForSequenceClassification"], "classifier_from_token": ["no", "yes"],
                "is_original_qwen3_reranker": True}


@pytest.mark.parametrize("engine,version,hit", [
    ({"hf_overrides": _VL_RERANKER}, "0.15.0", True),
    ({"hf_overrides": _VL_RERANKER}, "0.15.1", False),
    ({"hf_overrides": _VL_RERANKER}, "0.14.1", False),  # no VLM branch in that loader
    # the text reranker's class has its head on the outer model: 0.15.0 loads it
    ({"hf_overrides": {**_VL_RERANKER, "architectures": ["Qwen3ForSequenceClassification"]}}, "0.15.0", False),
    ({}, "0.15.0", False),  # a converted checkpoint (no tokens, no method) loads through the plain loader
])
def test_qwen3_vl_reranker_score_head_on_0150(engine, version, hit):
    f = model_bug_facts("Qwen3VLForConditionalGeneration", engine, _table(), version)
    assert (f.get("release_bug") == "seq-cls-vlm-score-head") == hit
    if hit:
        assert f["release_bug_fixed"] == "0.15.1" and f["release_bug_arch"] == "Qwen3VLForSequenceClassification"
