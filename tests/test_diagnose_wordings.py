"""Start-up failure wordings `diagnose --error` recognises (knowledge/checks/L.yaml error_text), and
vLLM wordings no check covers, named as such instead of routed to the nearest check by keywords."""
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.kb.knowledge import load

KB = load()


def _first(text, version=None):
    hits = launch.recognise(KB, text, version)
    return (hits[0].id, hits[0].kind) if hits else None


def test_flash_attention_without_a_version_is_the_attention_backend_check():
    # FlashAttention forced on a GPU it does not support (vllm_flash_attn, fa_version None)
    assert _first("ValueError: Unsupported FA version: None", "0.10.0") == ("L13", "check")


def test_flex_attention_refusing_a_sliding_window_model_is_the_attention_backend_check():
    # V1 on a Turing GPU falls back to FlexAttention, which 0.9.1-0.10.2 refuse for Gemma 2 / Mistral windows
    log = "(EngineCore_0 pid=812) NotImplementedError: FlexAttention does not support sliding window yet."
    assert _first(log, "0.10.1") == ("L13", "check")


def test_no_model_module_is_the_model_architecture_check():
    log = ("ValueError: Cannot find model module. 'Glm4vMoeForConditionalGeneration' is not a registered model in the "
           "Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not "
           "present in the model config's 'auto_map' (relevant if the model is custom).")
    assert _first(log, "0.9.2") == ("L21", "check")


def test_kv_heads_divide_assert_is_the_kv_heads_check():
    assert _first("AssertionError: 8 is not divisible by 16", "0.10.0")[0] in ("L2",)


def test_a_plugin_flag_argparse_refuses_is_an_unrecognized_argument():
    # vllm-omni #4508: `--stage-0-devices` is no flag of vllm-omni either
    assert _first("vllm: error: unrecognized arguments: --stage-0-devices 0 --stage-1-devices 0") == ("not-in-version", "finding")


def test_a_wording_no_check_covers_is_said_so_not_routed_to_the_nearest():
    # 0.5.4-0.6.1 print it and go on in eager mode: keywords would route it to the BitsAndBytes check
    hits = launch.recognise(KB, "WARNING config.py:424 CUDA graph is not supported on BitAndBytes yet, fallback to the eager mode.")
    assert [(h.id, h.kind) for h in hits] == [("uncovered", "uncovered")]
    hits = launch.recognise(KB, "ValueError: sliding_window must be set for sliding window attention")
    assert [(h.id, h.kind) for h in hits] == [("uncovered", "uncovered")]


def test_the_cli_says_no_check_covers_it(cli):
    code, out, _ = cli("diagnose", "--error", "ValueError: sliding_window must be set for sliding window attention", "--gpu", "H100-80GB x1")
    assert "no launch check covers it" in out


def test_a_message_quoted_from_its_second_sentence_is_still_its_check():
    # people quote the sentence that tells them what to do: vLLM 0.6.2-0.7.3 and 0.8+ spell it apart
    assert _first("You can use float16 instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half.") == ("L4", "check")
    assert _first("ValueError: ... You can use float16 instead by explicitly setting the `dtype` flag in CLI, "
                  "for example: --dtype=half.", "0.8.5") == ("L4", "check")
    # and from its last one (L21's "Please use an older version …" follows the architecture's name)
    assert _first("Please use an older version of vLLM if you want to use this model architecture.")[0] == "L21"


def test_a_short_generic_later_sentence_names_no_check():
    from vllm_kb.engine.kb import error_text
    # pydantic's bound sentence, printed for any field with that bound: too short to name L18 alone
    assert not [m for m in error_text.match(KB, "Input should be less than or equal to 1") if m.check_id == "L18"]
    # a later sentence two checks both print names neither
    class Check:
        def __init__(self, cid, text):
            self.id, self.error_text = cid, ({"text": text},)

    class Pool:
        checks = [Check("X1", "Cache blocks ran out. Please check the logs above for more details and retry."),
                  Check("X2", "The tokenizer of this model failed to load from its folder. Please check the logs above for more details and retry.")]

    assert error_text.match(Pool(), "Please check the logs above for more details and retry.") == []
    assert [m.check_id for m in error_text.match(Pool(), "The tokenizer of this model failed to load from its folder.")] == ["X2"]


def test_v1_forced_with_a_backend_outside_the_v1_list_is_the_attention_backend_check():
    # vLLM #15853 (T4): EngineArgs refuses the combination in 0.8.0-0.11.0
    log = "NotImplementedError: VLLM_USE_V1=1 is not supported with VLLM_ATTENTION_BACKEND=XFORMERS."
    assert _first(log, "0.8.5") == ("L13", "check")


def test_a_wording_quoted_without_its_full_stop_still_matches():
    # an issue title or a pasted line drops the closing period; the generic NVFP4 words stay a candidate
    assert _first("No NvFp4 MoE backend supports the deployment configuration", "0.16.0") == ("L156", "shared")
    assert _first("Total number of attention heads (40) must be divisible by tensor parallel size (6)") == ("L1", "check")


def test_layer_type_validation_arguments_are_the_transformers_check():
    # vLLM 0.17-0.23's own qwen3_5 config passes two arguments; transformers 4.53-4.56 takes one
    log = "TypeError: layer_type_validation() takes 1 positional argument but 2 were given"
    assert _first(log, "0.17.1") == ("L125", "check")


def test_a_wording_copied_without_its_code_marks_or_its_value_is_still_recognised():
    # transformers < 4.43 refusing Llama 3.1's rope_scaling: quoted in an issue title cut before the value
    # (StartHua/Comfyui_CXH_joy_caption#35), and pasted from a rendered page, where `rope_scaling` lost its backticks
    title = "`rope_scaling` must be a dictionary with with two fields, `type` and `factor`, got {'factor': 8.0, 'rope_type"
    assert _first(title, "0.5.0") == ("L91", "check")
    assert _first("ValueError: rope_scaling must be a dictionary with two fields, type and factor", "0.4.2") == ("L91", "check")
