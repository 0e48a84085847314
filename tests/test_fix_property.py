"""`--fix` as a property over every syntax the scanners read (tests/corpus.py generates the
projects: shell, Python, serve YAML, verl YAML nested at any depth in block and flow style with
comments and anchors, JSON, TOML, Dockerfile, compose, Kubernetes, Helm values), in LF and CRLF,
in UTF-8 (with and without a BOM), UTF-16 and UTF-32. After --fix --unsafe-fixes:

- every file still parses;
- every line and every key that no fix targets is byte-identical (the `keep` bystanders);
- every value a fix wrote reads back as planned;
- a second audit proposes nothing fixable but what the guard refused (engine/fix/guard.py);
- line endings and the encoding (BOM included) are the file's own.

VLLM_KB_FIX_EXAMPLES (default 12) examples per syntax; set it higher to search for real."""
from __future__ import annotations

import ast
import json
import os
import tempfile
import tomllib
from pathlib import Path

import pytest
import yaml
from corpus import SYNTAXES, Project
from hypothesis import HealthCheck, given, settings
from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply as apply_fixes
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.encoding import decode
from vllm_kb.engine.scan import shell

N = int(os.environ.get("VLLM_KB_FIX_EXAMPLES", "12"))
cel._backend()  # celpy raises the recursion limit when it starts; do it before hypothesis watches
GPU = "H100-80GB x8"
prop = settings(max_examples=N, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def materialise(p: Project, root: Path) -> None:
    for rel in p.files:
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(p.bytes_of(rel))


def parses(rel: str, text: str) -> None:
    if rel.endswith(".py"):
        ast.parse(text)
    elif rel.endswith((".yaml", ".yml")):
        list(yaml.safe_load_all(text))
    elif rel.endswith(".json"):
        json.loads(text)
    elif rel.endswith(".toml"):
        tomllib.loads(text)
    elif rel.endswith(".sh"):
        shell.parse(text)
    elif rel == "Dockerfile":
        for line in text.splitlines():
            if line.startswith(("CMD", "ENTRYPOINT")) and line.rstrip().endswith("]") and "\\" not in line:
                json.loads(line.split(None, 1)[1])


def lookup(data, path):
    for p in path:
        data = data[p]
    return data


def check(p: Project) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        root.mkdir()
        materialise(p, root)
        before = {rel: (root / rel).read_bytes() for rel in p.files}
        res = apply_fixes.run(lambda overlay: audit(root, gpu=GPU, overlay=overlay), unsafe=True)
        assert res.converged, f"{p.syntax}: fixes still pending after {res.passes} passes"
        apply_fixes.write(root, res)
        rep = audit(root, gpu=GPU)
        # what the guard refused (a file whose fixes would bring a new P0, a change that would undo
        # another check's) is left as it was, and proposed again
        refused = {(r.file, r.target) for r in res.refused}
        leftover = [(ch.file, ch.target, ch.op) for _, ch, _ in apply_fixes.pending(rep, True)
                    if (ch.file, "") not in refused and (ch.file, ch.target) not in refused]
        assert leftover == [], f"{p.syntax}: a second audit still proposes {leftover}\n{res.diff()}"
        for rel in p.files:
            raw = (root / rel).read_bytes()
            text, codec, bom = decode(raw)
            if rel not in res.changed_files:
                assert raw == before[rel], f"{rel} changed without a fix"
                continue
            # the encoding and the line endings are the file's own
            assert raw.startswith(bom) and bom == decode(before[rel])[2], rel
            if rel in p.crlf:
                assert "\n" not in text.replace("\r\n", ""), f"{rel}: a bare LF in a CRLF file\n{text!r}"
            else:
                assert "\r" not in text, rel
            parses(rel, text)
            lines = text.splitlines()
            for keep in p.keep_lines.get(rel, []):
                assert keep in lines, f"{p.syntax}: {rel} lost the line {keep!r}\n{res.diff()}"
            if p.keep_paths.get(rel):
                data = json.loads(text) if rel.endswith(".json") else yaml.safe_load(text)
                for path, value in p.keep_paths[rel]:
                    assert lookup(data, path) == value, f"{rel}: {path} changed\n{res.diff()}"
        _reads_back(rep, res)


def _reads_back(rep, res) -> None:
    """The last value each fix wrote for a setting is what the next audit reads there."""
    wrote: dict[tuple[str, str], object] = {}
    for a in res.applied:
        if a.op == "set" and a.after and "," not in a.target and not isinstance(a.value, (dict, list)):
            wrote[(a.file, a.target)] = a.value
    for sr in rep.sites:
        s = sr.site
        for (file, target), value in wrote.items():
            got = s.settings.get(target)
            if got is None or got.file != file or not got.resolved:
                continue
            assert _same(got.value, value), f"{file}: {target} reads {got.value!r}, the fix wrote {value!r}"


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b or str(a).lower() == str(b).lower()


@pytest.mark.parametrize("syntax", sorted(SYNTAXES))
def test_fix_is_exact_in_every_syntax(syntax):
    @prop
    @given(SYNTAXES[syntax]())
    def run(p):
        check(p)

    run()
