"""Project modules that import vLLM's own modules without being a launch site, nor loaded by one:
a serving wrapper's module that another process starts, a library module of the project. Check
L139 reads the imports of each launch file and of the modules it loads; a module no launch site
reaches was not read, yet Python raises the same ImportError when anything loads it (a wrapper's
OpenAI server module importing `LoadLoraAdapterRequest`, which vLLM 0.8 spells
`LoadLoRAAdapterRequest`: blog.gitcode.com f685d25e). Each such module becomes a site of its own
("vllm import"), at the import that fails, judged by L139 alone; a module whose imports all
resolve in the release (or that a launch site loads) gives no site, nor one the project imports only
under a test of vLLM's version that the release fails (engine/scan/version_gates.py: RLinf's
vllm_0_8_5 executor, imported only for 0.8.5 <= vllm < 0.9.0).

Left out: tests (test folders, test_*.py, *_test.py, conftest.py) and copies of vLLM itself (a
folder holding vllm/__init__.py, whose imports are of that copy)."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan import version_gates
from vllm_kb.engine.scan.project_imports import Launches
from vllm_kb.engine.scan.site import Site

KIND = "vllm import"
ONLY = frozenset({"L139"})  # the checks an import site is judged by
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+vllm\.[\w.]+[ \t]+import|import[ \t]+vllm\.)", re.M)
_TEST_DIRS = frozenset({"test", "tests", "testing", "unittests"})


def _test(rel: str) -> bool:
    p = PurePosixPath(rel)
    return bool(_TEST_DIRS & set(p.parts[:-1])) or p.name.startswith("test_") or p.name.endswith("_test.py") \
        or p.name == "conftest.py"


def _vllm_copy(rel: str, py: set[str]) -> bool:
    """`rel` lies under a folder that holds a copy of vLLM's package (or is inside that package)."""
    parts = PurePosixPath(rel).parts[:-1]
    return any("/".join((*parts[:i], "vllm", "__init__.py")) in py for i in range(len(parts) + 1))


def candidates(files: list[str], read, sites: list[Site], launches: Launches) -> list[Site]:
    """An import site for each module that imports a vLLM submodule at its top level and that no
    Python launch site is or loads (its imports are judged there)."""
    py = {f for f in files if f.endswith(".py")}
    found: list[Site] = []
    for rel in sorted(py):
        if _test(rel) or _vllm_copy(rel, py):
            continue
        m = _IMPORT.search(read(rel) or "")
        if m is None:
            continue
        line = (read(rel) or "").count("\n", 0, m.start()) + 1
        found.append(Site(file=rel, line=line, syntax="python-import", kind=KIND, mode="standalone_offline",
                          mode_evidence=f"{rel}:{line}"))
    if not found:
        return []
    reached = {rel for f in {s.file for s in sites if s.file.endswith(".py")} for rel in launches.reached(f)}
    out = [s for s in found if s.file not in reached]
    for s in out:
        if (ranges := version_gates.gates(s.file, files, read)) is not None:
            s.launch["import_gate"] = [str(r) for r in ranges]  # Gate.parse reads them back
    return out


def keep(site: Site, facts: dict) -> bool:
    """Whether an import site stays: its own module-level import fails in the release; the site
    moves to that import's line."""
    launch = facts.get("launch") or {}
    at = re.search(r"\((.+):(\d+)\)$", str(launch.get("vllm_import") or ""))
    if not (at and launch.get("vllm_import_at_start") and at.group(1) == site.file):
        return False
    gate = site.launch.get("import_gate")
    if gate and version_gates.outside(str((facts.get("vllm") or {}).get("version")), [version_gates.Gate.parse(g) for g in gate]):
        return False  # the project loads the module only under releases other than this one
    site.line = int(at.group(2))
    site.mode_evidence = f"{site.file}:{site.line}"
    return True


def gated_out(prepared: list, files: list[str], read, skip) -> list:
    """`prepared` less the Python launch sites in a module the project loads only under vLLM releases
    other than the one the site is judged at (version_gates): that launch never runs on that release, so
    nothing it asks of it is judged there — not at another release either, which would be a guess
    (RUCAIBox VERL-STILL: vllm_rollout_spmd.py's LLM(enable_sleep_mode=True) loads only where
    vllm > 0.6.3, the project's setup.py allows vllm<=0.6.3). Each dropped site is named as skipped."""
    known: dict[str, list | None] = {}
    tests: list[str] | None = None  # the modules that test a version at all: a gate stands in one of them
    out = []
    for p in prepared:
        site, facts = p[0], p[2]
        if site.kind == KIND or not site.file.endswith(".py"):
            out.append(p)
            continue
        if tests is None:
            tests = [f for f in files if f.endswith(".py") and "version" in (read(f) or "")]
        if site.file not in known:  # every import of the module is read only where one of those gates it
            known[site.file] = version_gates.gates(site.file, files, read) \
                if tests and version_gates.gates(site.file, tests, read) else None
        ranges, release = known[site.file], str((facts.get("vllm") or {}).get("version"))
        if version_gates.outside(release, ranges):
            skip(site.file, "gated-out", site.line, f"vLLM {release}; " + "; ".join(f"{g.spec} ({g.at})" for g in ranges or ()))
            continue
        out.append(p)
    return out
