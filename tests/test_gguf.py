"""L135 gguf-architecture: the GGUF header reader, the transformers fit and the table's tool."""
from __future__ import annotations

import struct
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.gguf_fit import gguf_fit
from vllm_kb.engine.kb.gguf_header import architecture_of, read_architecture

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import vllm_gguf  # noqa: E402

TABLE = yaml.safe_load((ROOT / "knowledge" / "vllm" / "gguf.yaml").read_text(encoding="utf-8"))
TYPES = yaml.safe_load((ROOT / "knowledge" / "vllm" / "model_types.yaml").read_text(encoding="utf-8"))
DATES = yaml.safe_load((ROOT / "knowledge" / "vllm" / "release_dates.yaml").read_text(encoding="utf-8"))["released"]


def _s(text: str, wide: bool = True) -> bytes:
    raw = text.encode()
    return struct.pack("<Q" if wide else "<I", len(raw)) + raw


def header(arch: str, version: int = 3, before: int = 2) -> bytes:
    wide = version >= 2
    n = struct.pack("<Q" if wide else "<I", 0) + struct.pack("<Q" if wide else "<I", before + 1)
    kvs = b""
    for i in range(before):  # a u32, then an array of strings, before the key
        kvs += _s(f"general.k{i}", wide) + struct.pack("<I", 4) + struct.pack("<I", 7) if i % 2 == 0 else \
            _s(f"general.a{i}", wide) + struct.pack("<I", 9) + struct.pack("<I", 8) + struct.pack("<Q" if wide else "<I", 2) + _s("x", wide) + _s("yz", wide)
    kvs += _s("general.architecture", wide) + struct.pack("<I", 8) + _s(arch, wide)
    return b"GGUF" + struct.pack("<I", version) + n + kvs


def test_header_reads_the_architecture_in_every_version():
    assert architecture_of(header("qwen3moe")) == "qwen3moe"
    assert architecture_of(header("llama", version=1)) == "llama"
    assert architecture_of(header("deepseek2", before=5)) == "deepseek2"


def test_header_refuses_what_is_not_gguf_or_is_cut():
    assert architecture_of(b"PK\x03\x04" + b"\0" * 64) is None
    assert architecture_of(header("gemma3")[:-3]) is None
    assert architecture_of(b"") is None


def test_only_files_inside_the_project_are_read(tmp_path):
    (tmp_path / "proj").mkdir()
    (tmp_path / "outside.gguf").write_bytes(header("olmo2"))
    (tmp_path / "proj" / "m.gguf").write_bytes(header("olmo2"))
    assert read_architecture(tmp_path / "proj", "m.gguf") == "olmo2"
    assert read_architecture(tmp_path / "proj", "../outside.gguf") is None
    assert read_architecture(tmp_path / "proj", str(tmp_path / "outside.gguf")) is None
    assert read_architecture(tmp_path / "proj", "m.safetensors") is None


def _facts(release: str, name: str, **model) -> dict:
    return {"vllm": {"version": release}, "model": {"name": name, **model}, "launch": {}}


def test_a_pin_older_than_the_architecture_fails_and_names_the_pin():
    pin = SimpleNamespace(spec="==4.51.3", text="transformers==4.51.3", file="requirements.txt", line=2)
    got = gguf_fit(_facts("0.8.5", "/m/Qwen3-30B-A3B-Q4_K_M.gguf", model_type="qwen3_moe"), None, None, pin, TABLE, TYPES, None, DATES)
    assert got["gguf_arch"] == "qwen3moe" and got["gguf_tf_ok"] is False
    assert got["gguf_tf_since"] == "4.55.0" and got["gguf_tf_fix"] == ">=4.55.0"


def test_requirement_alone_allows_a_newer_transformers():
    got = gguf_fit(_facts("0.8.5", "/m/Qwen3-30B-A3B-Q4_K_M.gguf", model_type="qwen3_moe"), None, None, None, TABLE, TYPES, None, DATES)
    assert got["gguf_tf_ok"] is True and got["gguf_tf_floor"] is True


