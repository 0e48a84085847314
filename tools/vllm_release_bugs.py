#!/usr/bin/env python3
"""Build knowledge/vllm/release_bugs.yaml: loader bugs of some releases that a later release fixed,
with the affected releases read from the sources rather than from memory.

Each bug below names the code that shows it (a function or method, looked up in the files it has
lived in) and the words its fix added (`fixed_by`). For every unpacked release the tool reads that
code with `ast`: a release whose code reads what the bug needs (`reads`) and lacks the fix is
affected, one whose code has the fix is fixed, one without the code is outside. The table then
says, per bug, the spans of affected releases, the first fixed release after them, the file and
line read in the last affected and the first fixed release, and the condition a launch must meet
(the load path and the checkpoint) — which the bug's own record gives, with its public reports.

Bugs:
  consolidated-default   the default loader reads every *.safetensors of a repository, Mistral's
                         own consolidated.safetensors beside the Hugging Face shards included, and
                         fails on its parameter names (vLLM #4989; fixed by #5005, which keeps only
                         the files model.safetensors.index.json names).
  consolidated-bnb       the BitsAndBytes loader did the same until it took that filter too (its
                         comment there: "For models like Mistral-7B-Instruct-v0.3 … Using both breaks").
  bnb-skip-modules       is_layer_skipped_bnb leaves a linear layer unquantized only where a skip entry
                         equals one dot-separated part of its prefix, so a pre-quantized checkpoint that
                         keeps layers in 16 bits by path (llm_int8_skip_modules "model.layers.2.mlp":
                         Unsloth's dynamic 4-bit uploads) gets packed 4-bit parameters for them and
                         loading asserts on the shapes (unsloth #1605, vLLM 0.7.1); 0.7.3 matches path
                         prefixes too (`checkpoint: bnb_skip_modules`).

Runtime bugs (`runtime_bugs`): a communicator or kernel a release sets up on the GPUs while the
engine starts, whose failure on some machines the release does not catch. Each names the code, what
it calls (`reads`) and the words of the later catch (`fixed_by`), the environment switch that turns
it on and the words that make that switch's default on (`default_on`, in vllm/envs.py), and the
table of GPUs and group sizes the code sets it up for (`sizes`, a dict literal whose keys are
compute capabilities and, inside, world sizes):
  symm-mem-allreduce-init
                         SymmMemCommunicator.__init__ calls torch's symmetric-memory rendezvous for
                         the tensor-parallel group without catching its failure (0.10.2 when asked
                         for; 0.11.0 by default, VLLM_ALLREDUCE_USE_SYMM_MEM=1): on machines where
                         the rendezvous fails the workers stop ("CUDA driver error: invalid device
                         ordinal", vLLM #26525); 0.11.1 catches it and falls back.

Model bugs (`model_bugs`) and entry-point bugs (`entrypoint_bugs`) are declared in
tools/vllm_release_bug_rows.py, with what each shows.

Usage:
  python tools/vllm_release_bugs.py --source /work/sdists/src [--check]
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, sp, spans, vkey, write_or_check  # noqa: E402
from vllm_release_bug_rows import ENTRYPOINT_BUGS, MODEL_BUGS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "knowledge" / "vllm" / "release_bugs.yaml"
ML = "vllm/model_executor/model_loader/"

# Repositories that ship Mistral's consolidated.safetensors beside Hugging Face shards and their
# model.safetensors.index.json, each with the public file listing or report that shows it.
CONSOLIDATED_REPOS = [
    ("mistralai/Mistral-7B-Instruct-v0.3", "https://github.com/vllm-project/vllm/issues/4989"),
    ("mistralai/Mistral-7B-v0.3", "https://github.com/vllm-project/vllm/pull/5005"),
    ("mistralai/Mathstral-7B-v0.1", "https://github.com/vllm-project/vllm/issues/9595"),
    ("mistralai/Ministral-8B-Instruct-2410", "https://github.com/vllm-project/vllm/issues/9595"),
]

BUGS = [
    {"id": "consolidated-default",
     "code": [(ML + "default_loader.py", "DefaultModelLoader._prepare_weights"),
              (ML + "loader.py", "DefaultModelLoader._prepare_weights"),
              ("vllm/model_executor/weight_utils.py", "prepare_hf_model_weights")],
     "reads": "*.safetensors", "fixed_by": "filter_duplicate_safetensors_files",
     "load": "default", "checkpoint": "consolidated_and_shards",
     "error": "KeyError: 'layers.0.attention.wk.weight'",
     "fix": "https://github.com/vllm-project/vllm/pull/5005",
     "reports": ["https://github.com/vllm-project/vllm/issues/4989"]},
    {"id": "consolidated-bnb",
     "code": [(ML + "bitsandbytes_loader.py", "BitsAndBytesModelLoader._prepare_weights"),
              (ML + "loader.py", "BitsAndBytesModelLoader._prepare_weights")],
     "reads": "*.safetensors", "fixed_by": "filter_duplicate_safetensors_files",
     "load": "bitsandbytes", "checkpoint": "consolidated_and_shards",
     "error": None,
     "fix": None,
     # no public report isolates it (the BitsAndBytes KeyErrors of #9595/#10168 also hit Phi-3, which
     # has no consolidated file): the fix's own comment (0.8.1) names Mistral-7B-Instruct-v0.3
     "reports": []},
    {"id": "bnb-skip-modules",
     # the quant config leaves a linear layer unquantized only where a skip entry equals one dot-separated part of
     # its prefix ("lm_head"), never a dotted path ("model.layers.2.mlp", what Unsloth's dynamic uploads list): the
     # layer gets a packed 4-bit parameter where the checkpoint holds its 16-bit weight; 0.7.3 matches path prefixes
     "code": [("vllm/model_executor/layers/quantization/bitsandbytes.py", "is_layer_skipped_bnb")],
     "reads": "module_name in components", "fixed_by": "set_components",
     "load": "bitsandbytes", "checkpoint": "bnb_skip_modules",
     "error": "AssertionError: param_data.shape == loaded_weight.shape",
     "fix": None,
     "reports": ["https://github.com/unslothai/unsloth/issues/1605"]},
]


RUNTIME_BUGS = [
    {"id": "symm-mem-allreduce-init",
     "code": [("vllm/distributed/device_communicators/symm_mem.py", "SymmMemCommunicator.__init__")],
     "reads": "torch_symm_mem.rendezvous", "fixed_by": "except RuntimeError",
     "env": "VLLM_ALLREDUCE_USE_SYMM_MEM", "default_on": 'os.getenv("VLLM_ALLREDUCE_USE_SYMM_MEM", "1")',
     "sizes": ("vllm/distributed/device_communicators/all_reduce_utils.py", "SYMM_MEM_ALL_REDUCE_MAX_SIZES"),
     "group": "tp",
     "error": "RuntimeError: CUDA driver error: invalid device ordinal",
     "fix": None,  # the catch came with 0.11.1's code; no PR isolates it
     "reports": ["https://github.com/vllm-project/vllm/issues/26525",
                 "https://github.com/vllm-project/vllm/issues/24580",
                 "https://github.com/vllm-project/vllm/issues/26922"]},
]


MODEL_MARK = "# model_bugs:"


def _read(per: list, releases: list[str], bug: dict) -> dict:
    """The affected spans, the first fixed release after them, the code read in both, and the row's words."""
    last = max((i for i, p in enumerate(per) if p and p[0] == "affected"), default=None)
    fixed = next((i for i, p in enumerate(per) if p and p[0] == "fixed" and (last is None or i > last)), None)
    return {"affected": spans([p is not None and p[0] == "affected" for p in per], releases),
            "fixed": releases[fixed] if fixed is not None else None,
            "evidence": [{"release": releases[i], "file": per[i][1], "line": per[i][2]} for i in (last, fixed) if i is not None],
            "error": bug["error"], "fix": bug["fix"], "reports": bug["reports"]}


