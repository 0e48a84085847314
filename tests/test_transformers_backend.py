"""The Transformers backend an unregistered architecture falls back to (0.7.2+), and what it cannot
run (knowledge/vllm/transformers_backend.yaml, tools/vllm_transformers_backend.py): layers that are
not attention (refused by name from 0.30.0), and layers of two head sizes before 0.28.0, when every
layer got one (EuroEval #1866: Gemma 4 12B on 0.22.0). A model the backend can run keeps L21's P1."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_fallback import fallback_facts
from vllm_kb.engine.kb.knowledge import load

KB = load()
TABLE = KB.doc("vllm", "transformers_backend.yaml").data
ROOT = Path(__file__).resolve().parent.parent
SRC, WHEELS = Path("/work/scratch/sdists/src"), Path("/work/scratch/sdists/tfw")


def test_the_table_is_what_the_sources_say():
    if not (SRC / "0.34.0").is_dir() or not any(WHEELS.glob("transformers-5.25.*.whl")):
        pytest.skip("the vLLM sdists and transformers wheels are not here")
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "vllm_transformers_backend.py"), "--check", str(SRC), str(WHEELS)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_release_facts():
    assert TABLE["fallback"][0][0] == "0.7.2"
    assert TABLE["one_head_size"] == [["0.7.2", "0.27.1"]]
    assert TABLE["layer_refusal"][0][0] == "0.30.0"
    assert TABLE["classes"]["TransformersMultiModalMoEForCausalLM"][0][0] == "0.11.1"
    assert {"qwen3_next", "glm5_next", "nemotron_h"} <= set(TABLE["linear_layers"])
    assert {"gemma4", "gemma4_unified"} <= set(TABLE["mixed_head_dim"])
    assert not {"llama", "qwen3", "deepseek_v4"} & (set(TABLE["linear_layers"]) | set(TABLE["mixed_head_dim"]))


def test_what_the_backend_cannot_run():
    assert fallback_facts({"model_type": "gemma4_unified"}, TABLE, "0.22.0") == {"arch_fallback_fails": "head_size"}
    assert fallback_facts({"model_type": "gemma4_unified"}, TABLE, "0.28.0") == {}  # each layer its own geometry
    assert fallback_facts({"model_type": "glm5_next"}, TABLE, "0.30.0")["arch_fallback_fails"] == "linear"
    assert fallback_facts({"model_type": "glm5_next"}, TABLE, "0.28.0") == {"arch_fallback_doubt": "linear"}
    assert fallback_facts({"model_type": "qwen3"}, TABLE, "0.8.3") == {}
    assert fallback_facts({"model_type": "glm5_next"}, TABLE, "0.7.1") == {}  # no fallback at all
    assert fallback_facts({}, TABLE, "0.30.0") == {}


def _l21(tmp_path: Path, pin: str, model: str) -> tuple[str | None, str | None]:
    (tmp_path / "requirements.txt").write_text(pin + "\n", encoding="utf-8")
    (tmp_path / "serve.sh").write_text(f"#!/bin/bash\nvllm serve {model}\n", encoding="utf-8")
    rep = audit(tmp_path, gpu="H100")
    for site in rep.sites:
        for r in site.results:
            if r.check.id == "L21":
                return r.status, r.priority
    return None, None


def test_gemma4_12b_on_0220_is_refused_and_on_0230_registered(tmp_path):
    status, prio = _l21(tmp_path, "vllm==0.22.0", "google/gemma-4-12B-it")
    assert (status, prio) == ("recommended", "P0")
    (tmp_path / "b").mkdir()
    assert _l21(tmp_path / "b", "vllm==0.23.0", "google/gemma-4-12B-it")[0] == "enabled"


def test_a_model_the_backend_runs_stays_p1(tmp_path):
    # Qwen3 on 0.8.3: no vLLM class yet, plain attention: the backend takes it
    status, prio = _l21(tmp_path, "vllm==0.8.3", "Qwen/Qwen3-8B")
    assert (status, prio) == ("recommended", "P1")


def test_glm53_flash_before_its_release_is_p1(tmp_path):
    status, prio = _l21(tmp_path, "vllm==0.28.0", "zai-org/GLM-5.3-Flash")
    assert (status, prio) == ("recommended", "P1")


def test_image_features_as_a_pair():
    # Qwen3-VL's get_image_features returns (embeddings, deepstack) from transformers 4.57.0; the
    # multimodal class hands it on unchanged in 0.10.0-0.14.1 (0.15.0 takes the first item)
    assert TABLE["mm_features_passthrough"] == [["0.10.0", "0.14.1"]]
    assert {"qwen3_vl", "qwen3_vl_moe"} <= set(TABLE["mm_tuple_features"])
    assert not {"qwen2_5_vl", "llava", "gemma3"} & set(TABLE["mm_tuple_features"])
    mm = {"model_type": "qwen3_vl", "multimodal": True}
    assert fallback_facts(mm, TABLE, "0.10.1.1") == {"arch_fallback_fails": "mm_features"}
    assert fallback_facts(mm, TABLE, "0.10.0") == {"arch_fallback_fails": "mm_features"}
    assert fallback_facts(mm, TABLE, "0.15.0") == {}
    # no dummy image in the memory profiling: the engine starts (the first image request fails)
    assert fallback_facts(mm, TABLE, "0.10.1.1", {"skip_mm_profiling": True}) == {}
    assert fallback_facts(mm, TABLE, "0.10.1.1", {"limit_mm_per_prompt": '{"image": 0}'}) == {}
    assert fallback_facts(mm, TABLE, "0.10.1.1", {"task": "embed"}) == {}
    assert fallback_facts({**mm, "multimodal": False}, TABLE, "0.10.1.1") == {}


def test_qwen3_vl_before_its_release_is_refused(tmp_path):
    # ms-swift #6183, vLLM-Kunlun #89: Qwen3-VL on 0.10.1.1 stops in profile_run
    assert _l21(tmp_path, "vllm==0.10.1.1", "Qwen/Qwen3-VL-8B-Instruct") == ("recommended", "P0")
    (tmp_path / "b").mkdir()
    assert _l21(tmp_path / "b", "vllm==0.11.0", "Qwen/Qwen3-VL-8B-Instruct")[0] == "enabled"
    (tmp_path / "c").mkdir()  # the same launch with Qwen2.5-VL, which 0.10.1.1 implements
    assert _l21(tmp_path / "c", "vllm==0.10.1.1", "Qwen/Qwen2.5-VL-7B-Instruct")[0] == "enabled"
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "requirements.txt").write_text("vllm==0.10.1.1\n", encoding="utf-8")
    (tmp_path / "d" / "serve.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen3-VL-8B-Instruct --skip-mm-profiling\n",
                                             encoding="utf-8")
    rep = audit(tmp_path / "d", gpu="H100")
    got = [(r.status, r.priority) for s in rep.sites for r in s.results if r.check.id == "L21"]
    assert got == [("recommended", "P1")]


def test_a_class_without_the_attention_backend_flag_is_refused_by_the_gate():
    # 0.8.3-0.29.0 ask the transformers class is_backend_compatible() (`_supports_attention_backend`
    # alone; 0.7.2-0.8.2 `_supports_flex_attn`, 0.30.0+ also `_can_set_attn_implementation()`)
    assert TABLE["gate_attention_backend"] == [["0.8.3", "0.29.0"]]
    assert {"qwen3_next", "stablelm", "jamba"} <= set(TABLE["no_attention_backend"])
    assert not {"llama", "qwen3", "qwen3_vl", "gemma3", "qwen2_5_vl"} & set(TABLE["no_attention_backend"])
    assert fallback_facts({"model_type": "qwen3_next"}, TABLE, "0.10.1.1") == {"arch_fallback_fails": "compat"}
    assert fallback_facts({"model_type": "qwen3_next"}, TABLE, "0.8.2") == {"arch_fallback_doubt": "linear"}
    assert fallback_facts({"model_type": "qwen3_next"}, TABLE, "0.30.0")["arch_fallback_fails"] == "linear"


def test_qwen3_next_before_its_release_is_refused(tmp_path):
    assert _l21(tmp_path, "vllm==0.10.1.1", "Qwen/Qwen3-Next-80B-A3B-Instruct") == ("recommended", "P0")
    (tmp_path / "b").mkdir()
    assert _l21(tmp_path / "b", "vllm==0.10.2", "Qwen/Qwen3-Next-80B-A3B-Instruct")[0] == "enabled"


def test_a_transformers_pin_without_the_model_type_leaves_the_cause_to_l52(tmp_path):
    # transformers 4.55.4 has no qwen3_vl: AutoConfig fails before any fallback (L52's P0); L21 says P1
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1.1\ntransformers==4.55.4\n", encoding="utf-8")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen3-VL-8B-Instruct\n", encoding="utf-8")
    rep = audit(tmp_path, gpu="H100")
    got = {r.check.id: r.priority for s in rep.sites for r in s.results if r.status == "recommended"}
    assert got.get("L52") == "P0" and got.get("L21") == "P1"


def test_no_transformers_the_release_allows_maps_the_type():
    # vLLM 0.16.0 requires transformers>=4.56.0,<5 (requirements/common.txt:10); Qwen3.5's types came in 5.2.0
    mm = {"model_type": "qwen3_5_moe", "multimodal": True}
    assert fallback_facts(mm, TABLE, "0.16.0", tf_has_type=False) == {"arch_fallback_fails": "no_type"}
    # remote code whose auto_map names a model class: the backend may run the repository's class
    assert fallback_facts({**mm, "auto_map": ["AutoConfig", "AutoModelForCausalLM"]}, TABLE, "0.16.0", tf_has_type=False) \
        == {"arch_fallback_doubt": "linear"}
    assert fallback_facts(mm, TABLE, "0.7.1", tf_has_type=False) == {}  # no fallback at all: arch_fallback none says it


def _run(tmp_path: Path, files: dict[str, str]) -> dict[str, str]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    rep = audit(tmp_path, gpu="H100")
    return {r.check.id: r.priority for s in rep.sites for r in s.results if r.status == "recommended"}


def test_qwen35_in_a_worker_image_of_0160_is_refused(tmp_path):
    # runpod worker-vllm #279: the worker's image holds vLLM 0.16.0, whose transformers<5 has no qwen3_5_moe
    compose = ("services:\n  worker:\n    image: runpod/worker-v1-vllm:v2.14.0\n    environment:\n"
               "      MODEL_NAME: Qwen/Qwen3.5-35B-A3B\n")
    got = _run(tmp_path, {"requirements.txt": "vllm==0.16.0\n", "docker-compose.yml": compose})
    assert got.get("L21") == "P0"
    # 0.17.0 implements the class (and reads the type with its own config class): transformers 4.x serves it
    got = _run(tmp_path / "b", {"requirements.txt": "vllm==0.17.0\ntransformers==4.57.6\n",
                                "serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen3.5-35B-A3B\n"})
    assert "L21" not in got and "L52" not in got


def test_a_pip_installation_leaves_the_cause_to_l52_and_an_own_pin_past_the_range_to_p1(tmp_path):
    got = _run(tmp_path, {"requirements.txt": "vllm==0.16.0\n", "serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen3.5-35B-A3B\n"})
    assert got.get("L52") == "P0" and got.get("L21") == "P1"
    # transformers 5.2.0 installed over vLLM's requirement knows the type: the fallback may run it
    got = _run(tmp_path / "b", {"requirements.txt": "vllm==0.16.0\ntransformers==5.2.0\n",
                                "serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen3.5-35B-A3B\n"})
    assert got.get("L21") == "P1" and "L52" not in got
