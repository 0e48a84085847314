"""L75 quant-tp-alignment: the TP shard of each quantized MLP / MoE layer against its group, FP8 block
or Marlin tile, per release (engine/check/startup_quant_tp.py, knowledge/vllm/quant_alignment.yaml)."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from vllm_kb.engine.check import startup_quant_tp as q
from vllm_kb.engine.kb.quant_config import quant_shape

ROOT = Path(__file__).resolve().parents[1]
TABLE = yaml.safe_load((ROOT / "knowledge" / "vllm" / "quant_alignment.yaml").read_text())
STARTUP = yaml.safe_load((ROOT / "knowledge" / "vllm" / "startup.yaml").read_text())
SDISTS = Path(os.environ.get("VLLM_SDISTS", "/work/sdists/src"))

QWEN72 = {"intermediate_size": 29568, "hidden_size": 8192}
QWEN3_235B = {"num_experts": 128, "moe_intermediate_size": 1536, "intermediate_size": 12288, "hidden_size": 4096}


def test_quant_shape_reads_each_format():
    assert quant_shape({"quant_method": "awq", "q_group_size": 64}) == {"quant_group_size": 64}
    assert quant_shape({"quant_method": "gptq", "group_size": -1}) == {"quant_group_size": -1}
    assert quant_shape({"quant_method": "fp8", "weight_block_size": [128, 128]}) == {"quant_block": [128, 128]}
    ct = {"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"type": "int", "strategy": "group", "group_size": 128}}}}
    assert quant_shape(ct) == {"quant_group_size": 128}
    ct["config_groups"]["g"]["weights"] = {"type": "int", "strategy": "channel"}
    assert quant_shape(ct) == {"quant_group_size": -1}
    ct["config_groups"]["g"]["weights"] = {"type": "float", "strategy": "block", "block_structure": [128, 128]}
    assert quant_shape(ct) == {"quant_block": [128, 128]}
    # a value a project's file may hold that says nothing: no fact
    assert quant_shape({"quant_method": "awq", "group_size": "abc"}) == {}
    assert quant_shape({"quant_method": "fp8", "weight_block_size": [128]}) == {}


def _kernel(method, version, cc, flag=None, **model):
    return q._kernel(method, flag, {"quant_group_size": 128, **model}, TABLE, STARTUP, cc, version)


def test_the_kernel_vllm_builds():
    assert _kernel("awq", "0.7.2", 8.0) == "awq_marlin"
    assert _kernel("awq", "0.7.2", 7.5) == "awq"          # Marlin needs 8.0 until 0.14
    assert _kernel("awq", "0.14.0", 7.5) == "awq_marlin"
    assert _kernel("awq", "0.5.2", 8.0) == "awq"          # no AWQ Marlin before 0.5.3
    assert _kernel("awq", "0.7.2", 8.0, flag="awq") == "awq"
    assert _kernel("awq", "0.7.2", None) is None          # the GPU decides: unknown
    assert _kernel("gptq", "0.6.0", 9.0) == "gptq_marlin"
    assert _kernel("fp8", "0.8.5", 9.0, quant_block=[128, 128]) == "fp8_block"
    assert _kernel("fp8", "0.8.5", 9.0) is None           # per-tensor FP8: nothing to split by


def _first(model, kernel, tp, version, ep=False, group=128, block=None):
    return q._first({**model, "quant_group_size": group, "quant_block": block}, kernel, tp, ep, TABLE, version)


def test_awq_marlin_refuses_itself_until_0_7_3_then_the_awq_kernel_checks_the_groups():
    name, width, kind, (unit_name, unit, shard, rule, certain) = _first(QWEN72, "awq_marlin", 2, "0.7.2")
    assert (name, shard, unit_name, rule, certain) == ("mlp", 14784, "min_thread_k", "marlin_tiles", True)
    *_, (unit_name, unit, shard, rule, certain) = _first(QWEN72, "awq_marlin", 2, "0.7.3")
    assert (unit_name, rule, certain) == ("group_size", "awq_group", True)
    # group 64: the shard is whole groups but not Marlin's 128 tile — refused only before the fallback
    assert _first(QWEN72, "awq_marlin", 2, "0.7.2", group=64)[3][0] == "min_thread_k"
    assert _first(QWEN72, "awq_marlin", 2, "0.7.3", group=64) is None
    # Qwen's padded 72B uploads (29696) split at TP 8
    assert _first({"intermediate_size": 29696}, "awq_marlin", 8, "0.7.2") is None


def test_gptq_marlin_falls_back_from_0_6_4_so_its_refusal_is_not_certain():
    assert _first(QWEN72, "gptq_marlin", 4, "0.6.0")[3][4] is True
    assert _first(QWEN72, "gptq_marlin", 4, "0.6.4")[3][4] is False
    assert _first(QWEN72, "gptq", 4, "0.10.0")[3][3:] == ("gptq_group", True)
    assert _first(QWEN72, "gptq", 4, "0.22.0")[3][4] is False  # gptq.py's own check gone


def test_block_fp8_experts_until_the_moe_oracle_refines_the_scales():
    hit = _first(QWEN3_235B, "fp8_block", 8, "0.8.5", block=[128, 128])
    assert hit[0] == "experts" and hit[3][:3] == ("block_n", 128, 192)
    assert _first(QWEN3_235B, "fp8_block", 8, "0.8.5", ep=True, block=[128, 128]) is None
    assert _first(QWEN3_235B, "fp8_block", 4, "0.8.5", block=[128, 128]) is None
    assert _first(QWEN3_235B, "fp8_block", 8, "0.29.0", block=[128, 128]) is None  # 64-wide refined blocks
    # a shard no block of 32 or more divides stays refused
    tiny = {"num_experts": 64, "moe_intermediate_size": 320, "hidden_size": 2048}
    assert _first(tiny, "fp8_block", 8, "0.34.0", block=[128, 128])[3][2] == 40
    # DeepSeek-V3: the dense layers' 18432 at TP 32
    ds = {"num_experts": 256, "moe_intermediate_size": 2048, "intermediate_size": 18432, "first_k_dense_replace": 3,
          "n_shared_experts": 1, "hidden_size": 7168}
    assert _first(ds, "fp8_block", 32, "0.7.0", block=[128, 128])[:2] == ("mlp", 18432)
    assert _first(ds, "fp8_block", 16, "0.7.0", block=[128, 128]) is None


def test_alignment_facts_need_the_checkpoints_own_word():
    model = {"quant_method": "awq", "quant_source": "name", "quant_group_size": 128, "arch_source": "config.json", **QWEN72}
    facts = {"model": model, "engine": {"tensor_parallel_size": 2}, "gpu": {"compute_capability": 8.0}}
    out = {"tp": 2, "quant_method": "awq"}
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.7.3", lambda t: True, True) == {}
    model["quant_source"] = "config"
    got = q.alignment_facts(facts, TABLE, STARTUP, out, "0.7.3", lambda t: True, True)
    assert got["qtp_ok"] is False and got["qtp_tp_fit"] == 1 and got["qtp_pp_fit"] == 2
    # pipeline parallelism is proposed only where it runs: not before 0.5.1, not to an offline engine
    assert "qtp_pp_fit" not in q.alignment_facts(facts, TABLE, STARTUP, out, "0.4.0", lambda t: True, True)
    offline = {**facts, "site": {"mode": "standalone_offline"}}
    assert "qtp_pp_fit" not in q.alignment_facts(offline, TABLE, STARTUP, out, "0.7.3", lambda t: True, True)
    # an unknown GPU picks Marlin or the AWQ kernel: both refuse a split group
    facts["gpu"] = {}
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.7.3", lambda t: True, True)["qtp_certain"] is True
    # groups of 64: whole at TP 2 (14784), not Marlin's 128 tile, which 0.7.2 checks itself: undecided
    model["quant_group_size"] = 64
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.7.2", lambda t: True, True) == {}
    facts["gpu"] = {"compute_capability": 8.0}
    model.update(intermediate_size=29568, quant_group_size=128)
    # the base model's widths from the catalog do not stand in for a quantized upload's
    model["arch_source"] = "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct/blob/main/config.json"
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.7.3", lambda t: True, True) == {}


def test_expert_parallelism_is_the_change_when_only_the_experts_fail():
    model = {"quant_method": "fp8", "quant_source": "config", "quant_block": [128, 128], "arch_source": "config.json",
             "num_attention_heads": 64, **QWEN3_235B}
    facts = {"model": model, "engine": {"tensor_parallel_size": 8}, "gpu": {"compute_capability": 9.0}}
    got = q.alignment_facts(facts, TABLE, STARTUP, {"tp": 8, "quant_method": "fp8"}, "0.8.5", lambda t: True, True)
    assert got["qtp_ep_fix"] is True and got["qtp_layer"] == "experts"
    got = q.alignment_facts(facts, TABLE, STARTUP, {"tp": 8, "quant_method": "fp8"}, "0.7.3", lambda t: 64 % t == 0, False)
    assert "qtp_ep_fix" not in got and got["qtp_tp_fit"] == 4 and got["qtp_pp_fit"] == 2
    facts["engine"]["data_parallel_size"] = 2  # the MoE's TP may span the DP ranks: not judged
    assert q.alignment_facts(facts, TABLE, STARTUP, {"tp": 8, "quant_method": "fp8"}, "0.8.5", lambda t: True, True) == {}


def test_a_checkpoint_without_layer_widths_is_not_said_to_split_whole():
    # vllm#54178: a catalog row gave Qwen3.8-Flash-Next-FP8's method and block but no widths; its 320-wide
    # experts fail block_n 128 at TP 8, and with no width known nothing may be judged whole
    model = {"quant_method": "fp8", "quant_source": "catalog", "quant_block": [128, 128], "moe": True,
             "arch_source": "https://example.org/best-practice.html"}
    facts = {"model": model, "engine": {"tensor_parallel_size": 8}, "gpu": {"compute_capability": 8.9}}
    out = {"tp": 8, "quant_method": "fp8"}
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.27.1", lambda t: True, True) == {}
    model.update(num_experts=256, moe_intermediate_size=320)  # with the widths the refusal shows
    got = q.alignment_facts(facts, TABLE, STARTUP, out, "0.27.1", lambda t: True, True)
    assert got["qtp_ok"] is False and got["qtp_layer"] == "experts"


def test_audit_end_to_end_from_the_checkpoint_folder(tmp_path):
    from vllm_kb.engine.audit import audit

    folder = tmp_path / "models" / "q72-awq"
    folder.mkdir(parents=True)
    cfg = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "torch_dtype": "float16", "hidden_size": 8192,
           "intermediate_size": 29568, "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 8,
           "vocab_size": 152064, "max_position_embeddings": 32768,
           "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm"}}
    (folder / "config.json").write_text(json.dumps(cfg))
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "serve.sh").write_text("vllm serve models/q72-awq --tensor-parallel-size 4\n")
    rep = audit(tmp_path, gpu="A100-80GB x4")
    (site,) = rep.sites
    res = next(r for r in site.results if r.check.id == "L75")
    assert res.status == "recommended" and res.priority == "P0"
    assert site.facts["startup"]["qtp_shard"] == 7392 and site.facts["startup"]["qtp_tp_fit"] == 1
    cfg["intermediate_size"] = 29696  # the padded upload splits at TP 4
    (folder / "config.json").write_text(json.dumps(cfg))
    rep = audit(tmp_path, gpu="A100-80GB x4")
    res = next(r for r in rep.sites[0].results if r.check.id == "L75")
    assert res.status == "enabled"


def test_a_catalogued_fp8_checkpoint_is_judged_by_its_catalog_entry(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\n")
    (tmp_path / "serve.sh").write_text("vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 32 --trust-remote-code\n")
    rep = audit(tmp_path, gpu="H800 x32")
    res = next(r for r in rep.sites[0].results if r.check.id == "L75")
    assert res.status == "recommended" and res.priority == "P0"
    (tmp_path / "serve.sh").write_text("vllm serve unsloth/DeepSeek-R1-BF16 --tensor-parallel-size 32 --trust-remote-code\n")
    rep = audit(tmp_path, gpu="H800 x32")
    assert next(r for r in rep.sites[0].results if r.check.id == "L75").status == "not_applicable"


@pytest.mark.skipif(not SDISTS.is_dir(), reason="vLLM sdists not unpacked here (set VLLM_SDISTS)")
def test_the_table_is_what_the_tool_reads_from_the_sources():
    sys.path.insert(0, str(ROOT / "tools"))
    import vllm_quant_alignment as tool

    built = tool.build(SDISTS)
    assert tool.dump(built) == (ROOT / "knowledge" / "vllm" / "quant_alignment.yaml").read_text()


@pytest.mark.skipif(not SDISTS.is_dir(), reason="vLLM sdists not unpacked here (set VLLM_SDISTS)")
def test_l75_cites_the_lines_that_raise():
    from vllm_kb.engine.kb.knowledge import load

    check = next(c for c in load().checks if c.id == "L75")
    # the GPTQ MoE fallback: Marlin MoE's shape check, the hand-over to WNA16, its CUDA block_size_k
    words = ("not aligned with the quantized", "min_thread_k", "min_thread_n", "block_k", "gate's and up's",
             "GPTQMoeMarlin", "max(64, group_size)", "block_size_k = 128",
             "gptq_marlin_repack(", "marlin_padded_nk(")  # FP4 Marlin: the repack's tiles, then its padding
    for rule in check.rules:
        for s in rule.source:
            if "release" not in s:
                continue  # the report a rule was found from
            lines = (SDISTS / s["release"] / s["file"]).read_text(errors="replace").splitlines()
            near = " ".join(lines[s["line"] - 1:s["line"] + 2])
            # a model file is cited for handing its vision tower the quantization, the kernels for raising
            said = ("quant_config=quant_config",) if s["file"].startswith("vllm/model_executor/models/") else words
            assert any(w in near for w in said), (s, near)


GLM45_AIR = {"num_attention_heads": 96, "num_experts": 128, "moe_intermediate_size": 1408, "intermediate_size": 10944,
             "n_shared_experts": 1, "first_k_dense_replace": 1, "hidden_size": 4096}


def test_fp8_on_a_gpu_without_fp8_is_judged_by_the_marlin_repack_tiles():
    # zai-org/GLM-4.5-Air-FP8 at TP 8 on RTX 3090s (zai-org/GLM-4.5 #94, 0.11.0): weight-only FP8 through
    # Marlin, gate_up's partition 2 x 10944 / 8 = 2736 is no multiple of tile_n_size 64
    model = {"quant_method": "fp8", "quant_source": "name", "arch_source": "https://huggingface.co/zai-org/GLM-4.5-Air", **GLM45_AIR}
    facts = {"model": model, "engine": {"tensor_parallel_size": 8}, "gpu": {"compute_capability": 8.6}}
    out = {"tp": 8, "quant_method": "fp8"}
    got = q.alignment_facts(facts, TABLE, STARTUP, out, "0.11.0", lambda t: 96 % t == 0, True)
    assert (got["qtp_kernel"], got["qtp_unit_name"], got["qtp_shard"], got["qtp_width"]) == ("fp8_marlin", "tile_n_size", 2736, 21888)
    assert got["qtp_certain"] is True and got["qtp_tp_fit"] == 2
    assert q.alignment_facts(facts, TABLE, STARTUP, {"tp": 2, "quant_method": "fp8"}, "0.11.0", lambda t: True, True)["qtp_ok"] is True
    # FP8 tensor cores (8.9+) run it natively; from 0.24.0 the repack pads; block FP8 skipped Marlin in
    # 0.6.6-0.8.5, so a name that does not say which format is not judged there
    for cc, version in ((8.9, "0.11.0"), (8.6, "0.24.0"), (8.6, "0.8.5"), (7.5, "0.11.0")):
        facts["gpu"]["compute_capability"] = cc
        assert q.alignment_facts(facts, TABLE, STARTUP, out, version, lambda t: True, True) == {}, (cc, version)
    # per-tensor FP8 from the checkpoint's own config went to Marlin there too
    facts["gpu"]["compute_capability"] = 8.0
    model.update(quant_source="config", arch_source="config.json")
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.8.5", lambda t: True, True)["qtp_kernel"] == "fp8_marlin"


NEMOTRON3_NANO = {"num_experts": 128, "moe_intermediate_size": 1856, "hidden_size": 2688,
                  "ssm": {"kind": "mamba2", "layers": 23, "intermediate": 4096, "heads": 64, "head_dim": 64, "state": 128, "groups": 8}}


def test_nvfp4_below_fp4_tensor_cores_is_judged_by_the_marlin_repack_tiles():
    # nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 at TP 2 on two L4s (heldout87 gemmaforge, 0.19.0): FP4 Marlin,
    # the Mamba2 in_proj's 10304 outputs / 2 = 5152, no multiple of tile_n_size 64; the experts are not judged
    model = {"name": "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4", "quant_method": "modelopt_fp4", "quant_source": "name",
             "arch_source": "https://github.com/NVIDIA-NeMo/Megatron-Bridge", **NEMOTRON3_NANO}
    facts = {"model": model, "engine": {"tensor_parallel_size": 2}, "gpu": {"compute_capability": 8.9}}
    out = {"tp": 2, "quant_method": "modelopt_fp4"}
    got = q.alignment_facts(facts, TABLE, STARTUP, out, "0.19.0", lambda t: True, True)
    assert (got["qtp_kernel"], got["qtp_layer"], got["qtp_unit_name"], got["qtp_shard"], got["qtp_width"]) == \
        ("fp4_marlin", "in_proj", "tile_n_size", 5152, 10304)
    assert got["qtp_certain"] is True and got["qtp_tp_fit"] == 1
    # another publisher's upload, named only, may keep the mixer in 16 bits (an ignore rule): a P1; its own
    # config.json listing the in_proj in 16 bits leaves the in_proj unjudged (review11)
    other = {**facts, "model": {**model, "name": "someone/Nemotron-3-Nano-30B-A3B-NVFP4"}}
    assert q.alignment_facts(other, TABLE, STARTUP, dict(out), "0.19.0", lambda t: True, True)["qtp_certain"] is False
    kept = {**facts, "model": {**model, "quant_source": "config", "quant_layers_listed": True}}
    assert q.alignment_facts(kept, TABLE, STARTUP, dict(out), "0.19.0", lambda t: True, True)["qtp_ok"] is True
    assert q.alignment_facts(facts, TABLE, STARTUP, {"tp": 1, "quant_method": "modelopt_fp4"}, "0.19.0", lambda t: True, True)["qtp_ok"]
    # TP 8 (vLLM #49949, eight H100s): the expert shard 1856 / 8 = 232 splits a 16-value scale block; from 0.24.0
    # the linear repack pads, so only the experts refuse
    facts["gpu"]["compute_capability"] = 9.0
    tp8 = {"tp": 8, "quant_method": "modelopt_fp4"}
    assert q.alignment_facts(facts, TABLE, STARTUP, tp8, "0.19.0", lambda t: True, True)["qtp_layer"] == "experts"  # in_proj too
    got = q.alignment_facts(facts, TABLE, STARTUP, tp8, "0.26.0", lambda t: True, True)
    assert (got["qtp_layer"], got["qtp_unit_name"], got["qtp_shard"], got.get("qtp_ep_fix")) == ("experts", "group_size", 232, True)
    assert q.alignment_facts(facts, TABLE, STARTUP, out, "0.26.0", lambda t: True, True)["qtp_ok"] is True
    # FP4 tensor cores (10.0+) run CUTLASS; before 0.9.0 no FP4 Marlin
    for cc, version in ((10.0, "0.19.0"), (12.0, "0.19.0"), (8.9, "0.8.5")):
        facts["gpu"]["compute_capability"] = cc
        assert q.alignment_facts(facts, TABLE, STARTUP, out, version, lambda t: True, True) == {}, (cc, version)
    # a GPTQ Mamba2 upload's in_proj is not judged (its quantization may leave the mixer in 16 bits)
    assert all(kind != "mamba_in" or name == "in_proj" for name, _w, kind in q.layers(model))
    assert q._refusal("gptq_marlin", "mamba_in", 10304, 2, 128, None, TABLE, "0.19.0", 2688) is None


PUBLISHERS = ["Qwen", "deepseek-ai"]
DSV2_LITE = {"intermediate_size": 10944, "moe_intermediate_size": 1408, "num_experts": 64, "n_shared_experts": 2,
             "first_k_dense_replace": 1, "hidden_size": 2048}


def _named(name, version, cc=8.0, tp=1, flag=None, **dims):
    model = {"name": name, "quant_method": "awq", "quant_source": "name",
             "arch_source": "https://huggingface.co/deepseek-ai/DeepSeek-V2-Lite/blob/main/config.json", **(dims or DSV2_LITE)}
    engine = {"tensor_parallel_size": tp, **({"quantization": flag} if flag else {})}
    facts = {"model": model, "engine": engine, "gpu": {"compute_capability": cc}}
    return q.alignment_facts(facts, TABLE, STARTUP, {"tp": tp, "quant_method": flag or "awq"}, version, lambda t: 64 % t == 0,
                             True, PUBLISHERS)


def test_a_third_party_awq_upload_keeps_its_base_widths_so_marlin_refuses_a_layer_even_at_tp_1():
    # vLLM #9913: DeepSeek-Coder-V2-Lite AWQ (a community upload) on one GPU, 0.6.3.post1: the dense MLP's 10944
    # is no multiple of min_thread_k 128, and awq_marlin raises it itself until 0.7.2
    got = _named("TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "0.6.3.post1")
    assert (got["qtp_kernel"], got["qtp_unit_name"], got["qtp_shard"], got["qtp_certain"]) == ("awq_marlin", "min_thread_k", 10944, True)
    assert "qtp_tp_fit" not in got and "qtp_plain_fix" not in got  # the group is unknown: no kernel to propose
    # from 0.7.3 the layer falls back to the AWQ kernel, whose group the name does not say: nothing is claimed
    assert _named("TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "0.7.3") == {}
    # a GPU below 8.0, or --quantization awq, keeps the AWQ kernel: nothing said either
    assert _named("TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "0.6.3.post1", cc=7.5) == {}
    assert _named("TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "0.6.3.post1", flag="awq") == {}
    # the publisher's own uploads may pad (Qwen's 72B): their names alone are not judged; nor a local path
    assert _named("deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "0.6.3.post1") == {}
    assert _named("/models/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "0.6.3.post1") == {}
    # whole tiles: no claim that the launch is fine either (the groups are unknown)
    assert _named("someone/Llama-3.1-70B-Instruct-AWQ", "0.7.2", tp=8, intermediate_size=28672, hidden_size=8192) == {}
    got = _named("PointerHQ/Qwen2.5-VL-72B-Instruct-Pointer-AWQ", "0.7.2", cc=8.9, tp=4, **QWEN72)
    assert (got["qtp_shard"], got["qtp_tp_fit"], got["qtp_pp_fit"]) == (7392, 1, 4)


def test_a_third_party_compressed_tensors_upload_by_name_is_judged_on_its_base_widths_at_p1():
    # llm-compressor #57: neuralmagic's Qwen2-72B-Instruct w8a16 at TP 4 on 0.5.x: 29568 / 4 = 7392, no multiple of
    # Marlin's min_thread_k 128; the name alone cannot tell integer weights (Marlin) from FP8 weight-only ones
    def named(name, tp=4, flag=None, **dims):
        model = {"name": name, "quant_method": "compressed-tensors", "quant_scheme": "wna16", "quant_source": "name",
                 "arch_source": "https://huggingface.co/Qwen/Qwen2-72B-Instruct/blob/main/config.json", **(dims or QWEN72)}
        facts = {"model": model, "engine": {"tensor_parallel_size": tp, **({"quantization": flag} if flag else {})},
                 "gpu": {"compute_capability": 8.0}}
        return q.alignment_facts(facts, TABLE, STARTUP, {"tp": tp, "quant_method": "compressed-tensors"}, "0.5.3",
                                 lambda t: 64 % t == 0, True, PUBLISHERS)

    got = named("neuralmagic/Qwen2-72B-Instruct-quantized.w8a16")
    assert (got["qtp_kernel"], got["qtp_shard"], got["qtp_unit_name"]) == ("ct_wna16", 7392, "min_thread_k")
    assert got["qtp_certain"] is False and got["qtp_ct_name"] is True and got["qtp_tp_fit"] == 1
    assert named("neuralmagic/Qwen2-72B-Instruct-quantized.w8a16", flag="compressed-tensors")["qtp_ct_name"] is True
    # the publisher's own upload may pad, another method forced keeps another kernel, whole tiles claim nothing
    assert named("Qwen/Qwen2-72B-Instruct-quantized.w8a16") == {}
    assert named("neuralmagic/Qwen2-72B-Instruct-quantized.w8a16", flag="gptq") == {}
    assert named("neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a16", intermediate_size=28672, hidden_size=8192) == {}


def test_the_plain_kernel_is_proposed_where_the_checkpoints_groups_divide_the_layer():
    model = {"quant_method": "awq", "quant_source": "config", "quant_group_size": 64, "arch_source": "config.json", **DSV2_LITE}
    facts = {"model": model, "engine": {"tensor_parallel_size": 1}, "gpu": {"compute_capability": 8.0}}
    got = q.alignment_facts(facts, TABLE, STARTUP, {"tp": 1, "quant_method": "awq_marlin"}, "0.6.3.post1", lambda t: True, True)
    assert got["qtp_unit_name"] == "min_thread_k" and got["qtp_plain_fix"] == "awq"
    model["quant_group_size"] = 128  # 10944 is no whole number of 128-groups: the AWQ kernel refuses it too
    got = q.alignment_facts(facts, TABLE, STARTUP, {"tp": 1, "quant_method": "awq_marlin"}, "0.6.3.post1", lambda t: True, True)
    assert got["qtp_certain"] is True and "qtp_plain_fix" not in got


def test_a_gptq_moe_shard_marlin_moe_refuses_meets_the_wna16_cuda_block():
    # zhuhai.fun, 0.9.2: Qwen3-235B-A22B-GPTQ-Int4 at TP 8 → 192 per rank, not a multiple of max(64, 128):
    # the MoE WNA16 fallback's CUDA kernel raises "size_k must divisible by BLOCK_SIZE_K"
    m = {**QWEN3_235B, "quant_bits": 4}
    hit = _first(m, "gptq_marlin", 8, "0.9.2")
    assert hit[0] == "experts" and hit[3] == ("BLOCK_SIZE_K", 128, 192, "gptq_moe_wna16", True)
    assert _first(m, "gptq_marlin", 8, "0.9.2", ep=True) is None  # whole experts: 1536
    assert _first(m, "gptq_marlin", 4, "0.9.2") is None  # 384
    assert _first(m, "gptq_marlin", 8, "0.8.4") is None  # no Marlin MoE check before 0.8.5
    assert _first(m, "gptq_marlin", 8, "0.22.0") is None  # another path from 0.22.0
    assert _first(m, "gptq_marlin", 8, "0.9.2", group=-1) is None  # no CUDA WNA16 kernel without groups
    assert _first({**m, "quant_bits": 8}, "gptq_marlin", 8, "0.9.2") is None
    assert _first(m, "gptq_marlin", 16, "0.9.2", group=32)[3][2] == 96  # 96 % 64
    assert _first(m, "gptq_marlin", 8, "0.9.2", group=64) is None  # 192 % 64 == 0: Marlin MoE takes it


# Intel/Qwen3.6-35B-A3B-int4-AutoRound (heldout87 quant-tp-alignment--hf-intel-autoround-d3): AutoRound,
# GPTQ-packed, 4-bit symmetric groups of 128, bfloat16; the gated-delta-net's in_proj_ba is 2 × 32 wide
QWEN36_AR = {"quant_method": "auto-round", "quant_packing": "gptq", "quant_bits": 4, "quant_sym": True, "quant_group_size": 128,
             "torch_dtype": "bfloat16", "hidden_size": 2048, "num_experts": 256, "moe_intermediate_size": 512,
             "n_shared_experts": 1, "ssm": {"kind": "gdn", "v_heads": 32}}


def test_auto_round_packed_as_gptq_runs_on_gptq_marlin():
    assert q._kernel("auto-round", None, QWEN36_AR, TABLE, STARTUP, 8.6, "0.19.1") == "gptq_marlin"
    assert q._kernel("auto-round", None, {**QWEN36_AR, "quant_packing": "awq"}, TABLE, STARTUP, 8.6, "0.19.1") is None
    assert q._kernel("auto-round", None, {**QWEN36_AR, "quant_sym": False}, TABLE, STARTUP, 8.6, "0.19.1") is None
    assert q._kernel("auto-round", None, QWEN36_AR, TABLE, STARTUP, 8.6, "0.24.0") is None  # the inc/ package: not read


def test_the_gdn_ba_projection_at_tp2_is_below_marlins_tile_and_no_kernel_takes_it_on_ampere_bf16():
    sure = q._no_fallback("gptq_marlin", QWEN36_AR, {}, 8.6, TABLE, "0.19.1")
    assert sure
    name, width, kind, (unit_name, unit, shard, rule, certain) = q._first(QWEN36_AR, "gptq_marlin", 2, False, TABLE, "0.19.1", sure=sure)
    assert (name, width, kind, unit_name, unit, shard, certain) == ("in_proj_ba", 64, "column", "min_thread_n", 64, 32, True)
    assert q._first(QWEN36_AR, "gptq_marlin", 1, False, TABLE, "0.19.1", sure=sure) is None
    # Exllama takes float16 activations, Machete a Hopper: no certainty there
    assert not q._no_fallback("gptq_marlin", QWEN36_AR, {"dtype": "half"}, 8.6, TABLE, "0.19.1")
    assert not q._no_fallback("gptq_marlin", QWEN36_AR, {}, 9.0, TABLE, "0.19.1")
    assert not q._no_fallback("gptq_marlin", QWEN36_AR, {}, 8.6, TABLE, "0.24.0")  # Triton W4A16 joins the CUDA list
    # a GPTQ upload's own ignore rules are not read: its in_proj_ba is not judged
    assert q._first({**QWEN36_AR, "quant_method": "gptq"}, "gptq_marlin", 2, False, TABLE, "0.19.1", sure=True) is None


def test_an_autoround_config_that_sets_the_gdn_projections_own_bits_leaves_in_proj_ba_unjudged():
    # a re-quantization that keeps in_proj_a/in_proj_b in BF16 for TP 2 says so in extra_config, which
    # vLLM's INCConfig reads per layer (16+ bits: unquantized): no refusal may be claimed for the layer
    from vllm_kb.engine.kb.quant_config import config_quant_facts
    base = {"quant_method": "auto-round", "bits": 4, "group_size": 128, "sym": True, "packing_format": "auto_round:auto_gptq"}
    kept = {"model.language_model.layers.0.linear_attn.in_proj_a": {"bits": 16}, "mtp.fc": {"bits": 16}}
    for extra, listed in ((None, False), ({"mtp.fc": {"bits": 16}}, False), (kept, True), ({r".*in_proj_[ab]$": {"bits": 16}}, True)):
        facts: dict = {}
        config_quant_facts(facts, {"quantization_config": {**base, **({"extra_config": extra} if extra else {})}})
        assert bool(facts.get("quant_layers_listed")) is listed, extra
    model = {**QWEN36_AR, "quant_layers_listed": True}
    assert q._first(model, "gptq_marlin", 2, False, TABLE, "0.19.1", sure=True) is None


@pytest.mark.parametrize("text, line", [
    ("#!/bin/bash\n# remove the `quantization_config` in the `config.json`\nvllm serve x\n", 2),
    ("# Also: remove `quantization_config` from DeepSeek-V3 config.json and set\n", 1),
    ("x=1\n# 删除 config.json 中的 quantization_config\n", 2),
    ("jq 'del(.quantization_config)' config.json > c.json\n", 1),
    ("cfg.pop(\"quantization_config\", None)\n", 1),
    ("# the config.json carries a quantization_config (NVFP4), so vLLM detects it\n", None),  # eval77 gb10
    ("# do not remove quantization_config from config.json\n", None),
    ("# vLLM reads quantization_config out of config.json; dropout stays 0\n", None),
    ("# take the quantization_config out of config.json first\n", 1),
    ("quantization_config = Mxfp4Config(dequantize=True)\n", None),
])
def test_a_script_that_removes_the_quantization_config(tmp_path, text, line):
    """The launch file's own words that vLLM reads an edited config.json (eval89 docvqa-verl's DeepSeek-V3
    recipe): the quantization read from the Hub's is dropped, so L75 judges no FP8 block."""
    from vllm_kb.engine.check import quant_stripped

    (tmp_path / f"run{line}.sh").write_text(text, encoding="utf-8")
    where = quant_stripped.stripped_at(tmp_path, f"run{line}.sh")
    assert where == (f"run{line}.sh:{line}" if line else None)
    model = {"name": "deepseek-ai/DeepSeek-V3", "quantized": True, "quant_method": "fp8", "quant_block": [128, 128],
             "quant_source": "catalog", "torch_dtype": "bfloat16"}
    assert quant_stripped.strip(model, "run.sh:2") == {"name": "deepseek-ai/DeepSeek-V3", "torch_dtype": "bfloat16",
                                                       "quantized": False, "quant_stripped": "run.sh:2"}


