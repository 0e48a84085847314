#!/usr/bin/env python3
"""Which releases refuse speculative decoding on a model with Mamba-style layers, and for which
architectures (L76).

vLLM's V1 engine raised NotImplementedError("Mamba with speculative decoding is not supported
yet.") while it collected the KV-cache specs of a model with state-space layers and a
speculative config: in GPUModelRunner.get_kv_cache_spec (vllm/v1/worker/gpu_model_runner.py,
over the MambaMixer2 layers in 0.9.2, every MambaBase layer from 0.10.0), then in
MambaBase.get_kv_cache_spec (vllm/model_executor/layers/mamba/abstract.py, 0.11.1 on), until
0.17.0 gives the Mamba backends speculative decoding. From 0.10.2 the model_type list the check
skips (`model_type not in ["qwen3_next"]`) lets Qwen3-Next's MTP through.

For each unpacked release (/work/sdists/src/<version>) this reads, with `ast`: where the raise is
(file, line), which layer class it is over, the model_types it skips; the classes deriving from
that layer class (MambaMixer, MambaMixer2, MiniMax's linear attention, ShortConv, Kimi's delta
attention, Plamo2's and Qwen3-Next's mixers …); and the text-generation architectures of
models/registry.py whose module builds one of them. A module that declares SupportsV0Only ran
on the V0 engine in that release, which this refusal is not part of; its architectures are
listed apart.

It also reads, per release, how the hybrid KV-cache manager sizes these models (`sizing`, for
engine/check/memory/ssm.py): where the attention block size is raised so that one attention page
holds a state ("Setting attention block size to %d tokens", HybridAttentionMambaModelConfig from
0.10.0, Platform.update_block_size_for_backend from 0.22.0); the group-size rule of
_get_kv_cache_groups_uniform_page_size (the larger count when it is below `ratio` x the smaller,
0.12.0 on); whether generative hybrid models get prefix caching by default (0.26.0 on) and how
many blocks a state group then holds per request (MambaSpec.max_memory_usage_bytes, "align"
mode) and where align mode refuses a block larger than max_num_batched_tokens (0.17.0–0.26.0); which config classes set mamba_ssm_cache_dtype from config.json, and their default;
whether the Gated DeltaNet state follows mamba_ssm_cache_dtype; where vLLM refuses a
max_num_seqs above the state blocks (vllm/config/compilation.py, 0.20.0 on); and where the V0
MambaCacheManager sized the state by max_num_seqs.

Writes knowledge/vllm/mamba_spec.yaml. `--check` exits 1 when the committed file is stale.

Run: python tools/vllm_mamba_spec.py [--source /work/sdists/src] [--check]
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import source_main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "knowledge" / "vllm" / "mamba_spec.yaml"
TEXT = "Mamba with speculative decoding is not supported yet."
PLACES = ("vllm/v1/worker/gpu_model_runner.py", "vllm/model_executor/layers/mamba/abstract.py")
VERSION_DIR = re.compile(r"\d+(\.\d+)+$")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _raise_site(tree: ast.AST) -> tuple[int, list[str]] | None:
    """The raise's line and the model_types its condition skips."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        for sub in node.body:
            if isinstance(sub, ast.Raise) and TEXT in ast.unparse(sub).replace("'", '"'):
                skipped: list[str] = []
                for cmp in ast.walk(node.test):
                    if isinstance(cmp, ast.Compare) and any(isinstance(o, ast.NotIn) for o in cmp.ops):
                        for c in cmp.comparators:
                            if isinstance(c, (ast.List, ast.Tuple, ast.Set)):
                                skipped += [e.value for e in c.elts if isinstance(e, ast.Constant)]
                return sub.lineno, skipped
    return None


def _layer_class(runner_src: str, line: int) -> str:
    """The layer class get_layers_from_vllm_config collects just above the raise (gpu_model_runner)."""
    window = "\n".join(runner_src.splitlines()[max(0, line - 12):line])
    m = re.search(r"get_layers_from_vllm_config\(\s*self\.vllm_config,\s*(\w+)", window)
    return m.group(1) if m else "MambaBase"