def test_an_image_whose_requirement_excludes_the_reader_moves_the_release():
    got = gguf_fit(_facts("0.14.0", "/u/MiniMax-M2.1-UD-IQ2_M-00001-of-00002.gguf", architecture="MiniMaxM2ForCausalLM"),
                   None, None, None, TABLE, TYPES, "vllm/vllm-openai:v0.14.0", DATES)
    assert got["gguf_arch"] == "minimax-m2" and got["gguf_tf_ok"] is False
    assert "gguf_tf_fix" not in got  # vLLM 0.14.0 requires transformers<5; the reader came in 5.4
    assert got["gguf_vllm_fix"] == f"=={got['gguf_vllm_first']}"


def test_no_transformers_reads_deepseek2_and_releases_outside_gguf_say_nothing():
    got = gguf_fit(_facts("0.8.1", "/m/DeepSeek-R1-UD-IQ1_S.gguf", model_type="deepseek_v3"), None, None, None, TABLE, TYPES, None, DATES)
    assert got["gguf_tf_ok"] is False and "gguf_tf_since" not in got
    assert gguf_fit(_facts("0.24.0", "/m/DeepSeek-R1-UD-IQ1_S.gguf", model_type="deepseek_v3"), None, None, None, TABLE, TYPES, None, DATES) == {}
    assert gguf_fit(_facts("0.8.1", "deepseek-ai/DeepSeek-R1", model_type="deepseek_v3"), None, None, None, TABLE, TYPES, None, DATES) == {}


def test_qwen3_next_files_are_named_qwen3next_which_no_transformers_reads():
    """vLLM #30023: Qwen's own Qwen3-Next GGUF says general.architecture "qwen3next" (llama.cpp's
    MODEL_ARCH.QWEN3NEXT), and the v0.11.0 image refused it while reading the config."""
    got = gguf_fit(_facts("0.11.0", "/models/Qwen3-Next-80B-A3B-Thinking-Q4_K_M.gguf", model_type="qwen3_next"),
                   None, None, None, TABLE, TYPES, "vllm/vllm-openai:v0.11.0", DATES)
    assert got["gguf_arch"] == "qwen3next" and got["gguf_arch_from"] == "model name"
    assert got["gguf_tf_ok"] is False and "gguf_tf_since" not in got
    assert TABLE["arch_of_class"]["Qwen3NextForCausalLM"] == "qwen3next"


def test_ernie_45_files_are_named_as_llama_cpp_writes_them_which_no_transformers_reads():
    """PaddlePaddle/ERNIE#1389: an ERNIE-4.5-21B-A3B GGUF says general.architecture "ernie4_5-moe"
    (llama.cpp's MODEL_ARCH.ERNIE4_5_MOE), and transformers refused it while vLLM 0.11.2 read the config."""
    got = gguf_fit(_facts("0.11.2", "/data/ERNIE-4.5-21B-A3B-PT-Q4_K_M.gguf", model_type="ernie4_5_moe"),
                   None, None, None, TABLE, TYPES, None, DATES)
    assert got["gguf_arch"] == "ernie4_5-moe" and got["gguf_tf_ok"] is False and "gguf_tf_since" not in got
    assert TABLE["arch_of_model_type"]["ernie4_5"] == "ernie4_5"
    assert TABLE["arch_of_class"]["Ernie4_5_MoeForCausalLM"] == "ernie4_5-moe"


