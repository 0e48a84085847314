"""Project scripts that are vLLM command-line entry points: a module that builds its argparse parser
with `EngineArgs.add_cli_args(parser)` / `AsyncEngineArgs.add_cli_args(parser)` / vLLM's
`make_arg_parser(parser)` and starts the engine from the parsed namespace (`from_cli_args(args)`,
`LLM(**vars(args))`, `run_server(args)`). The shell, Dockerfile, compose or Kubernetes line that runs
it (`python server.py --tensor-parallel-size 2`, `python -m pkg.server …`) hands its flags to vLLM's
own parser, so it is read as a launch site; the options the script adds itself (its `add_argument`
calls) are the script's, not vLLM's. The script file is found from the command (a path relative to
the command's file or the root, or the module's file, as `python -m` finds it) and read once per
scan; it is never imported or run."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.versions import SpecifierSet
from vllm_kb.engine.scan import entry_assigns, hydra_entry, launcher_entry
from vllm_kb.engine.scan.cli_args import coerce
from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.launchers import _PYTHON, Launch, program_start
from vllm_kb.engine.scan.python_scope import module_attr, walk  # walk: ast.walk's order, the module's nodes listed once

# A file must spell one of these to be read as an entry point.
MARKS = ("add_cli_args", "make_arg_parser", "from_cli_args")
_ENGINE_CLASSES = {"EngineArgs", "AsyncEngineArgs"}


@dataclass
class EntryPoint:
    file: str  # the script's project file
    engine: str  # what it builds from the namespace: LLM | EngineArgs | AsyncEngineArgs | server
    own_flags: dict[str, str] = field(default_factory=dict)  # the script's own options, normalised (--a-b) → dest
    renames: dict[str, str] = field(default_factory=dict)  # `args.model = args.model_path`: own dest → engine arg
    positionals: int = 0  # positional arguments the script's parser declares
    known_args: bool = False  # parse_known_args(): words neither parser knows are ignored
    model_default: tuple[str, int] | None = None  # parser.set_defaults(model="…"): (value, line)
    cuda_first: bool = False  # the module touches CUDA before it builds the engine (facts.launch.cuda_first)
    unknown: tuple[str, ...] = ()  # engine arguments the module sets itself in some of its releases, when not given
    defaults: dict = field(default_factory=dict)  # engine arguments the module's own parser sets when not given
    exact: bool = False  # its parser is argparse's own: an option matches as written, `_` is not `-`
    parse_line: int = 0  # where it parses its command line
    assigns: dict = field(default_factory=dict)  # `args.x = …` after parsing (entry_assigns.Assign): wins over the command line
    passes_rest: bool = False  # a launcher (launcher_entry): the words its parser does not declare reach vLLM's as written
    model_positional: bool = False  # a launcher that passes its words on right after `vllm serve`
    adds: dict = field(default_factory=dict)  # a launcher's own additions to vLLM's argv (launcher_entry): value, None when computed

    @property
    def mode(self) -> str:
        return "standalone_offline" if self.engine in ("LLM", "EngineArgs") else "standalone_serve"


def kind_of(shown: str, entry: EntryPoint) -> str:
    """`python server.py (AsyncEngineArgs)`, `python -m pkg.server (server)`."""
    return f"python {shown} ({entry.engine})"


def engine_of(kind: str | None) -> str | None:
    """What the site of an entry point builds, from its kind (`python x.py (AsyncEngineArgs)`)."""
    if not kind or not kind.startswith("python ") or not kind.endswith(")") or " (" not in kind:
        return None
    return kind.rsplit(" (", 1)[1][:-1]


def norm_flag(flag: str) -> str:
    return "--" + flag[2:].split("=", 1)[0].replace("_", "-") if flag.startswith("--") else flag.split("=", 1)[0]


def find(words, ctx, rel: str) -> tuple[Launch, EntryPoint] | None:
    """The launch a `python script.py …` / `python -m pkg.mod …` command is, when its script is a
    vLLM command-line entry point of the project."""
    if ctx is None or (got := program_start(words)) is None:
        return None
    i, env = got
    vals, n = [w.value for w in words], len(words)
    program = (vals[i] or "").rsplit("/", 1)[-1]
    script = ((getattr(ctx, "entry_index", None) or {}).get("console") or {}).get(program)
    if script is not None and (entry := inspect(ctx, script)) is not None:  # a console script the project declares
        return Launch(kind_of(program, entry), i + 1, False, env, i), entry
    if (known := _package_entry(program, vals[i + 1:], key="console")) is not None:  # a public package's command
        return Launch(kind_of(program, known), i + 1, False, env, i), known
    if program.endswith(".py") and (file := script_file(ctx, rel, vals[i] or "")) is not None:
        # `./start.py …`, `srun ~/proj/start.py …`: a script run by its shebang
        if (entry := inspect(ctx, file)) is not None:
            return Launch(kind_of(program, entry), i + 1, entry.model_positional, env, i), entry
        return None
    if not _PYTHON.match(program):
        return None
    j = i + 1
    while j < n and (vals[j] or "").startswith("-") and vals[j] != "-m":
        j += 1
    if j >= n or vals[j] is None:
        return None
    if vals[j] == "-m":
        if j + 1 >= n or not vals[j + 1]:
            return None
        file, start = hydra_entry.module_file(ctx, rel, vals[j + 1]), j + 2
        name = vals[j + 1]
        if file is None and (known := _package_entry(name, vals[start:])) is not None:
            return Launch(kind_of(f"-m {name}", known), start, False, env, i), known
    elif vals[j].endswith(".py"):
        file, start, name = script_file(ctx, rel, vals[j]), j + 1, vals[j]
        if file is None and (known := _package_entry(PurePosixPath(name).name, vals[start:], key="script")) is not None:
            # an application's script run from its own checkout, which the project does not hold
            return Launch(kind_of(PurePosixPath(name).name, known), start, False, env, i), known
    else:
        return None
    entry = inspect(ctx, file) if file else None
    if entry is None:
        return None
    return Launch(kind_of(f"-m {name}" if vals[j] == "-m" else PurePosixPath(name).name, entry), start, entry.model_positional, env, i), entry


def _package_entry(module: str, rest: list | None = None, key: str = "module") -> EntryPoint | None:
    """An installed package's module or command (`key="console"`), or a public application's script
    (`key="script"`: its file name, with one of the flags it `needs` written), that hands its command line to vLLM
    (knowledge/deploy/llm_wrappers.yaml); None when its own options choose a backend other than
    vLLM (`not_vllm`)."""
    from vllm_kb.engine.kb import deploy_tools

    for e in deploy_tools.load("llm_wrappers").get("entry_points", []):
        if module == e.get(key) or module in (e.get(key) if isinstance(e.get(key), list) else ()):
            if rest and _switched_off(e.get("not_vllm") or {}, rest):
                return None
            if e.get("needs") and not any(norm_flag(v or "") in {norm_flag(f) for f in e["needs"]} for v in rest or []):
                continue
            return EntryPoint(f"{module} ({e.get('project') or 'package'})", e["engine"], {(f if e.get("exact") else norm_flag(f)): d or "" for f, d in e["own"].items()},
                              exact=bool(e.get("exact")),
                              cuda_first=bool(e.get("cuda_first")), unknown=tuple(e.get("unknown") or ()),
                              defaults=dict(e.get("defaults") or {}))
    return None


def _switched_off(off: dict, rest: list) -> bool:
    """`--backend huggingface` / `--backend=huggingface` among the words (values as written)."""
    for k, v in enumerate(rest):
        flag, eq, given = (v or "").partition("=")
        if norm_flag(flag) in {norm_flag(f) for f in off}:
            value = given if eq else (rest[k + 1] if k + 1 < len(rest) else None)
            if value in next(vals for f, vals in off.items() if norm_flag(f) == norm_flag(flag)):
                return True
    return False


def script_file(ctx, rel: str, path: str) -> str | None:
    """The project file a script path names: relative to the command's file or the root; an
    absolute path (a container's /app/server.py) by its longest tail that is a project file."""
    got = ctx.resolve_ref(rel, path.lstrip("/") if path.startswith("/") else path)
    if got is not None:
        return got
    parts = PurePosixPath(path).parts
    for k in range(1, len(parts)):
        ends = ctx.files_ending("/".join(parts[k:]))
        if len(ends) == 1:
            return ends[0]
    return None


def inspect(ctx, file: str) -> EntryPoint | None:
    """Whether a project file is a vLLM command-line entry point (read once per scan)."""
    cache = ctx.entry_points
    if file not in cache:
        text = ctx.read(file)
        cache[file] = _inspect(text, file) or _launcher(text, file)
    return cache[file]


def _launcher(text: str | None, file: str) -> EntryPoint | None:
    """A script that runs `vllm serve` with the words its own parser leaves (launcher_entry)."""
    got = launcher_entry.read(text, file) if text else None
    if got is None:
        return None
    return EntryPoint(file, "server", dict(got.own_flags), positionals=got.positionals, model_default=got.model_default,
                      defaults=dict(got.defaults), exact=True, parse_line=got.parse_line, passes_rest=True, adds=dict(got.adds),
                      model_positional=got.model_positional)


# The module _inspect parsed last, by its text: entry_modules asks `parsed` for the same text right
# after (whether the entry point builds the engine), and parsed it a second time (vLLM's own tree:
# every entry module). Nothing here or there changes a parsed tree.
_last: list = [None, None]


def parsed(text: str, file: str) -> ast.Module:
    """parse_python(text, file), the module _inspect parsed when it was given this same text."""
    text_held, tree = _last
    _last[0] = _last[1] = None  # held for the one reader right after, not for the rest of the scan
    return tree if text_held is text else parse_python(text, file)


def _inspect(text: str | None, file: str) -> EntryPoint | None:
    if not text or "vllm" not in text or not any(m in text for m in MARKS):
        return None
    try:
        tree = parse_python(text, file)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    _last[0], _last[1] = text, tree
    names, modules = _vllm_names(tree)
    engine = None
    serve = llm = False
    out = EntryPoint(file, "")
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        callee = _vllm_callee(f, names, modules)
        if isinstance(f, ast.Attribute) and f.attr in ("add_cli_args", "from_cli_args"):
            owner = _vllm_callee(f.value, names, modules)
            if owner in _ENGINE_CLASSES:
                engine = "AsyncEngineArgs" if "AsyncEngineArgs" in (engine, owner) else owner
        elif callee == "make_arg_parser":
            serve = True
        elif callee == "LLM":
            llm = True
        elif isinstance(f, ast.Attribute) and f.attr == "add_argument":
            flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if flags and all(x.startswith("-") for x in flags):
                dest = next((k.value.value for k in node.keywords if k.arg == "dest" and isinstance(k.value, ast.Constant)), None)
                longs = [x for x in flags if x.startswith("--")]
                dest = str(dest or (longs[0] if longs else flags[0]).lstrip("-").replace("-", "_"))
                if any(k.arg == "action" and isinstance(k.value, ast.Constant) and k.value.value == "store_false" for k in node.keywords):
                    dest = ""  # the opposite of vLLM's switch of that name: not read as it
                out.own_flags.update((norm_flag(x), dest) for x in flags)
            elif flags:
                out.positionals += 1
        elif isinstance(f, ast.Attribute) and f.attr in ("parse_args", "parse_known_args"):
            out.known_args = out.known_args or f.attr == "parse_known_args"
            out.parse_line = out.parse_line or node.lineno
        elif isinstance(f, ast.Attribute) and f.attr == "set_defaults":
            for kw in node.keywords:
                if kw.arg == "model" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    out.model_default = (kw.value.value, kw.value.lineno)
    if engine is None and not serve or not llm and _lists_flags_only(tree):
        return None
    for node in walk(tree):  # `args.model = args.model_path`: an own option handed to an engine argument
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Attribute) and isinstance(value, ast.Attribute) and _same_namespace(target, value):
                out.renames[value.attr] = target.attr
    out.engine = "server" if serve or engine is None else "LLM" if llm and engine == "EngineArgs" else engine
    out.assigns = entry_assigns.assignments(tree)
    return out