def _subclasses(vllm: Path, base: str) -> set[str]:
    """Classes deriving (transitively) from `base` anywhere under model_executor."""
    parents: dict[str, set[str]] = {}
    for f in (vllm / "model_executor").rglob("*.py"):
        try:
            tree = ast.parse(f.read_text(errors="replace"))
        except SyntaxError:
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef):
                parents.setdefault(n.name, set()).update(
                    b.id if isinstance(b, ast.Name) else b.attr for b in n.bases if isinstance(b, (ast.Name, ast.Attribute)))
    out = {base}
    grew = True
    while grew:
        grew = False
        for name, bs in parents.items():
            if name not in out and bs & out:
                out.add(name)
                grew = True
    return out - ({"MambaBase"} if base == "MambaBase" else set())


def _registry(vllm: Path) -> dict[str, str]:
    """Text-generation architecture → module name."""
    tree = ast.parse((vllm / "model_executor" / "models" / "registry.py").read_text())
    for n in ast.walk(tree):
        target = n.targets[0] if isinstance(n, ast.Assign) else n.target if isinstance(n, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "_TEXT_GENERATION_MODELS" and isinstance(n.value, ast.Dict):
            return {k.value: v.elts[0].value for k, v in zip(n.value.keys, n.value.values)
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Tuple)}
    return {}


def release(vllm: Path) -> dict | None:
    for rel in PLACES:
        f = vllm.parent / rel
        if not f.is_file():
            continue
        src = f.read_text(errors="replace")
        if TEXT not in src.replace("\n", " ") and "Mamba with speculative decoding" not in src:
            continue
        site = _raise_site(ast.parse(src))
        if site is None:
            continue
        line, skipped = site
        base = _layer_class(src, line) if rel.endswith("gpu_model_runner.py") else "MambaBase"
        layers = _subclasses(vllm, base)
        call = re.compile(r"\b(" + "|".join(sorted(map(re.escape, layers))) + r")\(")
        archs, v0_only, skipped_archs = [], [], []
        for arch, module in sorted(_registry(vllm).items()):
            mf = vllm / "model_executor" / "models" / f"{module}.py"
            if not mf.is_file():
                continue
            text = mf.read_text(errors="replace")
            if not call.search(text):
                continue
            if module in skipped:
                skipped_archs.append(arch)
            elif "SupportsV0Only" in text:
                v0_only.append(arch)
            else:
                archs.append(arch)
        return {"file": rel, "line": line, "layer": base, "skipped_model_types": skipped,
                "skipped": skipped_archs, "v0_only": v0_only, "architectures": archs}
    return None


def _line_of(vllm: Path, rels: tuple[str, ...], needle: str) -> str | None:
    """`file:line` of the first of `rels` (a path, or a folder searched in order) holding `needle`."""
    for rel in rels:
        base = vllm.parent / rel
        files = sorted(base.rglob("*.py")) if base.is_dir() else [base]
        for f in files:
            if not f.is_file():
                continue
            for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                if needle in line:
                    return f"{f.relative_to(vllm.parent)}:{i}"
    return None


_RATIO = re.compile(r"max_num_layers < min_num_layers \* ([\d.]+)")
_SSM_DEFAULT = re.compile(r'(?:getattr\(\s*hf(?:_text)?_config,\s*"(mamba_ssm(?:_cache)?_dtype)",\s*("?[\w.]+"?)\s*\))')
_CLASS = re.compile(r"^class (\w+)\(VerifyAndUpdateConfig\):", re.M)


def _ssm_dtype_rules(config_src: str) -> dict[str, dict]:
    """Architecture → {key, default} for the config classes that set mamba_ssm_cache_dtype."""
    classes = {m.group(1): m.start() for m in _CLASS.finditer(config_src)}
    starts = sorted(classes.values()) + [len(config_src)]
    rules: dict[str, dict] = {}
    for name, start in classes.items():
        body = config_src[start:starts[starts.index(start) + 1]]
        m = _SSM_DEFAULT.search(body)
        if not m:
            continue
        default = m.group(2).strip('"')
        if default.endswith("DEFAULT_MAMBA_SSM_CACHE_DTYPE"):
            d = re.search(r'DEFAULT_MAMBA_SSM_CACHE_DTYPE\s*(?::[^=]*)?=\s*"(\w+)"', body)
            default = d.group(1) if d else None
        for arch in re.findall(r'"(\w+)":\s*' + name + r"\b", config_src):
            rules[arch] = {"key": m.group(1), "default": None if default == "None" else default}
    return rules