def _audit(tmp_path: Path, arch: str, release: str, extra: str = "") -> str | None:
    (tmp_path / "models").mkdir(parents=True)
    (tmp_path / "models" / "my-finetune-Q4_K_M.gguf").write_bytes(header(arch))
    (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve models/my-finetune-Q4_K_M.gguf --tokenizer meta-llama/Llama-3.1-8B-Instruct {extra}\n")
    rep = audit(tmp_path, gpu="H100-80GB")
    (sr,) = rep.sites
    r = next(r for r in sr.results if r.check.id == "L135")
    return r.status, r.priority, sr.facts["launch"].get("gguf_arch_from")


def test_the_file_header_decides_in_a_project(tmp_path):
    assert _audit(tmp_path / "a", "olmo2", "0.10.2") == ("recommended", "P0", "file header")
    assert _audit(tmp_path / "b", "llama", "0.10.2")[0] == "enabled"


def test_hf_config_path_with_a_tokenizer_counts_only_before_0_11(tmp_path):
    flags = "--hf-config-path allenai/OLMo-2-1124-7B-Instruct"
    assert _audit(tmp_path / "a", "olmo2", "0.10.2", flags)[0] == "enabled"
    assert _audit(tmp_path / "b", "olmo2", "0.11.0", flags)[:2] == ("recommended", "P0")


def test_tool_reads_renames_only_where_the_refusal_tests_them():
    utils = '''
GGUF_TO_TRANSFORMERS_MAPPING = {"config": GGUF_CONFIG_MAPPING}
GGUF_SUPPORTED_ARCHITECTURES = list(GGUF_TO_TRANSFORMERS_MAPPING["config"].keys())
def load_gguf_checkpoint(path):
    architecture = read_field(reader, "general.architecture")[0]
    if "qwen3moe" in architecture:
        updated_architecture = "qwen3_moe"
    elif "gpt-oss" in architecture or "gpt_oss" in architecture:
        updated_architecture = "gpt_oss"
    if architecture not in GGUF_SUPPORTED_ARCHITECTURES and updated_architecture not in GGUF_SUPPORTED_ARCHITECTURES:
        raise ValueError(f"GGUF model with architecture {architecture} is not supported yet.")
'''
    ggml = 'GGUF_CONFIG_MAPPING = {"general": {}, "llama": {}, "qwen3_moe": {}, "gpt_oss": {}}\n'
    acc, wording = vllm_gguf.transformers_accepts(utils, ggml)
    assert acc == {"llama", "qwen3_moe", "qwen3moe", "gpt_oss", "gpt-oss"}
    assert wording == "GGUF model with architecture {architecture} is not supported yet."
    acc, _ = vllm_gguf.transformers_accepts(utils.replace(" and updated_architecture not in GGUF_SUPPORTED_ARCHITECTURES", ""), ggml)
    assert acc == {"llama", "qwen3_moe", "gpt_oss"}


WHEELS = sorted(Path("/tmp/model_tf/whl").glob("transformers-*.whl"))


@pytest.mark.skipif(not WHEELS or not Path("/work/sdists/src/0.23.0").is_dir(), reason="needs the transformers wheels and vLLM's sdists")
def test_table_is_what_the_tool_writes():
    newest = max(WHEELS, key=lambda w: tuple(int(x) for x in vllm_gguf._WHEEL.search(w.name).groups()))
    text = vllm_gguf.render(*vllm_gguf.read_transformers(WHEELS), vllm_gguf.read_vllm(Path("/work/sdists/src")),
                            vllm_gguf.classes_of(newest))
    assert text == (ROOT / "knowledge" / "vllm" / "gguf.yaml").read_text(encoding="utf-8")


def test_vllm_gguf_plugin_keeps_gguf_off_p0_from_0_24(tmp_path):
    """vLLM 0.24 moved GGUF to vllm-gguf-plugin: with the plugin installed, D5 and L10 do not say
    the launch cannot start (whether the plugin loads the model is its own release's business)."""
    (tmp_path / "serve.sh").write_text("vllm serve /models/Qwen3-8B-Q4_K_M.gguf --tokenizer Qwen/Qwen3-8B\n")

    def verdicts(reqs: str) -> dict:
        (tmp_path / "requirements.txt").write_text(reqs)
        (sr,) = audit(tmp_path, gpu="H100-80GB").sites
        return {r.check.id: r.priority for r in sr.results if r.check.id in ("D5", "L10") and r.status == "recommended"}

    assert verdicts("vllm==0.24.0\n") == {"D5": "P0", "L10": "P0"}
    assert verdicts("vllm==0.24.0\nvllm-gguf-plugin\n") == {"D5": "P1"}


def test_a_gguf_file_served_with_another_repositorys_config_is_not_sized_as_that_repository(write_project):
    # vLLM #36456: the config of Qwen/Qwen3.5-27B (BF16) names the architecture; the weights are the
    # Q4_K_M file, whose width the name does not give — no "weights do not fit" from BF16 sizes
    serve = ("vllm serve /models/Qwen3.5-27B-Q4_K_M.gguf --hf-config-path Qwen/Qwen3.5-27B "
             "--tokenizer Qwen/Qwen3.5-27B --max-model-len 32768\n")
    rep = audit(write_project({"requirements.txt": "vllm==0.17.0\n", "serve.sh": serve}), gpu="RTX-4090")
    (sr,) = rep.sites
    assert sr.facts["model"]["quant_method"] == "gguf" and sr.facts["model"]["name"].endswith(".gguf")
    assert not [r for r in sr.results if r.check.id in ("L1", "L16") and r.status == "recommended" and r.priority == "P0"]
