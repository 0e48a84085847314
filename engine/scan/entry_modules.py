"""The project's vLLM command-line entry points (engine/scan/argv_entry.py) beyond `python x.py`:

- a console script the project's own packaging declares (`[project.scripts]` of pyproject.toml,
  `console_scripts` of setup.py / setup.cfg: `qanything-server = pkg.server:main`) whose module
  is an entry point: a command that runs it is read like `python -m pkg.server …`;
- an entry-point module no command of the project runs (an application started by hand, by a
  process manager the project does not hold, or by the package's own launcher): a site of its own,
  as `python <file>` with no flags — vLLM's defaults plus what the module sets on the namespace
  itself (engine/scan/entry_assigns.py). Its changes are told as flags for the command line,
  never written into the Python file."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import argv_entry, hydra_entry
from vllm_kb.engine.scan.context import texts_with
from vllm_kb.engine.scan.site import Setting, Site

# `name = pkg.mod:func` / `name=pkg.mod:func` in a setup.py string or a setup.cfg line
_SCRIPT = re.compile(r"""(?:^|["'\n])\s*([A-Za-z0-9][\w.-]*)\s*=\s*([A-Za-z_][\w.]*)(?::[\w.]+)?\s*(?=$|["'\n])""")


def index(ctx, files: list[str]) -> dict:
    """{"console": console script name → its module's project file, for scripts whose module is an
    entry point; "modules": the entry-point modules} (read once, before the scan)."""
    declared: dict[str, str] = {}
    for rel in files:
        name = rel.rpartition("/")[2]
        if name not in ("pyproject.toml", "setup.py", "setup.cfg"):
            continue
        text = ctx.read(rel) or ""
        if "scripts" not in text:
            continue
        for script, module in _declared(name, text).items():
            file = hydra_entry.module_file(ctx, rel, module)
            if file is not None:
                declared[script] = file
    modules = [rel for rel, text in texts_with(ctx, files, ".py", "vllm", "parse_")
               if argv_entry.inspect(ctx, rel) is not None and _runs_engine(ctx, rel, text)]
    # scripts that pass the words they do not parse on to `vllm serve` (launcher_entry): a command
    # that runs one by name need not name vLLM or Python itself (`srun ./start.py img.sif --model m`)
    launchers = sorted({rel.rpartition("/")[2] for rel, _ in texts_with(ctx, files, ".py", "vllm", "parse_known_args")
                        if (e := argv_entry.inspect(ctx, rel)) is not None and e.passes_rest})
    return {"console": {k: v for k, v in declared.items() if argv_entry.inspect(ctx, v) is not None}, "modules": modules,
            "launchers": launchers}


def _runs_engine(ctx, rel: str, text: str) -> bool:
    """A module that parses its process's command line (`parse_args()` with no list of its own) and
    builds the engine from it — itself (`from_cli_args`, `LLM(`, vLLM's `run_server`) or through a
    project module it imports that calls `from_cli_args` — not a client or benchmark that only
    borrows vLLM's options."""
    import ast

    from vllm_kb.engine.scan.python_scope import walk  # ast.walk's order, the list kept on the module

    try:
        tree = argv_entry.parsed(text, rel)  # the module argv_entry.inspect just read, not parsed again
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    argv = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("parse_args", "parse_known_args")
               and not n.args and not any(k.arg == "args" for k in n.keywords) for n in walk(tree))
    if not argv:
        return False
    if any(w in text for w in ("from_cli_args", "LLM(", "run_server(")):
        return True
    for n in walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level and n.module.split(".")[0] != "vllm":
            file = hydra_entry.module_file(ctx, rel, n.module)
            if file is not None and "from_cli_args" in (ctx.read(file) or ""):
                return True
    return False


def _declared(name: str, text: str) -> dict[str, str]:
    if name == "pyproject.toml":
        from vllm_kb.engine.kb.tomlread import toml

        try:
            data = toml().loads(text)
        except (toml().TOMLDecodeError, ValueError):
            return {}
        got = (data.get("project") or {}).get("scripts") or (((data.get("tool") or {}).get("poetry") or {}).get("scripts")) or {}
        return {str(k): str(v).split(":", 1)[0].strip() for k, v in got.items() if isinstance(v, str)}
    at = text.find("console_scripts")
    if at < 0:
        return {}
    body = text[at:at + 4000]
    if name == "setup.cfg":  # the indented lines under `console_scripts =`
        lines = body.splitlines()[1:]
        body = "\n".join(line for line in _indented(lines))
    else:  # the list literal that follows
        end = body.find("]")
        body = body[:end] if end > 0 else body
    return {m.group(1): m.group(2) for m in _SCRIPT.finditer(body)}


def _indented(lines: list[str]):
    for line in lines:
        if line.strip() and not line[:1].isspace():
            return
        yield line


def names(ctx) -> tuple[str, ...]:
    return tuple((getattr(ctx, "entry_index", None) or {}).get("console", {}))


def orphans(ctx, sites: list[Site]) -> list[Site]:
    """A site for each entry-point module that no command of the project runs and whose file holds
    no site of its own."""
    from vllm_kb.engine.scan.deploy import common
    from vllm_kb.engine.scan.deploy.common import yaml_word
    from vllm_kb.engine.scan.shell_expand import Expander

    ran = {s.launch.get("entry_point") for s in sites} | {s.file for s in sites}
    out = []
    for file in (getattr(ctx, "entry_index", None) or {}).get("modules", []):
        entry = argv_entry.inspect(ctx, file)
        if file in ran or entry is None:
            continue
        line = entry.parse_line or 1
        words = [yaml_word(t, line, Expander()) for t in ("python", file.rpartition("/")[2])]
        site = common.launch_site(ctx, file, words, line, line, "python-argv", "argv", {}, None)
        if site is None:
            continue
        site.mode_evidence = f"{file}:{line} parses vLLM's own command-line arguments; no command of the project runs it"
        site.opaque.append({"code": "forwards-args", "what": "the command line that starts it (not in the project)",
                            "where": f"{file}:{line}"})
        for name in SIZED_BY_COMMAND:  # what the unseen command line may set is not vLLM's default
            if name not in site.settings and name not in entry.assigns:
                # implied: nobody wrote it, so no release can refuse it as an option (swap_space on 0.34.0)
                site.settings[name] = Setting(name, None, False, file, line, "", "", "python-argv",
                                              "from the command line that starts it, not in the project", implied=True)
        out.append(site)
    return out


# The engine arguments the start-up checks size memory and parallelism by: at a module no command of
# the project runs, each one the module does not set itself is unknown rather than vLLM's default.
SIZED_BY_COMMAND = ("max_model_len", "gpu_memory_utilization", "tensor_parallel_size", "pipeline_parallel_size",
                    "max_num_seqs", "max_num_batched_tokens", "kv_cache_dtype", "quantization", "dtype", "enforce_eager",
                    "block_size", "swap_space", "cpu_offload_gb", "enable_chunked_prefill", "max_lora_rank", "enable_lora")
