"""The model bugs and entry-point bugs tools/vllm_release_bugs.py reads from the sources (its tables
model_bugs and entrypoint_bugs of knowledge/vllm/release_bugs.yaml).

Model bugs (`model_bugs`): a model class of some releases that fails on every launch of its
architecture, which the next release's code fixed. Each names the method that shows it, the words
of the broken line (`reads`) and of the fixed one (`fixed_by`):
  glm4-0414-post-attention-norm
                         Glm4DecoderLayer.forward (GLM-4-0414, Glm4ForCausalLM) of 0.8.4 assigns
                         the (output, residual) pair the fused post-attention RMSNorm returns to
                         hidden_states and feeds it to the MLP: the profile run stops the engine
                         (vLLM #16818, #16687); #16618 unpacks the pair (0.8.5).
  decilm-nemotron-nas-config
                         DeciLMForCausalLM.__init__ of 0.2.7-0.8.2 (decilm.py, written for DeciLM-7B)
                         takes the KV head count from config.num_key_value_heads_per_layer; NVIDIA's
                         Nemotron NAS checkpoints (Llama-3.3-Nemotron-Super-49B, -Ultra-253B, -51B) name
                         the same class with model_type nemotron-nas and describe their layers in
                         block_configs: the engine stops building the model (vLLM #15625). 0.8.3 maps the
                         class to nemotron_nas.py, which reads block_configs (`model_type`).
  qwen1-text-vl-processor
                         QWenVLProcessor.__init__ of 0.7.1-0.7.2 (QWenLMHeadModel registered as
                         multimodal) looks up the tokenizer's `<img>` token, which a text Qwen (v1)
                         tokenizer lacks: the engine stops with a KeyError while it is built
                         (xinference #2950). Qwen-VL shares the class and its tokenizer has the token,
                         so the row holds only where config.json has no `visual` (`config_lacks`);
                         0.7.3 splits Qwen-VL out and QWenLMHeadModel is text-only again.
  seq-cls-vlm-score-head
                         load_weights_using_from_2_way_softmax of 0.15.0 (adapters.py) takes the score head
                         from the inner language model of a VLM (`is_vlm`); Qwen3-VL's Qwen3LLMForCausalLM
                         has none (the adapter puts it on the outer class): Qwen3-VL-Reranker with its card's
                         hf_overrides stops loading weights (vLLM #33464). 0.15.1 uses the inner head only
                         where it exists (`using_vlm_head`).
  qwen2-5-vl-bnb-vision-qkv
                         Qwen2_5_VisionTransformer.load_weights of 0.7.2 reshapes every vision
                         qkv weight per head as it loads it; the BitsAndBytes loader hands it the
                         quantized, packed tensor, and loading asserts on the shapes (vLLM #12900,
                         `load: bitsandbytes`); 0.7.3 loads it whole and splits q/k/v at run time.
  qwen2-5-vl-vision-mlp-ignore
                         0.10.1 merges the Qwen2.5-VL vision MLP into one gate_up_proj layer, and
                         the class names no packed_modules_mapping for it: a compressed-tensors
                         ignore list that names the vision MLP's gate_proj/up_proj no longer
                         matches, so the vision MLP gets the quantized scheme (vLLM #23320,
                         `ignore_unfused`); 0.10.2 maps gate_up_proj back to its shards.
  deepseek-v2-pp-missing-layer, deepseek-v3-pp-missing-layer
                         DeepseekV2ForCausalLM.__init__ of 0.9.2 (and DeepseekV3ForCausalLM, its
                         subclass) walks self.model.layers for the MoE layers and asserts each is a
                         DeepseekV2DecoderLayer; under pipeline parallelism the layers of the other
                         stages are PPMissingLayer placeholders, so the class is never built
                         (vLLM #20647, `min_pp`); #20665 (0.10.0) skips the placeholders.
  llama4-pp-missing-layer, llama4-mm-pp-missing-layer
                         the same walk in Llama4ForCausalLM.set_moe_parameters of 0.11.1-0.11.2,
                         which __init__ calls; Llama4ForConditionalGeneration builds that class as
                         its language model. #28577 (0.12.0) skips the placeholders.
  glm4-moe-pp-missing-layer
                         the same walk in Glm4MoeForCausalLM.__init__ (GLM-4.5, GLM-4.5-Air) of 0.10.0;
                         #21531 (0.10.1) skips the placeholders.
  ct-targets-transformers-backend
                         0.11.1-0.12.0: the Transformers backend's base class (models/transformers/
                         base.py) maps names with the prefix "" -> "model.", and CompressedTensorsConfig.
                         apply_vllm_mapper maps every target with it, so "Linear" (or "re:…") matches
                         no layer and building the first linear layer raises (vLLM #30969, `backend`,
                         `quant`, `via`: the registry names vLLM serves through that backend); 0.13.0
                         maps only layer paths.
  gpt-oss-bf16-routed-experts
                         0.24.0's MoE refactor moved the expert parameters under experts.routed_experts;
                         GptOssModel._load_weights_other (the path of every checkpoint neither MXFP4 nor
                         Quark: a BF16 conversion) still looks the checkpoint's names up (vLLM #45830,
                         `quant_none`, `since`: the RoutedExperts layout); #45818 (0.25.0) remaps them.
  granitemoeshared-routed-experts
                         the same refactor: GraniteMoeSharedModel.load_weights of 0.24.0 writes per-expert
                         names that already hold routed_experts, and the parent's mapping adds it again
                         (KeyError on every checkpoint of the class); #47031 (0.25.0).
  mistral-format-ct-quant
                         any class (`arch: "*"`): under --config-format mistral the params.json mapping of
                         0.7.3-0.8.4 and 0.12.0-0.16.0 knows only Mistral's FP8 and raises for a
                         compressed-tensors block (vLLM #34028, `config_format`, `quant`); #34104 (0.17.0).
  dbrx-routed-experts    the same refactor: DbrxModel.load_weights maps `mlp.w1` to `w13` without the new
                         routed_experts segment (vLLM #49004, from 0.24.0, `since`); no scanned release fixes it.
  granitemoehybrid-pp-load
                         GraniteMoeHybridModel.load_weights' `_load` looks every name up in params_dict with
                         no pipeline-stage check (vLLM #50961, `min_pp`); no scanned release fixes it.
  minimax-m2-kv-scales   MiniMaxM2Model.load_weights of 0.11.1-0.18.1 renames a ModelOpt KV-cache scale
                         (self_attn.k_proj.k_scale) to qkv_proj.k_scale, which no parameter holds: KeyError
                         (vLLM #38303, `kv_scales: modelopt`); #37214 (0.19.0) remaps the scales first.
  internlm2-packed-wqkv-gptq, internlm2-packed-wqkv-awq
                         InternLM2ForCausalLM.load_weights of 0.3.1-0.5.4 views every tensor named wqkv
                         as (-1, 2 + kv_groups, head_dim, last dim) to split q/k/v as it loads; a GPTQ or
                         AWQ checkpoint's packed qweight/qzeros/scales/g_idx do not have that shape, so
                         loading stops with "shape … is invalid for input of size …" (xinference #2013,
                         InternLM #793, `quant`); 0.5.5 loads wqkv whole and splits it at run time
                         (InternLM2Attention.split_qkv).
  qwen-vl-text-class     the mirror: from 0.7.3 QWenLMHeadModel.__init__ refuses a config.json with
                         `visual` (Qwen-VL) with a RuntimeError that asks for --hf-overrides
                         architectures QwenVLForConditionalGeneration (`config_has`); held through
                         0.23.0, the last release that registers QWenLMHeadModel (no fixed release).

Entry-point bugs (`entrypoint_bugs`): a server module of some releases that cannot start at all, whatever
the model, which a later release fixed. Each names the code that reads what is missing (`code`, `reads`)
and the place and words of the fix (`fixed_in`, `fixed_by`):
  demo-server-engine-client
                         0.8.5's serve_http (vllm/entrypoints/launcher.py) starts a watchdog on
                         app.state.engine_client, which the OpenAI server sets; the demo server's
                         init_app (vllm/entrypoints/api_server.py) does not, so `python -m
                         vllm.entrypoints.api_server` stops with AttributeError as the HTTP server
                         starts (vLLM #17395); #17434 (0.9.0) sets it in init_app.
  qwen2-vl-mrope-default
                         _get_and_verify_max_len (vllm/config.py) of 0.6.1-0.6.2 takes rope_scaling
                         type "mrope" as factor 1 and asserts a `factor` for any other type; every
                         released transformers that reads Qwen2-VL (4.45.0+, Qwen2VLConfig.__init__)
                         rewrites "mrope" to "default", so ModelConfig asserts before the model loads
                         (vLLM #9236; 0.6.2 requires transformers>=4.45.0). 0.6.3 reads config.json with
                         its own Qwen2VLConfig, which keeps "mrope"; 0.6.3.post1 on takes "default".
                         Only a transformers from git before the rename (0.6.1's instructions) passes.
"""
from __future__ import annotations


