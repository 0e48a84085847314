"""The demo server's own argument set (knowledge/vllm/entrypoints.yaml, tools/vllm_entrypoints.py).

`python -m vllm.entrypoints.api_server` parses its command line with a parser of its own: a few
server options plus AsyncEngineArgs.add_cli_args (vllm/entrypoints/api_server.py, 0.1 … 0.24). An
option only the OpenAI server adds (`--api-key`, `--served-model-name` before 0.4.2,
`--chat-template`, `--enable-auto-tool-choice` …) exists in the release, so the catalog's lifecycle
finding stays quiet, yet argparse stops this entry point with "unrecognized arguments". From 0.25.0
the module is gone."""
from __future__ import annotations

from vllm_kb.engine.kb.guards import guards_access
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.kb import versions
from vllm_kb.engine.kb.versions import parse
from vllm_kb.engine.scan.cli_args import normalise_flag
from vllm_kb.engine.scan.site import Finding, Site

DEMO_KIND = "legacy api_server"
# Dynamo's vLLM worker hands the words its own parser leaves to a parser of AsyncEngineArgs.add_cli_args
# alone (ai-dynamo/dynamo components/src/dynamo/vllm/args.py): the demo parser less its own options
DYNAMO_ENTRY = "dynamo.vllm (package)"
CODES = {"entrypoint-option": "P0", "entrypoint-removed": "P0"}
# keywords LLM.__init__ drops itself with a DeprecationWarning, so they never reach EngineArgs in
# those releases (check B4 says so): swap_space in 0.18.0-0.25.1 (vllm/entrypoints/llm.py, 0.18.0
# line 261, 0.25.1 line 224); from 0.26.0 EngineArgs gets it and raises TypeError. The frameworks that
# call LLM() themselves read the same table (framework_kwargs.py)
LLM_DROPS = {"swap_space": ">=0.18.0,<0.26.0"}


def _table(kb: Knowledge) -> dict:
    return kb.doc("vllm", "entrypoints.yaml").data


def _release(table: dict, version: str) -> str | None:
    """The scanned release `version` is read as: the nearest at or below, within the demo server's life."""
    v = parse(version)
    below = [r for r in table["releases"] if parse(r) <= v]
    if not below or (table.get("removed_in") and v >= parse(table["removed_in"])):
        return None
    return below[-1]


def _within(spans: list, release: str) -> bool:
    v = parse(release)
    return any(parse(a) <= v <= parse(b) for a, b in spans)


def refused(kb: Knowledge, flag: str, version: str) -> bool:
    """Whether the demo server of `version` stops on `flag` (a long option, any spelling)."""
    table = _table(kb)
    release = _release(table, version)
    long_flag = normalise_flag(flag if flag.startswith("-") else "--" + flag)[0].lower()
    spans = table["refused"].get(long_flag)
    return release is not None and spans is not None and _within(spans, release)


def site_findings(site: Site, kb: Knowledge, version: str) -> tuple[list[Finding], set[str]]:
    """The findings of a demo-server site and the settings they cover (no lifecycle finding then);
    for an `LLM()` call, the keywords it drops itself in this release."""
    if site.launch.get("entry_point") == DYNAMO_ENTRY:
        return _engine_parser_findings(site, kb, version)
    if site.kind == "LLM()" and site.syntax == "python-call":
        return [], {n for n, spec in LLM_DROPS.items() if n in site.settings and versions.contains(spec, version)}
    if site.kind != DEMO_KIND:
        return [], set()
    table = _table(kb)
    if table.get("removed_in") and parse(version) >= parse(table["removed_in"]):
        text = msg("finding.entrypoint_removed", module=table["module"], version=version, removed=table["removed_in"],
                   last=table["releases"][-1])
        return [Finding("entrypoint-removed", text, site.file, site.line, "P0", fix=[(FixOp("pin", "vllm"), f"<={table['releases'][-1]}")],
                        safe=False, vllm=f">={table['removed_in']}")], set()
    out, covered = [], set()
    release = _release(table, version)
    for s in list(site.settings.values()) + list(site.unknown.values()):
        key = s.key or ""
        if not key.startswith("--") or release is None:
            continue
        if _within(table["own"].get(normalise_flag(key)[0].lower(), []), release):
            covered.add(s.name)  # the demo parser's own option (--log-level): no engine or server lifecycle applies
            continue
        if not refused(kb, key, version):
            continue
        text = msg("finding.entrypoint_option", key=key, version=version, module=table["module"])
        out.append(Finding("entrypoint-option", text, s.file, s.line, "P0", fix=[(FixOp("unset", s.name), None)],
                           safe=not guards_access(s.name), subject=s.name))
        covered.add(s.name)
    return out, covered


def _engine_parser_findings(site: Site, kb: Knowledge, version: str) -> tuple[list[Finding], set[str]]:
    """An OpenAI-server option given to `python -m dynamo.vllm`: its vLLM parser is the engine's alone,
    so the demo server's refusals and its own server options (--host, --port) stop it too; read for
    the releases the demo table covers (up to 0.24), unknown after."""
    table = _table(kb)
    release = _release(table, version)
    if release is None:
        return [], set()
    out, covered = [], set()
    for s in list(site.settings.values()):
        key = s.key or ""
        flag = normalise_flag(key)[0].lower() if key.startswith("--") else ""
        if not flag or not (refused(kb, key, version) or _within(table["own"].get(flag, []), release)):
            continue
        text = msg("finding.dynamo_option", key=key, version=version)
        out.append(Finding("entrypoint-option", text, s.file, s.line, "P0", fix=[(FixOp("unset", s.name), None)],
                           safe=not guards_access(s.name), subject=s.name))
        covered.add(s.name)
    return out, covered


def model_tag_taken(f: Finding, site: Site, version: str) -> bool:
    """The first stray word after `python -m vllm.entrypoints.openai.api_server` (engine/scan/scripts.py
    records it in the site's source): from 0.10.0 the parser's optional positional `model_tag` takes it, so
    nothing is refused."""
    v = versions.try_parse(version)
    src = site.source if isinstance(site.source, dict) else {}
    return (f.code == "stray-positional" and src.get("stray_model_tag") == [f.line, f.message.get("en")]
            and v is not None and v >= parse("0.10.0"))