def build_entrypoints(dirs: dict[str, Path], releases: list[str]) -> list[dict]:
    """Rows of ENTRYPOINT_BUGS: the releases whose code reads what the module never sets, the first fixed after."""
    rows = []
    for bug in ENTRYPOINT_BUGS:
        module = bug["module"].replace(".", "/") + ".py"  # a release without the module has no such launch
        per = [scan(dirs[v], bug) if (dirs[v] / module).is_file() else None for v in releases]
        rows.append({"id": bug["id"], "module": bug["module"], **_read(per, releases, bug)})
    return rows


def _backend_archs(root: Path, backend: str) -> set[str]:
    """The registry names a release serves through `backend` (`"X": ("transformers", …)` in registry.py)."""
    f = root / "vllm/model_executor/models/registry.py"
    if not f.is_file():
        return set()
    out = set()
    for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Tuple) and v.elts \
                        and isinstance(v.elts[0], ast.Constant) and v.elts[0].value == backend:
                    out.add(k.value)
    return out


def build_models(dirs: dict[str, Path], releases: list[str]) -> list[dict]:
    rows = []
    for bug in MODEL_BUGS:
        per = [scan(dirs[v], bug) for v in releases]
        via = sorted(set().union(*(_backend_archs(dirs[v], bug["backend"]) for v, p in zip(releases, per)
                                   if p and p[0] == "affected"))) if bug.get("backend") else None
        rows.append({"id": bug["id"], "arch": bug["arch"], "backend": bug.get("backend"), "quant": bug.get("quant"), "via": via,
                     "config_lacks": bug.get("config_lacks"), "model_type": bug.get("model_type"),
                     "config_has": bug.get("config_has"), "hf_overrides_any": bug.get("hf_overrides_any"),
                     "min_tp": bug.get("min_tp"), "min_pp": bug.get("min_pp"), "load": bug.get("load"), "ignore_unfused": bug.get("ignore_unfused"),
                     "quant_none": bug.get("quant_none"), "config_format": bug.get("config_format"),
                     "kv_scales": bug.get("kv_scales"), "rope_key": bug.get("rope_key"),
                     **_read(per, releases, bug)})
    return rows