def _pp_walk(archs: dict[str, str], code: list[tuple[str, str]], layer: str, fix: str, reports: list[str]) -> list[dict]:
    """Rows (id → class) of a model class whose construction walks self.model.layers asserting `layer` on each:
    only under pipeline parallelism (`min_pp`), where the other stages' layers are PPMissingLayer; the fix skips them.
    The first place of `code` the release has is read (a subclass's own __init__, else its base's)."""
    return [{"id": rid, "arch": arch, "min_pp": 2, "code": code, "reads": f"assert isinstance(layer, {layer})",
             "fixed_by": "isinstance(layer, PPMissingLayer)", "error": "AssertionError", "fix": fix, "reports": reports}
            for rid, arch in archs.items()]


def _internlm2_wqkv(quant: str) -> dict:
    """InternLM2's wqkv split at load time, met by a checkpoint of that packed method (`quant`)."""
    return {"id": f"internlm2-packed-wqkv-{quant}", "arch": "InternLM2ForCausalLM", "quant": quant,
            "code": [("vllm/model_executor/models/internlm2.py", "InternLM2ForCausalLM.load_weights")],
            "reads": "loaded_weight.view(-1, 2 + kv_groups",
            "fixed_in": [("vllm/model_executor/models/internlm2.py", "InternLM2Attention.split_qkv")],
            "fixed_by": "def split_qkv",
            # 7B (hidden 4096, 32 query / 8 KV heads of 128): GPTQ's g_idx of 4096 entries is read first
            "error": "shape '[-1, 6, 128, 4096]' is invalid for input of size 4096",
            "fix": None,  # 0.5.5 rewrote the class's attention (split_qkv) with the same change
            "reports": ["https://github.com/xorbitsai/inference/issues/2013"]}


