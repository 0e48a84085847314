"""Serving platforms that build vLLM's engine for the user (Xinference): the engine arguments each
release passes (knowledge/frameworks/engine_kwargs.yaml, read from its wheels), under the platform's
own test of the vLLM version evaluated as its code does, against the pinned vLLM; and a custom model
resolved from the project's registration file."""
import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.framework_kwargs import gate_holds

LAUNCH = ("xinference launch --model-name {name} --model-type LLM --model-engine vllm "
          "--model-format {fmt} --size-in-billions {size} --n-gpu {gpus}{extra}\n")


def _site(tmp_path, pins: str, name="qwen2.5-instruct", size=7, gpus=1, fmt="pytorch", extra="", gpu="A100-80GB x1", files=None):
    (tmp_path / "requirements.txt").write_text(pins)
    (tmp_path / "launch.sh").write_text(LAUNCH.format(name=name, size=size, gpus=gpus, fmt=fmt, extra=extra))
    for rel, text in (files or {}).items():
        (tmp_path / rel).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    (sr,) = rep.sites
    return sr, next(r for r in sr.results if r.check.id == "L43")


def _p0(r) -> bool:
    return r.status == "recommended" and r.priority == "P0"


def test_string_version_gates_compare_as_the_platform_does():
    gate = "VLLM_VERSION >= version.parse('0.11.0') or VLLM_VERSION.base_version >= '0.11.0'"
    assert gate_holds(gate, "0.9.2") is True  # "0.9.2" >= "0.11.0" as strings
    assert gate_holds(gate, "0.10.2") is False
    assert gate_holds(gate, "0.11.0") is True
    assert gate_holds("vllm.__version__ >= '0.6.3'", "0.10.0") is False
    assert gate_holds("VLLM_VERSION >= version.parse('0.6.3')", "0.10.0") is True
    assert gate_holds("version.parse('0.3.1') <= VLLM_VERSION <= version.parse('0.3.3')", "0.3.2") is True
    assert gate_holds("is_vllm_ok()", "0.9.2") is None


def test_platform_default_keyword_the_old_vllm_lacks_is_p0_with_both_pairs(tmp_path):
    # Xinference 1.2.2 sets guided_decoding_backend="outlines" on every launch; vLLM 0.3.3 has no such argument
    sr, l43 = _site(tmp_path, "xinference==1.2.2\nvllm==0.3.3\n", name="deepseek-r1-distill-qwen", size=32, gpus=4, gpu="A100-80GB x4")
    assert _p0(l43)
    launch = sr.facts["launch"]
    assert "guided_decoding_backend" in launch["host_problem_text"]
    assert launch["host_fit_vllm"].startswith("==0.4")  # the first vLLM with the argument
    # the nearest Xinference release that passes neither it nor limit_mm_per_prompt (0.15.3-1.0.0)
    assert launch["host_fit_release"] == "==0.15.2"


def test_upgrade_past_the_vllm_beside_it_names_the_release_before(tmp_path):
    # 0.15.3 sets limit_mm_per_prompt for every model (vLLM 0.5.5 on); 0.15.2 did not
    sr, l43 = _site(tmp_path, "xinference==0.15.3\nvllm==0.4.3\n", size=32, gpus=2, gpu="A100-80GB x2")
    assert _p0(l43) and "limit_mm_per_prompt" in sr.facts["launch"]["host_problem_text"]
    assert sr.facts["launch"]["host_fit_release"] == "==0.15.2"


def test_the_bundled_vllm_of_the_same_release_starts(tmp_path):
    _, l43 = _site(tmp_path, "xinference==1.2.2\nvllm==0.6.4.post1\n", name="deepseek-r1-distill-qwen", size=32, gpus=4,
                   gpu="A100-80GB x4")
    assert not _p0(l43)