def _sizes(root: Path, where: tuple[str, str]) -> dict[str, list[int]] | None:
    """{compute capability: [world sizes]} of a module-level dict literal (values may be
    expressions: only the keys are read)."""
    f = root / where[0]
    if not f.is_file():
        return None
    for node in ast.parse(f.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == where[1] for t in node.targets)
                and isinstance(node.value, ast.Dict)):
            out: dict[str, list[int]] = {}
            for k, v in zip(node.value.keys, node.value.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Dict):
                    out[str(k.value)] = sorted(int(x.value) for x in v.keys if isinstance(x, ast.Constant))
            return out
    return None


def build_runtime(dirs: dict[str, Path], releases: list[str]) -> list[dict]:
    rows = []
    for bug in RUNTIME_BUGS:
        per = [scan(dirs[v], bug) for v in releases]
        affected = spans([p is not None and p[0] == "affected" for p in per], releases)
        on = spans([bug["default_on"] in ((dirs[v] / "vllm" / "envs.py").read_text(encoding="utf-8")
                                          if (dirs[v] / "vllm" / "envs.py").is_file() else "") for v in releases], releases)
        last = max((i for i, p in enumerate(per) if p and p[0] == "affected"), default=None)
        fixed = next((i for i, p in enumerate(per) if p and p[0] == "fixed" and (last is None or i > last)), None)
        sizes = {releases[i]: _sizes(dirs[releases[i]], bug["sizes"]) or {} for i, p in enumerate(per) if p and p[0] == "affected"}
        rows.append({"id": bug["id"], "env": bug["env"], "group": bug["group"], "affected": affected, "default_on": on,
                     "fixed": releases[fixed] if fixed is not None else None,
                     "sizes": sizes,
                     "evidence": [{"release": releases[i], "file": per[i][1], "line": per[i][2]}  # type: ignore[index]
                                  for i in (last, fixed) if i is not None],
                     "error": bug["error"], "fix": bug["fix"], "reports": bug["reports"]})
    return rows


def _code(root: Path, places: list[tuple[str, str]]) -> tuple[str, int, str] | None:
    """(file, line, source) of the first place the release has."""
    for rel, dotted in places:
        f = root / rel
        if not f.is_file():
            continue
        src = f.read_text(encoding="utf-8")
        try:
            body: list[ast.stmt] = ast.parse(src).body
        except SyntaxError:
            continue
        node: ast.AST | None = None
        for part in dotted.split("."):
            node = next((n for n in body if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == part), None)
            if node is None:
                break
            body = node.body  # type: ignore[attr-defined]
        if node is not None:
            return rel, node.lineno, ast.get_source_segment(src, node) or ""  # type: ignore[attr-defined]
    return None


