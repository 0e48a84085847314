"""The shell builtins a static read needs (declare/export/local, source, eval, set, shift, unset,
read, getopts) and the commands that run another script: `bash -c "…"`, `tmux`, a function's body. A
mixin of shell_run.Runner; the container commands (`docker run` …) are shell_containers.Containers."""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Callable

from vllm_kb.engine.scan import entry_installs, env_templates, envfile, shell_heredoc, shell_profile
from vllm_kb.engine.scan.shell import SHELLS, Args, ShellSyntaxError, Word, c_script_at
from vllm_kb.engine.scan.shell_expand import hole, is_append, is_known, shown, split_assignment
from vllm_kb.engine.scan.shell_tree import Simple, parse_tree
from vllm_kb.engine.scan.site import Setting

if TYPE_CHECKING:
    from vllm_kb.engine.scan.shell_run import State

_NOOP = {"cd", "pushd", "popd", "echo", "printf", "sleep", "trap", "wait", "exit", "return", "true", "false", ":",
         "mkdir", "rm", "cp", "mv", "ls", "cat", "chmod", "touch", "ulimit", "module", "conda", "nvidia-smi", "kill",
         "pkill", "clear", "alias", "hostname", "curl", "wget", "tee", "git", "pip", "pip3", "huggingface-cli"}
MAX_DEPTH = 8


