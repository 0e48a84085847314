"""Container launchers other than `docker run`, read into the same `DockerRun` shape so the shell
model treats them alike: `hf jobs run` (Hugging Face Jobs), `apptainer|singularity exec|run`,
`kubectl run` and `docker compose run`. Each knows whether the command after the image replaces the
image's entrypoint (`hf jobs run`, `apptainer exec`, `kubectl run --command`) or is handed to it
(`apptainer run`, `kubectl run -- args`)."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.docker_run import DockerRun, _value_word
from vllm_kb.engine.scan.shell import Word

# options that take a separate value (`--opt=value` is one word)
_HF_TAKES = {"--flavor", "-e", "--env", "-s", "--secrets", "--env-file", "--secrets-file", "--timeout", "--namespace",
             "--token", "--expose", "-l", "--label", "-v", "--volume"}
_APPTAINER_TAKES = {"-B", "--bind", "--mount", "-H", "--home", "-W", "--workdir", "--pwd", "-o", "--overlay", "--env",
                    "--env-file", "--security", "--network", "--network-args", "--app", "--hostname", "-S", "--scratch",
                    "--fusemount", "--dns", "--cpus", "--memory", "--memory-swap", "--drop-caps", "--add-caps",
                    "--apply-cgroups", "--config", "--pid-file", "--oci", "--cwd"}
_KUBECTL_TAKES = {"--image", "--env", "--port", "-l", "--labels", "--limits", "--requests", "--overrides", "--restart",
                  "-n", "--namespace", "--image-pull-policy", "--serviceaccount", "--annotations",
                  "--pod-running-timeout", "--context", "--cluster", "--kubeconfig", "-o", "--output", "--timeout"}
_COMPOSE_TAKES = {"-e", "--env", "--entrypoint", "-l", "--label", "-p", "--publish", "-v", "--volume", "-w", "--workdir",
                  "-u", "--user", "--name", "--cap-add", "--cap-drop", "--pull"}
_COMPOSE_GLOBAL = {"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory", "--ansi",
                   "--progress", "--parallel"}
_FLAVOR_GPUS = re.compile(r"x(\d+)$")


def find(words: list[Word], start: int) -> DockerRun | None:
    """`words[start]` is the program; the container run it starts, or None."""
    vals = [w.value for w in words]
    base = (vals[start] or "").rsplit("/", 1)[-1]
    nxt = vals[start + 1:start + 3]
    if base in ("hf", "huggingface-cli") and nxt == ["jobs", "run"]:
        return _hf_jobs(words, vals, start + 3)
    if base in ("apptainer", "singularity") and nxt[:1] in (["exec"], ["run"]):
        return _apptainer(words, vals, start + 2, replaces=nxt[0] == "exec")
    if base == "kubectl" and nxt[:1] == ["run"]:
        return _kubectl(words, vals, start + 2)
    return None


def find_compose_run(words: list[Word], start: int) -> tuple[DockerRun, str] | None:
    """`docker compose run [opts] SERVICE [CMD …]` / `docker-compose run …`: the command and the
    service's name (its image and settings are the compose file's, not read here)."""
    vals = [w.value for w in words]
    i, n = start + 1, len(words)
    if (vals[start] or "").rsplit("/", 1)[-1] == "docker":
        if i >= n or vals[i] != "compose":
            return None
        i += 1
    while i < n and (vals[i] or "").startswith("-"):
        i += 2 if vals[i] in _COMPOSE_GLOBAL else 1
    if i >= n or vals[i] != "run":
        return None
    out = DockerRun(None, -1, [], None, facts={})
    at = _options(words, vals, i + 1, _COMPOSE_TAKES, out)
    if at is None or at + 1 >= n or vals[at] is None:
        return None
    out.argv = words[at + 1:]
    return out, vals[at] or ""


def _options(words: list[Word], vals: list, i: int, takes: set[str], out: DockerRun, unknown_operand: bool = False) -> int | None:
    """Past the launcher's options up to its first operand, recording env, --entrypoint and the GPUs.
    `unknown_operand`: a word of unknown value followed by a plain word is the operand (the image
    before its command), not an option."""
    n = len(words)
    while i < n:
        v = vals[i]
        if v is None:
            if unknown_operand and (i + 1 < n and vals[i + 1] and not vals[i + 1].startswith("-") or _image(words[i])):
                return i
            if unknown_operand and i + 1 < n and (vals[i + 1] or "").startswith("-") and any(_image(w) for w in words[i + 1:]):
                i += 1  # `{{ '--nv' if gpus }}`, `$NV`: a switch or nothing, before an image named later
                continue
            return None
        if v == "--":
            return i + 1
        if not v.startswith("-") or v == "-":
            return i
        opt, eq, inline = v.partition("=")
        took = opt in takes and not eq
        value = inline if eq else (vals[i + 1] if took and i + 1 < n else None)
        value_word = words[i + 1] if took and i + 1 < n else words[i]
        if opt in ("-e", "--env") and value and "=" in value:
            name, _, val = value.partition("=")
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                out.env.append((name, _value_word(value_word, val), words[i]))
                out.facts.setdefault("env_names", []).append(name)
        elif opt == "--entrypoint" and value:
            out.entrypoint = [_value_word(value_word, value)]
        elif opt == "--flavor" and value and (m := _FLAVOR_GPUS.search(value)):
            out.facts["gpu_count"] = int(m.group(1))
        elif opt == "--limits" and value and (m := re.search(r"nvidia\.com/gpu=(\d+)", value)):
            out.facts["gpu_count"] = int(m.group(1))
        elif opt == "--overrides":
            out.facts["shm_size"] = "unknown"  # the pod spec it patches may mount /dev/shm
        elif opt == "--command":
            out.facts["command"] = True
        i += 2 if took else 1
    return None


# the file `apptainer pull` writes for a Docker image: `<name>_<tag>.sif` (vllm-openai_v0.9.2.sif)
_PULLED = re.compile(r"^vllm-openai_([A-Za-z0-9][\w.-]*)\.sif$")


def _image(word: Word) -> str | None:
    """The image an operand names: `docker://vllm/vllm-openai:v0.9.2` → the Docker reference; a
    local `.sif` file names no release, unless it is the file `apptainer pull` made of vLLM's image."""
    v = word.value or ""
    for scheme in ("docker://", "oras://", "library://"):
        if v.startswith(scheme):
            return v[len(scheme):] if scheme == "docker://" else None
    base = (v or getattr(word, "text", None) or "").rsplit("/", 1)[-1]  # `{{ cache }}/vllm-openai_v0.9.2.sif`: its name is known
    if (m := _PULLED.match(base)) is not None:
        return f"vllm/vllm-openai:{m.group(1)}"  # `apptainer pull docker://vllm/vllm-openai:v0.9.2` names it so
    return None if v.endswith((".sif", ".simg", ".img")) or "/" not in v and ":" not in v else v