def sizing(vllm: Path) -> dict | None:
    """How this release sizes a hybrid model's state in the KV cache (None before V1 did)."""
    block = _line_of(vllm, ("vllm/model_executor/models/config.py", "vllm/platforms/interface.py"),
                     '"Setting attention block size to %d tokens "')
    v0 = _line_of(vllm, ("vllm/model_executor/models/mamba_cache.py", "vllm/model_executor/layers/mamba/mamba_cache.py"),
                  "class MambaCacheManager")
    if not block and not v0:
        return None
    out: dict = {"block_raise": block, "v0_state": v0}
    kvu = next((vllm / "v1" / "core" / n for n in ("kv_cache_planning.py", "kv_cache_utils.py")
                if (vllm / "v1" / "core" / n).is_file() and _RATIO.search((vllm / "v1" / "core" / n).read_text())), None)
    out["group_ratio"] = float(_RATIO.search(kvu.read_text()).group(1)) if kvu else None
    model_py = vllm / "config" / "model.py"
    out["prefix_caching_default"] = model_py.is_file() and "Generative hybrid models support prefix caching" in model_py.read_text()
    iface = vllm / "v1" / "kv_cache_interface.py"
    align, spec_blocks = 1, False
    if iface.is_file():
        for n in ast.walk(ast.parse(iface.read_text())):
            if isinstance(n, ast.ClassDef) and n.name == "MambaSpec":
                body = "".join(ast.unparse(f) for f in n.body if isinstance(f, ast.FunctionDef) and f.name == "max_memory_usage_bytes")
                m = re.search(r"'align'[^\n]*\n\s*return self\.page_size_bytes \* \((\d+) \+", body)
                align = int(m.group(1)) if m else 1
                spec_blocks = "self.num_speculative_blocks" in body
    out["align_blocks"] = align
    out["spec_blocks"] = spec_blocks  # a state page per draft token (MambaSpec.num_speculative_blocks)
    cfg = vllm / "model_executor" / "models" / "config.py"
    out["ssm_dtype"] = _ssm_dtype_rules(cfg.read_text()) if cfg.is_file() else {}
    utils = vllm / "model_executor" / "layers" / "mamba" / "mamba_utils.py"
    gdn = re.search(r"def gated_delta_net_state_dtype\((.*?)\)\s*->", utils.read_text(), re.S) if utils.is_file() else None
    out["gdn_ssm_dtype"] = bool(gdn and "mamba_ssm_cache_dtype" in gdn.group(1))
    out["seqs_refusal"] = _line_of(vllm, ("vllm/config/compilation.py",), "exceeds available Mamba cache")
    out["align_refusal"] = _line_of(vllm, ("vllm/config/vllm.py",), '"In Mamba cache align mode, block_size "')
    return out


def build(source: Path) -> dict:
    versions = sorted((p.name for p in source.iterdir() if VERSION_DIR.fullmatch(p.name)), key=vkey)
    out: dict[str, dict] = {}
    sizes: dict[str, dict] = {}
    for v in versions:
        got = release(source / v / "vllm")
        if got:
            out[v] = got
        size = sizing(source / v / "vllm")
        if size:
            sizes[v] = size
    return {"generated_by": "tools/vllm_mamba_spec.py", "text": TEXT,
            "releases_read": [versions[0], versions[-1]], "releases": out, "sizing": sizes}


def main() -> int:
    return source_main(__doc__, lambda source: "# Generated by tools/vllm_mamba_spec.py from vLLM's sources; do not edit by hand.\n"
                       + yaml.safe_dump(build(source), sort_keys=False, width=200), OUT)


if __name__ == "__main__":
    sys.exit(main())
