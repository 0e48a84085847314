"""A chart template rendered only under a value its values.yaml does not choose: `{{- if eq
.Values.servingTopology "multiNode" }}` while values.yaml says `singleNode` (redhat-ai-services/helm-charts'
vllm-kserve servingruntime-multinode.yaml, eval97). The chart offers that launch as one setting away, so it
is read too, rendered with the value the condition names (one condition at a time, the rest of values.yaml
as it is). Its sites are marked `values_choice` ("servingTopology=multiNode"): the default install does not
run them, so a refusal there is P1, never P0 (engine/check/evaluate.settle_documented). Only a string
comparison (`eq .Values.x "lit"`, either order, or on a `$v := .Values.part` variable) is read as such a choice: it names the value; a switch
(`if .Values.lws.enabled`) may turn on parts that need values the chart leaves to the user."""
from __future__ import annotations

import copy
import dataclasses
import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import helm_chart, helm_render
from vllm_kb.engine.scan.site import Site

_EQ = re.compile(r'\{\{-?\s*(?:else\s+)?if\s+\(?\s*eq\s+(?:(\.Values|\$\w+)\.([\w.]+)\s+"([^"]*)"|"([^"]*)"\s+(\.Values|\$\w+)\.([\w.]+))\s*\)?\s*-?\}\}')
# `{{- $app := .Values.vllm -}}` … `{{- if eq $app.workload.type "leaderWorkerSet" }}`: a variable that names a part of the values
_ALIAS = re.compile(r'\{\{-?\s*(\$\w+)\s*:=\s*\.Values\.([\w.]+)\s*-?\}\}')
MAX_CHOICES = 4  # renderings of one template beyond the default


def choices(text: str, values) -> list[tuple[str, str]]:
    """(values path, literal) of each `eq` condition the chart's values do not meet, where the path holds
    another string (a setting the chart makes, that the user may change)."""
    out: list[tuple[str, str]] = []
    aliases = {m.group(1): m.group(2) for m in _ALIAS.finditer(text)}
    for m in _EQ.finditer(text):
        head, path, lit = (m.group(1), m.group(2), m.group(3)) if m.group(2) else (m.group(5), m.group(6), m.group(4))
        if head != ".Values":
            if head not in aliases:
                continue
            path = aliases[head] + "." + path
        cur = _get(values, path.split("."))
        if isinstance(cur, str) and cur and cur != lit and (path, lit) not in out:
            out.append((path, lit))
    return out[:MAX_CHOICES]


def sites(ctx: ScanContext, rel: str, text: str, known: list[Site], scan) -> list[Site]:
    """The launches the template renders under each choice that the default rendering (`known`) lacks;
    `scan(rendered, docs)`: the sites of a rendered text."""
    chart = helm_chart.chart_of(ctx, rel)
    values = chart.root.get("Values") if isinstance(chart.root, dict) else None
    seen = {s.id for s in known}
    out: list[Site] = []
    for path, lit in choices(text, values):
        root = {**chart.root, "Values": _with(values, path.split("."), lit)}
        try:
            rendered, gaps = helm_render.render_gaps(text, root)
            alt = dataclasses.replace(chart, root=root, gaps={**chart.gaps, rel: gaps})
            docs = helm_chart.prepare(ctx, rel, yamlio.load_all(rendered), alt)
        except (yamlio.YamlError, RecursionError):
            continue
        for s in helm_chart.unplaced(scan(rendered, docs)):
            if s.id not in seen:
                s.launch["values_choice"] = f"{path}={lit}"
                seen.add(s.id)
                out.append(s)
    return out


def _get(node, keys: list[str]):
    for k in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(k)
    return node


def _with(values, keys: list[str], lit: str):
    out = copy.deepcopy(values) if isinstance(values, dict) else {}
    node = out
    for k in keys[:-1]:
        node = node.setdefault(k, {}) if isinstance(node.get(k), dict) or k not in node else {}
    node[keys[-1]] = lit
    return out