def _hf_jobs(words: list[Word], vals: list, i: int) -> DockerRun | None:
    """`hf jobs run [opts] IMAGE [CMD …]`: CMD replaces the image's entrypoint (the Jobs API's
    `command`); its /dev/shm is the platform's, not written in the project."""
    out = DockerRun(None, -1, [], None, facts={"tool": "hf jobs", "shm_size": "unknown"})
    at = _options(words, vals, i, _HF_TAKES, out)
    if at is None or at >= len(words):
        return None
    out.image, out.image_index, out.argv = words[at], at, words[at + 1:]
    out.facts["replaces_entrypoint"] = bool(out.argv)
    return out


def _apptainer(words: list[Word], vals: list, i: int, replaces: bool) -> DockerRun | None:
    """`apptainer exec [opts] IMAGE CMD …` runs CMD; `apptainer run IMAGE ARGS` the image's
    runscript (a Docker image's ENTRYPOINT + ARGS). The container shares the host's IPC namespace
    and /dev/shm unless `--ipc`/`--containall` is given."""
    out = DockerRun(None, -1, [], None, facts={"tool": "apptainer"})
    # an image the files do not name (`"${container_ref}"`) is still the operand before the command
    at = _options(words, vals, i, _APPTAINER_TAKES, out, unknown_operand=True)
    if at is None or at >= len(words):
        return None
    flags = {v for v in vals[i:at] if v}
    if flags & {"--ipc", "-i", "--containall", "-C"}:
        out.facts["shm_size"] = "unknown"  # its own IPC namespace and /dev: not Docker's 64 MiB either
    else:
        out.facts["ipc"] = "host"
    image = _image(words[at])
    out.image = _value_word(words[at], image) if image else None
    out.image_index, out.argv = at, words[at + 1:]
    out.facts["replaces_entrypoint"] = replaces or image is None
    if replaces and not out.argv:
        return None
    return out


def _kubectl(words: list[Word], vals: list, i: int) -> DockerRun | None:
    """`kubectl run NAME --image=IMG [--command] [-- ARGS …]`: ARGS are the container's args (the
    image's entrypoint runs them), or its command with `--command`. A pod's /dev/shm is the
    runtime's 64 MiB."""
    n = len(words)
    if i >= n or vals[i] is None or vals[i].startswith("-"):
        return None
    out = DockerRun(None, -1, [], None, facts={"tool": "kubernetes"})
    j, image = i + 1, None
    while j < n and vals[j] != "--":
        v = vals[j] or ""
        opt, eq, inline = v.partition("=")
        if opt == "--image":
            image = _value_word(words[j] if eq else words[j + 1] if j + 1 < n else words[j], inline if eq else vals[j + 1] or "")
        _options(words[j:j + 2], vals[j:j + 2], 0, _KUBECTL_TAKES, out)
        j += 2 if opt in _KUBECTL_TAKES and not eq else 1
    if image is None:
        return None
    out.image, out.image_index = image, j
    out.argv = words[j + 1:] if j < n else []
    out.facts["replaces_entrypoint"] = bool(out.facts.pop("command", False)) and bool(out.argv)
    return out
