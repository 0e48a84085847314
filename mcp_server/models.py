"""The typed results of the MCP tools. The SDK derives each tool's outputSchema from these, and
validates every result against it before it leaves the server. The audit report is not
modelled here: its contract is schema/report.schema.json, published as-is (see schema.py)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Lang = Literal["en", "zh"]


class DetectedSite(BaseModel):
    file: str = Field(description="file, relative to the path given")
    line: int
    kind: str = Field(description="'vllm serve', 'api_server', 'LLM()', 'EngineArgs()', …")
    syntax: str = Field(description="cli | python-call | yaml-config")
    mode: str
    framework: str


class Pin(BaseModel):
    file: str
    line: int
    text: str = Field(description="as written, e.g. 'vllm==0.6.3'")


class Evidence(BaseModel):
    trigger: str = Field(description="trigger id and name from knowledge/triggers.yaml, e.g. 'T1 python-import'")
    title: str
    file: str
    line: int
    what: str = Field(description="what was read there, as written")


class Detection(BaseModel):
    path: str = Field(description="the folder or file looked at, resolved")
    uses_vllm: bool = Field(description="true when any trigger of knowledge/triggers.yaml fired")
    summary: str
    evidence: list[Evidence] = Field(description="every observation a trigger counted, with file:line")
    sites: list[DetectedSite] = Field(description="every place vLLM is started or configured, with file:line")
    pins: list[Pin] = Field(description="every dependency pin that brings in vLLM")
    files_scanned: int
    method: str = Field(description="how detection was done")


class CheckSummary(BaseModel):
    id: str
    name: str
    category: str
    title: str
    priority: str
    modes: list[str]
    vllm: str | None = Field(description="vLLM versions the check applies to; null: all")
    aliases: list[str]


class CheckList(BaseModel):
    checks: list[CheckSummary]


class FixOp(BaseModel):
    op: str = Field(description="set | unset | env | unset_env")
    target: str
    value: Any = None
    value_from: str | None = Field(None, description="CEL expression the audit computes the value from")


class RuleDoc(BaseModel):
    status: str
    vllm: str | None
    when: str = Field(description="CEL predicate over the site's facts")
    reason: str
    priority: str | None = None
    safe: bool | None = None
    fix: list[FixOp] | None = None


class Action(BaseModel):
    action: Literal["write", "remove", "remove_keys"]
    text: str
    keys: list[str] | None = None


class Spelling(BaseModel):
    """One fix, written for each syntax a site can use."""

    vllm: str | None = Field(description="vLLM versions this fix is for; null: all")
    version: str = Field(description="the release whose spelling is shown")
    priority: str
    cli: list[Action]
    python: list[Action]
    yaml: list[Action]
    env: list[Action]


class CategoryRef(BaseModel):
    id: str
    title: str


class Otherwise(BaseModel):
    status: str
    reason: str


class Source(BaseModel):
    title: str
    url: str


class CheckRecord(BaseModel):
    id: str
    name: str
    aliases: list[str]
    category: CategoryRef
    title: str
    priority: str
    modes: list[str]
    vllm: str | None
    outside_versions: str | None
    rationale: str
    advice: str
    rules: list[RuleDoc] = Field(description="tried in order; the first that holds decides")
    otherwise: Otherwise
    enable: list[Spelling] = Field(description="how each distinct fix is written per syntax")
    sources: list[Source]
    file: str


class NotAvailable(BaseModel):
    available: Literal[False] = False
    reason: str
    instead: list[str] = Field(description="tools that help meanwhile")


class MemoryEstimate(BaseModel):
    model: dict[str, Any] = Field(description="model facts (knowledge/models.yaml and the name)")
    gpu: dict[str, Any] | None = Field(description="the GPU the estimate is for")
    engine: dict[str, Any] = Field(description="the engine arguments the estimate used")
    known: bool = Field(description="false when the model's size is unknown")
    estimate: dict[str, Any] = Field(description="weights_gib, weights_per_gpu_gib, usable_per_gpu_gib, fits, min_tp …")
    note: str


class GpuInfo(BaseModel):
    source: str = Field(description="'--gpu SPEC', 'NVML' or 'none'")
    description: str
    gpu: dict[str, Any] | None
    cpu_cores: int | None
    driver: str | None
    cuda: str | None
    note: str | None
    devices: list[dict[str, Any]]
