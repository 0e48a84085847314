"""A shell script walked statically, the way bash would run it, to find the commands that may start
vLLM: assignments and exports in order, arrays, functions run where they are called (the call is
the site), `source`d files in the project, `eval` and `bash -c` strings parsed again, `docker run`
unwrapped, and `if`/`case`/`&&`/`||` branches decided when their condition is known — otherwise
every branch is read for launches and the variables they set are merged (shell_branches, shell_cond).
Nothing is executed."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from vllm_kb.engine.scan import shell_choices, shell_cond, shell_heredoc, shell_printf, shell_wrap
from vllm_kb.engine.scan.launchers import program_start
from vllm_kb.engine.scan.shell import SHELLS, ShellSyntaxError, Word
from vllm_kb.engine.scan.shell_branches import Branches
from vllm_kb.engine.scan.shell_expand import Expander, split_assignment
from vllm_kb.engine.scan.shell_holes import is_known
from vllm_kb.engine.scan.shell_budget import Walk
from vllm_kb.engine.scan.shell_builtins import MAX_DEPTH, Builtins
from vllm_kb.engine.scan.shell_containers import Containers
from vllm_kb.engine.scan.shell_nodes import Bind, shift_lines
from vllm_kb.engine.scan.shell_tree import AndOr, Case, FuncDef, Group, If, Loop, Pipeline, Simple, parse_tree
from vllm_kb.engine.scan.site import Setting

# a substitution worth running as a command: a container or vLLM launch, or an argv array run whole
_SUBSTITUTED_RUN = re.compile(r"\b(?:docker|podman|nerdctl|vllm)\b|^\s*\"?\$\{\w+\[@\]\}")

_DECLARE = {"export", "declare", "typeset", "local", "readonly"}
_TOOLS = {"hf", "huggingface-cli", "apptainer", "singularity", "kubectl"}  # engine/scan/launch_tools.py


@dataclass
class Candidate:
    """A command that may start vLLM, as the shell would run it."""
    words: list[Word]  # expanded argv; env assignments in front are kept as written
    line: int  # the site's anchor: the command, or the call that runs it
    end_line: int
    ex: Expander  # the variables at that point (the prefix values expand against it)
    env: dict[str, Setting]  # exported variables in effect
    container: dict | None = None  # `docker run` facts: image, env, gpus, ipc, shm_size
    via: tuple = ()
    own: tuple[int, int] | None = None  # the command's own lines, where `line` is the call that runs it


@dataclass
class State:
    ex: Expander
    env: dict[str, Setting] = field(default_factory=dict)
    funcs: dict[str, FuncDef] = field(default_factory=dict)
    allexport: bool = False
    # containers `docker run --name` started, by name: their facts, for a later `docker exec NAME …`
    # (one table for the whole script, as the daemon has one)
    containers: dict = field(default_factory=dict)
    images: dict = field(default_factory=dict)  # tags `docker build -t` makes → (the project Dockerfile, the --target stage)
    # where relative paths start: None for the script's own folder (else the project root); a CI
    # step's working directory, which is the repository root unless the step names another
    cwd: str | None = None
    choices: dict = field(default_factory=dict)  # what each branch held where a merged array is unknown (shell_choices)
    capture: list | str | None = None  # what `{ …; } > FILE` has printed so far, per path (shell_printf)
    walk: Walk = field(default_factory=Walk)  # the steps this file's walk has taken, one count for all copies (shell_budget)

    def copy(self) -> "State":
        return State(self.ex.copy(), dict(self.env), dict(self.funcs), self.allexport, self.containers, self.images, self.cwd,
                     self.choices, self.capture if not isinstance(self.capture, list) else [list(a) for a in self.capture], self.walk)


class Runner(Builtins, Containers, Branches):
    def __init__(self, ctx, rel: str, emit, *, state: State | None = None, depth: int = 0, quiet: bool = False,
                 anchor: tuple[int, int] | None = None, seen: set | None = None):
        self.ctx, self.rel, self.emit = ctx, rel, emit
        self.st = state or State(Expander())
        self.depth, self.quiet, self.anchor = depth, quiet, anchor
        self.defined: dict[str, FuncDef] = {}
        self.called: set[str] = set()
        self.seen = seen if seen is not None else {rel}
        self.stdin: tuple | None = None  # a function call's here-documents, and the caller's anchor

    # -- entry points --------------------------------------------------------------------------
    def run_text(self, text: str, *, inner_line: int | None = None) -> None:
        """Run a script. `inner_line`: the text is a string inside this file (eval, bash -c) that
        starts on that line; its words keep no file positions."""
        nodes = parse_tree(text)
        if inner_line is not None:
            shift_lines(nodes, inner_line - 1)
        self.run(nodes)

    def finish(self) -> None:
        """Functions the file defines but never calls: read once, arguments unknown."""
        for name, fn in self.defined.items():
            if name not in self.called:
                st = self.st.copy()
                st.ex.positional = None
                Runner(self.ctx, self.rel, self.emit, state=st, depth=self.depth + 1, quiet=self.quiet, seen=self.seen).run([fn.body])

    # -- nodes -------------------------------------------------------------------------------
    def run(self, nodes: list) -> None:
        for n in nodes:
            self.node(n)

    def node(self, n) -> shell_cond.Truth:
        self.st.walk.step()
        if isinstance(n, Simple):
            return self.simple(n)
        if isinstance(n, AndOr):
            return self.and_or(n)
        if isinstance(n, Pipeline):
            t = shell_cond.UNKNOWN
            for c in n.cmds:
                t = self.node(c)
            return t.negate() if n.negated else t
        if isinstance(n, Group):
            if n.writes and self.st.capture is None:
                shell_printf.run_written(self, n)
            elif n.subshell:
                saved = self.st
                self.st = saved.copy()
                self.run(n.body)
                self.st = saved
            else:
                self.run(n.body)
            return shell_cond.UNKNOWN
        if isinstance(n, If):
            self.if_(n)
        elif isinstance(n, Case):
            self.case(n)
        elif isinstance(n, Loop):
            self.loop(n)
        elif isinstance(n, FuncDef):
            self.st.funcs[n.name] = n
            self.defined[n.name] = n
        elif isinstance(n, Bind):
            self.st.ex.bind(n.name, n.value)
        return shell_cond.UNKNOWN

    # -- simple commands ---------------------------------------------------------------------
    def simple(self, n: Simple) -> shell_cond.Truth:
        ex = self.st.ex
        words = n.words
        if all(split_assignment(w) for w in words):
            for w in words:
                self.substituted(w, n)
                self.assign(w, (words[0].start, words[-1].end), len(words), "assign")
            return shell_cond.Truth(True)
        head = words[0].value if words[0].array is None else None
        if head is None and words[0].raw in _DECLARE:
            head = words[0].raw
        if head in _DECLARE:
            self.declare(head, words)
            return shell_cond.Truth(True)
        lead = 0
        while lead < len(words) and split_assignment(words[lead]):
            lead += 1
        fields = list(words[:lead])
        if lead < len(words) and words[lead].raw in ("[", "[[", "test"):
            argv = [ex.expand(w) for w in words[lead:]]
            return shell_cond.evaluate(argv, ex, self._exists)
        for w in words[lead:]:
            expanded = ex.expand_fields(w)
            for g in expanded:
                g.emptied = None
            if not expanded and len(fields) > lead and any(seg.kind == "var" for seg in w.segs):
                fields[-1].emptied = w.raw
            fields += expanded
        if len(fields) == lead:
            return shell_cond.UNKNOWN
        got = program_start(fields)
        prog_i = got[0] if got else lead
        prog = fields[prog_i].value if prog_i < len(fields) else None
        base = (prog or "").rsplit("/", 1)[-1]
        if (n.heredocs or self.stdin) and self.depth < MAX_DEPTH:
            self.heredoc_scripts(fields, prog_i, base, n)
        if prog_i == lead and base in ("printf", "echo") and (self.st.capture is not None or n.writes):
            if self.st.capture is None:  # `printf '%q ' "${cmd[@]}" > run.sh`: a script of one command
                shell_printf.run_written(self, Group([Simple(n.words, n.line, n.end_line)], False, n.line, n.writes, n.end_line))
            elif not n.writes:
                self.st.capture = shell_printf.add(self.st.capture, shell_printf.printed(fields[prog_i:]))
            return shell_cond.UNKNOWN
        if prog_i == lead and self.builtin(base, fields[prog_i:], n):
            return shell_cond.UNKNOWN
        if base in self.st.funcs and self.depth < MAX_DEPTH:
            self.call(base, fields, prog_i, n)
            return shell_cond.UNKNOWN
        if base in SHELLS and self.shell_c(fields, prog_i, n):
            return shell_cond.UNKNOWN
        if base in ("docker", "podman", "nerdctl", "nvidia-docker") and self.docker(fields, prog_i, n):
            return shell_cond.UNKNOWN
        if base in _TOOLS and self.tool_run(fields, prog_i, n):
            return shell_cond.UNKNOWN
        if base == "docker-compose" and self.compose_run(fields, prog_i, n):
            return shell_cond.UNKNOWN
        if base == "tmux" and self.tmux(fields, prog_i, n):
            return shell_cond.UNKNOWN
        if base == "pm2" and (started := shell_wrap.pm2_started([f.value for f in fields], prog_i)) is not None:
            self._hand_on([fields[k] for k in started], "", n)  # the process pm2 starts and keeps alive
            return shell_cond.UNKNOWN
        if (j := shell_wrap.runner_at([f.value for f in fields], lead, prog_i)) is not None and self.handed_on(fields, j, n):
            return shell_cond.UNKNOWN
        if (not is_known(prog) or prog.startswith("$")) and (k := shell_wrap.unknown_runner_serve([f.value for f in fields], prog_i)) is not None:
            self._emit(fields[k:], n, None, ("container exec",))  # `$RUNNER exec $IMAGE vllm serve …`
            return shell_cond.UNKNOWN
        self._emit(fields, n)
        return shell_cond.UNKNOWN

    def substituted(self, w: Word, n: Simple) -> None:
        """`cid=$(docker run -d … vllm/vllm-openai …)`, `if ! out=$("${CMD[@]}")`: a command whose output
        is kept still runs, in a subshell (pulsar-gb10-vllm-stack's cluster/start-cluster.sh, eval68)."""
        for seg in w.segs:
            inner = seg.arg[2:-1] if seg.kind == "cmd" and seg.arg.startswith("$(") and not seg.arg.startswith("$((") else ""
            if _SUBSTITUTED_RUN.search(inner):
                self.child(inner, w.line, n, state=self.st.copy())

    def heredoc_scripts(self, fields: list[Word], prog_i: int, base: str, n: Simple) -> None:
        """The here-documents a shell runs or a script file receives (shell_heredoc.py), read as
        scripts at their own lines — with the file's offsets when the body is the file's own text."""
        text = self.ctx.read(self.rel) or ""
        # a command in a function with no here-document of its own reads the call's (`run_remote
        # "$HOST" <<'EOF'` whose body runs `ssh "$1" bash -s`): its launches sit at the body's own
        # lines, which name them better than the calls that lead there
        heredocs, anchor = (n.heredocs, self.anchor) if n.heredocs or not self.stdin else self.stdin
        for h in shell_heredoc.fed_scripts(fields, prog_i, base, heredocs, n.writes):
            if heredocs is not n.heredocs and text[h.start:h.end] == h.text:
                anchor = None
            st = self.st.copy()
            if h.quoted:
                st.ex.positional = None  # the reading shell's own arguments, not the writer's
            r = type(self)(self.ctx, self.rel, _remote(self.emit) if base == "ssh" else self.emit, state=st,
                           depth=self.depth + 1, quiet=self.quiet, anchor=anchor, seen=self.seen)
            body = shell_heredoc.as_written_out(h)  # what the writer's expansion leaves (`\\` → `\`)
            try:
                if n.words[0].start >= 0 and text[h.start:h.end] == h.text:
                    nodes = parse_tree(text[:h.start] + body, h.start, h.line)
                else:
                    nodes = parse_tree(body)
                    shift_lines(nodes, h.line - 1)
                r.run(nodes)
            except (ShellSyntaxError, RecursionError):
                continue
            r.finish()

    def handed_on(self, fields: list[Word], j: int, n: Simple) -> bool:
        """`sbatch --wrap "…"`, `ssh HOST "…"`, `flock LOCK -c "…"`: the command another shell runs
        (engine/scan/shell_wrap.py)."""
        got = shell_wrap.command_words([f.value for f in fields], j, [f.shape for f in fields])
        if got is None:
            return False
        a, b, prefix = got
        rest = fields[a:b]
        outer = self.emit
        if (fields[j].value or "").rsplit("/", 1)[-1] in ("ssh", "pdsh"):
            self.emit = _remote(outer)
        try:
            self._hand_on(rest, prefix, n)
        finally:
            self.emit = outer
        return True

    def _hand_on(self, rest: list[Word], prefix: str, n: Simple) -> None:
        if len(rest) == 1:
            text = rest[0].text if rest[0].text is not None else rest[0].raw
            self.child(text[len(prefix):] if prefix and text.startswith(prefix) else text, rest[0].line, n, state=self.st.copy())
        elif not ((rest[0].value or "").rsplit("/", 1)[-1] in SHELLS and self.shell_c(rest, 0, n)):
            self._emit(rest, n)

    def _emit(self, fields: list[Word], n: Simple, container: dict | None = None, via: tuple = ()) -> None:
        if self.quiet:
            return
        if (swept := shell_wrap.sweep_serve(fields)) is not None and self.depth < MAX_DEPTH:  # the server a sweep starts
            st = self.st.copy()
            st.ex.positional = None  # its `"$@"`: the sweep's options this walk cannot see
            self.child(swept, fields[0].line, n, state=st, container=container)
            return
        line, end = self.anchor or (n.line, n.end_line)
        via += ("loop",) if getattr(self, "loops", 0) else ()  # a `for` over several items runs it once per item
        for argv in shell_choices.alternatives(fields, self.st.choices) if self.st.choices else [fields]:
            self.emit(Candidate(argv, line, end, self.st.ex, dict(self.st.env), container, via if argv is fields else via + ("branch",),
                                (n.line, n.end_line)))

    # -- files -------------------------------------------------------------------------------
    def _resolve(self, ref: str) -> str | None:
        ref = ref.strip().strip("'\"")
        folder = PurePosixPath(self.rel).parent.as_posix()
        ref = ref.replace(self.st.ex.script_dir_hole, folder)
        if "\ue000" in ref or ref.startswith(("~", "/")):
            return None
        return self.ctx.resolve_ref(self.rel, ref)

    def _exists(self, path: str) -> bool | None:
        return True if self._resolve(path) is not None else None


def _remote(emit):
    """Launches another machine runs (`ssh HOST "…"`, a here-document `ssh HOST bash -s` reads): that
    machine's vLLM is none of this project's installs (engine/check/site_release.py)."""
    def remote(c: Candidate) -> None:
        c.via = ("ssh",) + c.via
        emit(c)
    return remote
