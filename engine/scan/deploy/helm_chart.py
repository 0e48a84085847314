"""A Helm chart's templates (`templates/*.yaml` beside a Chart.yaml), read as the text `helm
template` renders with the chart's own values.yaml (engine/scan/deploy/helm_render.py), then as
the manifests they are. A container whose command is a script a ConfigMap of the same chart
mounts runs that script with its args (`command: ["/scripts/start.sh"]`, the script ending in
`exec vllm serve … "$@"`); the ConfigMap is then not a launch of its own. What is read this way
is not the file's bytes: a site from a template is reported, never edited by --fix (the value
lives in values.yaml, or in the user's own values)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import words
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.shell_expand import is_known
from vllm_kb.engine.scan.deploy import helm_render
from vllm_kb.engine.scan.site import Site


@dataclass
class Chart:
    folder: str
    root: dict  # what the templates see: {"Values": …, "Chart": …}
    rendered: dict[str, str] = field(default_factory=dict)  # template → its rendered text
    gaps: dict[str, frozenset[int]] = field(default_factory=dict)  # template → lines of YAML left unknown
    scripts: dict[tuple[str, str], str] = field(default_factory=dict)  # (ConfigMap name, key) → script
    run: set[str] = field(default_factory=set)  # ConfigMaps whose script a container runs
    mentions: bool = False  # its values or a template name vLLM (or a framework): worth reading
    docs: dict[str, list] = field(default_factory=dict)  # template → its rendered documents


def chart_folder(ctx: ScanContext, rel: str) -> str | None:
    """The chart `rel` is a template of: the folder above its `templates/` holding a Chart.yaml."""
    parts = rel.split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "templates":
            folder = "/".join(parts[:i])
            if (folder + "/" if folder else "") + "Chart.yaml" in ctx.file_set():
                return folder
            return None
    return None


def is_template(ctx: ScanContext, rel: str, text: str) -> bool:
    return "{{" in text and chart_folder(ctx, rel) is not None


def candidate(ctx: ScanContext, rel: str, text: str) -> bool:
    """A template of a chart that runs vLLM somewhere: the deployment that runs a ConfigMap's
    `vllm serve` script, or takes its image from values.yaml, need not name vLLM itself."""
    return is_template(ctx, rel, text) and _chart(ctx, chart_folder(ctx, rel) or "").mentions


def render(ctx: ScanContext, rel: str, text: str) -> str:
    chart = _chart(ctx, chart_folder(ctx, rel) or "")
    got = chart.rendered.get(rel)
    if got is None:
        got, chart.gaps[rel] = helm_render.render_gaps(text, chart.root)
    return got


def prepare(ctx: ScanContext, rel: str, docs: list[yamlio.Document], chart: Chart | None = None) -> list[yamlio.Document]:
    """The rendered documents as the chart runs them: a mounted ConfigMap script in the container's
    command, and no ConfigMap a container runs (its launch is the container's)."""
    chart = chart or _chart(ctx, chart_folder(ctx, rel) or "")
    gaps = sorted(chart.gaps.get(rel) or ())
    starts = [d.start_line for d in docs[1:]] + [None]
    for doc, end in zip(docs, starts):  # each document's own gaps: a container's env is not known in full there
        doc.gaps = frozenset(g for g in gaps if g >= doc.start_line and (end is None or g < end))
    out = []
    for doc in docs:
        data = doc.data
        if isinstance(data, dict) and data.get("kind") == "ConfigMap" and _name(data) in chart.run:
            continue
        if isinstance(data, dict):
            _run_scripts(chart, data, None)
        out.append(doc)
    return out


def chart_of(ctx: ScanContext, rel: str) -> Chart:
    """The chart `rel` is a template of, rendered with its own values.yaml."""
    return _chart(ctx, chart_folder(ctx, rel) or "")


def unplaced(sites: list[Site]) -> list[Site]:
    """Sites read from rendered text: no position in the template's bytes (fixes are told, not written)."""
    for s in sites:
        src = s.source if isinstance(s.source, dict) else None
        if src is not None:
            if "argv_pos" in src:
                src["argv_pos"] = [None] * len(src["argv_pos"] or [])
            src["argv_append"] = None
            src["env_at"] = None
        for setting in (*s.settings.values(), *s.env.values()):
            setting.pos = None
        s.launch["helm_template"] = True
    return sites


def _chart(ctx: ScanContext, folder: str, parent: tuple | None = None) -> Chart:
    """The chart in `folder` rendered with its own values.yaml; or, with `parent` (umbrella values file,
    key, the values under that key, the umbrella's `global:`), as that umbrella installs it
    (engine/scan/deploy/helm_umbrella.py)."""
    cache = folder if parent is None else (folder, parent[0], parent[1])
    got = ctx.helm_charts.get(cache)
    if got is not None:
        return got
    base = folder + "/" if folder else ""
    values, meta = _mapping(ctx, base + "values.yaml"), _meta(ctx, base + "Chart.yaml")
    if parent is not None:
        values = coalesce(parent[2], values)
        if isinstance(values, dict) and isinstance(parent[3], dict):
            values["global"] = coalesce(parent[3], values.get("global"))
        if isinstance(meta, dict):  # an alias is the name the subchart's templates see
            meta = {**meta, "Name": parent[1]}
    chart = Chart(folder, {"Values": values, "Chart": meta,
                           "Release": helm_render.UNKNOWN, "Capabilities": helm_render.UNKNOWN})
    ctx.helm_charts[cache] = chart
    texts = {f: t for f in sorted(ctx.files) if f.startswith(base + "templates/") and f.endswith((".yaml", ".yml"))
             and (t := ctx.read(f)) is not None}
    values = ctx.read(base + "values.yaml") if base + "values.yaml" in ctx.file_set() else None
    chart.mentions = any(words.yaml_candidate(t) for t in (*texts.values(), values or ""))
    if chart.mentions:  # the named templates `include` renders (_helpers.tpl's image, names)
        helpers = [t for f in sorted(ctx.files) if f.startswith(base + "templates/") and f.endswith(".tpl") and (t := ctx.read(f)) is not None]
        named: dict = {}
        for text in (*helpers, *texts.values()):
            try:
                named.update(_defines(text))
            except (ValueError, RecursionError):
                continue
        depth = [0]  # includes now rendering, one inside another
        chart.root[helm_render.INCLUDE] = lambda name, dot: _include(named, name, dot, chart.root, depth)
    docs_of: dict[str, list] = {}
    for f, text in texts.items() if chart.mentions else ():
        try:
            chart.rendered[f], chart.gaps[f] = helm_render.render_gaps(text, chart.root)
            docs_of[f] = yamlio.load_all(chart.rendered[f])
        except (yamlio.YamlError, RecursionError):
            continue
        except Exception as e:  # noqa: BLE001 — a renderer bug costs this template, never the audit
            ctx.skip(f, "scanner-error", detail=f"{type(e).__name__}: {e}"[:160])
    chart.docs = docs_of
    for docs in docs_of.values():
        for d in docs:
            if isinstance(d.data, dict) and d.data.get("kind") == "ConfigMap" and isinstance(d.data.get("data"), dict):
                for key, script in d.data["data"].items():
                    if isinstance(script, str):
                        chart.scripts[(_name(d.data), str(key))] = script
    for docs in docs_of.values():
        for d in docs:
            if isinstance(d.data, dict) and d.data.get("kind") != "ConfigMap":
                _run_scripts(chart, d.data, chart.run)
    return chart


def as_subchart(ctx: ScanContext, folder: str, parent: tuple) -> Chart:
    """The chart in `folder` as an umbrella chart installs it (`parent`: see _chart)."""
    return _chart(ctx, folder, parent)


def values_of(ctx: ScanContext, rel: str) -> Any:
    """A values file's mapping ({} when empty, unknown when it is not YAML)."""
    return _mapping(ctx, rel)


def coalesce(over: Any, under: Any) -> Any:
    """Helm's merge of a parent's values over a chart's defaults: maps merge key by key, anything
    else (a list, a scalar) replaces; a null from the parent removes the default."""
    if not isinstance(over, dict) or not isinstance(under, dict):
        return under if over is None else over
    out = dict(under)
    for k, v in over.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = coalesce(v, under.get(k))
    return out


def _defines(text: str) -> dict[str, list]:
    """The named templates a chart file defines (`{{- define "chart.image" -}}` in _helpers.tpl)."""
    out: dict[str, list] = {}
    for n in helm_render.tree(text):
        if n[0] == "block" and n[1] == "define" and (m := re.fullmatch(r'"([^"]+)"', n[2][0][0].strip())):
            out[m.group(1)] = n[2][0][1]
    return out


def _include(named: dict, name, dot, root: dict, depth: list):
    """`include "name" .`: the named template rendered with that dot, when it comes out as one known line
    (an image `repo:tag`, a name); anything else (several lines, a gap, a hole) stays unknown."""
    body = named.get(name) if isinstance(name, str) else None
    if body is None or dot is helm_render.UNKNOWN or depth[0] > 8:
        return helm_render.UNKNOWN
    depth[0] += 1
    try:
        out = helm_render.emit(body, dot, helm_render.scoped(root)).strip()
    finally:
        depth[0] -= 1
    return helm_render.UNKNOWN if not out or "\n" in out or helm_render.GAP in out or not is_known(out) else out


def rendered_docs(ctx: ScanContext) -> list[tuple[str, yamlio.Document]]:
    """(template, document) of every chart's rendered templates: an InferenceService finds the ServingRuntime
    its chart renders beside it (both named by the same `include`, unknown until the install)."""
    out = []
    for f in ctx.files:
        head, _, name = f.rpartition("/")
        if name == "Chart.yaml":
            out += [(rel, d) for rel, docs in _chart(ctx, head).docs.items() for d in docs]
    return out


def renders_value(ctx: ScanContext, rel: str):
    """For a chart's values.yaml: a test of whether a value's path (`servingRuntime.command`) goes into a
    template the chart renders with vLLM in it; that template's site is its launch, not the value alone.
    None for any other file."""
    head, _, name = rel.rpartition("/")
    if name not in ("values.yaml", "values.yml") or (head + "/" if head else "") + "Chart.yaml" not in ctx.file_set():
        return None
    chart = _chart(ctx, head)

    def used(path: tuple) -> bool:
        key = ".Values." + ".".join(str(p) for p in path if isinstance(p, str))
        return any("vllm" in out and re.search(re.escape(key) + r"(?![\w.])", ctx.read(f) or "") for f, out in chart.rendered.items())
    return used


def _run_scripts(chart: Chart, data: dict, found: set[str] | None) -> None:
    """Each container of `data` whose command is a script a ConfigMap volume mounts: its command
    becomes `/bin/sh -c <script> <path>`, so the args are the script's "$@". `found`: only note
    the ConfigMaps run (the first pass over the chart), changing nothing."""
    from vllm_kb.engine.scan.deploy.kubernetes import _containers, _node, _pod

    for path, c in _containers(data, ()):
        command = c.get("command")
        if not (isinstance(command, list) and len(command) == 1 and str(command[0]).startswith("/")):
            continue
        target = str(command[0])
        pod = _node(data, _pod(path))
        volumes = {v.get("name"): v for v in (pod or {}).get("volumes") or [] if isinstance(v, dict)} if isinstance(pod, dict) else {}
        for m in c.get("volumeMounts") or []:
            mount = str((m or {}).get("mountPath", "")).rstrip("/") if isinstance(m, dict) else ""
            cm = (volumes.get(m.get("name")) or {}).get("configMap") if mount and target.startswith(mount + "/") else None
            if not isinstance(cm, dict):
                continue
            key = target[len(mount) + 1:]
            script = chart.scripts.get((str(cm.get("name")), key))
            if script is None:
                continue
            if found is not None:
                found.add(str(cm.get("name")))
            else:
                c["command"] = ["/bin/sh", "-c", script, target]
            break


def _name(data: dict) -> str:
    meta = data.get("metadata")
    return str(meta.get("name")) if isinstance(meta, dict) else ""


def _mapping(ctx: ScanContext, rel: str) -> Any:
    text = ctx.read(rel) if rel in ctx.file_set() else None
    try:
        docs = yamlio.load_all(text) if text else []
    except (yamlio.YamlError, RecursionError):
        return helm_render.UNKNOWN
    return docs[0].data if docs and isinstance(docs[0].data, dict) else {}


def _meta(ctx: ScanContext, rel: str) -> Any:
    """Chart.yaml as `.Chart` sees it (`.Chart.AppVersion` is `appVersion:`)."""
    got = _mapping(ctx, rel)
    if not isinstance(got, dict):
        return got
    return {k[:1].upper() + k[1:]: v for k, v in got.items()}
