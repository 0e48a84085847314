"""The catalog's facts beyond names (tools/catalog_extract: configs, registries,
runtime_defaults, features) on a tiny synthetic release written in the vLLM idioms each
extractor reads; and the catalog reader (engine/kb/catalog.py) answering from them."""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from vllm_catalog_extract import snapshot_from_source  # noqa: E402

from vllm_kb.engine.kb.catalog import Catalog, gpu_matches  # noqa: E402

TREE = {
    "vllm/__init__.py": "",
    "vllm/envs.py": """
        import os
        environment_variables = {
            "VLLM_USE_V1": lambda: bool(int(os.getenv("VLLM_USE_V1", "1"))),
            "VLLM_WORKER_MULTIPROC_METHOD": lambda: os.getenv("VLLM_WORKER_MULTIPROC_METHOD", "fork"),
        }
    """,
    "vllm/config/__init__.py": "",
    "vllm/config/compilation.py": """
        import enum
        from dataclasses import dataclass
        from typing import Literal

        class CompilationMode(enum.IntEnum):
            NONE = 0
            VLLM_COMPILE = 3

        class CUDAGraphMode(enum.Enum):
            NONE = 0
            FULL = 2

        @dataclass
        class CompilationConfig:
            mode: CompilationMode | None = None
            cudagraph_mode: CUDAGraphMode | None = None
            max_cudagraph_capture_size: int | None = None
            _private: int = 0
    """,
    "vllm/config/attention.py": """
        from dataclasses import dataclass
        from typing import Literal

        @dataclass
        class AttentionConfig:
            flash_attn_version: Literal[2, 3] | None = None
    """,
    "vllm/config/speculative.py": """
        from typing import Literal
        SpeculativeMethod = Literal["ngram", "eagle", "draft_model", "deepseek_mtp", "mtp"]

        class SpeculativeConfig:
            def use_eagle(self):
                return self.method in ("eagle", "mtp")
    """,
    "vllm/engine/__init__.py": "",
    "vllm/usage/__init__.py": "",
    "vllm/engine/arg_utils.py": """
        from dataclasses import dataclass, field
        from typing import Literal
        from vllm.config.attention import AttentionConfig
        from vllm.config.compilation import CompilationConfig

        GiB_bytes = 1 << 30

        @dataclass
        class EngineArgs:
            kv_cache_dtype: str = "auto"
            max_num_seqs: int | None = None
            max_num_batched_tokens: int | None = None
            compilation_config: CompilationConfig = field(default_factory=CompilationConfig)
            attention_config: AttentionConfig = field(default_factory=AttentionConfig)
            performance_mode: Literal["balanced", "throughput"] = "balanced"

            def _is_v1_supported_oracle(self, model_config):
                if self.kv_cache_dtype != "auto":
                    _raise_or_fallback(feature_name="--kv-cache-dtype", recommend_to_remove=False)
                    return False
                name = "Concurrent Partial Prefill"
                if self.max_num_seqs > 9999:
                    _raise_or_fallback(feature_name=name, recommend_to_remove=True)
                return True

            @classmethod
            def get_batch_defaults(cls, world_size):
                try:
                    device_memory = current_platform.get_device_total_memory()
                    device_name = current_platform.get_device_name().lower()
                except Exception:
                    device_memory = 0
                if device_memory >= 70 * GiB_bytes and "a100" not in device_name:
                    default_max_num_batched_tokens = {UsageContext.LLM_CLASS: 16384, UsageContext.OPENAI_API_SERVER: 8192}
                    default_max_num_seqs = {UsageContext.LLM_CLASS: 1024, UsageContext.OPENAI_API_SERVER: 1024}
                else:
                    default_max_num_batched_tokens = {UsageContext.LLM_CLASS: 8192, UsageContext.OPENAI_API_SERVER: 2048}
                    default_max_num_seqs = {UsageContext.LLM_CLASS: 256, UsageContext.OPENAI_API_SERVER: 256}
                if current_platform.is_tpu():
                    default_max_num_batched_tokens = {UsageContext.LLM_CLASS: 1, UsageContext.OPENAI_API_SERVER: 1}
                return default_max_num_batched_tokens, default_max_num_seqs

            def _set_default_max_num_seqs_and_batched_tokens_args(self, usage_context):
                default_max_num_batched_tokens, default_max_num_seqs = self.get_batch_defaults(1)
                orig_max_num_seqs = self.max_num_seqs
                if self.max_num_seqs is None:
                    self.max_num_seqs = default_max_num_seqs.get(usage_context, 128)
                if self.performance_mode == "throughput":
                    if orig_max_num_seqs is None:
                        self.max_num_seqs *= 2
    """,
    "vllm/worker/__init__.py": "",
    "vllm/worker/worker.py": "class Worker: pass\n",
    "vllm/v1/__init__.py": "",
    "vllm/v1/engine/__init__.py": "",
    "vllm/v1/engine/core.py": "class EngineCore: pass\n",
    "vllm/v1/worker/__init__.py": "",
    "vllm/v1/worker/gpu_model_runner.py": """
        class GPUModelRunner:
            def __init__(self):
                if self.speculative_config.method == "ngram":
                    self.drafter = 1
                elif self.speculative_config.use_eagle():
                    self.drafter = 2
                else:
                    raise ValueError("Unknown speculative decoding method: x")
    """,
    "vllm/entrypoints/__init__.py": "",
    "vllm/entrypoints/utils.py": """
        import os

        def cli_env_setup():
            if "VLLM_WORKER_MULTIPROC_METHOD" not in os.environ:
                os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
    """,
    "vllm/entrypoints/cli/__init__.py": "",
    "vllm/entrypoints/cli/main.py": """
        from vllm.entrypoints.utils import cli_env_setup

        def main():
            cli_env_setup()
    """,
    "vllm/tool_parsers/__init__.py": """
        _TOOL_PARSERS_TO_REGISTER = {"hermes": ("hermes_tool_parser", "Hermes"), "kimi_k2": ("k", "K")}
    """,
    "vllm/reasoning/__init__.py": "",
    "vllm/reasoning/deepseek.py": """
        @ReasoningParserManager.register_module(["deepseek_r1", "deepseek_v3"])
        class DeepSeekR1ReasoningParser: pass
    """,
}


