"""The vllm-kb MCP server: the engine's knowledge and audit as read-only tools, resources and
prompts, over stdio (the default) or streamable HTTP.

Every tool that takes a path confines it to the client's roots (or the server's fallback
roots when the client declares none) before the engine sees it; see roots.py."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Literal, Sequence

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from vllm_kb.engine.kb.frameworks import FRAMEWORK_IDS
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import summary as summary_mod
from vllm_kb.engine.report.model import tool_version

from vllm_kb.mcp_server import answers, prompts, resources, tools
from vllm_kb.mcp_server import models as m
from vllm_kb.mcp_server.roots import ClientRoots, Roots

NAME = "vllm-kb"
INSTRUCTIONS = (
    "Static auditor for projects that run vLLM. It reads files and never imports or runs them. "
    "Start with `audit` on the project folder: a summary (sites, modes, verdict counts, every P0 and P1 with "
    "file:line and the one-line change in the site's own syntax) whatever the size of the project; "
    "`audit_details` pages through the full report (a site, a check, a priority) and the resource "
    "vllm-kb://reports/<report_id> holds it whole. `explain_check` and the "
    "vllm-kb://checks/<id> resources explain a check; `detect` answers whether a folder uses vLLM; "
    "`match_scenario` renders the recommended configuration for a workload described in words; "
    "`diagnose` walks the decision tree for a symptom or an error message (OOM, throughput, TTFT, ITL, RLHF). "
    "Paths must lie inside the client's roots."
)
# Nothing here writes anything or reaches outside this machine.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

Lang = m.Lang
PathArg = Annotated[str, Field(description="project folder or single file; relative paths start at the first root")]
GpuArg = Annotated[str, Field(description='target machine: "H100-80GB x8", "8xH100", "A100-40GB", "L40S:2"; '
                                          '"auto" probes this machine with NVML, "none" uses no hardware facts')]
VersionArg = Annotated[str | None, Field(description="evaluate as this vLLM release instead of the project's pin")]
LangArg = Annotated[Lang, Field(description="language of every human-readable text")]


LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
# match_scenario's framework: the registry's frameworks (knowledge/frameworks), so a new one is a value the
# tool takes without a second list here (mypy sees a str: a Literal built from a tuple is a runtime type)
if TYPE_CHECKING:
    FrameworkName = str
else:
    FrameworkName = Literal[("none",) + FRAMEWORK_IDS]


def build_server(fallback_roots: Sequence[Path] | None = None, log_level: LogLevel = "WARNING") -> MCPServer:
    """The server. `fallback_roots` (default: the working directory) are the folders tools may
    read when the client declares no roots of its own. Logs go to stderr; stdout carries only
    the protocol on stdio. WARNING by default: MCP clients show a server's stderr to the user."""
    fallback = tuple(Path(p) for p in (fallback_roots or [Path.cwd()]))

    def confine(path: str, client: Any) -> Path:
        return Roots.of(client, fallback).confine(path)

    store = answers.ReportStore()

    def audit(path: PathArg = ".", gpu: GpuArg = "auto", vllm_version: VersionArg = None, lang: LangArg = "en",
              select: Annotated[list[str] | None, Field(
                  description="check ids or names to keep (B3, kv-cache-fp8); the report then covers only "
                              "those checks. Findings that are not checks (options the release lacks) stay.")] = None,
              *, roots: ClientRoots) -> m.AuditSummary:
        """Audit a project's vLLM usage: every launch site (vllm serve, python -m vllm.entrypoints…, LLM(),
        EngineArgs(), AsyncEngineArgs(), RL trainers) with file:line and the project's vLLM release. Answers
        with a summary that fits any project: counts of sites, modes and verdicts, and every P0 and P1 with
        file:line and its change written in the site's own syntax. The full report (`vllm-kb audit --format
        json`, schema/report.schema.json) stays on the server: page through it with `audit_details`
        (report_id, then a site, a check or a priority) or read the resource at report_uri."""
        report = tools.audit(confine(path, roots), gpu=gpu, vllm_version=vllm_version, lang=lang, select=select)
        rid = store.put(report)
        kb = load()
        data = summary_mod.summary(report, lambda key, **kw: kb.t(key, lang, **kw), kb.t("summary.next_mcp", lang),
                                   report_id=rid, report_uri=f"{resources.SCHEME}reports/{rid}")
        s = data["summary"]
        line = kb.t("report.summary", lang, sites=s["sites"], p0=s["recommendations"]["P0"],
                    p1=s["recommendations"]["P1"], p2=s["recommendations"]["P2"], unknown=s["unknown"])
        return _answer(m.AuditSummary.model_validate(data), f"{line} report_id={rid}")

    def audit_details(
        report_id: Annotated[str, Field(description="the report_id an `audit` answer gave")],
        site: Annotated[str | None, Field(description="only this site: FILE:LINE (or FILE for all its sites)")] = None,
        check: Annotated[str | None, Field(description="only this check across the sites: id or name (B3, kv-cache-fp8)")] = None,
        priority: Annotated[Literal["P0", "P1", "P2"] | None, Field(
            description="only the recommendations of this priority, across the sites")] = None,
        cursor: Annotated[str | None, Field(description="the next_cursor of the previous page")] = None,
    ) -> m.AuditPage:
        """A page of an audit's full report, within the size an agent can hold: whole sites (every check,
        recommendation with its changes, the diffs in `after`), or one check across the sites, or the
        recommendations of one priority. Follow next_cursor until it is null."""
        data = tools.user_errors(answers.details)(store, report_id, site=site, check=check, priority=priority,
                                                  cursor=cursor)
        more = f"; next_cursor={data['next_cursor']}" if data["next_cursor"] else ""
        return _answer(m.AuditPage.model_validate(data), f"{len(data['items'])} {data['kind']} of {report_id}{more}")

    def detect(path: PathArg = ".", lang: LangArg = "en",
               all: Annotated[bool, Field(description="every piece of evidence in every file; default: stop at the "
                                                      "first file that gives some (much faster)")] = False,
               cursor: Annotated[str | None, Field(description="the next_cursor of the previous answer")] = None,
               *, roots: ClientRoots) -> m.Detection:
        """Does this folder use vLLM? The evidence (import, dependency, launch command, RL framework backend,
        vLLM config key, VLLM_ variable) with file:line; mentions in docs do not count. By default it stops at
        the first file with evidence; `all` collects everything, paged by `cursor` when it is long."""
        det = tools.detect(confine(path, roots), lang, exhaustive=all, cursor=cursor)
        return _answer(det, det.summary + (f" next_cursor={det.next_cursor}" if det.next_cursor else ""))

    def explain_check(check: Annotated[str, Field(description="check id or name: B3, kv-cache-fp8")],
                      lang: LangArg = "en") -> m.CheckRecord:
        """One check in full: why it matters, the advice, its rules in the order the audit tries them, and
        how its fix is written as a serve flag, a Python keyword, a --config YAML key or an env var."""
        return tools.explain_check(check, lang)

    def list_checks(category: Annotated[str | None, Field(description="a category letter A–J (optimizations) or L (launch); omit for all")] = None,
                    lang: LangArg = "en") -> m.CheckList:
        """The checks (id, name, title, default priority, modes, vLLM range), optionally of one category."""
        return tools.list_checks(category, lang)

    def match_scenario(
        description: Annotated[str, Field(description="the workload in words, e.g. \"GRPO with TRL colocate, "
                                                      "Qwen2.5-7B on 8xH100\" or \"serve Llama-3.3-70B on 4 x A100-80GB, vllm 0.12\"")] = "",
        model: Annotated[str | None, Field(description="model name or path; overrides the description")] = None,
        gpu: Annotated[str | None, Field(description='target machine, e.g. "H100-80GB x8"; overrides the description '
                                                     '(neither: "auto", this machine)')] = None,
        mode: Annotated[Literal["standalone_serve", "standalone_offline", "rlhf_server", "rlhf_colocate"] | None,
                        Field(description="usage mode; default from the description, else standalone_serve")] = None,
        framework: Annotated[FrameworkName | None,
                             Field(description="the RL / fine-tuning framework that drives vLLM, if any")] = None,
        syntax: Annotated[Literal["cli", "python", "yaml"] | None,
                          Field(description="how to write a plain vLLM config: vllm serve flags, LLM(...), --config YAML")] = None,
        vllm_version: VersionArg = None,
        limit: Annotated[int, Field(ge=1, le=8, description="how many scenarios to return, best first")] = 3,
        lang: LangArg = "en",
    ) -> m.ScenarioResult:
        """Match the seed's scenario templates (knowledge/scenarios.yaml: single-GPU serving, TP, DP × TP replicas,
        TRL colocate and server mode, a small GPU with FP8, MoE expert parallelism, EAGLE speculative decoding)
        to a workload given in words and/or as model, GPU, mode and framework. Returns the best matches with
        why, the estimated parallel layout, and each configuration rendered for that model, GPU count, syntax
        (vllm serve / LLM() / --config YAML / TRL GRPOConfig and trl vllm-serve / framework keys) and vLLM release."""
        return tools.match_scenario(description, model=model, gpu=gpu, mode=mode, framework=framework, syntax=syntax,
                                    vllm_version=vllm_version, limit=limit, lang=lang)

    def diagnose(
        symptom: Annotated[Literal["oom", "throughput", "ttft", "itl", "rlhf"] | None, Field(
            description="what goes wrong; omit when `error` is given")] = None,
        error: Annotated[str | None, Field(description="an error message, a whole pasted traceback or a log excerpt "
                                                       "(exception lines first, then the frames' source lines), mapped to "
                                                       "the launch check that names it or to a symptom "
                                                       "(\"CUDA out of memory\" → oom) and to what it already answers")] = None,
        path: Annotated[str | None, Field(description="project folder or file; omit to diagnose from the GPU and "
                                                      "the answers alone")] = None,
        gpu: GpuArg = "auto",
        site: Annotated[str | None, Field(description="only the launch site at FILE[:LINE]")] = None,
        answers: Annotated[dict[str, str | bool | float] | None, Field(
            description="answers to the open questions, by observation id, e.g. {\"oom_phase\": \"runtime\"}")] = None,
        vllm_version: VersionArg = None,
        lang: LangArg = "en",
        cursor: Annotated[str | None, Field(description="the next_cursor of the previous answer: the next sites")] = None,
        *,
        roots: ClientRoots,
    ) -> m.DiagnoseResult:
        """Walk the decision tree (knowledge/decision_tree.yaml) for a symptom — OOM, low throughput, high
        TTFT or ITL, an RL rollout set-up — over each launch site's audit facts: the path taken with the
        evidence, the questions the facts cannot answer (answer them through `answers` and call again), and
        the concrete changes in the site's own syntax."""
        where = confine(path, roots) if path is not None else None
        res = tools.diagnose(where, symptom=symptom, error=error, gpu=gpu, site=site, answers=answers,
                             vllm_version=vllm_version, lang=lang, cursor=cursor)
        text = f"{len(res.diagnoses)} of {res.diagnoses_total} site diagnoses" + (
            f"; next_cursor={res.next_cursor}" if res.next_cursor else "")
        return _answer(res, text)

    def estimate_memory(
        model: Annotated[str, Field(description="model name or path, e.g. meta-llama/Llama-3.3-70B-Instruct")],
        gpu: GpuArg = "auto",
        tensor_parallel_size: Annotated[int | None, Field(ge=1)] = None,
        pipeline_parallel_size: Annotated[int | None, Field(ge=1)] = None,
        gpu_memory_utilization: Annotated[float | None, Field(gt=0, le=1)] = None,
        quantization: Annotated[str | None, Field(description="vLLM quantization method, e.g. fp8, awq")] = None,
        dtype: Annotated[str | None, Field(description="auto, bfloat16, float16, float32")] = None,
        vllm_version: VersionArg = None,
        lang: LangArg = "en",
    ) -> m.MemoryEstimate:
        """A first-order memory fit of a model on a GPU: weights in total and per GPU, what
        gpu_memory_utilization leaves per GPU, whether it fits and the smallest tensor-parallel size that does."""
        args = {"tensor_parallel_size": tensor_parallel_size, "pipeline_parallel_size": pipeline_parallel_size,
                "gpu_memory_utilization": gpu_memory_utilization, "quantization": quantization, "dtype": dtype}
        return tools.estimate_memory(model, gpu=gpu, vllm_version=vllm_version, lang=lang, engine_args=args)

    def gpu_info(spec: GpuArg = "auto", lang: LangArg = "en") -> m.GpuInfo:
        """The hardware facts the audit uses: from a spec such as "H100-80GB x8", or probed on this machine."""
        return tools.gpu_info(spec, lang)

    tool_list = [
        _tool(audit, "Audit a project"),
        _tool(audit_details, "Page through an audit report"),
        _tool(detect, "Detect vLLM usage"),
        _tool(explain_check, "Explain a check"),
        _tool(list_checks, "List the checks"),
        _tool(match_scenario, "Match a scenario template"),
        _tool(diagnose, "Diagnose a symptom or an error"),
        _tool(estimate_memory, "Estimate memory"),
        _tool(gpu_info, "GPU facts"),
    ]
    server: MCPServer = MCPServer(NAME, title="vLLM knowledge base", instructions=INSTRUCTIONS,
                                  version=tool_version(), tools=tool_list, resources=resources.all_resources(),
                                  log_level=log_level)
    server.resource(f"{resources.SCHEME}reports/{{report_id}}", name="audit report", title="A full audit report",
                    description="The whole JSON report of an `audit` call (schema/report.schema.json), by its report_id.",
                    mime_type="application/json")(lambda report_id: _full_report(store, report_id))
    server.add_prompt(Prompt.from_function(prompts.audit_project, name="audit-project", title="Audit this project"))
    server.add_prompt(Prompt.from_function(prompts.fix_finding, name="fix-finding", title="Fix finding X"))
    return server


def _answer(model: Any, text: str) -> Any:
    """Structured content, and a line of text that says what it is instead of repeating it. A
    CallToolResult, typed Any: the tool's own annotation names the model of its structured content,
    which the SDK reads for the output schema, and passes this result through as it is."""
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=model.model_dump(mode="json", by_alias=True))


def _full_report(store: answers.ReportStore, report_id: str) -> str:
    from vllm_kb.engine.report import json_text  # every JSON output's text, escaped one way

    try:
        return json_text.line(store.full(report_id))
    except Exception as e:  # noqa: BLE001 — an unknown id is the client's to correct
        from mcp.server.mcpserver.exceptions import ResourceError

        raise ResourceError(str(e)) from e


def _tool(fn: Callable[..., Any], title: str, output_schema: dict[str, Any] | None = None) -> Tool:
    tool = Tool.from_function(fn, title=title, annotations=READ_ONLY, structured_output=True)
    if output_schema is not None:
        # The report is a plain dict whose contract is a JSON Schema file, not a pydantic model:
        # publish that schema. FuncMetadata reads the field live (documented in the SDK).
        tool.fn_metadata.output_schema = output_schema
    return tool
