"""Deployment sites: one per `vllm serve` command, `LLM(...)` call, RL trainer config … with
every setting's value and where it was written, so a fix can go back in the same syntax."""
from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Setting:
    name: str  # canonical vLLM argument (EngineArgs field or serve flag dest), or env var
    value: Any = None
    resolved: bool = True  # False: the scanner could not work out the value ($MODEL, f(x))
    file: str = ""
    line: int = 0
    key: str = ""  # as written: --gpu_memory_utilization, gpu-memory-utilization, kv_cache_dtype
    raw: str = ""  # the value as written
    syntax: str = "cli"
    note: str | None = None  # e.g. "default of ${TP:-2}"
    known: bool = True  # the name exists in the site's vLLM version
    span: tuple[int, int] | None = None  # word indices (cli) of this setting, for edits
    pos: dict | None = None  # where it sits in its file (character offsets), for edits
    implied: bool = False  # not written as this argument: the framework derives it from `key`

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


# Findings the scanners raise while reading a launch (engine/scan/scripts.py,
# engine/scan/python_calls.py), with their default priority; engine/check/rules.py registers them.
SCAN_FINDINGS = {
    "stray-positional": "P0",
    "positional-arg": "P2",
    "xinference-n-gpu": "P0",  # engine/scan/xinference_engine.py CODE
}


@dataclass
class Finding:
    """A remark about a site that is not one of the checks (unknown flag, unreadable value)."""

    code: str
    message: dict[str, str]  # en / zh
    file: str
    line: int
    priority: str | None = None
    fix: list = field(default_factory=list)  # [(FixOp, value)]
    safe: bool = False
    subject: str = ""  # the option or variable it is about
    vllm: str | None = None  # the releases it fails in (`>=0.25.0`), when only some do: settle_priorities

    @property
    def id(self) -> str:
        return f"{self.code}:{self.subject}" if self.subject else self.code


@dataclass
class Site:
    file: str
    line: int
    syntax: str  # cli | python-call | yaml-config | …
    kind: str  # 'vllm serve', 'api_server', 'LLM()', 'EngineArgs()', 'AsyncEngineArgs()'
    mode: str
    mode_evidence: str  # where the site was recognised (file:line)
    framework: str = "none"
    settings: dict[str, Setting] = field(default_factory=dict)
    env: dict[str, Setting] = field(default_factory=dict)
    model: Setting | None = None
    config_file: str | None = None
    config_key_style: str = "kebab"  # how keys are written in the --config YAML
    flag_style: str = "kebab"  # --a-b or --a_b on the command line
    opaque: list[dict] = field(default_factory=list)  # {code, what, where}: more args may arrive unseen
    remarks: list[Finding] = field(default_factory=list)
    unknown: dict[str, Setting] = field(default_factory=dict)  # flags vLLM does not have at all
    source: Any = None  # scanner-specific handle used when rendering changes (words, call text)
    end_line: int = 0
    framework_version: str | None = None
    # the framework's pin when it installs a git commit or branch with no release in it (`trl @ git+…@e751a16`):
    # which release's keys, defaults and hard-coded arguments run is not known (scan/framework_unplaced.py)
    framework_unplaced: str = ""
    # the framework's pin when it allows a range of releases (`trl>=0.14.0`, `trl[vllm]<0.17.0`): as written, and its
    # specifier; the framework's own findings are judged over every release it allows (engine/check/framework_range.py)
    framework_range: str = ""
    framework_spec: str = ""
    framework_fork: bool = False  # the framework is the project's own source (pins.py `own`), maybe changed
    framework_fork_vllm: bool = False  # …and that source's own setup pins the vLLM it runs with
    # what a copy of the framework in the tree says its code does (scan/framework_source.SourceCopy.facts):
    # read there rather than inferred from the copy's version string (a .dev snapshot sits between releases)
    framework_source: dict[str, str] = field(default_factory=dict)
    framework_defaults: dict[str, Any] = field(default_factory=dict)  # what the framework passes when unset
    fixed: dict[str, Any] = field(default_factory=dict)  # what the framework hard-codes
    framework_keys: dict[str, Any] = field(default_factory=dict)  # the framework's own keys, as read
    image: str | None = None  # container image the command runs in, when known
    gpu_request: int | None = None  # GPUs the container asks for (k8s nvidia.com/gpu, compose devices, requestGPU)
    gpu_types: list[str] = field(default_factory=list)  # GPU types the deployment names (nodeSelector, resourceProfile …)
    gpu_per_node: int | None = None  # GPUs of the cloud machine type the deployment names (g5.12xlarge: 4)
    container: dict | None = None  # container facts for launch checks: ipc, shm_size, gpus, runtime, tool
    installed: tuple[str, str, str] | None = None  # (version, file:line, text): the image build's `pip install vllm==X`
    passthrough: Setting | None = None  # the framework's pass-through mapping (vllm_config, …), when set
    framework_command: str | None = None
    unmapped: dict[str, Setting] = field(default_factory=dict)  # framework keys its pinned release does not have
    framework_written: dict[str, Setting] = field(default_factory=dict)  # every framework key as written → its setting
    engine_elsewhere: bool = False
    tool: str | None = None  # the deployment tool that renders the command (production-stack, kserve, ray-serve …)
    launch: dict = field(default_factory=dict)  # launch facts only the scanner sees: how the model reaches argv, module-level engines (facts.launch)
    # engine arguments the framework or tool sets to the number of GPUs its process sees, left
    # unknown in the files (LLaMA-Factory, Xinference): the audit takes them from --gpu
    device_args: tuple[str, ...] = ()
    plugins: frozenset = frozenset()  # vLLM plugin packages the project installs or the site's image holds
    # (platform, image, README file:line): the vendor image the README beside a launch runs it in (scan/readme_platform.py)
    platform_near: tuple[str, str, str] | None = None
    fork_options: dict = field(default_factory=dict)  # option → the project's vLLM source tree defining it (scan/fork_source.py)
    peer: str | None = None  # id of the other half of a rollout server / trainer client pair  # a client of a rollout server: engine arguments belong to the server

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"

    def set(self, s: Setting) -> None:
        self.settings[s.name] = s

    @property
    def unresolved(self) -> builtins.set[str]:  # `set` here is the method above
        return {n for n, s in self.settings.items() if not s.resolved}
