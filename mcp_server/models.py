"""The typed results of the MCP tools. The SDK derives each tool's outputSchema from these, and
validates every result against it before it leaves the server. The audit report is not
modelled here: its contract is schema/report.schema.json; the `audit` tool answers with a bounded
summary (AuditSummary, mcp_server/answers.py) and serves the report as a resource."""
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
    evidence: list[Evidence] = Field(description="observations a trigger counted, with file:line (one page)")
    evidence_total: int = 0
    sites: list[DetectedSite] = Field(description="places vLLM is started or configured, with file:line (one page)")
    sites_total: int = 0
    pins: list[Pin] = Field(description="dependency pins that bring in vLLM (one page)")
    complete: bool = Field(True, description="false: stopped at the first file with evidence (call with all=true for every piece)")
    next_cursor: str | None = Field(None, description="pass back as `cursor` with all=true for the next page; null: no more")
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
    op: str = Field(description="set | unset | env | unset_env | pin (a package version: target vllm or the framework) | container (an option of the container's docker run: target ipc)")
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


class SymptomRef(BaseModel):
    id: str = Field(description="oom | throughput | ttft | itl | rlhf")
    title: str


class Matched(BaseModel):
    matcher: str = Field(description="the keyword rule of knowledge/decision_tree.yaml that recognised the text")
    text: str


class PathStep(BaseModel):
    node: str = Field(description="stable node id of knowledge/decision_tree.yaml")
    depth: int
    answer: str | None = Field(description="the answer this node stands for (null at the root)")
    question: str | None = Field(description="what this node asks of its children")
    evidence: list[dict[str, Any]] = Field(description="the facts that decided it: {fact, value}")
    ruled_out: list[dict[str, Any]] = Field(description="answers whose condition failed, with the facts")
    alternatives: list[dict[str, Any]] = Field(description="later answers that also held")


class LeafAdvice(BaseModel):
    node: str
    answer: str
    advice: str
    priority: str
    checks: list[dict[str, Any]] = Field(description="the audit verdict of each check the leaf points at")
    changes: list[int] = Field(description="indexes into the diagnosis' changes")
    unresolved: list[dict[str, Any]] = Field(description="changes whose value needs a missing fact")
    sources: list[dict[str, Any]]


class OpenQuestion(BaseModel):
    node: str
    question: str
    needs: list[dict[str, Any]] = Field(description="the missing facts; an `observation` is answered through `answers`")
    candidates: list[dict[str, Any]] = Field(description="the answers still open, each with the advice beneath it")


class SiteDiagnosis(BaseModel):
    site: dict[str, Any] | None = Field(description="the launch site (null: no project was given)")
    skipped: str | None
    path: list[PathStep]
    leaves: list[LeafAdvice]
    questions: list[OpenQuestion]
    changes: list[dict[str, Any]] = Field(description="changes in the site's own syntax, as in the audit report")
    diffs: list[dict[str, Any]]


class LaunchSite(BaseModel):
    site: dict[str, Any] = Field(description="the launch site: id, file, line, kind, mode, model, vllm")
    status: str = Field(description="the check's verdict at this site (recommended = this launch fails)")
    priority: str | None
    reason: str
    changes: list[dict[str, Any]] = Field(description="the changes that make this launch start, in the site's syntax")


class LaunchFailure(BaseModel):
    id: str = Field(description="the launch check (L30 …) or catalog finding (not-in-version …) the error text names")
    kind: Literal["check", "finding", "closest", "shared", "uncovered"] = Field(
        description="closest: no wording matched; the check the error's words point to. shared: a wording several causes print "
                    "(CUDA out of memory), one candidate among them. uncovered: vLLM's wording that no check covers")
    name: str
    title: str
    wording: str = Field(description="vLLM's wording that matched, {placeholders} for run-time values (closest: the error's words that point to the check)")
    wording_vllm: str | None = Field(description="the releases that print this wording")
    origin: str = Field(description="who prints it: vllm, argparse, python, nccl …")
    whole: bool = Field(description="false when only the wording's opening was in the text")
    advice: str
    sites: list[LaunchSite]