# Calls that start an engine or a server from a parsed namespace; a file with none of them that reads
# the parser's `_actions` only lists vLLM's flags (runpod worker-vllm scripts/check_vllm_flags.py dump,
# run in CI with `docker run --entrypoint python3 IMAGE`): nothing starts, so no site and no GPU need.
_STARTS = frozenset({"LLM", "run_server", "serve_http", "build_async_engine_client", "from_engine_args", "from_cli_args",
                     "from_vllm_config", "AsyncLLMEngine", "LLMEngine", "AsyncLLM", "run", "Popen", "call", "check_call",
                     "execvp", "execv", "system", "main", "init_app", "build_app", "cmd", "EngineArgs", "AsyncEngineArgs"})


def _lists_flags_only(tree: ast.Module) -> bool:
    reads_actions = any(isinstance(n, ast.Attribute) and n.attr in ("_actions", "_option_string_actions") for n in walk(tree))
    if not reads_actions:
        return False
    for n in walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in _STARTS and not (name == "main" and isinstance(f, ast.Name)):
                return False
    return True


def _same_namespace(target, value) -> bool:
    return (isinstance(target, ast.Attribute) and isinstance(value, ast.Attribute) and isinstance(target.value, ast.Name)
            and isinstance(value.value, ast.Name) and target.value.id == value.value.id)