def scan(root: Path, bug: dict) -> tuple[str, str, int] | None:
    """("affected" | "fixed", file, line) of one release; None where it lacks the code or the code
    does not read what the bug needs."""
    found = _code(root, bug["code"])
    if found is None or (bug.get("since") and _code(root, [bug["since"]]) is None):
        return None  # the code, or what the bug needs beside it (`since`: the layout it breaks on), is absent
    rel, line, src = found
    fixed = _code(root, bug["fixed_in"]) if bug.get("fixed_in") else found  # where the fix lives, if elsewhere
    if bug.get("fixed_by") and fixed is not None and bug["fixed_by"] in fixed[2]:
        return "fixed", fixed[0], fixed[1]
    return ("affected", rel, line) if bug["reads"] in src else None


def build(sources: list[Path]) -> dict:
    dirs = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()}
    releases = sorted(dirs, key=vkey)
    rows = []
    for bug in BUGS:
        per = [scan(dirs[v], bug) for v in releases]
        affected = spans([p is not None and p[0] == "affected" for p in per], releases)
        last = max((i for i, p in enumerate(per) if p and p[0] == "affected"), default=None)
        fixed = next((i for i, p in enumerate(per) if p and p[0] == "fixed" and (last is None or i > last)), None)
        row = {"id": bug["id"], "load": bug["load"], "checkpoint": bug["checkpoint"], "affected": affected,
               "fixed": releases[fixed] if fixed is not None else None,
               "evidence": [{"release": releases[i], "file": per[i][1], "line": per[i][2]}  # type: ignore[index]
                            for i in (last, fixed) if i is not None],
               "error": bug["error"], "fix": bug["fix"], "reports": bug["reports"]}
        rows.append(row)
    return {"releases": releases, "bugs": rows, "runtime_bugs": build_runtime(dirs, releases),
            "entrypoint_bugs": build_entrypoints(dirs, releases),
            "model_bugs": build_models(dirs, releases)}


def _q(s: str | None) -> str:
    return "null" if s is None else '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _row_tail(b: dict) -> list[str]:
    """The lines every kind of row ends with: the code read, what it prints, the fix and the reports."""
    return ["    evidence:",
            *(f"      - {{release: {_q(e['release'])}, file: {e['file']}, line: {e['line']}}}" for e in b["evidence"]),
            f"    error: {_q(b['error'])}", f"    fix: {_q(b['fix'])}",
            f"    reports: [{', '.join(_q(u) for u in b['reports'])}]"]