@pytest.fixture(scope="module")
def snap(tmp_path_factory):
    root = tmp_path_factory.mktemp("rel")
    for rel, text in TREE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return snapshot_from_source(root, "9.9.9")


def test_config_fields_with_enum_values_and_literals(snap):
    cf = snap["config_fields"]
    assert cf["compilation_config.mode"] == {"type": "int", "default": None, "choices": [0, 3],
                                             "names": {"NONE": 0, "VLLM_COMPILE": 3}}
    assert cf["compilation_config.cudagraph_mode"]["choices"] == ["NONE", "FULL"]
    assert cf["attention_config.flash_attn_version"]["choices"] == [2, 3]
    assert "compilation_config._private" not in cf


def test_registered_parsers_and_level_enums(snap):
    en = snap["enums"]
    assert en["tool_call_parser"]["values"] == ["hermes", "kimi_k2"]
    assert en["reasoning_parser"]["values"] == ["deepseek_r1", "deepseek_v3"]
    assert en["compilation_modes"] == {"values": [0, 3], "names": {"NONE": 0, "VLLM_COMPILE": 3}}


def test_context_defaults_by_gpu_tier_and_performance_mode(snap):
    cd = snap["context_defaults"]
    assert cd["max_num_seqs"] == {"rules": [{"when": {"min_memory_gib": 70, "name_lacks": ["a100"]}, "llm": 1024, "serve": 1024},
                                            {"llm": 256, "serve": 256}], "other": 128}
    assert cd["max_num_batched_tokens"]["rules"][1] == {"llm": 8192, "serve": 2048}  # the TPU branch is dropped
    assert snap["performance_modes"] == {"throughput": {"effects": {"max_num_seqs": {"multiply": 2, "when_unset": True}}}}


def test_engine_and_feature_facts(snap):
    ft = {k: v["value"] for k, v in snap["features"].items()}
    assert ft["engine.v0"] is True and ft["engine.v1"] is True and ft["engine.default"] == "v1"
    assert ft["engine.v1_fallbacks"] == [{"feature": "--kv-cache-dtype", "args": ["kv_cache_dtype"]},
                                         {"feature": "Concurrent Partial Prefill", "args": ["max_num_seqs"]}]
    assert ft["spec_decode.v1_methods"] == ["deepseek_mtp", "eagle", "mtp", "ngram"]  # *_mtp run as mtp
    assert ft["multiproc.cli_spawn"] is True and ft["multiproc.api_server_spawn"] is False


def test_reader_answers_from_the_merged_sections(snap):
    import vllm_catalog

    cat = Catalog(vllm_catalog.merge({"9.9.9": snap}))
    h100 = {"memory_gib": 79.6, "name": "NVIDIA H100 80GB HBM3", "capability": 9.0}
    a100 = {"memory_gib": 79.2, "name": "NVIDIA A100-SXM4-80GB", "capability": 8.0}
    assert cat.context_default("max_num_seqs", "9.9.9", "serve", h100) == 1024
    assert cat.context_default("max_num_seqs", "9.9.9", "serve", a100) == 256
    assert cat.context_default("max_num_seqs", "9.9.9", "other", None) == 128
    assert cat.context_default("max_num_seqs", "9.9.9", "llm", None) is None  # the GPU decides
    assert cat.allowed_values(("attention_config", "flash_attn_version"), "9.9.9") == ([2, 3], "attention_config.flash_attn_version")
    assert cat.allowed_values(("tool_call_parser",), "9.9.9")[0] == ["hermes", "kimi_k2"]
    assert cat.feature("engine.default", "9.9.9") == "v1"
    assert cat.performance_mode("throughput", "9.9.9") == {"max_num_seqs": {"multiply": 2, "when_unset": True}}


def test_gpu_conditions():
    assert gpu_matches({"min_memory_gib": 160}, {"memory_gib": 180}) is True
    assert gpu_matches({"name_any": ["h100", "h200"]}, {"name": "H100-80GB"}) is True
    assert gpu_matches({"name_lacks": ["a100"]}, {"name": "A100-80GB", "memory_gib": 80}) is False
    assert gpu_matches({"not_capability": "12.1"}, {"capability": 12.1}) is False
    assert gpu_matches({"min_memory_gib": 70}, None) is None