def test_string_gate_at_request_time_is_p1_not_a_start_failure(tmp_path):
    sr, l43 = _site(tmp_path, "xinference==1.10.1\nvllm==0.9.2\n", name="qwen3", size=32, gpus=2, gpu="A100-80GB x2")
    assert l43.status == "recommended" and l43.priority == "P1"
    assert "structured_outputs" in sr.facts["launch"]["host_request_text"]


@pytest.mark.parametrize("xinf,vllm,broken", [("1.14.0", "0.12.0", True), ("1.14.0", "0.11.2", False), ("1.15.0", "0.12.0", False),
                                               ("1.8.0", "0.12.0", False)])
def test_an_import_every_request_makes_is_p1_where_the_release_removed_it(tmp_path, xinf, vllm, broken):
    # Xinference 1.8.1-1.14.0 import GuidedDecodingParams per generation request; vLLM 0.12.0 removed it,
    # 1.15.0 reads it with getattr (xorbitsai/inference#4353): the model loads, every request fails.
    # 1.4.1-1.8.0 test `vllm.__version__ >= "0.6.3"` as strings, false for "0.12.0": no import there
    sr, l43 = _site(tmp_path, f"xinference=={xinf}\nvllm=={vllm}\n", name="qwen2.5-instruct", size=7)
    assert ("GuidedDecodingParams" in sr.facts["launch"].get("host_request_text", "")) is broken
    if broken:
        assert l43.status == "recommended" and l43.priority == "P1" and sr.facts["launch"]["host_request_fit"] == "==0.11.2"


def test_a_vision_only_keyword_is_not_held_against_a_text_model(tmp_path):
    # 1.0.1: limit_mm_per_prompt only in VLLMVisionModel, under `vllm.__version__ >= "0.5.5"`
    _, l43 = _site(tmp_path, "xinference==1.0.1\nvllm==0.5.4\n", size=7)
    assert not _p0(l43)


REGISTRATION = """{
  "version": 1, "context_length": 32768, "model_name": "my-qwen-coder",
  "model_lang": ["en"], "model_ability": ["chat"], "model_family": "qwen2.5-instruct",
  "model_specs": [
    {"model_format": "pytorch", "model_size_in_billions": 7, "quantizations": ["none"],
     "model_id": "Qwen/Qwen2.5-Coder-7B-Instruct"},
    {"model_format": "awq", "model_size_in_billions": 7, "quantizations": ["Int4"],
     "model_id": "Qwen/Qwen2.5-Coder-7B-Instruct-AWQ"}
  ]
}
"""


def test_custom_model_resolves_from_its_registration_file(tmp_path):
    sr, _ = _site(tmp_path, "xinference==1.2.2\nvllm==0.7.2\n", name="my-qwen-coder", size=7, fmt="awq",
                  extra=" --quantization Int4", files={"my-qwen-coder.json": REGISTRATION})
    assert sr.site.model.value == "Qwen/Qwen2.5-Coder-7B-Instruct-AWQ"
    assert "my-qwen-coder.json" in (sr.site.model.note or "")


def test_custom_model_with_no_fitting_spec_stays_unknown(tmp_path):
    sr, _ = _site(tmp_path, "xinference==1.2.2\nvllm==0.7.2\n", name="my-qwen-coder", size=14, files={"my-qwen-coder.json": REGISTRATION})
    assert sr.site.model.value is None


def _l50(tmp_path, pins: str, extra_files=None, prefix=""):
    (tmp_path / "requirements.txt").write_text(pins)
    (tmp_path / "launch.sh").write_text(prefix + LAUNCH.format(name="MiniCPM-V-2.6", size=8, gpus=1, fmt="pytorch", extra=""))
    for rel, text in (extra_files or {}).items():
        (tmp_path / rel).write_text(text)
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L50")


def test_xinference_2_12_hands_trust_remote_code_only_with_its_server_variable(tmp_path):
    r = _l50(tmp_path, "xinference==2.12.0\nvllm==0.11.0\n")
    assert r.status == "recommended" and r.priority == "P0" and "XINFERENCE_TRUST_REMOTE_CODE=1" in r.reason.en