def _vllm_names(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Local names bound to names imported from vllm (`from vllm.x import y as z`), and local names of
    vllm modules (`import vllm`, `import vllm.engine.arg_utils as au`)."""
    names: dict[str, str] = {}
    modules: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "vllm":
            for a in node.names:
                names[a.asname or a.name] = a.name
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "vllm":
                    modules.add(a.asname or a.name.split(".")[0])
    return names, modules


def _vllm_callee(f, names: dict[str, str], modules: set[str]) -> str | None:
    """The vLLM name an expression refers to: an imported name, or an attribute path under a vllm
    module (`vllm.EngineArgs`, `au.AsyncEngineArgs`)."""
    if isinstance(f, ast.Name):
        return names.get(f.id)
    return module_attr(f, modules)


def apply_assigns(site, entry: EntryPoint, cat, version: str) -> None:
    """What the module sets on the namespace after parsing replaces what the command line gave
    (entry_assigns): an engine argument (a server option where vLLM's server parses it), or the model."""
    from vllm_kb.engine.scan.site import Setting

    for name, a in entry.assigns.items():
        e = cat.arg(name)
        if name != "model" and not (cat.is_engine_arg(name) or entry.engine == "server" and e is not None):
            continue
        value = a.value
        if a.resolved and isinstance(value, int) and not isinstance(value, bool) and e is not None \
                and e.field("type", version if e.exists(version) else e.last) == "float":
            value = float(value)
        s = Setting(name, value if a.resolved else None, a.resolved, entry.file, a.line, f"args.{name}", a.raw, "python-call",
                    "set by the script after parsing its command line", known=e is not None and e.exists(version))
        site.unknown.pop(name, None)
        if name == "model":
            site.model = s
        else:
            site.settings[name] = s


def _abbreviated(entry: EntryPoint, flag: str) -> str:
    """The own option argparse takes a word for: itself, or the one long option it is the start
    of (argparse's allow_abbrev), which then never reaches vLLM."""
    if flag in entry.own_flags or not flag.startswith("--"):
        return flag
    longer = [f for f in entry.own_flags if f.startswith(flag)]
    return longer[0] if len(longer) == 1 else flag


def _vllm_would_take(cat, name: str, value, version: str) -> bool:
    """Whether a value of the script's own option is one vLLM accepts for the engine argument its
    dest names: `--dtype bf16` that the script maps (`{"bf16": "bfloat16"}[args.dtype]`) before it
    builds the engine never reaches vLLM's parser as written, so it is the script's, not judged."""
    if not isinstance(value, str):
        return True
    rows = (load().doc("vllm", "cli_choices.yaml").data.get("args") or {}).get(name) or ()
    listed = [r["choices"] for r in rows if SpecifierSet(f">={r['from']},<={r['to']}").contains(version)]
    got = cat.allowed_values((name,), version)
    listed += [got[0]] if got and got[0] else []
    return all(value.strip().lower() in {str(c).lower() for c in choices} for choices in listed)


def narrow(site, entry: EntryPoint, script: str, cat, version: str) -> None:
    """What the command gives that is not vLLM's: the script's own options leave the site (they are
    the script's business) unless they land on an engine argument — by their dest (FastChat's own
    `--gpu_memory_utilization`) or handed on in the script (`args.model = args.model_path`); words
    neither the script nor vLLM declares are noted, not judged — the script may add options the
    audit cannot read."""
    where = f"{site.file}:{site.line}"
    for table in (site.settings, site.unknown):
        for name, s in list(table.items()):
            flag = (s.key.split("=", 1)[0] if entry.exact else norm_flag(s.key)) if (s.key or "").startswith("-") else None
            flag = _abbreviated(entry, flag) if entry.passes_rest and flag else flag
            if flag is None or flag not in entry.own_flags:
                continue
            del table[name]
            dest = entry.own_flags[flag]
            target = entry.renames.get(dest, dest) if dest else ""
            # engine arguments reach vLLM from the namespace; serve options only where vLLM's server parses it
            if target and (cat.is_engine_arg(target) or entry.engine == "server" and cat.arg(target) is not None) and s.value is not None \
                    and _vllm_would_take(cat, target, s.value, version):
                e = cat.arg(target)
                if isinstance(s.value, str) and e is not None:  # an option vLLM does not know came as text
                    s.value = coerce(s.value, e.field("type", version if e.exists(version) else e.last) or "str")
                s.name, s.known = target, True
                if target == "model":
                    site.model = s
                else:
                    site.settings[target] = s
            else:
                site.launch.setdefault("script_args", []).append(s.key)
                if isinstance(s.value, (str, int, float, bool)):  # what a launcher's own check reads (L143)
                    site.launch.setdefault("script_values", {})[flag] = str(s.value)
    for name, s in list(site.unknown.items()):
        if entry.passes_rest:
            continue  # handed to vLLM's parser as written: judged there
        del site.unknown[name]
        site.opaque.append({"code": "script-option", "what": f"{s.key} {s.raw}".strip(), "where": f"{s.file}:{s.line}"})
    if entry.known_args:  # parse_known_args(): a flag this release lacks is left over, not an error
        for name, s in list(site.settings.items()):
            if not s.known:
                del site.settings[name]
                site.opaque.append({"code": "script-option", "what": f"{s.key} {s.raw}".strip(), "where": f"{s.file}:{s.line}"})
    if any(f.code == "stray-positional" for f in site.remarks):  # the script's own positionals
        site.remarks = [f for f in site.remarks if f.code != "stray-positional"]
        for a in getattr((site.source or {}).get("parsed"), "positionals", []):
            site.opaque.append({"code": "script-option", "what": a.raw, "where": f"{site.file}:{a.line}"})
    site.launch["entry_point"] = script
    # what the module's parser holds when the command line leaves it (FastChat's trust_remote_code: True)
    own = {norm_flag(k) for k in site.launch.get("script_args", [])}  # its own spelling of the option: not its default
    site.framework_defaults = {**{k: v for k, v in entry.defaults.items() if "--" + k.replace("_", "-") not in own},
                               **site.framework_defaults}
    if entry.cuda_first:
        site.launch["cuda_first"] = True
    site.mode_evidence = f"{script} (vLLM's argument parser) run at {where}"
