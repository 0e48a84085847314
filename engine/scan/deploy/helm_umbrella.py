"""An umbrella chart: a Chart.yaml whose `dependencies:` name a chart of the same repository
(`repository: "file://../common/vllm"`). `helm install` of the umbrella renders that subchart with
the values under its name (or `alias:`) in the umbrella's values.yaml laid over the subchart's own,
the umbrella's `global:` shared, unless its `condition:` (`vllm.enabled`) reads false. The subchart's
own site (its templates with its defaults) says nothing of the model and arguments the umbrella gives
it (opea-project/GenAIInfra: chatqna, codetrans … each set `vllm.LLM_MODEL_ID` and `extraCmdArgs`).
Each enabled subchart that runs vLLM is then a launch of the umbrella, reported at its key in the
umbrella's values.yaml: that is where a user changes what it runs."""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import helm_chart


@dataclass
class Subchart:
    key: str  # the dependency's alias, else its name: the umbrella's values key
    line: int  # where that key sits in the umbrella's values.yaml (the Chart.yaml entry's line without one)
    chart: helm_chart.Chart  # the subchart rendered as the umbrella installs it
    written: dict[str, int] = field(default_factory=dict)  # each scalar the umbrella writes under the key → its line
    args_list: str | None = None  # the values list the subchart's container args range over (`extraCmdArgs`)

    def line_of(self, *texts: str) -> int:
        """The line of the umbrella's value a setting was rendered from (`--max-seq-len-to-capture` in its
        extraCmdArgs), else the key's."""
        return next((self.written[t] for t in texts if t and t in self.written), self.line)


def is_values(ctx: ScanContext, rel: str) -> bool:
    """`rel` is the values.yaml of a chart that depends on a chart of this repository."""
    head, _, name = rel.rpartition("/")
    if name not in ("values.yaml", "values.yml"):
        return False
    return bool(_local_deps(ctx, head))


def subcharts(ctx: ScanContext, rel: str) -> list[Subchart]:
    """The umbrella's enabled local subcharts that run vLLM (or a framework), each rendered with the umbrella's values."""
    head = rel.rpartition("/")[0]
    try:
        docs = yamlio.load_all(ctx.read(rel) or "")
    except (yamlio.YamlError, RecursionError):
        return []
    values = docs[0].data if docs else None
    if not isinstance(values, dict):
        return []
    out = []
    for key, folder, condition, entry_line in _local_deps(ctx, head):
        own = helm_chart.values_of(ctx, folder + "/values.yaml")
        if not _enabled(condition, values, key, own if isinstance(own, dict) else {}):
            continue
        chart = helm_chart.as_subchart(ctx, folder, (rel, key, values.get(key), values.get("global")))
        if chart.mentions and chart.rendered:
            out.append(Subchart(key, docs[0].line_of((key,)) if key in values else entry_line, chart, _written(docs[0], key),
                                _args_list(ctx, chart)))
    return out


def _local_deps(ctx: ScanContext, head: str) -> list[tuple[str, str, str, int]]:
    """(values key, subchart folder, condition, line in Chart.yaml) of each `file://` dependency whose folder holds a Chart.yaml."""
    base = head + "/" if head else ""
    rel = base + "Chart.yaml"
    if rel not in ctx.file_set():
        return []
    text = ctx.read(rel)
    if not text or "file://" not in text:
        return []
    try:
        docs = yamlio.load_all(text)
    except (yamlio.YamlError, RecursionError):
        return []
    data = docs[0].data if docs else None
    deps = data.get("dependencies") if isinstance(data, dict) else None
    out = []
    for i, dep in enumerate(deps if isinstance(deps, list) else []):
        repo = dep.get("repository") if isinstance(dep, dict) else None
        if not (isinstance(repo, str) and repo.startswith("file://") and isinstance(dep.get("name"), str)):
            continue
        if dep.get("tags"):  # enabled by tags the install chooses: not known here
            continue
        folder = posixpath.normpath(posixpath.join(head, repo[len("file://"):]))
        if folder.startswith("..") or folder + "/Chart.yaml" not in ctx.file_set():
            continue
        key = dep.get("alias") if isinstance(dep.get("alias"), str) else dep["name"]
        out.append((key, folder, str(dep.get("condition") or ""), docs[0].line_of(("dependencies", i))))
    return out


def _enabled(condition: str, values: dict, key: str, own: dict) -> bool:
    """Helm's reading of `condition:`: the first of its paths that holds a boolean in the umbrella's
    values (the subchart's own defaults under them) decides; none does: the subchart is installed."""
    merged = {**values, key: helm_chart.coalesce(values.get(key), own)}
    for path in (p.strip() for p in condition.split(",")):
        node: Any = merged
        for part in path.split(".") if path else ():
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, bool):
            return node
    return True


def _written(doc: yamlio.Document, key: str) -> dict[str, int]:
    """Each scalar under `key` in the umbrella's values, as text, with its line (the first, where one repeats)."""
    out: dict[str, int] = {}
    for path, line in sorted(doc.lines.items(), key=lambda kv: kv[1]):
        if not path or path[0] != key:
            continue
        node: Any = doc.data
        for part in path:
            node = node[part] if isinstance(node, (dict, list)) and (part in node if isinstance(node, dict) else isinstance(part, int) and part < len(node)) else None
        if node is not None and not isinstance(node, (dict, list)):
            out.setdefault(str(node), line)
    return out


# `args:` then, before any item, the `range` over a values list (GenAIInfra's common/vllm:
# `{{- if .Values.extraCmdArgs }}` / `{{- range .Values.extraCmdArgs }}`): where an added argument goes
_ARGS_RANGE = re.compile(r"^[ \t]*args:[ \t]*\n(?:[ \t]*\{\{[^\n]*\}\}[ \t]*\n)*?[ \t]*\{\{-?[ \t]*range[ \t]+\.Values\.([\w.]+)[ \t]*-?\}\}", re.M)


def _args_list(ctx: ScanContext, chart: helm_chart.Chart) -> str | None:
    found = {m.group(1) for tpl in chart.rendered for m in _ARGS_RANGE.finditer(ctx.read(tpl) or "")}
    return found.pop() if len(found) == 1 else None
