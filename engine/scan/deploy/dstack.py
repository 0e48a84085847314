"""dstack run configurations (`.dstack.yml`, `*.dstack.yml`; `type: service`, `task` or
`dev-environment`): the `commands:` run in order in one shell inside `image:`, with `env:` (a list
of `NAME=value` or a mapping) as its environment; `resources.gpu` asks for the GPUs (`A100:2`,
`24GB..:3`, `H100:80GB:8`, or a mapping with `name` and `count`). A command whose value dstack
takes from the submitting machine (`- HF_TOKEN` with no value) stays unknown."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.embedded import block_first_line, script_sites
from vllm_kb.engine.scan.images import image_version
from vllm_kb.engine.scan.site import Setting, Site

_TYPES = ("service", "task", "dev-environment")
_COUNT = re.compile(r"^\d+$")


def is_dstack(rel: str, data: dict) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return (data.get("type") in _TYPES and isinstance(data.get("commands"), list)
            and (name.endswith((".dstack.yml", ".dstack.yaml")) or "image" in data or "resources" in data))


def gpus(resources) -> tuple[int | None, list[str]]:
    """(GPU count, GPU types) from `resources.gpu`; the count is None for a range (`1..2`)."""
    gpu = resources.get("gpu") if isinstance(resources, dict) else None
    if isinstance(gpu, int) and not isinstance(gpu, bool):
        return gpu, []
    if isinstance(gpu, dict):
        names = gpu.get("name")
        count = gpu.get("count")
        return (count if isinstance(count, int) and not isinstance(count, bool) else None,
                [str(n) for n in (names if isinstance(names, list) else [names]) if n])
    if not isinstance(gpu, str):
        return None, []
    parts = [p.strip() for p in gpu.split(":") if p.strip()]
    count = int(parts[-1]) if len(parts) > 1 and _COUNT.match(parts[-1]) else (int(parts[0]) if len(parts) == 1 and _COUNT.match(parts[0]) else None)
    types = [t for p in parts for t in p.split(",") if t and not _COUNT.match(t) and not re.match(r"^\d+(?:\.\d+)?\s*[GT]B", t, re.I)
             and ".." not in t]
    return count, types


def _env(data, rel: str, doc: yamlio.Document) -> tuple[dict[str, str], dict[str, Setting]]:
    raw = data.get("env")
    pairs: list[tuple[str, object, tuple]] = []
    if isinstance(raw, dict):
        pairs = [(str(k), v, ("env", k)) for k, v in raw.items()]
    elif isinstance(raw, list):
        for i, item in enumerate(raw):
            if isinstance(item, str) and "=" in item:
                k, _, v = item.partition("=")
                pairs.append((k.strip(), v, ("env", i)))
    known = {k: str(v) for k, v, _ in pairs if v is not None}
    env = {k: Setting(k, known[k], True, rel, doc.line_of(p), k, known[k], "dstack") for k, _, p in pairs if k in known}
    return known, env


def scan_dstack(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    commands = [c for c in data["commands"] if isinstance(c, str)]
    if not commands:
        return []
    known, env = _env(data, rel, doc)
    image = data.get("image") if isinstance(data.get("image"), str) else None
    tag = image_version(image)
    version = ctx.catalog.resolve(tag).version if tag else None
    lines = (ctx.read(rel) or "").splitlines()
    starts = [block_first_line(lines, doc.line_of(("commands", i)), c) for i, c in enumerate(data["commands"]) if isinstance(c, str)]
    if all("\n" not in c for c in commands) and starts == list(range(starts[0], starts[0] + len(starts))):
        scripts = [("\n".join(commands), starts[0])]  # one shell: what an earlier command sets, a later one sees
    else:
        scripts = list(zip(commands, starts))  # each where it is written
    count, types = gpus(data.get("resources"))
    sites: list[Site] = []
    for text, first in scripts:
        for s in script_sites(ctx, rel, text, first, known=known, env=env, tool="dstack", version=version):
            s.gpu_request = s.gpu_request or count
            s.gpu_types = s.gpu_types or types
            s.image = s.image or image
            sites.append(s)
    return sites