def test_xinference_server_variable_written_or_an_older_release_is_no_p0(tmp_path):
    assert _l50(tmp_path, "xinference==2.11.0\nvllm==0.11.0\n").status == "enabled"
    r = _l50(tmp_path, "xinference==2.12.0\nvllm==0.11.0\n", prefix="export XINFERENCE_TRUST_REMOTE_CODE=1\n")
    assert not (r.status == "recommended" and r.priority == "P0")


def test_the_server_image_tag_names_both_releases(tmp_path):
    # no requirement file: the Xinference image the project starts gives its release and its bundled vLLM (0.9.2)
    (tmp_path / "Dockerfile").write_text('FROM xprobe/xinference:v1.10.1\nCMD ["xinference-local", "-H", "0.0.0.0"]\n')
    (tmp_path / "launch.sh").write_text(LAUNCH.format(name="qwen3", size=8, gpus=1, fmt="pytorch", extra=""))
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    l43 = next(r for r in sr.results if r.check.id == "L43")
    assert l43.status == "recommended" and l43.priority == "P1" and "structured_outputs" in sr.facts["launch"]["host_request_text"]


@pytest.mark.parametrize("release,length", [("0.12.3", 4096), ("0.15.2", 4096), ("0.15.3", None), ("0.8.4", None)])
def test_xinference_0_8_5_to_0_15_2_cap_the_context_at_4096(tmp_path, release, length):
    """VLLMModel._sanitize_model_config set max_model_len 4096 unless the launch said (0.8.5-0.15.2;
    xorbitsai/inference#2385 made it vLLM's own from 0.15.3): Qwen1.5-14B-Chat-GPTQ-Int4 on a 24 GB card
    then holds its 4096-token requests rather than missing a 32,768-token one (L15)."""
    sr, _ = _site(tmp_path, f"xinference=={release}\nvllm==0.5.0.post1\n", name="qwen1.5-chat", size=14, fmt="gptq",
                  extra=" --quantization Int4", gpu="RTX-4090")
    assert sr.facts["engine"].get("max_model_len") == length  # None: vLLM's own, 32,768 from config.json
    l15 = next(r for r in sr.results if r.check.id == "L15")
    assert (l15.status == "recommended" and l15.priority == "P0") is (length is None)


def test_an_embedding_model_launched_first_shares_the_one_gpu(tmp_path):
    """xorbitsai/inference#1847: m3e-base launched to the same endpoint before the vLLM model takes part of the
    worker's one GPU; L37 says so (P1: what it holds is not known). On two GPUs, or with the embedding
    model pinned elsewhere (--gpu-idx), nothing is said."""
    (tmp_path / "requirements.txt").write_text("xinference==0.12.3\nvllm==0.5.0.post1\n")
    first = "xinference launch -e http://127.0.0.1:9997 --model-name m3e-base --model-type embedding{idx}\n"
    llm = LAUNCH.format(name="qwen1.5-chat", size=14, gpus=1, fmt="gptq", extra=" --quantization Int4").replace(
        "launch ", "launch -e http://127.0.0.1:9997 ", 1)

    def l37(idx="", gpu="RTX-4090"):
        (tmp_path / "launch.sh").write_text(first.format(idx=idx) + llm)
        (sr,) = audit(tmp_path, gpu=gpu).sites
        return sr, next(r for r in sr.results if r.check.id == "L37")

    sr, r = l37()
    assert sr.facts["launch"]["gpu_cotenant"] == "m3e-base (embedding, launch.sh:1)"
    assert r.status == "recommended" and r.priority == "P1"
    assert l37(gpu="RTX-4090 x2")[1].status != "recommended"
    assert "gpu_cotenant" not in l37(idx=" --gpu-idx 1")[0].facts["launch"]
