"""Subprocesses a Python file starts: `subprocess.Popen/run/call/check_call/check_output(argv)`,
`os.system(str)`, `os.exec*`, `asyncio.create_subprocess_exec(*argv)` / `_shell(str)`. The argv
is followed through the names the flow tracks (a list grown with `+=`/`.append`, a string joined
with `" ".join(cmd)` for `shell=True`); each element resolves to text or becomes a hole for the
shell model, and the command is read like a script's (engine/scan/scripts.py), so whatever it
launches — vllm serve, a framework, docker run — is a site. Elements added under an undecided
condition are left out and reported as conditional."""
from __future__ import annotations

import ast
import re
from typing import Any
from dataclasses import dataclass, field

from vllm_kb.engine.scan import python_argv_forms, python_returns
from vllm_kb.engine.scan.deploy import common
from vllm_kb.engine.scan.python_argv_words import Unseen, argv_items, argv_string, argv_word, opaque, split_of, star_items
from vllm_kb.engine.scan.python_flow import Flow, Item, TrackedDict, Unknown
from vllm_kb.engine.scan.python_values import Unresolved
from vllm_kb.engine.scan.site import Setting, Site

_SUBPROCESS = {"Popen", "run", "call", "check_call", "check_output"}
_OS = {"system": "shell", "popen": "shell", "execvp": "exec", "execv": "exec", "execvpe": "exec", "execve": "exec",
       "spawnvp": "spawn", "spawnv": "spawn"}
_ASYNCIO = {"create_subprocess_exec": "star", "create_subprocess_shell": "shell"}
SPAWN_NAMES = frozenset(_SUBPROCESS | set(_OS) | set(_ASYNCIO))


@dataclass
class Spawners:
    modules: dict[str, str] = field(default_factory=dict)  # alias → subprocess | os | asyncio
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name → (module, function)

    def any(self) -> bool:
        return bool(self.modules or self.names)

    def kind(self, call: ast.Call) -> tuple[str, str] | None:
        f = call.func
        if isinstance(f, ast.Name) and f.id in self.names:
            return self.names[f.id]
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules:
            return self.modules[f.value.id], f.attr
        return None

    def spawns(self, call: ast.Call) -> bool:
        got = self.kind(call)
        if got is None:
            return False
        mod, fn = got
        return (mod == "subprocess" and fn in _SUBPROCESS) or (mod == "os" and fn in _OS) or (mod == "asyncio" and fn in _ASYNCIO)


def spawners(imported: list) -> Spawners:
    s = Spawners()
    for node in imported:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("subprocess", "os", "asyncio"):
                    s.modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module in ("subprocess", "os", "asyncio"):
            for a in node.names:
                s.names[a.asname or a.name] = (node.module, a.name)
    return s


def site(ctx, rel: str, text: str, call: ast.Call, r, kind: tuple = ()) -> Site | list[Site] | None:
    """`kind`: the (module, function) of a spawn the caller's imports do not name (a helper of
    another module runs it: engine/scan/python_spawn_helpers.py). A command named by a variable that
    each branch of an undecided `if` sets (engine/scan/python_branches.py) gives a site per branch,
    at the line of that branch's value."""
    got = kind or (r.spawners.kind(call) if getattr(r, "spawners", None) is not None else None)
    call = python_argv_forms.positional(call)
    if got is None or not call.args:
        return None
    mod, fn = got
    shell = (mod == "os" and _OS.get(fn) == "shell") or (mod == "asyncio" and _ASYNCIO.get(fn) == "shell") or \
        any(k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)
    env = _env(call, rel, r)
    first = call.args[0]
    if (helper := python_returns.helper_call(python_argv_forms.called(first, r), r)) is not None:
        first, r = helper  # `subprocess.run(build_cmd(m))`: what the helper returns, read inside it
    one = _site(ctx, rel, text, call, r, mod, fn, shell, env, first, (call.lineno, call.end_lineno or call.lineno))
    fork = r.flow.get(first.id) if one is None and isinstance(first, ast.Name) and r.flow is not None else None
    if not isinstance(fork, Unknown) or not fork.choices or (mod, fn) in (("asyncio", "create_subprocess_exec"),) \
            or _OS.get(fn) in ("exec", "spawn") and mod == "os":
        return one
    return [s for v in fork.choices if (s := _site(ctx, rel, text, call, r, mod, fn, shell, env, v,
                                                    (v.lineno, v.end_lineno or v.lineno))) is not None] or None