class DiagnoseResult(BaseModel):
    symptom: SymptomRef | None = Field(description="null when the error text is a launch failure and names no symptom")
    launch: list[LaunchFailure] = Field(default_factory=list, description="launch failures the error text names, best first")
    matched: Matched | None
    observed: dict[str, Any] = Field(description="answers given or read from the error text")
    hardware: str
    root: str | None
    diagnoses: list[SiteDiagnosis] = Field(description="one per launch site (one page)")
    diagnoses_total: int = 0
    next_cursor: str | None = Field(None, description="pass back as `cursor` for the next sites; null: no more")


class ScenarioBlock(BaseModel):
    label: str = Field(description="what the block is: launch command, Python, serve.yaml, trainer config …")
    lang: str = Field(description="bash | python | yaml")
    text: str


class ScenarioMatch(BaseModel):
    id: str = Field(description="stable scenario id, S1 … S8 (knowledge/scenarios.yaml)")
    name: str
    title: str
    description: str
    seed: str = Field(description="the section of the seed checklist it comes from")
    score: int = Field(description="base score plus each preference that holds; the highest wins")
    status: Literal["match", "partial"] = Field(description="partial: a requirement needs a fact that was not given")
    why: list[str] = Field(description="the requirements and preferences that hold")
    missing: list[str] = Field(description="facts a requirement needed and did not get")
    plan: dict[str, Any] = Field(description="estimated layout for the scenario's settings: tp, pp, dp, kv_tokens, max_concurrency …")
    settings: list[dict[str, Any]] = Field(description="engine arguments it sets: {name, value}")
    env: list[dict[str, Any]] = Field(description="environment variables it sets: {name, value}")
    blocks: list[ScenarioBlock] = Field(description="the configuration rendered in the requested syntax for that vLLM release")
    notes: list[str]
    blocked: list[str] = Field(description="settings the framework does not let you write")
    by_framework: list[str] = Field(description="settings the framework already makes")
    corrections: list[str] = Field(description="where the scenario differs from the seed, and why")


class ScenarioResult(BaseModel):
    understood: dict[str, Any] = Field(description="model, gpu, mode, framework, syntax and vllm_version used, "
                                                   "and which of them came from the description")
    summary: str
    hardware: str
    scenarios: list[ScenarioMatch] = Field(description="best first")
    tables: list[dict[str, Any]] = Field(description="reference tables (knowledge/tables.yaml) that apply")


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


class UrgentItem(BaseModel):
    priority: Literal["P0", "P1"]
    site: str = Field(description="the site's id, FILE:LINE")
    check: str = Field(description="check id (B4) or finding id")
    title: str
    file: str = Field(description="where the setting to change is written")
    line: int
    change: str = Field(description="the change in one line, in the site's own syntax (FILE:LINE: write/remove …)")


class SiteLine(BaseModel):
    id: str
    kind: str
    mode: str
    framework: str
    vllm: str
    model: str | None
    P0: int
    P1: int
    P2: int
    unknown: int


class AuditSummary(BaseModel):
    report_id: str = Field(description="pass to `audit_details` to page through the full report")
    report_uri: str = Field(description="resource holding the full JSON report (schema/report.schema.json)")
    root: str
    files_scanned: int
    vllm: str = Field(description="the project's vLLM release and where it comes from")
    skipped_files: int
    hardware: str
    summary: dict[str, Any] = Field(description="sites, recommendations per priority, findings, unknown verdicts")
    modes: dict[str, int] = Field(description="sites per usage mode")
    verdicts: dict[str, int] = Field(description="check verdicts over all sites, by status")
    urgent: list[UrgentItem] = Field(description="every P0 and P1, P0 first, as far as one answer holds")
    urgent_total: int
    sites: list[SiteLine] = Field(description="one line per site, as far as one answer holds")
    sites_total: int
    complete: bool = Field(description="false when urgent or sites were cut to fit; `next` says how to get the rest")
    next: str | None = None


class AuditPage(BaseModel):
    report_id: str
    kind: Literal["sites", "checks", "recommendations"]
    items: list[dict[str, Any]] = Field(description="whole sites as in the JSON report, or check verdicts, or recommendations")
    next_cursor: str | None = Field(description="pass back as `cursor` for the next page; null: this was the last")
