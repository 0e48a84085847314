"""The vLLM a recorded run used: a JSON run record (a benchmark harness's `manifest.json`, an
environment dump) that keeps the engine's own version beside the command it ran
(`"vllm_version": "0.20.1rc1.dev144+g5737770c6"`, what `vllm.__version__` said during the run).
The launches in that record's folder ran that build, so it pins the folder as a requirements file
would; a development build is read like a dev wheel's version (engine/scan/source_pins.py). Without
it such a folder was judged at the newest release, which may have since removed an option the run
used (eval68, vllm-ds4-sm120-harness: `--attention_config.use_fp4_indexer_cache` from 0.20.1 on,
gone by 0.34.0). Records in one file that name different builds name none. A checkout built
without its git tags reports setuptools-scm's placeholder (`0.1.devN+g…`), which names no release."""
from __future__ import annotations

import os
import re

from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan.requirement import Pin, from_requirement

_MAX_BYTES = 1 << 20
_KEY = re.compile(r'"vllm_version"\s*:\s*"([^"\n]{1,80})"')


def scan(ctx, files: list[str], found: list[Pin]) -> list[Pin]:
    """The vllm pins of the project's JSON run records, where nothing else in it pins vLLM (a record
    stands in for a missing pin; reading every JSON file of a pinned project was 13 % more files
    opened on the 5,000-file benchmark tree). A file is looked at in bytes first: a data set's JSON
    is neither kept in the scan's cache nor reported as skipped for this."""
    if any(p.package == "vllm" for p in found):
        return []
    out: list[Pin] = []
    for rel in files:
        if rel.lower().endswith(".json") and _has_key(os.path.join(ctx.root, rel)) and (text := ctx.read(rel)) is not None:
            out += pins(rel, text)
    return out


def _has_key(path: str) -> bool:
    try:
        if os.path.islink(path) or os.path.getsize(path) > _MAX_BYTES:  # a record is small and the project's own
            return False
        with open(path, "rb") as f:
            return b'"vllm_version"' in f.read(_MAX_BYTES)
    except OSError:
        return False


def pins(rel: str, text: str) -> list[Pin]:
    """The vllm pin a run record's `vllm_version` makes of its folder; [] when the file names none
    or more than one build."""
    found = [(m.group(1).strip(), text.count("\n", 0, m.start()) + 1) for m in _KEY.finditer(text)]
    versions = {v for v, _ in found}
    if len(versions) != 1:
        return []
    version, line = found[0]
    parsed = try_parse(version)
    if parsed is None or parsed.release[:2] < (0, 2):  # `0.1.dev16678+gd99ffa034`: a tagless checkout's placeholder
        return []
    p = from_requirement(rel, line, f"vllm=={version}", "requirements")
    return [p] if p is not None and p.package == "vllm" else []