MODEL_BUGS = [
    _internlm2_wqkv("gptq"),
    _internlm2_wqkv("awq"),
    {"id": "glm4-0414-post-attention-norm", "arch": "Glm4ForCausalLM",
     "code": [("vllm/model_executor/models/glm4.py", "Glm4DecoderLayer.forward")],
     "reads": "hidden_states = self.post_attention_layernorm(hidden_states, residual)",
     "fixed_by": "hidden_states, residual = self.post_attention_layernorm(",
     "error": "TypeError: linear(): argument 'input' (position 1) must be Tensor, not tuple",  # zai-org/GLM-4#742
     "fix": "https://github.com/vllm-project/vllm/pull/16618",
     "reports": ["https://github.com/vllm-project/vllm/issues/16818",
                 "https://github.com/vllm-project/vllm/issues/16687",
                 "https://github.com/zai-org/GLM-4/issues/742"]},
    {"id": "decilm-nemotron-nas-config", "arch": "DeciLMForCausalLM", "model_type": "nemotron-nas",
     # the DeciLM-7B class reads the per-layer KV head counts of its own config; a Nemotron NAS checkpoint
     # (model_type nemotron-nas) describes its layers in block_configs instead, which nemotron_nas.py reads
     "code": [("vllm/model_executor/models/decilm.py", "DeciLMForCausalLM.__init__"),
              ("vllm/model_executor/models/nemotron_nas.py", "DeciLMDecoderLayer.__init__")],
     "reads": "config.num_key_value_heads_per_layer",
     "fixed_by": "config.block_configs",
     "error": "AttributeError: 'DeciLMConfig' object has no attribute 'num_key_value_heads_per_layer'",
     "fix": None,  # 0.8.3 maps the architecture to the new nemotron_nas module
     "reports": ["https://github.com/vllm-project/vllm/issues/15625"]},
    {"id": "qwen1-text-vl-processor", "arch": "QWenLMHeadModel", "config_lacks": "visual",
     # 0.7.3 moved the processor to qwen_vl.py; its QWenLMHeadModel refuses a `visual` config, naming the VL class
     "code": [("vllm/model_executor/models/qwen.py", "QWenVLProcessor.__init__"),
              ("vllm/model_executor/models/qwen.py", "QWenLMHeadModel.__init__")],
     "reads": "special_tokens[IMG_START]",
     "fixed_by": "QwenVLForConditionalGeneration",
     "error": "KeyError: '<img>'",  # the report cuts the key off; IMG_START is "<img>" in qwen.py
     "fix": None,  # the split came with 0.7.3's code
     "reports": ["https://github.com/xorbitsai/inference/issues/2950"]},
    {"id": "seq-cls-2way-softmax-tp", "arch": "Qwen3ForSequenceClassification",
     # the original Qwen3-Reranker (and mxbai-rerank-v2) loaded as a classifier through hf_overrides: the score row is
     # built from two LM-head rows and copied whole into the score weight, which tensor parallelism splits
     "hf_overrides_any": {"method": "from_2_way_softmax", "is_original_qwen3_reranker": True}, "min_tp": 2,
     "code": [("vllm/model_executor/models/adapters.py", "load_weights_using_from_2_way_softmax")],
     "reads": "model.score.weight.data.copy_(weight)",
     "fixed_by": "weight_loader(param, score_weight)",
     "error": "The size of tensor a (2048) must match the size of tensor b (4096) at non-singleton dimension 1",  # 8B, TP 2
     "fix": "https://github.com/vllm-project/vllm/pull/20682",
     "reports": ["https://github.com/gpustack/gpustack/issues/2490", "https://github.com/vllm-project/vllm/issues/20670"]},
    {"id": "seq-cls-vlm-score-head", "arch": "Qwen3VLForSequenceClassification",
     # Qwen3-VL-Reranker loaded as a classifier through hf_overrides (its card's is_original_qwen3_reranker): 0.15.0's
     # two-way-softmax loader takes the score head from the VLM's inner language model, which has none
     "hf_overrides_any": {"is_original_qwen3_reranker": True},
     "code": [("vllm/model_executor/models/adapters.py", "load_weights_using_from_2_way_softmax")],
     "reads": "score_layer = language_model.score if is_vlm else model.score",
     "fixed_by": "using_vlm_head",
     "error": "AttributeError: 'Qwen3LLMForCausalLM' object has no attribute 'score'",
     # no PR named in the thread: the release diff, where 0.15.1 uses the inner head only where it exists
     "fix": "https://github.com/vllm-project/vllm/blob/v0.15.1/vllm/model_executor/models/adapters.py#L469",
     "reports": ["https://github.com/vllm-project/vllm/issues/33464"]},
    {"id": "qwen2-5-vl-bnb-vision-qkv", "arch": "Qwen2_5_VLForConditionalGeneration", "load": "bitsandbytes",
     "code": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VisionTransformer.load_weights")],
     "reads": "loaded_weight.view(3, visual_num_heads",
     # the fix lives in the attention layer: it loads qkv whole and splits it at run time
     "fixed_in": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VisionAttention.split_qkv")],
     "fixed_by": "def split_qkv",
     "error": "AssertionError: param_data.shape == loaded_weight.shape",
     "fix": None,  # the change came with 0.7.3's code
     "reports": ["https://github.com/vllm-project/vllm/issues/12900"]},
    {"id": "qwen2-5-vl-vision-mlp-ignore", "arch": "Qwen2_5_VLForConditionalGeneration",
     "ignore_unfused": "visual.gate_up_proj",
     "code": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VisionMLP.__init__")],
     "reads": "self.gate_up_proj = MergedColumnParallelLinear(",
     # the fix: the class maps the fused layer back to the names the checkpoint's ignore list uses
     "fixed_in": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VLForConditionalGeneration")],
     "fixed_by": '"gate_up_proj": ["gate_proj", "up_proj"]',
     "error": "ValueError: Failed to find a kernel that can implement the WNA16 linear layer.",
     "fix": None,  # 0.10.2's class adds packed_modules_mapping
     "reports": ["https://github.com/vllm-project/vllm/issues/23320"]},
    # 0.9.2's MoE bookkeeping (EPLB) walks every decoder layer and asserts its class; on a pipeline rank the other
    # stages' layers are PPMissingLayer placeholders, so every launch with pipeline parallelism stops while the
    # class is built (vLLM #20647). DeepseekV3ForCausalLM subclasses it without an __init__ of its own (`pass`)
    *_pp_walk({"deepseek-v2-pp-missing-layer": "DeepseekV2ForCausalLM", "deepseek-v3-pp-missing-layer": "DeepseekV3ForCausalLM"},
              [("vllm/model_executor/models/deepseek_v2.py", "DeepseekV3ForCausalLM.__init__"),
               ("vllm/model_executor/models/deepseek_v2.py", "DeepseekV2ForCausalLM.__init__")],
              "DeepseekV2DecoderLayer", "https://github.com/vllm-project/vllm/pull/20665",
              ["https://github.com/vllm-project/vllm/issues/20647"]),
    # the same walk in Llama4ForCausalLM.set_moe_parameters (called from __init__) of 0.11.1-0.11.2; Llama 4's
    # multimodal class builds Llama4ForCausalLM as its language model (mllama4.py), so it breaks alike (PR #28577)
    *_pp_walk({"llama4-pp-missing-layer": "Llama4ForCausalLM", "llama4-mm-pp-missing-layer": "Llama4ForConditionalGeneration"},
              [("vllm/model_executor/models/llama4.py", "Llama4ForCausalLM.set_moe_parameters")],
              "Llama4DecoderLayer", "https://github.com/vllm-project/vllm/pull/28577",
              ["https://github.com/vllm-project/vllm/pull/28577"]),
    # the same walk in Glm4MoeForCausalLM.__init__ (GLM-4.5 / GLM-4.5-Air) of 0.10.0, the first release with the
    # class: every pipeline-parallel launch stops while the model is built; PR #21531 (0.10.1) skips the placeholders
    *_pp_walk({"glm4-moe-pp-missing-layer": "Glm4MoeForCausalLM"},
              [("vllm/model_executor/models/glm4_moe.py", "Glm4MoeForCausalLM.__init__")],
              "Glm4MoeDecoderLayer", "https://github.com/vllm-project/vllm/pull/21531",
              ["https://github.com/vllm-project/vllm/pull/21531"]),
    # 0.11.1 moved the Transformers backend into a package whose base class maps every checkpoint name with
    # the prefix "" -> "model." (merged into each backend class), and compressed-tensors applies that mapper to
    # all of its targets: a class-name target ("Linear", llm-compressor's default) becomes "model.Linear" and
    # matches no layer (vLLM #30969). 0.13.0 maps only targets that are layer paths (`_map_target`).
    {"id": "ct-targets-transformers-backend", "arch": "TransformersForCausalLM", "backend": "transformers",
     "quant": "compressed-tensors",
     "code": [("vllm/model_executor/models/transformers/base.py", "Base")],
     "reads": '"": "model.",',
     "fixed_in": [("vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py",
                   "CompressedTensorsConfig.apply_vllm_mapper")],
     "fixed_by": "_map_target",
     "error": "Unable to find matching target for {layer} in the compressed-tensors config.",
     "fix": "https://github.com/vllm-project/vllm/pull/30287",  # 0.13.0: apply_vllm_mapper keeps class names and regexes
     "reports": ["https://github.com/vllm-project/vllm/issues/30969", "https://github.com/vllm-project/vllm/pull/30287"]},
    # 0.24.0's MoE refactor (#41184) moved the expert parameters under `experts.routed_experts.`; the unquantized
    # path of gpt-oss (_load_weights_other: every checkpoint that is neither MXFP4 nor Quark, i.e. a BF16 one) still
    # looks the checkpoint's `experts.w13_weight` names up in params_dict: KeyError on the first expert weight
    # (vLLM #45830). 0.25.0 routes them through remap_moe_expert_weights (PR #45818). `quant_none`: only a
    # checkpoint known to be unquantized (the MXFP4 release goes through _load_weights_mxfp4, which remaps)
    {"id": "gpt-oss-bf16-routed-experts", "arch": "GptOssForCausalLM", "quant_none": True,
     "code": [("vllm/model_executor/models/gpt_oss.py", "GptOssModel._load_weights_other")],
     "reads": "params_dict[name]",
     "fixed_by": "remap_moe_expert_weights",
     "since": ("vllm/model_executor/layers/fused_moe/routed_experts.py", "RoutedExperts"),
     "error": "KeyError: 'layers.0.mlp.experts.w2_weight'",
     "fix": "https://github.com/vllm-project/vllm/pull/45818",
     "reports": ["https://github.com/vllm-project/vllm/issues/45830"]},
    # the same refactor: GraniteMoeShared's load_weights still writes the split experts as
    # `experts.routed_experts.{e}.w1.weight`, and the parent's expert mapping (which adds `routed_experts.` itself)
    # matches its `experts.{e}.w1.` inside that name: `experts.routed_experts.routed_experts.w13_weight`, KeyError on
    # every checkpoint of the class (its experts are stored fused as input_linear/output_linear). PR #47031 (0.25.0)
    {"id": "granitemoeshared-routed-experts", "arch": "GraniteMoeSharedForCausalLM",
     "code": [("vllm/model_executor/models/granitemoeshared.py", "GraniteMoeSharedModel.load_weights")],
     "reads": ".block_sparse_moe.experts.routed_experts.{e}.w1.weight",
     "fixed_by": ".block_sparse_moe.experts.{e}.w1.weight",
     "error": "KeyError: 'layers.0.block_sparse_moe.experts.routed_experts.routed_experts.w13_weight'",
     "fix": "https://github.com/vllm-project/vllm/pull/47031",
     "reports": ["https://github.com/vllm-project/vllm/pull/47031"]},
    # not a model class: under --config-format mistral vLLM builds the config from params.json and maps its
    # `quantization` block; where that mapping knows only Mistral's own FP8 (qformat_weight fp8_e4m3) it raises for
    # anything else, so an llm-compressor (compressed-tensors) checkpoint in Mistral format is refused while the model
    # config is built (vLLM #34028): 0.7.x-0.8.4 before the pass-through (#16803, 0.8.5) and again 0.12.0-0.16.0,
    # whose rewrite dropped it; #34104 (0.17.0) restores it. `arch: "*"`: whatever class params.json makes
    {"id": "mistral-format-ct-quant", "arch": "*", "config_format": "mistral", "quant": "compressed-tensors",
     "code": [("vllm/transformers_utils/configs/mistral.py", "_remap_mistral_quantization_args"),
              ("vllm/transformers_utils/config.py", "load_params_config")],
     "reads": "Found unknown quantization",
     "fixed_by": "compressed-tensors",
     "error": "Found unknown quantization",
     "fix": "https://github.com/vllm-project/vllm/pull/34104",
     "reports": ["https://github.com/vllm-project/vllm/issues/34028"]},
    # the same refactor left DBRX's own expert mapping (`mlp.w1` -> `w13`) one segment short of the new
    # `experts.routed_experts.w13_weight`: every DBRX checkpoint stops with a KeyError while loading (vLLM #49004;
    # PR #49336 is in no scanned release, so no release fixes it: 0.23.0 is the last that loads it)
    {"id": "dbrx-routed-experts", "arch": "DbrxForCausalLM",
     "code": [("vllm/model_executor/models/dbrx.py", "DbrxModel.load_weights")],
     "reads": 'f"mlp.{weight_name}"',
     "fixed_by": "routed_experts",
     "since": ("vllm/model_executor/layers/fused_moe/routed_experts.py", "RoutedExperts"),
     "error": "KeyError: 'blocks.0.ffn.experts.w13_weight'",
     "fix": "https://github.com/vllm-project/vllm/pull/49336",
     "reports": ["https://github.com/vllm-project/vllm/issues/49004", "https://github.com/vllm-project/vllm/pull/49336"]},
    # GraniteMoeHybrid (Granite 4.0 / 4.0-H) declares SupportsPP and builds its layers per stage, but its loader's
    # `_load` helper (norms, embeddings, mamba parameters, the router renamed to the gate) indexes params_dict with no
    # check for layers another stage owns: under pipeline parallelism every rank meets such a name and stops with a
    # KeyError (vLLM #50961; PR #50962 is not merged in any scanned release, so no release fixes it)
    {"id": "granitemoehybrid-pp-load", "arch": "GraniteMoeHybridForCausalLM", "min_pp": 2,
     "code": [("vllm/model_executor/models/granitemoehybrid.py", "GraniteMoeHybridModel.load_weights._load")],
     "reads": "param = params_dict[n]",
     "fixed_by": "is_pp_missing_parameter",
     "error": "KeyError: 'layers.0.block_sparse_moe.gate.weight'",
     "fix": "https://github.com/vllm-project/vllm/pull/50962",
     "reports": ["https://github.com/vllm-project/vllm/issues/50961"]},
    # MiniMax-M2's own loader of 0.11.1-0.18.1 renames every checkpoint name holding `k_proj` to the fused qkv_proj
    # before it looks at the suffix: ModelOpt stores the KV-cache scales as `self_attn.k_proj.k_scale` /
    # `v_proj.v_scale` (its FP8-KV export: nvidia/MiniMax-M2.5-NVFP4), which become `qkv_proj.k_scale`, a parameter
    # nothing has: KeyError on the first layer (PR #37214, vLLM #38303 on the v0.18.0 image). 0.19.0 sends a .k_scale/
    # .v_scale through maybe_remap_kv_scale_name first (ModelOpt's Attention always has the scales); from 0.25.0 the
    # class loads through AutoWeightsLoader, whose cache-scale mapper renames them before the stacked mapping.
    # `kv_scales: modelopt`: only a checkpoint the facts say is ModelOpt with an FP8 KV cache
    {"id": "minimax-m2-kv-scales", "arch": "MiniMaxM2ForCausalLM", "kv_scales": "modelopt",
     "code": [("vllm/model_executor/models/minimax_m2.py", "MiniMaxM2Model.load_weights")],
     "reads": "name = name.replace(weight_name, param_name)",
     "fixed_by": 'name.endswith((".k_scale", ".v_scale"))',
     "error": "KeyError: 'layers.0.self_attn.qkv_proj.k_scale'",
     "fix": "https://github.com/vllm-project/vllm/pull/37214",
     "reports": ["https://github.com/vllm-project/vllm/issues/38303", "https://github.com/vllm-project/vllm/pull/37214"]},
    {"id": "qwen-vl-text-class", "arch": "QWenLMHeadModel", "config_has": "visual",
     # not a bug fixed later: the refusal stays until QWenLMHeadModel leaves vLLM (0.24.0)
     "code": [("vllm/model_executor/models/qwen.py", "QWenLMHeadModel.__init__")],
     "reads": "QwenVLForConditionalGeneration",  # the class the refusal names
     "fixed_by": None,  # the way out is hf_overrides, not a release
     "error": "you instantiated the text-only version of this model",
     "fix": None,
     "reports": []},
    {"id": "qwen2-vl-mrope-default", "arch": "Qwen2VLForConditionalGeneration", "rope_key": "type",
     # the rope type the release special-cases is the one every released transformers rewrites (4.45.0+)
     "code": [("vllm/config.py", "_get_and_verify_max_len")],
     "since": ("vllm/model_executor/models/qwen2_vl.py", "Qwen2VLForConditionalGeneration"),
     "reads": 'rope_type == "mrope"',
     "fixed_in": [("vllm/transformers_utils/configs/qwen2vl.py", "Qwen2VLConfig")],
     "fixed_by": "class Qwen2VLConfig",
     "error": 'assert "factor" in rope_scaling',
     "fix": None,  # 0.6.3 added its own Qwen2VLConfig (transformers_utils/config.py:60)
     "reports": ["https://github.com/vllm-project/vllm/issues/9236"]},
]


ENTRYPOINT_BUGS = [
    {"id": "demo-server-engine-client", "module": "vllm.entrypoints.api_server",
     "code": [("vllm/entrypoints/launcher.py", "serve_http")],
     "reads": "app.state.engine_client",
     "fixed_in": [("vllm/entrypoints/api_server.py", "init_app")],
     "fixed_by": "app.state.engine_client = ",
     "error": "AttributeError: 'State' object has no attribute 'engine_client'",
     "fix": "https://github.com/vllm-project/vllm/pull/17434",
     "reports": ["https://github.com/vllm-project/vllm/issues/17395"]},
]
