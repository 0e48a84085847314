"""A KAITO Workspace's preset gets the memory estimate a plain `vllm serve` of its model gets: KAITO
passes gpu_memory_utilization 0.84 from v0.7.0 (knowledge/deploy/kaito.yaml `sets`), the parallelism
is sized from the machine, and the context length KAITO or vLLM fits to memory is never an L15 P0."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

WS = """\
apiVersion: kaito.sh/v1beta1
kind: Workspace
metadata: {{name: ws}}
resource: {{instanceType: {machine}}}
inference:
  preset: {{name: {preset}}}
{config}"""

CM = """\
---
apiVersion: v1
kind: ConfigMap
metadata: {{name: params}}
data:
  inference_config.yaml: |
    vllm:
      {key}
"""


def _site(tmp_path, machine, preset, key=None, pin="vllm==0.26.0\n"):
    config = '  config: "params"\n' + CM.format(key=key) if key else ""
    (tmp_path / "ws.yaml").write_text(WS.format(machine=machine, preset=preset, config=config))
    (tmp_path / "requirements.txt").write_text(pin)
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    p0 = sorted(r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended")
    return p0, sr


def _status(sr, check):
    return next(r.status for r in sr.results if r.check.id == check)


def test_kaito_passes_084_and_the_preset_gets_an_estimate(tmp_path):
    p0, sr = _site(tmp_path, "Standard_NC24ads_A100_v4", "phi-4-mini-instruct")
    gmu = sr.site.settings["gpu_memory_utilization"]
    assert gmu.value == 0.84 and gmu.resolved and gmu.implied and "KAITO v0.7.0+" in gmu.note
    assert sr.facts["memory"]["kv_cache_gib"] > 40  # 3.8B on one A100 80GB
    assert not sr.site.settings["tensor_parallel_size"].resolved  # still KAITO's choice for the checks
    assert p0 == []


def test_weights_that_leave_nothing_at_084_are_l16_p0_and_not_fixed(tmp_path, cli):
    # Llama 3.3 70B in 16 bits over two A100 80GB: ≈65.7 GiB per GPU of 0.84 × 79.3 GiB
    p0, sr = _site(tmp_path, "Standard_NC48ads_A100_v4", "llama-3.3-70b-instruct")
    assert "L16" in p0 and sr.facts["memory"]["kv_cache_gib"] <= 0
    before = (tmp_path / "ws.yaml").read_text()
    cli("audit", str(tmp_path), "--fix", "--unsafe-fixes")
    assert (tmp_path / "ws.yaml").read_text() == before  # KAITO's value: overridden in its ConfigMap


def test_the_configmap_utilization_wins(tmp_path):
    p0, sr = _site(tmp_path, "Standard_NC48ads_A100_v4", "llama-3.3-70b-instruct",
                   key="gpu-memory-utilization: 0.95")
    assert sr.site.settings["gpu_memory_utilization"].value == 0.95
    assert "L16" not in p0 and sr.facts["memory"]["kv_cache_gib"] > 0


def test_a_fitted_context_is_never_l15_p0_but_a_written_one_is(tmp_path):
    # Qwen2.5-Coder-32B on one A100 80GB (KAITO's own example): its 32K context needs more KV cache
    # than 0.84 leaves, but KAITO computes the length (to v0.10) or passes `auto` (from v0.11)
    p0, sr = _site(tmp_path, "Standard_NC24ads_A100_v4", "qwen2.5-coder-32b-instruct")
    mem = sr.facts["memory"]
    assert 0 < mem["kv_cache_gib"] < 8 and not mem["fits_max_model_len"]
    assert "L15" not in p0 and _status(sr, "L15") == "unknown" and p0 == []
    # the same length written in the ConfigMap is the user's: vLLM refuses it
    p0, sr = _site(tmp_path, "Standard_NC24ads_A100_v4", "qwen2.5-coder-32b-instruct", key="max-model-len: 32768")
    assert "L15" in p0


def test_the_estimate_is_the_one_a_plain_serve_gets(tmp_path):
    (tmp_path / "k").mkdir()
    _, sr = _site(tmp_path / "k", "Standard_NC24ads_A100_v4", "qwen2.5-coder-32b-instruct")
    plain = tmp_path / "p"
    plain.mkdir()
    serve = "vllm serve Qwen/Qwen2.5-Coder-32B-Instruct --gpu-memory-utilization 0.84"
    (plain / "serve.sh").write_text(f"#!/bin/sh\n{serve}\n")
    (plain / "requirements.txt").write_text("vllm==0.26.0\n")
    (ps,) = audit(plain, gpu="A100-80GB x1").sites
    for key in ("weights_per_gpu_gib", "kv_cache_gib"):
        assert sr.facts["memory"][key] == ps.facts["memory"][key], key


def test_mistral_small_4_is_sized_as_its_fp8_upload(tmp_path):
    # its 119B weights in 16 bits would not fit two H100 NVL at all; the published FP8 upload loads
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve mistralai/Mistral-Small-4-119B-2603 -tp 2\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.26.0\n")
    (sr,) = audit(tmp_path, gpu="H100-NVL-94GB x2").sites
    assert sr.facts["model"]["quantized"] and sr.facts["memory"]["weights_per_gpu_gib"] < 60
    assert not [r for r in sr.results if r.check.id == "L16" and r.priority == "P0" and r.status == "recommended"]


def test_mistral_small_4_caches_its_mla_latent(tmp_path):
    # vLLM builds it from params.json as deepseek_v3 (MLA): 36 layers x (256 + 64) x 2 bytes = 23,040
    # bytes a token on every rank, the 22.5 GiB one 1,048,576-token request needs in KAITO's report
    # (https://github.com/kaito-project/kaito/issues/2132), where vLLM had 17.39 GiB free for it. Sized
    # as K and V per head (12.8x more) a 262,144-token context got a false L15 P0.
    (tmp_path / "serve.sh").write_text(
        "#!/bin/sh\nvllm serve mistralai/Mistral-Small-4-119B-2603 -tp 2 --max-model-len 262144\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.22.0\n")
    (sr,) = audit(tmp_path, gpu="H100-NVL-94GB x2").sites
    assert sr.facts["memory"]["kv_bytes_per_token_per_gpu"] == 23040
    assert _status(sr, "L15") != "recommended"