def dump(t: dict) -> str:
    out = ["# Loader bugs of some vLLM releases that a later release fixed, built by tools/vllm_release_bugs.py",
           "# from the unpacked sources (do not edit; the bugs and their reports are declared in the tool).",
           "#   affected: spans of scanned releases whose code reads the files the bug needs and lacks the fix",
           "#   fixed: the first scanned release with the fix after them; evidence: the code read (last",
           "#   affected, first fixed); load: the loader the launch goes through; checkpoint: what the",
           "#   repository must hold (consolidated_and_shards: a repository of consolidated_repos).",
           "version: 1",
           f"releases: [{', '.join(_q(v) for v in t['releases'])}]",
           "consolidated_repos:"]
    out += [f"  - {{repo: {r}, seen: {_q(u)}}}" for r, u in CONSOLIDATED_REPOS]
    out.append("bugs:")
    for b in t["bugs"]:
        out.append(f"  - id: {b['id']}")
        out.append(f"    load: {b['load']}")
        out.append(f"    checkpoint: {b['checkpoint']}")
        out.append(f"    affected: {sp(b['affected'])}")
        out.append(f"    fixed: {_q(b['fixed'])}")
        out += _row_tail(b)
    out += ["# affected: releases whose code sets the thing up without catching its failure; default_on: releases",
            "# whose envs.py turns `env` on by default; sizes: per affected release, the compute capabilities and",
            "# world sizes of the `group` the code sets it up for.",
            "runtime_bugs:"]
    for b in t["runtime_bugs"]:
        out.append(f"  - id: {b['id']}")
        out.append(f"    env: {b['env']}")
        out.append(f"    group: {b['group']}")
        out.append(f"    affected: {sp(b['affected'])}")
        out.append(f"    default_on: {sp(b['default_on'])}")
        out.append(f"    fixed: {_q(b['fixed'])}")
        out.append("    sizes:")
        for rel, caps in b["sizes"].items():
            out.append(f"      {_q(rel)}: {{{', '.join(f'{_q(c)}: [{chr(44).join(str(n) for n in ns)}]' for c, ns in caps.items())}}}")
        out += _row_tail(b)
    out += ["# entrypoint_bugs: a server module (`module`) that stops at start-up in the affected releases, whatever it",
            "# serves; a post release is read as its base release up to `fixed`.",
            "entrypoint_bugs:"]
    for b in t["entrypoint_bugs"]:
        out += [f"  - id: {b['id']}", f"    module: {b['module']}", f"    affected: {sp(b['affected'])}", f"    fixed: {_q(b['fixed'])}"]
        out += _row_tail(b)
    out += [MODEL_MARK + " a model class (`arch`) that fails on every launch in the affected releases; fixed:",
            "# the first scanned release whose code has the fix; config_lacks / config_has: only where config.json lacks / has that key;",
            "# hf_overrides_any: only where hf_overrides sets one of these (the class vLLM builds is then the override's), min_tp: from that TP;",
            "# min_pp: only from that pipeline-parallel size; backend: only where the launch builds that backend's class (model_impl,",
            "# the fallback, or an architecture of `via`) for a checkpoint of `quant`;",
            "# load: only through that loader; ignore_unfused: only where the checkpoint's ignore list names that fused layer's shards, not it;",
            "# quant (without backend): only a checkpoint of that method; quant_none: only a checkpoint known to be unquantized;",
            "# config_format: only where the launch asks for that config format; arch \"*\": whatever class the launch builds;",
            "# kv_scales: only a checkpoint that stores KV-cache scales that way (modelopt: a ModelOpt checkpoint with an FP8 KV cache).",
            "# rope_key: only where config.json writes the rope type under that key (or is not read).",
            "# model_type: only where config.json's model_type is that one (a class two checkpoint layouts share).",
            "model_bugs:"]
    for b in t["model_bugs"]:
        out.append(f"  - id: {b['id']}")
        out.append(f"    arch: {_q(b['arch']) if b['arch'] == '*' else b['arch']}")
        if b.get("config_lacks"):
            out.append(f"    config_lacks: {b['config_lacks']}")
        if b.get("config_has"):
            out.append(f"    config_has: {b['config_has']}")
        if b.get("hf_overrides_any"):
            out.append("    hf_overrides_any: {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in b["hf_overrides_any"].items()) + "}")
        if b.get("min_tp"):
            out.append(f"    min_tp: {b['min_tp']}")
        if b.get("min_pp"):
            out.append(f"    min_pp: {b['min_pp']}")
        if b.get("backend"):
            out += [f"    backend: {b['backend']}", f"    quant: {b['quant']}", f"    via: [{', '.join(b['via'])}]"]
        elif b.get("quant"):
            out.append(f"    quant: {b['quant']}")
        if b.get("quant_none"):
            out.append("    quant_none: true")
        if b.get("config_format"):
            out.append(f"    config_format: {b['config_format']}")
        if b.get("kv_scales"):
            out.append(f"    kv_scales: {b['kv_scales']}")
        if b.get("rope_key"):
            out.append(f"    rope_key: {b['rope_key']}")
        if b.get("model_type"):
            out.append(f"    model_type: {b['model_type']}")
        if b.get("load"):
            out.append(f"    load: {b['load']}")
        if b.get("ignore_unfused"):
            out.append(f"    ignore_unfused: {b['ignore_unfused']}")
        out.append(f"    affected: {sp(b['affected'])}")
        out.append(f"    fixed: {_q(b['fixed'])}")
        out += _row_tail(b)
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, action="append", default=None, help="a folder of unpacked releases (repeatable)")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed table differs from the sources")
    ap.add_argument("--models-only", action="store_true",
                    help="rebuild only model_bugs, keeping the committed table's other sections (sources that lack "
                         "the oldest releases cannot rebuild those)")
    a = ap.parse_args()
    text = dump(build(a.source or [Path("/work/sdists/src")]))
    if a.models_only:
        kept = a.output.read_text(encoding="utf-8") if a.output.is_file() else ""
        text = kept.split(MODEL_MARK, 1)[0] + MODEL_MARK + text.split(MODEL_MARK, 1)[1]
    return write_or_check(a.output, text, a.check)


if __name__ == "__main__":
    sys.exit(main())
