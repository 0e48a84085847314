"""inclusionAI/AReaL experiment configs whose rollout runs on vLLM: the allocation mode
(`rollout.backend: "vllm:d4p1t2"`, older configs' top-level `allocation_mode: vllm:d4p1t1+d4p1t1`)
names the inference servers (d: how many, t: tensor parallel, p: pipeline parallel each), and the
`vllm:` section holds vLLMConfig's fields, which AReaL's launcher hands to its vLLM server
(areal/api/cli_args.py vLLMConfig.build_args, read at 4aef98d8 of May 2026): every field as a
flag of the same name (a False or empty one left out), tensor/pipeline parallel from the
allocation, trust_remote_code on, the tokenizer the model. `no_enable_x: true` is vLLM's
`--no-enable-x`. `${a.b}` is OmegaConf's interpolation, read within the file. A change is told in
the section's own keys, never written."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.kwargs_sites import mapping_site
from vllm_kb.engine.scan.site import Setting, Site

_ALLOC = re.compile(r"^vllm[:.]([^+]*)")
_INTERP = re.compile(r"^\$\{([\w.]+)\}$")


def allocation(data: dict) -> tuple[str, tuple] | None:
    """The allocation string and where it is written, when the rollout runs on vLLM."""
    rollout = data.get("rollout")
    for at, value in ((("rollout", "backend"), rollout.get("backend") if isinstance(rollout, dict) else None),
                      (("allocation_mode",), data.get("allocation_mode"))):
        if isinstance(value, str) and _ALLOC.match(value.strip()):
            return value.strip(), at
    return None


def is_areal(data: dict) -> bool:
    return isinstance(data.get("vllm"), dict) and allocation(data) is not None


def scan(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    got = allocation(data)
    if got is None:
        return []
    text, at = got
    m = _ALLOC.match(text)
    part = m.group(1) if m else ""
    sizes = {k: int(v) for k, v in re.findall(r"([dpt])(\d+)", part)}
    line = doc.line_of(at)
    mapping: dict[str, Any] = {}
    lines: dict[str, int] = {}
    unresolved: list[str] = []
    for key, raw in data["vllm"].items():
        key = str(key)
        value = _value(data, raw)
        if value is _UNKNOWN:
            unresolved.append(key)
            continue
        if key.startswith("no_enable_"):
            if value is True:  # `--no-enable-x`
                mapping["enable_" + key[len("no_enable_"):]] = False
                lines["enable_" + key[len("no_enable_"):]] = doc.line_of(("vllm", key))
            continue
        if value is False or value is None or value == "" or value == []:
            continue  # get_py_cmd writes no flag for it: vLLM's own default holds
        mapping[key] = value
        lines[key] = doc.line_of(("vllm", key))
    site = mapping_site(ctx, rel, mapping, lines, line=doc.line_of(("vllm",)), kind="areal vllm server", mode="rlhf_server",
                        tool="areal", syntax="kwargs-yaml")
    for key in unresolved:
        if key == "model":
            site.model = Setting("model", None, False, rel, doc.line_of(("vllm", key)), key, str(data["vllm"][key]), "kwargs-yaml")
        else:
            site.settings[key] = Setting(key, None, False, rel, doc.line_of(("vllm", key)), key, str(data["vllm"][key]), "kwargs-yaml")
    for name, letter in (("tensor_parallel_size", "t"), ("pipeline_parallel_size", "p")):
        site.settings[name] = Setting(name, sizes.get(letter, 1), True, rel, line, ".".join(at), text, "kwargs-yaml",
                                      f"AReaL's allocation mode {text}", implied=True)
    site.settings.setdefault("trust_remote_code", Setting("trust_remote_code", True, True, rel, line, "trust_remote_code", "", "kwargs-yaml",
                                                          "always passed by AReaL's vLLMConfig.build_args", implied=True))
    site.gpu_request = sizes.get("t", 1) * sizes.get("p", 1)
    site.launch["servers"] = sizes.get("d", 1)
    return [site]


class _Unknown:
    pass


_UNKNOWN: Any = _Unknown()


def _value(data: dict, raw, depth: int = 0):
    """`${a.b}` read from the same file (once more if it points at another); unknown otherwise."""
    if not isinstance(raw, str) or "${" not in raw:
        return raw
    m = _INTERP.match(raw.strip())
    if m is None or depth > 4:
        return _UNKNOWN
    node: Any = data
    for part in m.group(1).split("."):
        if not isinstance(node, dict) or part not in node:
            return _UNKNOWN
        node = node[part]
    return _value(data, node, depth + 1)
