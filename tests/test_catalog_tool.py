"""tools/vllm_catalog.py and tools/vllm_catalog_extract.py on a tiny synthetic vLLM tree.

The real inputs (unpacked releases, the reference extraction) are not available in CI, so these
tests write the handful of vLLM idioms the extractor has to understand into tmp_path."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import vllm_catalog  # noqa: E402
from release_tree import write_release  # noqa: E402
from vllm_catalog_extract import snapshot_from_source  # noqa: E402

TREE = {
    "vllm/__init__.py": "",
    "vllm/config/__init__.py": """
        from vllm.config.cache import BlockSize, CacheConfig, CacheDType
        from vllm.config.vllm import CompilationConfig, VllmConfig
    """,
    "vllm/config/utils.py": """
        def config(cls):
            return cls

        def get_field(cls, name):
            raise NotImplementedError  # only its meaning matters to the extractor
    """,
    "vllm/config/cache.py": """
        from dataclasses import field
        from typing import Literal

        from pydantic import Field

        from vllm.config.utils import config

        CacheDType = Literal["auto", "fp8"]
        BlockSize = Literal[8, 16, 32]
        GiB = 1 << 30

        @config
        class CacheConfig:
            block_size: BlockSize | None = None
            cache_dtype: CacheDType = "auto"
            enable_prefix_caching: bool = True
            gpu_memory_utilization: float = Field(default=0.9, gt=0)
            skip_layers: list[str] = field(default_factory=list)
            swap_bytes: int = 4 * GiB
    """,
    "vllm/config/vllm.py": """
        from pydantic import Field

        from vllm.config.utils import config

        @config
        class CompilationConfig:
            level: int = 0

        @config
        class VllmConfig:
            compilation_config: CompilationConfig = Field(default_factory=CompilationConfig)
    """,
    "vllm/utils/__init__.py": "",
    "vllm/utils/argparse_utils.py": """
        from argparse import ArgumentParser

        class FlexibleArgumentParser(ArgumentParser):
            def parse_args(self, args=None, namespace=None):
                if "--config" in args:
                    args = self._pull_args_from_config(args)
                return super().parse_args(args, namespace)
    """,
    "vllm/engine/__init__.py": "",
    "vllm/engine/arg_utils.py": """
        import argparse
        from dataclasses import dataclass, fields, is_dataclass

        from vllm.config import BlockSize, CacheConfig, CacheDType, CompilationConfig, VllmConfig
        from vllm.config.utils import get_field

        def get_kwargs(cls):
            # the real one checks is_dataclass(th) first: the extractor looks for that
            return {f.name: {} for f in fields(cls) if is_dataclass(cls)}

        @dataclass
        class EngineArgs:
            model: str = "facebook/opt-125m"
            tensor_parallel_size: int = 1
            block_size: BlockSize | None = CacheConfig.block_size
            kv_cache_dtype: CacheDType = CacheConfig.cache_dtype
            gpu_memory_utilization: float = CacheConfig.gpu_memory_utilization
            enable_prefix_caching: bool = CacheConfig.enable_prefix_caching
            skip_layers: list[str] = get_field(CacheConfig, "skip_layers")
            swap_bytes: int = CacheConfig.swap_bytes
            compilation_config: CompilationConfig = get_field(VllmConfig, "compilation_config")
            served_model_name: str | list[str] | None = None
            worker_cls: str = current_platform.worker_cls()
            not_a_field = "class attribute without annotation"

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--model", type=str, default=EngineArgs.model)
                parser.add_argument("--tensor-parallel-size", "-tp", type=int,
                                    default=EngineArgs.tensor_parallel_size)
                cache_kwargs = get_kwargs(CacheConfig)
                cache_group = parser.add_argument_group(title="CacheConfig")
                cache_group.add_argument("--block-size", **cache_kwargs["block_size"])
                cache_group.add_argument("--kv-cache-dtype", **cache_kwargs["cache_dtype"])
                cache_group.add_argument(
                    "--enable-prefix-caching",
                    **{**cache_kwargs["enable_prefix_caching"], "default": None})
                cache_group.add_argument("--skip-layers", **cache_kwargs["skip_layers"])
                vllm_kwargs = get_kwargs(VllmConfig)
                parser.add_argument("--compilation-config", "-cc", **vllm_kwargs["compilation_config"])
                parser.add_argument("--served-model-name", nargs="+", type=str, default=None)
                parser.add_argument("--disable-log-stats", action="store_true")
                for flag, typ in [("--legacy-a", str), ("--legacy-b", bool)]:
                    parser.add_argument(flag, type=typ, deprecated=True)
                return parser

        @dataclass
        class AsyncEngineArgs(EngineArgs):
            enable_log_requests: bool = False

            @staticmethod
            def add_cli_args(parser, async_args_only: bool = False):
                if not async_args_only:
                    parser = EngineArgs.add_cli_args(parser)
                parser.add_argument("--enable-log-requests", action=argparse.BooleanOptionalAction,
                                    default=AsyncEngineArgs.enable_log_requests)
                parser.add_argument("--disable-log-requests", action=argparse.BooleanOptionalAction,
                                    default=not AsyncEngineArgs.enable_log_requests)
                return parser
    """,
    "vllm/entrypoints/__init__.py": "",
    "vllm/entrypoints/openai/__init__.py": "",
    "vllm/entrypoints/openai/cli_args.py": """
        import json
        from dataclasses import field

        import vllm.envs as envs
        from vllm.config.utils import config
        from vllm.engine.arg_utils import AsyncEngineArgs

        @config
        class BaseFrontendArgs:
            lora_modules: list[str] | None = None
            log_error_stack: bool = envs.VLLM_USE_X

            @classmethod
            def _customize_cli_kwargs(cls, frontend_kwargs):
                frontend_kwargs["lora_modules"]["action"] = LoRAParserAction
                return frontend_kwargs

            @classmethod
            def add_cli_args(cls, parser):
                from vllm.engine.arg_utils import get_kwargs

                frontend_kwargs = cls._customize_cli_kwargs(get_kwargs(cls))
                group = parser.add_argument_group(title=cls.__name__.replace("Args", ""))
                for key, value in frontend_kwargs.items():
                    extra_flags = value.pop("flags", [])
                    group.add_argument(*extra_flags, f"--{key.replace('_', '-')}", **value)
                return parser

        @config
        class FrontendArgs(BaseFrontendArgs):
            port: int = 8000
            allowed_origins: list[str] = field(default_factory=lambda: ["*"])

            @classmethod
            def _customize_cli_kwargs(cls, frontend_kwargs):
                frontend_kwargs = super()._customize_cli_kwargs(frontend_kwargs)
                frontend_kwargs["allowed_origins"]["type"] = json.loads
                del frontend_kwargs["allowed_origins"]["nargs"]
                return frontend_kwargs

        def make_arg_parser(parser):
            parser.add_argument("model_tag", type=str, nargs="?")
            parser.add_argument("--headless", action="store_true", default=False)
            parser.add_argument("--api-server-count", "-asc", type=int, default=None)
            parser = FrontendArgs.add_cli_args(parser)
            parser = AsyncEngineArgs.add_cli_args(parser)
            return parser
    """,
    "vllm/entrypoints/cli/__init__.py": "",
    "vllm/entrypoints/cli/serve.py": """
        from vllm.entrypoints.openai.cli_args import make_arg_parser

        class ServeSubcommand:
            name = "serve"

            def subparser_init(self, subparsers):
                serve_parser = subparsers.add_parser(self.name, help="serve")
                return make_arg_parser(serve_parser)
    """,
    "vllm/envs.py": """
        import os
        import sys
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            VLLM_PORT: int | None = None
            VLLM_USE_X: bool = True  # a stale stub: the getter below says False

        def env_with_choices(env_name, default, choices):
            def _get_validated_env():
                value = os.getenv(env_name)
                if value is None:
                    return default
                return value
            return _get_validated_env

        def get_vllm_port():
            if "VLLM_PORT" not in os.environ:
                return None
            return int(os.environ["VLLM_PORT"])

        environment_variables = {
            "VLLM_TARGET_DEVICE": lambda: os.getenv("VLLM_TARGET_DEVICE", "cuda").lower(),
            "VLLM_USE_X": lambda: bool(int(os.getenv("VLLM_USE_X", "0"))),
            "VLLM_TIMEOUT": lambda: int(os.environ.get("VLLM_TIMEOUT", "60")),
            "VLLM_RATIO": lambda: (v if (v := float(os.getenv("VLLM_RATIO", "0.5"))) > 0 else 1.0),
            "VLLM_BACKEND": env_with_choices("VLLM_BACKEND", "auto", ["auto", "x"]),
            "VLLM_PORT": get_vllm_port,
            "VLLM_MAYBE": lambda: int(os.getenv("VLLM_MAYBE", "0")) if "VLLM_MAYBE" in os.environ else None,
            "VLLM_ROOT": lambda: os.path.expanduser(os.getenv("VLLM_ROOT", os.path.join("~", "x"))),
            "VLLM_TRUTHY": lambda: os.environ.get("VLLM_TRUTHY", "").strip().lower() in ("1", "true"),
            "VLLM_RANK_LOCAL": lambda: int(os.getenv("VLLM_RANK_LOCAL", sys.modules[__name__].VLLM_TIMEOUT)),
        }
    """,
    "vllm/model_executor/__init__.py": "",
    "vllm/model_executor/layers/__init__.py": "",
    "vllm/model_executor/layers/quantization/__init__.py": """
        from typing import Literal, get_args

        QuantizationMethods = Literal["awq", "fp8", "gptq"]
        QUANTIZATION_METHODS: list[str] = list(get_args(QuantizationMethods))
    """,
    "vllm/platforms/__init__.py": "",
    "vllm/platforms/interface.py": """
        import enum

        class _Backend(enum.Enum):
            FLASH_ATTN = enum.auto()
            XFORMERS = enum.auto()
    """,
    "vllm/config/speculative.py": """
        from typing import Literal

        MTPModelTypes = Literal["deepseek_mtp", "mtp"]
        EagleModelTypes = Literal["eagle", "eagle3", MTPModelTypes]
        SpeculativeMethod = Literal["ngram", "medusa", EagleModelTypes]
    """,
    "vllm/distributed/__init__.py": "",
    "vllm/distributed/kv_transfer/__init__.py": "",
    "vllm/distributed/kv_transfer/kv_connector/__init__.py": "",
    "vllm/distributed/kv_transfer/kv_connector/factory.py": """
        class KVConnectorFactory:
            @classmethod
            def register_connector(cls, name, module_path, class_name):
                pass

        KVConnectorFactory.register_connector("NixlConnector", "m", "NixlConnector")
        KVConnectorFactory.register_connector("LMCacheConnectorV1", "m", "LMCacheConnectorV1")
    """,
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    return write_release(root, files, lstrip=True)


@pytest.fixture(scope="module")
def snap(tmp_path_factory):
    return snapshot_from_source(write_tree(tmp_path_factory.mktemp("rel"), TREE), "9.9.9")


def test_engine_args_follow_defaults_into_config_classes(snap):
    ea = snap["engine_args"]
    assert ea["model"] == {"type": "str", "default": "facebook/opt-125m"}
    assert ea["block_size"] == {"type": "int", "default": None, "choices": [8, 16, 32]}  # via the Literal alias
    assert ea["kv_cache_dtype"] == {"type": "str", "default": "auto", "choices": ["auto", "fp8"]}
    assert ea["gpu_memory_utilization"]["default"] == 0.9  # pydantic Field(default=…)
    assert ea["enable_prefix_caching"] == {"type": "bool", "default": True}
    assert ea["skip_layers"] == {"type": "list", "default": []}  # get_field + default_factory=list
    assert ea["swap_bytes"]["default"] == 4 << 30  # arithmetic on a module constant
    assert ea["compilation_config"] == {"type": "dict", "default": {}}  # factory of a Config class
    assert ea["worker_cls"]["default"] is None  # decided at run time: unknown, not guessed
    assert ea["enable_log_requests"] == {"type": "bool", "default": False}  # from AsyncEngineArgs
    assert "not_a_field" not in ea


def test_flags_kinds_and_aliases(snap):
    fl = snap["cli_flags"]
    assert fl["-tp"] == {"dest": "tensor_parallel_size", "kind": "value"}
    assert fl["-cc"] == {"dest": "compilation_config", "kind": "value"}
    assert fl["--block-size"]["kind"] == "value"
    assert fl["--enable-prefix-caching"]["kind"] == "negatable"  # bool config field -> BooleanOptionalAction
    assert fl["--skip-layers"]["kind"] == "values"  # list field -> nargs="+"
    assert fl["--served-model-name"]["kind"] == "values"
    assert fl["--disable-log-stats"]["kind"] == "switch"
    assert fl["--disable-log-requests"] == {"dest": "disable_log_requests", "kind": "negatable"}
    assert {"--legacy-a", "--legacy-b"} <= set(fl)  # added in a loop over a literal list
    assert "model_tag" not in fl  # a positional, not a flag


def test_frontend_args_from_dataclass_loop_and_serve(snap):
    fl, fe = snap["cli_flags"], snap["frontend_args"]
    assert fl["--port"] == {"dest": "port", "kind": "value"}
    assert fe["port"] == {"type": "int", "default": 8000}
    assert fl["--allowed-origins"]["kind"] == "value"  # the customisation deletes nargs
    assert fe["allowed_origins"] == {"type": "list", "default": ["*"]}
    assert fl["--lora-modules"]["kind"] == "values"  # base-class customisation reached through super()
    assert fe["log_error_stack"]["default"] is False  # envs.VLLM_USE_X's real default
    assert fl["-asc"]["dest"] == "api_server_count"
    assert fl["--headless"]["kind"] == "switch"
    assert fe["disable_log_requests"]["default"] is True  # `not AsyncEngineArgs.enable_log_requests`
    assert fl["--config"] == {"dest": "config", "kind": "value"}  # handled by FlexibleArgumentParser


def test_env_var_defaults_are_what_the_getters_return(snap):
    env = snap["env_vars"]
    assert env["VLLM_TARGET_DEVICE"] == {"type": "str", "default": "cuda"}
    assert env["VLLM_USE_X"] == {"type": "bool", "default": False}  # not the stale stub's True
    assert env["VLLM_TIMEOUT"] == {"type": "int", "default": 60}
    assert env["VLLM_RATIO"] == {"type": "float", "default": 0.5}
    assert env["VLLM_BACKEND"]["default"] == "auto"  # through env_with_choices' closure
    assert env["VLLM_PORT"] == {"type": "int", "default": None}
    assert env["VLLM_MAYBE"]["default"] is None
    assert env["VLLM_ROOT"]["default"] is None  # depends on the host
    assert env["VLLM_TRUTHY"]["default"] is False
    assert env["VLLM_RANK_LOCAL"]["default"] == 60  # envs.py reading its own earlier entry


def test_enums(snap):
    en = {k: v["values"] for k, v in snap["enums"].items()}
    assert en["quantization_methods"] == ["awq", "fp8", "gptq"]
    assert en["attention_backends"] == ["FLASH_ATTN", "XFORMERS"]
    assert en["kv_cache_dtypes"] == ["auto", "fp8"]
    assert en["speculative_methods"] == ["ngram", "medusa", "eagle", "eagle3", "deepseek_mtp", "mtp"]
    assert en["kv_connectors"] == ["NixlConnector", "LMCacheConnectorV1"]


def test_env_vars_before_envs_py(tmp_path):
    """0.4.0/0.4.1 had no vllm/envs.py: reads are found where they happen and evaluated there."""
    root = write_tree(tmp_path, {
        "vllm/__init__.py": "",
        "vllm/logger.py": """
            import os
            VLLM_CONFIGURE_LOGGING = int(os.getenv("VLLM_CONFIGURE_LOGGING", "1"))
            so_file = os.environ.get("VLLM_NCCL_SO_PATH", "")
            CUDA = os.environ.get("CUDA_VISIBLE_DEVICES")
        """,
        "vllm/config.py": """
            import os

            def use_modelscope():
                if os.environ.get("VLLM_USE_MODELSCOPE", "False").lower() == "true":
                    return True
                return False
        """,
    })
    env = snapshot_from_source(root, "0.4.0")["env_vars"]
    assert env == {
        "VLLM_CONFIGURE_LOGGING": {"type": "int", "default": 1},
        "VLLM_NCCL_SO_PATH": {"type": "str", "default": ""},
        "VLLM_USE_MODELSCOPE": {"type": "bool", "default": False},
    }


def test_missing_tree_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        snapshot_from_source(tmp_path, "1.0.0")


def _snap(engine: dict, env: dict | None = None, enums: dict | None = None) -> dict:
    s = {"engine_args": engine, "frontend_args": {}, "cli_flags": {}, "env_vars": env or {}}
    if enums is not None:
        s["enums"] = enums
    return s


def test_merge_spans_and_changes():
    cat = vllm_catalog.merge({
        "0.10.0": _snap({"a": {"type": "int", "default": 1}, "b": {"type": "bool", "default": False}},
                        enums={"kv_cache_dtypes": {"values": ["auto"]}}),
        "0.9.0": _snap({"a": {"type": "int", "default": 1}}, enums={"kv_cache_dtypes": {"values": ["auto"]}}),
        "0.11.0": _snap({"a": {"type": "int", "default": 2}}),  # no enums stated (a reference input)
        "0.12.0": _snap({"a": {"type": "int", "default": 2}, "b": {"type": "bool", "default": True}},
                        enums={"kv_cache_dtypes": {"values": ["auto", "fp8"]}}),
    })
    assert cat["versions"] == ["0.9.0", "0.10.0", "0.11.0", "0.12.0"]  # numeric, not string, order
    a, b = cat["engine_args"]["a"], cat["engine_args"]["b"]
    assert a == {"in": [["0.9.0", "0.12.0"]], "type": "int", "default": {"changes": [["0.9.0", 1], ["0.11.0", 2]]}}
    assert b["in"] == [["0.10.0", "0.10.0"], ["0.12.0", "0.12.0"]]
    assert b["default"] == {"changes": [["0.10.0", False], ["0.12.0", True]]}
    kv = cat["enums"]["kv_cache_dtypes"]
    assert kv["in"] == [["0.9.0", "0.12.0"]]  # 0.11.0 says nothing about enums: no gap
    assert kv["values"] == {"changes": [["0.9.0", ["auto"]], ["0.12.0", ["auto", "fp8"]]]}


def test_main_source_with_reference_fill(tmp_path):
    src = tmp_path / "src"
    write_tree(src / "9.9.9", TREE)
    (src / "notes").mkdir()  # not a release folder
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "args-9.9.9.json").write_text(json.dumps({"version": "9.9.9", "engine_args": {}, "cli_flags": [],
                                                     "env_vars": {}}))
    (ref / "args-9.8.0.json").write_text(json.dumps({
        "version": "9.8.0", "cli_flags": [], "env_vars": {},
        "engine_args": {"model": {"annotation": "str", "default": "m"}}}))
    out = tmp_path / "catalog.json"
    assert vllm_catalog.main(["--source", str(src), "--reference", str(ref), "-o", str(out)]) == 0
    cat = json.loads(out.read_text())
    assert cat["versions"] == ["9.8.0", "9.9.9"]
    assert cat["releases"] == ["9.8.0", "9.9.9"]
    assert cat["sources"] == {"9.8.0": "reference extraction args-9.8.0.json", "9.9.9": "vllm 9.9.9 sources (AST)"}
    assert cat["cli_flags"]["-tp"]["in"] == [["9.9.9", "9.9.9"]]  # sources win where they exist
    assert cat["enums"]["quantization_methods"]["in"] == [["9.9.9", "9.9.9"]]
