"""The commands of a script that start a container and run a command in it: `docker run`, `docker
exec`, `docker compose run`, the launchers engine/scan/launch_tools.py reads (`apptainer exec`,
`kubectl run`, `hf jobs run`), and `docker build`, whose tag names a project Dockerfile for a later
run. A mixin of shell_run.Runner, beside shell_builtins.Builtins."""
from __future__ import annotations

import os
import posixpath
from typing import TYPE_CHECKING, Any

from vllm_kb.engine.scan import docker_run, own_images
from vllm_kb.engine.scan.shell import SHELLS, Word
from vllm_kb.engine.scan.shell_expand import is_known
from vllm_kb.engine.scan.shell_tree import Simple
from vllm_kb.engine.scan.site import Setting

if TYPE_CHECKING:
    from vllm_kb.engine.scan.shell_run import State


# the engines that start a container with its image's environment and its own -e options only (Apptainer,
# which passes the host's environment in, is not one of them)
_OWN_ENV = frozenset({"docker", "podman", "nerdctl", "nvidia-docker"})


class Containers:
    if TYPE_CHECKING:  # what shell_run.Runner, the class this is mixed into, provides
        ctx: Any
        rel: str
        st: State
        quiet: bool

        def shell_c(self, fields: list[Word], i: int, n: Simple, container: dict | None = None) -> bool: ...
        def _emit(self, fields: list[Word], n: Simple, container: dict | None = None, via: tuple = ()) -> None: ...

    def docker(self, fields: list[Word], i: int, n: Simple) -> bool:
        run = docker_run.find(fields, i)
        if run is None:
            return self.docker_build(fields, i) or self.docker_exec(fields, i, n) or self.compose_run(fields, i, n)
        return self.container_run(run, n)

    def tool_run(self, fields: list[Word], i: int, n: Simple) -> bool:
        """`hf jobs run`, `apptainer exec|run`, `singularity exec|run`, `kubectl run`
        (engine/scan/launch_tools.py): a container launch like `docker run`'s."""
        from vllm_kb.engine.scan import launch_tools

        run = launch_tools.find(fields, i)
        return run is not None and self.container_run(run, n)

    def compose_run(self, fields: list[Word], i: int, n: Simple) -> bool:
        """`docker compose run [opts] SERVICE CMD …`: CMD runs in that service's container, whose
        image and settings are the compose file's (unknown here, like `docker exec`'s)."""
        from vllm_kb.engine.scan import launch_tools

        got = launch_tools.find_compose_run(fields, i)
        if got is None:
            return False
        run, _service = got
        argv = (run.entrypoint or []) + list(run.argv)
        saved, self.st = self.st, self.st.copy()
        for k, val, _opt in run.env:
            self.st.ex.vars[k] = val.value or "" if val is not None else ""
            self.st.ex.exported.add(k)
            if val is not None:
                self.st.env[k] = Setting(k, val.value, True, self.rel, val.line, k, val.raw, "cli")
        head = (argv[0].value or "").rsplit("/", 1)[-1] if argv else ""
        if not (head in SHELLS and self.shell_c(argv, 0, n, None)):
            self._emit(argv, n, None, ("docker compose run",))
        self.st = saved
        return True

    def container_run(self, run: docker_run.DockerRun, n: Simple) -> bool:
        from vllm_kb.engine.scan.image_env import env_command
        from vllm_kb.engine.scan.images import container_command, local_entrypoint

        facts = dict(run.facts, image=run.image.value if run.image is not None else None)
        if run.run_word is not None:
            # where an option of the container's goes (L40's --ipc=host), this script's bytes: engine/fix/container_edits.py
            facts["run_at"] = (self.rel, run.run_word.start, run.run_word.end, run.run_word.line)
        if run.name:
            self.st.containers[run.name] = facts
        built = (self.st.images.get(facts["image"]) if facts["image"] else None) or own_images.built(self.ctx, self.rel, run)
        asked = run.entrypoint  # `--entrypoint`: the image's own script does not run
        if built is not None and not run.entrypoint and run.image is not None:
            # an image this script builds: its own ENTRYPOINT comes first, as `docker run` does it
            run.entrypoint = local_entrypoint(self.ctx.read(built[0]), self.ctx.untagged_image_release, run.image.line, built[1])
        if built is not None and built[1] is None and (kept := own_images.base_of(self.ctx, dockerfile=built[0])):
            facts["image"], facts["image_at"] = kept[0], kept[1:]  # what runs in it is its base image's vLLM
        if not run.entrypoint and run.image is not None and all((w.value or "").startswith("-") for w in run.argv) \
                and own_images.runs_other_program(self.ctx, run.image.value):
            return True  # the project's own app built on vLLM's image, run with its own command (engine/scan/own_images.py)
        argv = container_command(run, self.ctx.untagged_image_release)
        if "repeats_entrypoint" in run.facts:
            facts["repeats_entrypoint"] = run.facts["repeats_entrypoint"]
        if not run.entrypoint and not run.argv and run.image is not None:  # an image its env configures (RunPod's worker)
            argv = env_command(run.image.value, [(k, v) for k, v, _ in run.env if v is not None], run.image.line,
                               self.ctx.catalog) or argv
        state = self.st.copy()
        if run.facts.get("program") in _OWN_ENV:
            state.env = {}  # the host shell's exports stay outside: only -e / --env reach the container
        for name, val, _opt in run.env:
            if val is not None:
                state.ex.vars[name] = val.value or ""
                state.ex.exported.add(name)
                state.env[name] = Setting(name, val.value, True, self.rel, val.line, name, val.raw, "cli")
            elif name in self.st.ex.vars:
                state.env[name] = Setting(name, self.st.ex.vars[name], is_known(self.st.ex.vars[name]), self.rel, n.line, name, name, "cli")
        if built is not None and built[1] is None and asked is None and not self.quiet:
            own_images.note_run(self.ctx, self.rel, (n.line, n.end_line), run, built[0], state.env)
        if argv is None:
            return True
        saved = self.st
        self.st = state
        head = (argv[0].value or "").rsplit("/", 1)[-1] if argv else ""
        if not (head in SHELLS and self.shell_c(argv, 0, n, facts)):
            self._emit(argv, n, facts, ("docker run",))
        self.st = saved
        return True

    def docker_build(self, fields: list[Word], i: int) -> bool:
        """`docker build -t TAG [-f FILE] CONTEXT`: TAG comes from a project Dockerfile (paths are
        the shell's, relative to the script's folder, else to the project's root; a CI step's are
        relative to its working directory)."""
        got = docker_run.find_build(fields, i)
        if got is None:
            return False
        tags, file, context, target = got
        path = file if file is not None else posixpath.join(context, "Dockerfile")
        for base in (posixpath.dirname(self.rel), "") if self.st.cwd is None else (self.st.cwd,):
            rel = posixpath.normpath(posixpath.join(base, path)) if not path.startswith("/") else ""
            if rel and not rel.startswith("..") and os.path.isfile(os.path.join(str(self.ctx.root), rel)) \
                    and self.ctx.read(rel) is not None:
                for tag in tags:
                    self.st.images[tag] = (rel, target)
                break
        return True

    def docker_exec(self, fields: list[Word], i: int, n: Simple) -> bool:
        """`docker exec NAME CMD …`: CMD runs in the container the script (else another project script)
        started as NAME (its GPUs, IPC and shared memory); one the project does not start is of unknown make."""
        got = docker_run.find_exec(fields, i)
        if got is None:
            return False
        name, at, env = got
        known = self.st.containers.get(name)
        if known is None:  # started by another of the project's scripts (engine/scan/named_containers.py)
            from vllm_kb.engine.scan.named_containers import started_elsewhere

            known = started_elsewhere(self.ctx, self.rel, name, type(self))
        facts = dict(known) if known is not None else None  # a container started outside the project: not known
        saved, self.st = self.st, self.st.copy()
        for k, val, _opt in env:
            self.st.ex.vars[k] = val.value or "" if val is not None else ""
            self.st.ex.exported.add(k)
            if val is not None:
                self.st.env[k] = Setting(k, val.value, True, self.rel, val.line, k, val.raw, "cli")
        argv = fields[at:]
        head = (argv[0].value or "").rsplit("/", 1)[-1] if argv else ""
        if not (head in SHELLS and self.shell_c(argv, 0, n, facts)):
            self._emit(argv, n, facts, ("docker exec",))
        self.st = saved
        return True