def _site(ctx, rel, text, call, r, mod, fn, shell, env, first, lines) -> Site | None:
    notes: list[str] = []
    items: list[Item] | None
    if mod == "asyncio" and fn == "create_subprocess_exec":
        items = star_items(call, r, notes)
    elif mod == "os" and _OS.get(fn) in ("exec", "spawn"):
        args = call.args[1:] if _OS[fn] == "exec" else call.args[2:]
        items = argv_items(args[0], r, notes) if args else None
    else:
        items = None if shell else argv_items(first, r, notes)
    syntax = "python-argv"
    split = split_of(first) if not shell else None
    if shell or split is not None:  # a split command line is read as the shell would (its holes stay words)
        line_text = argv_string(split if split is not None else first, r, notes, text)
        if line_text is None:
            return None
        got = common.shell_site(ctx, rel, line_text, lines[0], syntax, env, None)
    else:
        if not items:
            return None
        words = python_argv_forms.interpreter_first(items, [argv_word(it, r, text) for it in items])
        got = common.launch_site(ctx, rel, words, lines[0], lines[1], syntax, "argv", env, None,
                                 python_argv_forms.literal_positions(items, r, text))
    if got is not None:
        got.opaque += opaque(notes, f"{rel}:{call.lineno}")
        got.tool = got.tool or "python subprocess"
    return got


def list_site(ctx, rel: str, text: str, node: ast.expr, r, tool: str) -> Site | None:
    """An argv a tool runs for the code (BentoML's `__command__` returns one)."""
    notes: list[str] = []
    items = argv_items(node, r, notes)
    if not items:
        return None
    words = [argv_word(it, r, text) for it in items]
    got = common.launch_site(ctx, rel, words, node.lineno, node.end_lineno or node.lineno, "python-argv", "argv", {}, None)
    if got is not None:
        got.opaque += opaque(notes, f"{rel}:{node.lineno}")
        if isinstance(node, ast.List) and _entry_only(node):
            # `command = ["vllm", "serve"]` handed on with arguments built apart (GPUStack's worker:
            # _build_command_args, model path among them): a prefix, whose model is unknown, not missing
            got.opaque += opaque([Unseen(f"the arguments that follow {ast.unparse(node)}, built elsewhere")], f"{rel}:{node.lineno}")
        got.tool = tool
    return got


def _entry_only(node: ast.List) -> bool:
    """The list holds the entry point's words and nothing else (`["vllm", "serve"]`, `[sys.executable, "-m", M]`)."""
    return len(node.elts) == 2 or (len(node.elts) == 3 and isinstance(node.elts[1], ast.Constant) and node.elts[1].value == "-m")


def container_site(ctx, rel: str, text: str, call: ast.Call, r, command: ast.expr | None, args: ast.expr | None,
                   img: Any, tool: str) -> Site | None:
    """A container a cloud SDK deploys with its command and arguments as keyword lists (Vertex AI's
    `aiplatform.Model.upload(serving_container_command=[…], serving_container_args=[…])`); `img`: its
    image as the code resolves it (None where it does not)."""
    notes: list[str] = []
    items = (argv_items(command, r, notes) or [] if command is not None else []) + (argv_items(args, r, notes) or [] if args is not None else [])
    if not items:
        return None
    words = [argv_word(it, r, text) for it in items]
    if command is None and isinstance(img, str) and _names_vllm(img) and (words[0].value or "").startswith("-"):
        # only flags: the image's own entrypoint runs them
        words = [argv_word(Item(ast.copy_location(ast.Constant(t), call)), r, text) for t in common.entrypoint_for(img, ctx.untagged_image_release)] + words
    got = common.launch_site(ctx, rel, words, call.lineno, call.end_lineno or call.lineno, "python-argv", "argv", {},
                             img if isinstance(img, str) else None)
    if got is not None:
        got.opaque += opaque(notes, f"{rel}:{call.lineno}")
        got.tool = tool
        got.image = got.image or (img if isinstance(img, str) else None)
    return got


def _names_vllm(img: str) -> bool:
    """vLLM's image, or one named for it: only flags as its arguments are vLLM's (eval81 Manzela: `…/gcsfuse-vllm-gemma4`)."""
    from vllm_kb.engine.scan.image_tables import name_and_tag
    repo = name_and_tag(img)[0].rsplit("/", 1)[-1].lower()
    return common.is_vllm_like_image(img) or "vllm" in re.split(r"[-_.]", repo)


def _env(call: ast.Call, rel: str, r) -> dict[str, Setting]:
    """`env={**os.environ, "CUDA_VISIBLE_DEVICES": "0"}`: the variables the child gets."""
    node = next((k.value for k in call.keywords if k.arg == "env"), None)
    if node is None:
        return {}
    flow = r.flow if r.flow is not None else Flow([], r)
    got = flow._container(node)
    out: dict[str, Setting] = {}
    if isinstance(got, TrackedDict):
        for k, it in got.items.items():
            if it.uncertain or it.node is None:
                continue
            try:
                v = r.value(it.node)
                out[k] = Setting(k, str(v), True, rel, it.node.lineno, k, ast.unparse(it.node), "python-call")
            except Unresolved as u:
                out[k] = Setting(k, None, False, rel, it.node.lineno, k, ast.unparse(it.node), "python-call", u.why)
    return out