class Builtins:
    if TYPE_CHECKING:  # what shell_run.Runner, the class this is mixed into, provides
        ctx: Any
        rel: str
        emit: Callable[..., None]
        st: State
        depth: int
        quiet: bool
        anchor: tuple[int, int] | None
        called: set[str]
        seen: set
        stdin: tuple | None

        def __init__(self, ctx: Any, rel: str, emit: Callable[..., None], *, state: State | None = None,
                     depth: int = 0, quiet: bool = False, anchor: tuple[int, int] | None = None,
                     seen: set | None = None) -> None: ...
        def run(self, nodes: list) -> None: ...
        def run_text(self, text: str, *, inner_line: int | None = None) -> None: ...
        def finish(self) -> None: ...
        def _emit(self, fields: list[Word], n: Simple, container: dict | None = None, via: tuple = ()) -> None: ...
        def _resolve(self, ref: str) -> str | None: ...

    def assign(self, w: Word, cmd: tuple[int, int], count: int, kind: str, export: bool = False) -> None:
        a = split_assignment(w)
        assert a is not None  # the callers pass assignments only
        name, val = a
        self.st.ex.assign(name, val, append=is_append(w))
        self.st.ex.origins[name] = f"{self.rel}:{w.line}"
        if export or self.st.allexport:
            self.st.ex.exported.add(name)
        if name in self.st.ex.exported:
            self.st.env[name] = env_setting(name, val, self.rel, {"kind": kind, "word": (w.start, w.end),
                                                                    "cmd": cmd, "count": count})

    def declare(self, head: str, words: list[Word]) -> None:
        opts = {c for w in words[1:] if (w.value or "").startswith("-") for c in (w.value or "")[1:]}
        export = head == "export" or "x" in opts
        names = [w for w in words[1:] if not (w.value or w.raw).startswith("-")]
        for w in names:
            if split_assignment(w):
                self.assign(w, (words[0].start, words[-1].end), len(names), "export" if head == "export" else "assign", export)
            elif export:
                for f in self.st.ex.expand_fields(w):
                    self._export_name(f, words, names)
            elif "a" in opts and w.value:
                self.st.ex.arrays.setdefault(w.value, [])

    def _export_name(self, w: Word, words: list[Word], names: list[Word]) -> None:
        name = w.value or ""
        if split_assignment(w):  # export $(grep -v '^#' .env | xargs) gave KEY=VALUE fields
            self.assign(w, (-1, -1), 0, "export", True)
            return
        if not name.isidentifier():
            if w.unresolved and ".env" in w.unresolved:
                self._export_dotenv(w.unresolved)
            return
        self.st.ex.exported.add(name)
        if name in self.st.ex.vars:
            val = self.st.ex.vars[name]
            self.st.env[name] = Setting(name, val if is_known(val) else None, is_known(val), self.rel, w.line, name,
                                        shown(val), "cli", self.st.ex.notes.get(name), pos={"kind": "export", "word": (w.start, w.end),
                                                                                            "cmd": (words[0].start, words[-1].end), "count": len(names)})

    def _export_dotenv(self, what: str, export: bool = True) -> bool:
        """`export $(grep -v '^#' .env | xargs)`, `source <(cat .env)`, `eval "$(cat .env)"`: every
        KEY=VALUE of that file is set (read with the env-file grammar, engine/scan/envfile.py)."""
        m = re.search(r"([\w./-]*\.env\w*)", what)
        target = (self._resolve(m.group(1)) or self._env_template(m.group(1))) if m else None
        values = envfile.load(self.ctx, target) if target else None
        for name, v in (values or {}).items():
            if v.value is None:
                self.st.ex.forget(name)
                continue
            self.st.ex.vars[name] = v.value
            self.st.ex.origins[name] = v.where
            if export or self.st.allexport:
                self.st.ex.exported.add(name)
                self.st.env[name] = Setting(name, v.value, True, v.file, v.line, name, v.raw, "cli")
        return values is not None

    def builtin(self, base: str, argv: list[Word], n: Simple) -> bool:
        ex = self.st.ex
        if base in ("source", ".") and len(argv) > 1:
            if not (".env" in (argv[1].unresolved or "") and self._export_dotenv(argv[1].unresolved or "", export=False)):
                self.source(argv[1])  # `source <(cat .env)` is the file itself
            return True
        if base == "eval":
            if len(argv) > 1 and ".env" in (argv[1].unresolved or "") and self._export_dotenv(argv[1].unresolved or "", export=False):
                return True  # `eval "$(cat .env)"`
            text = " ".join(w.text if w.text is not None else w.raw for w in argv[1:])
            self.child(text, argv[0].line, n, state=self.st)
            return True
        if base == "set":
            args = [w.value for w in argv[1:]]
            if "-a" in args or "-o" in args and "allexport" in args:
                self.st.allexport = True
            if "+a" in args:
                self.st.allexport = False
            if "--" in args:
                k = args.index("--")
                ex.positional = positional(argv[k + 2:])
            return True
        if base == "shift":
            k = int(argv[1].value or "") if len(argv) > 1 and (argv[1].value or "").isdigit() else 1
            if isinstance(ex.positional, Args):  # past a word of unknown width nothing is known
                ex.positional = positional([f for _, f in ex.positional[k:]]) if k <= ex.positional.upto else None
            elif ex.positional is not None:
                ex.positional = ex.positional[k:]
            return True
        if base == "unset":
            for w in argv[1:]:
                if w.value and not w.value.startswith("-"):
                    ex.forget(w.value)
                    self.st.env.pop(w.value, None)
            return True
        if base == "read":
            shell_heredoc.read_builtin(ex, argv, n)
            return True
        if base == "getopts" and len(argv) >= 3 and argv[2].value:
            ex.vars[argv[2].value] = hole("getopts")
            ex.vars["OPTARG"] = hole("$OPTARG")
            return True
        if base == "curl" and any("/v1/models" in (w.value or w.raw) for w in argv[1:]) \
                and any((w.value or w.raw).startswith(("-d", "--data", "--json")) for w in argv[1:]):
            return False  # a POST to Xinference's /v1/models may launch a model (engine/scan/xinference_rest.py)
        return base in _NOOP

    def source(self, w: Word) -> None:
        target = self._resolve(w.text or w.raw) or self._env_template(w.text or w.raw)
        if target is None:  # a profile picked at run time: what it sets is unknown (shell_profile)
            shell_profile.forget_emptied(self.st.ex, w.text or "")
        if target is None or target in self.seen or self.depth >= MAX_DEPTH:
            return
        text = self.ctx.read(target)
        if text is None:
            return
        try:
            nodes = parse_tree(text)
        except (ShellSyntaxError, RecursionError):
            return
        r = type(self)(self.ctx, target, self.emit, state=self.st, depth=self.depth + 1, quiet=True, seen=self.seen | {target})
        r.run(nodes)

    def _env_template(self, ref: str) -> str | None:
        """A `.env` the project lacks: the template its user copies to it (engine/scan/env_templates.py)."""
        ref = ref.strip().strip("'\"")
        if not ref.endswith(".env"):
            return None
        folder = str(PurePosixPath(self.rel).parent)
        at_script = ref.replace(self.st.ex.script_dir_hole, folder)
        if "\ue000" in at_script or at_script.startswith(("~", "/")):
            return None
        env_rel = at_script if at_script != ref else str(PurePosixPath(folder) / ref)
        return env_templates.template_for(self.ctx, self.rel, env_rel)

    def call(self, name: str, fields: list[Word], prog_i: int, n: Simple) -> None:
        fn = self.st.funcs[name]
        self.called.add(name)
        ex = self.st.ex
        saved_pos = ex.positional
        ex.positional = positional(fields[prog_i + 1:])
        r = type(self)(self.ctx, self.rel, self.emit, state=self.st, depth=self.depth + 1, quiet=self.quiet,
                   anchor=self.anchor or (n.line, n.end_line), seen=self.seen)
        r.called = self.called
        r.stdin = (n.heredocs, self.anchor) if n.heredocs else self.stdin  # what the body's commands read
        r.run([fn.body])
        ex.positional = saved_pos

    def shell_c(self, fields: list[Word], i: int, n: Simple, container: dict | None = None) -> bool:
        """`bash -c "…"` / `sh -lc '…'` / `bash -lc -- "…"`: the string is a script of its own."""
        k = c_script_at([f.value or "" for f in fields], i)
        if k is None:
            return False
        script = fields[k]
        child = self.st.copy()
        child.ex.positional = positional(fields[k + 2:])
        for f in fields[:i]:
            a = split_assignment(f)
            if a:
                child.ex.assign(a[0], a[1])
                child.ex.exported.add(a[0])
        text = script.text if script.text is not None else script.raw
        if container is not None and (got := entry_installs.installs([text])):
            # `docker run … bash -c "pip install transformers==X && vllm serve …"`: what the container
            # installs before it serves, not the image's (engine/scan/entry_installs.py)
            container = {**container, "entry_installs": got}
        self.child(text, script.line, n, state=child, container=container)
        return True

    def child(self, text: str, line: int, n: Simple, state: State, container: dict | None = None) -> None:
        if self.depth >= MAX_DEPTH:
            return
        def emit(c, _outer=self.emit):
            if container is not None:  # launches inside `docker run … bash -c "…"` run in that container
                c.container = c.container or container
                c.via = ("docker run",) + c.via
            c.via = ("shell string",) + c.via
            _outer(c)
        r = type(self)(self.ctx, self.rel, emit, state=state, depth=self.depth + 1, quiet=self.quiet,
                   anchor=self.anchor or (n.line, n.end_line), seen=self.seen)
        try:
            r.run_text(text, inner_line=line)
        except (ShellSyntaxError, RecursionError):
            return
        r.finish()

    def tmux(self, fields: list[Word], i: int, n: Simple) -> bool:
        """`tmux new-session -d -s NAME 'cmd'`: one word is a shell command (tmux runs it with
        `sh -c`), several are run as they are; `tmux send-keys -t NAME 'cmd' Enter` types the
        command into the session's shell."""
        vals = [f.value for f in fields]
        k = i + 1
        while k < len(fields) and (vals[k] or "").startswith("-"):
            k += 2 if vals[k] in ("-L", "-S", "-f", "-T") else 1
        sub = vals[k] if k < len(fields) else None
        if sub in ("new-session", "new", "new-window", "neww", "split-window", "splitw"):
            takes = {"-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F", "-f", "-l"}
        elif sub in ("send-keys", "send"):
            takes = {"-t", "-N"}
        else:
            return False
        k += 1
        while k < len(fields) and (v := vals[k] or "").startswith("-") and v != "--":
            combined = not v.startswith("--") and len(v) > 2 and "-" + v[-1] in takes
            k += 2 if v in takes or combined else 1
        rest = fields[k + (1 if k < len(fields) and vals[k] == "--" else 0):]
        if sub in ("send-keys", "send"):
            while rest and rest[-1].value in ("Enter", "C-m", "KPEnter", "ENTER"):
                rest = rest[:-1]
            if len(rest) != 1:
                return bool(rest) is False
        if len(rest) == 1:
            word = rest[0]
            self.child(word.text if word.text is not None else word.raw, word.line, n, state=self.st.copy())
            return True
        if rest:
            head = (rest[0].value or "").rsplit("/", 1)[-1]
            if not (head in SHELLS and self.shell_c(rest, 0, n)):
                self._emit(rest, n)
        return True


def env_setting(name: str, val: Word, rel: str, pos: dict | None = None) -> Setting:
    return Setting(name, val.value, val.value is not None, rel, val.line, name, val.raw, "cli", val.assumed or val.unresolved, pos=pos)


def command_env(exported: dict, prefix, words: list, ex, rel: str) -> dict:
    """The variables a launch command sees: those exported before it, then those its own line sets in
    front of it (`VAR=v vllm serve …`: `prefix`, (name, value, word index)), each with the word a fix edits."""
    env = dict(exported)
    for name, val, idx in prefix:
        ex.expand(val)
        env[name] = env_setting(name, val, rel, {"kind": "prefix", "word": (words[idx].start, words[idx].end)} if val.start >= 0 else None)
    return env


def positional(fields: list[Word]) -> list[tuple[str, Word | None]]:
    """The arguments as $1 … $#. An unquoted expansion of unknown value among them splits into any
    number of words: from it on (and `$#`) the positions are unknown (shell.Args), never one word each."""
    out: list[tuple[str, Word | None]] = [(f.text or "", f) for f in fields]
    for k, f in enumerate(fields):
        if f.value is None and any(g.kind != "lit" and not g.quoted for g in f.segs):
            args = Args(out)
            args.upto = k
            return args
    return out