def test_the_finding_says_which_config_it_read():
    hub = "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json"
    assert q.config_read({"name": "deepseek-ai/DeepSeek-V3", "arch_source": hub}, named=False) == hub
    assert q.config_read({"name": "./ckpt/", "arch_source": "config.json"}, named=False) == "./ckpt/config.json"
    assert q.config_read({"name": "org/x-AWQ"}, named=False) == "https://huggingface.co/org/x-AWQ/blob/main/config.json"
    assert q.config_read({"name": "org/x-AWQ", "arch_source": hub, "dims_from": "base/config.json"}, named=True) == "base/config.json"


@pytest.mark.parametrize("kept,listed", [(["lm_head", "*mixer.conv1d*"], False), (["lm_head", "*mixer.in_proj*"], True),
                                         (["backbone.layers.0.mixer"], True), (["re:.*mixer.in_proj.*"], True)])
def test_a_modelopt_list_of_16_bit_layers_naming_the_mamba_in_proj(kept, listed):
    # ModelOpt's defaults leave out only the mixer's conv1d; a list naming in_proj or a whole mixer keeps it in 16 bits
    from vllm_kb.engine.kb.quant_config import config_quant_facts

    facts: dict = {}
    config_quant_facts(facts, {"quantization_config": {"quant_method": "modelopt", "quant_algo": "NVFP4",
                                                       "exclude_modules": kept, "ignore": []}})
    assert bool(facts.get("quant_layers_listed")) is listed
