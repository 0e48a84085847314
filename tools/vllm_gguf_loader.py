"""Writes knowledge/vllm/gguf_loader.yaml: which model types each vLLM release's own GGUF weight
loader can map, the companion of tools/vllm_gguf.py (which covers transformers' side, the config).

GGUFModelLoader._get_gguf_weights_map (vllm/model_executor/model_loader/loader.py until 0.8.5,
gguf_loader.py from 0.9.0) takes the model_type of the config vLLM already read — the GGUF's own
through transformers, or --hf-config-path's — renames a few (`cohere` → `command-r`, `deepseek_v2/v3`
→ `deepseek2`, later `qwen2_moe` → `qwen2moe`, `gemma3_text` → `gemma3` …) and looks the result up
among the values of the `gguf` package's MODEL_ARCH_NAMES; none matching raises
"Unknown gguf model_type: X" before a weight is read. Which gguf package runs is the release's
requirement (`gguf == 0.10.0` pins one until 0.8.3; `gguf >= 0.13.0` from 0.8.4 admits any newer).

    python tools/vllm_gguf_loader.py --sdists /work/sdists/src GGUF_WHEEL [GGUF_WHEEL ...]
    python tools/vllm_gguf_loader.py --check --sdists /work/sdists/src GGUF_WHEEL [...]

GGUF_WHEEL: gguf wheels (`pip download gguf==X --no-deps`), at least every release a vLLM
requirement names and the newest; a name is recorded at the first scanned release that has it.
Everything is read with ast and text, never imported."""
from __future__ import annotations

import ast
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_gguf import _line, _loader_renames, _releases, arguments, write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "gguf_loader.yaml"
_WHEEL = re.compile(r"gguf-(\d+)\.(\d+)\.(\d+)-py3-none-any\.whl$")
_REQ = re.compile(r"^\s*(?:Requires-Dist:\s*)?gguf\s*([<>=!~]=?\s*[\d.]+(?:\s*,\s*[<>=!~]=?\s*[\d.]+)*)", re.M)
_RAISE = r"Unknown gguf model_type"
# the model_type transformers' load_gguf_checkpoint gives a GGUF file's config where it is not the
# architecture itself (`updated_architecture`, and gemma3's text config), transformers v4.57.6
# src/transformers/modeling_gguf_pytorch_utils.py; each came with the architecture's support
TRANSFORMERS_MODEL_TYPE = {"gemma3": "gemma3_text", "qwen2moe": "qwen2_moe", "qwen3moe": "qwen3_moe"}


def arch_names(constants_src: str) -> set[str]:
    """The values of gguf-py's MODEL_ARCH_NAMES (gguf/constants.py)."""
    for node in ast.parse(constants_src).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "MODEL_ARCH_NAMES" for t in targets) and isinstance(node.value, ast.Dict):
            return {v.value for v in node.value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    raise SystemExit("no MODEL_ARCH_NAMES in gguf/constants.py")


def read_gguf(wheels: list[Path]) -> tuple[list[str], dict[str, str]]:
    rows = []
    for w in wheels:
        m = _WHEEL.search(w.name)
        if not m:
            raise SystemExit(f"not a gguf wheel: {w}")
        with zipfile.ZipFile(w) as z:
            rows.append(((int(m[1]), int(m[2]), int(m[3])), arch_names(z.read("gguf/constants.py").decode())))
    rows.sort(key=lambda r: r[0])
    first: dict[str, str] = {}
    for ver, names in rows:
        for n in sorted(names):
            first.setdefault(n, ".".join(map(str, ver)))
    return [".".join(map(str, v)) for v, _ in rows], first


def requirement(root: Path) -> str | None:
    """The gguf requirement of one release: its wheel metadata, else its requirements files."""
    for rel in ("WHEEL-METADATA", "PKG-INFO", "requirements/common.txt", "requirements-common.txt", "requirements.txt",
                "vllm.egg-info/requires.txt"):
        p = root / rel
        if p.is_file():
            m = _REQ.search(p.read_text(encoding="utf-8", errors="replace"))
            if m:
                return re.sub(r"\s+", "", m.group(1))
    return None


def read_loader(sdists: Path) -> list[dict]:
    """Runs of releases whose loader maps model types alike: the same gguf requirement and renames."""
    runs: list[dict] = []
    for rel in _releases(sdists):
        base = sdists / rel / "vllm" / "model_executor" / "model_loader"
        loader = next((p for p in (base / "gguf_loader.py", base / "loader.py") if p.is_file()
                       and _RAISE in p.read_text(encoding="utf-8", errors="replace")), None)
        if loader is None:
            continue
        renames = dict(sorted(_loader_renames(loader.read_text(encoding="utf-8", errors="replace")).items()))
        req = requirement(sdists / rel)
        if req is None:
            raise SystemExit(f"{rel}: no gguf requirement found")
        if runs and runs[-1]["gguf"] == req and runs[-1]["renames"] == renames:
            runs[-1]["last"] = rel
            continue
        runs.append({"first": rel, "last": rel, "gguf": req, "renames": renames,
                     "file": str(loader.relative_to(sdists / rel)), "line": _line(loader, _RAISE)})
    return runs


def render(scanned: list[str], first: dict[str, str], runs: list[dict]) -> str:
    out = [
        "# The model types each vLLM release's own GGUF weight loader maps (GGUFModelLoader._get_gguf_weights_map:",
        "# the config's model_type, renamed as `renames` says, must be a value of the gguf package's MODEL_ARCH_NAMES,",
        "# else \"Unknown gguf model_type: X\"), and the gguf package each release requires. Built by",
        "# tools/vllm_gguf_loader.py from gguf wheels and vLLM's sources. Do not edit by hand.",
        "version: 1",
        f"gguf_scanned: [{', '.join(f'{v!r}' for v in scanned)}]".replace("'", '"'),
        "# the first scanned gguf release whose MODEL_ARCH_NAMES has each name",
        "gguf_first:",
        *(f'  "{a}": "{v}"' for a, v in sorted(first.items())),
        "# the model_type of the config transformers reads from a GGUF file, where it is not the architecture",
        "transformers_model_type:",
        *(f'  "{a}": "{t}"' for a, t in sorted(TRANSFORMERS_MODEL_TYPE.items())),
        "# runs of vLLM releases with one gguf requirement and one set of renames; file/line: the raise, in `first`",
        "loader:",
    ]
    for r in runs:
        ren = ", ".join(f'"{k}": "{v}"' for k, v in r["renames"].items())
        out.append(f'  - {{first: "{r["first"]}", last: "{r["last"]}", gguf: "{r["gguf"]}", renames: {{{ren}}}, '
                   f'file: {r["file"]}, line: {r["line"]}}}')
    return "\n".join(out) + "\n"


def main() -> int:
    a = arguments(__doc__)
    return write_or_check(OUT, render(*read_gguf(a.wheels), read_loader(a.sdists)), a.check, "tools/vllm_gguf_loader.py")


if __name__ == "__main__":
    raise SystemExit(main())
