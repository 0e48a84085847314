"""`docker run` / `podman run` in a script: the container's options before the image (env, GPUs,
IPC, shared memory — kept as facts for the launch checks), the image, and the argv the container
runs (the image's entrypoint, or --entrypoint, followed by the arguments after the image)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from vllm_kb.engine.scan.images import is_local_image
from vllm_kb.engine.scan.shell import Word

# options of `docker run` / `podman run` that take a value (`--opt value`; `--opt=value` is one word)
_TAKES = {
    "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--cap-add", "--cap-drop", "--cgroup-parent",
    "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-shares", "-c", "--cpus", "--cpuset-cpus",
    "--cpuset-mems", "--device", "--device-cgroup-rule", "--dns", "--dns-option", "--dns-search", "--domainname",
    "--entrypoint", "-e", "--env", "--env-file", "--expose", "--gpus", "--group-add", "-h", "--hostname",
    "--health-cmd", "--health-interval", "--health-retries", "--health-start-period", "--health-timeout", "--ip",
    "--ip6", "--ipc", "--isolation", "-l", "--label", "--label-file", "--link", "--log-driver", "--log-opt",
    "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount",
    "--name", "--network", "--net", "--network-alias", "--pid", "--pids-limit", "--platform", "-p", "--publish",
    "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout",
    "--storage-opt", "--sysctl", "--tmpfs", "-u", "--user", "--ulimit", "--userns", "--uts", "-v", "--volume",
    "--volumes-from", "-w", "--workdir", "--hooks-dir", "--secret", "--uidmap", "--gidmap", "--arch", "--os",
}
# podman's and nerdctl's own (podman-run(1), nerdctl run --help)
_TAKES |= {
    "--pod", "--cgroups", "--init-path", "--requires", "--chrootdirs", "--passwd-entry", "--group-entry", "--image-volume",
    "--timeout", "--umask", "--sdnotify", "--seccomp-policy", "--preserve-fds", "--shm-size-systemd", "--device-read-bps",
    "--device-write-bps", "--device-read-iops", "--device-write-iops", "--health-on-failure", "--health-startup-cmd",
    "--cpu-rt-period", "--cpu-rt-runtime", "--blkio-weight-device", "--oom-score-adj", "--kernel-memory", "--variant",
    "--decryption-key", "--pidfile", "--conmon-pidfile", "--personality", "--systemd", "--cosign-key", "--verify",
    "--snapshotter", "--ipfs-address", "--rootfs-overlay", "--hostuser", "--env-merge", "--gpus-cdi",
}
# options of the program itself, before `run`: `nerdctl -n k8s.io run`, `podman --root /x run`,
# `docker --context remote run` (those that take a value)
_GLOBAL_TAKES = {
    "-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
    "--root", "--runroot", "--url", "--connection", "--cgroup-manager", "--storage-driver", "--storage-opt", "--conmon",
    "--network-cmd-path", "--runtime", "--tmpdir", "--events-backend", "--identity", "--module", "-n", "--namespace",
    "--address", "-a", "--snapshotter", "--data-root", "--cni-path", "--cni-netconfpath", "--hosts-dir",
}
_SHORT_FLAGS = set("dirtPq")
# an unquoted `${X:+…}`: nothing at all when X is empty or unset
_MAY_VANISH = re.compile(r"\$\{\w+:?\+[^{}\s]*\}")


@dataclass
class DockerRun:
    image: Word | None
    image_index: int
    argv: list[Word]
    entrypoint: list[Word] | None
    env: list[tuple[str, Word | None, Word]] = field(default_factory=list)  # (name, value word or None, option word)
    facts: dict = field(default_factory=dict)  # gpus, gpu_count, ipc, shm_size, runtime, env_file
    name: str | None = None  # --name: what a later `docker exec NAME …` runs in
    run_word: Word | None = None  # the `run` of `docker run`: an option is added right after it (engine/fix/container_edits.py)


def find(words: list[Word], start: int) -> DockerRun | None:
    """`words[start]` is the program (docker, podman, nerdctl, nvidia-docker). None when this is not `… run`."""
    vals = [w.value for w in words]
    n = len(words)
    i = start + 1
    while i < n and (opt := vals[i]) is not None and opt.startswith("-") and opt != "--":
        i += 2 if opt in _GLOBAL_TAKES else 1
    if i < n and vals[i] == "container":
        i += 1
    if i >= n or vals[i] != "run":
        return None
    i += 1
    out = DockerRun(None, -1, [], None, run_word=words[i - 1])
    # which program starts it: `nvidia-docker` (the NVIDIA runtime) and podman's hooks may hand GPUs
    # to a container that asks for none (engine/check/launch_facts.py gpu_request)
    out.facts["program"] = (vals[start] or "").rsplit("/", 1)[-1]
    while i < n:
        v = vals[i]
        if v is None:
            nxt = vals[i + 1] if i + 1 < n else None
            if words[i].raw.startswith("-") or _MAY_VANISH.fullmatch(words[i].raw) and i + 1 < n \
                    and (nxt if nxt is not None else words[i + 1].raw).startswith("-"):
                out.facts["options_unknown"] = True
                i += 1  # `${DETACH:+$DETACH} --label …`: an option or nothing, not the image (pulsar-gb10-vllm-stack)
                continue
            if _image_after(vals, i + 1):
                out.facts["options_unknown"] = True
                i += 1  # `for e in …; do CMD+=(-e "$e"); done` before `"$IMAGE"`: options of unknown count
                continue
            break  # an unknown image ("${IMAGE}")
        if v == "--":
            i += 1
            break
        if not v.startswith("-") or v == "-":
            break
        opt, eq, inline = v.partition("=")
        if opt.startswith("--") or len(opt) == 2:
            takes = opt in _TAKES and not eq
            value_word = words[i + 1] if takes and i + 1 < n else None
            value = inline if eq else (value_word.value if value_word is not None else None)
            _record(out, opt, value, value_word if takes else words[i], words[i], inline if eq else None)
            i += 2 if takes else 1
            continue
        # combined short flags: -it, -itd; the last may take a value (-itp 8000:8000 is rare)
        last = "-" + opt[-1]
        if "d" in opt[1:] and all(c in _SHORT_FLAGS for c in opt[1:-1]):
            out.facts["detach"] = True
        if all(c in _SHORT_FLAGS for c in opt[1:-1]) and last in _TAKES:
            value_word = words[i + 1] if i + 1 < n else None
            _record(out, last, value_word.value if value_word else None, value_word, words[i], None)
            i += 2
            continue
        i += 1
    if i >= n:
        return None
    out.image, out.image_index = words[i], i
    out.argv = words[i + 1:]
    return out


def _image_after(vals: list, j: int) -> bool:
    """Whether the first known word from `j` on that is not an option names a vLLM image: then the
    unknown words before it are options (nobody runs an image with a vLLM image's name as its command)."""
    from vllm_kb.engine.scan.images import is_vllm_like_image

    while j < len(vals) and (vals[j] is None or vals[j].startswith("-")):
        j += 1
    return j < len(vals) and is_vllm_like_image(vals[j])


# options that hand a container devices (GPUs among them, or all of the host's): `--gpus`, a runtime
# (`--runtime nvidia` mounts what the image's NVIDIA_VISIBLE_DEVICES names), `--device` (a node, or a
# CDI name `nvidia.com/gpu=all`), `--privileged`
_DEVICE_OPTS = frozenset({"--gpus", "--runtime", "--device", "--privileged", "--gpus-cdi", "--cdi-device"})


# device nodes only another platform's driver creates: AMD's Kernel Fusion Driver (/dev/kfd), which every ROCm
# container is handed (ROCm's docker guide: `--device=/dev/kfd --device=/dev/dri`); Ascend's /dev/davinci*
_DEVICE_NODES = ((re.compile(r"^/dev/kfd(?::|$)"), "rocm"), (re.compile(r"^/dev/davinci(?:\d+|_manager)(?::|$)"), "npu"))


def device_node_platform(value: str) -> str | None:
    """The platform a `--device` node (or a compose `devices:` entry) belongs to: /dev/kfd → rocm."""
    return next((plat for rx, plat in _DEVICE_NODES if rx.match(value.strip())), None)


def _record(out: DockerRun, opt: str, value: str | None, value_word: Word | None, opt_word: Word, inline: str | None):
    f = out.facts
    if opt in _DEVICE_OPTS:
        f.setdefault("device_opts", []).append(opt)
    if opt == "--device" and value and (plat := device_node_platform(value)):
        f["device_platform"] = (plat, value.split(":")[0])  # the site's platform (check/facts.py), over --gpu's GPU
    if opt in ("-e", "--env"):
        if value is None:  # `-e HF_TOKEN=$HF_TOKEN` with the value unknown here: its name still counts
            m = re.match(r"[A-Za-z_][A-Za-z0-9_]*(?==|$)", (value_word.raw if value_word is not None else "").strip("'\""))
            if m:
                f.setdefault("env_names", []).append(m.group(0))
            return
        name, eq, val = value.partition("=")
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            out.env.append((name, _value_word(value_word or opt_word, val) if eq else None, value_word or opt_word))
            f.setdefault("env_names", []).append(name)  # a secret's name too: its value is never kept
    elif opt == "--env-file" and value:
        f.setdefault("env_file", []).append(value)
        f["env_opaque"] = True  # variables the audit does not read
    elif opt in ("-d", "--detach"):
        f["detach"] = True  # the shell goes on while the container runs: a later launch runs beside it
    elif opt == "--gpus":
        f["gpus"] = value
        f["gpu_count"] = gpu_count(value)
    elif opt == "--ipc":
        f["ipc"] = value
    elif opt == "--shm-size":
        f.setdefault("shm_size", value)
    elif opt in ("-v", "--volume", "--mount", "--tmpfs") and value:
        size = shm_mount("tmpfs" if opt == "--tmpfs" else "mount" if opt == "--mount" else "volume", value)
        if size is not None:
            f["shm_size"] = size  # a mount at /dev/shm replaces the --shm-size one, whichever comes first
        elif opt != "--tmpfs":
            add_mount(f, *mount_spec(opt, value))
    elif opt == "--name" and value:
        out.name = value
        f["name"] = value  # how a container on the same network reaches it (engine/check/endpoints.py)
    elif opt in ("-p", "--publish") and value:
        if (port := publish_spec(value)) is not None:
            f.setdefault("ports", []).append(port)
    elif opt in ("--network", "--net") and value:
        f["network"] = value
    elif opt == "--runtime":
        f["runtime"] = value
    elif opt == "--entrypoint" and value is not None:
        out.entrypoint = [_value_word(value_word or opt_word, value)]
    elif opt == "--device" and value and value.startswith("nvidia.com/gpu"):
        f["gpus"] = value
        f["gpu_count"] = gpu_count(value.split("=", 1)[1] if "=" in value else "all")


def publish_spec(spec) -> list | None:
    """`-p 8080:8000`, `-p 127.0.0.1:8080:8000/tcp`, compose's `"8080:8000"` or `{published, target}`:
    [host port, container port] (a port given alone is published as itself); None when not numbers."""
    if isinstance(spec, dict):
        host, target = spec.get("published"), spec.get("target")
    else:
        parts = str(spec).split("/")[0].rsplit(":", 2)
        target = parts[-1]
        host = parts[-2] if len(parts) > 1 else parts[-1]
    try:
        return [int(str(host)), int(str(target))]
    except (TypeError, ValueError):
        return None


def mount_spec(opt: str, value) -> tuple[str | None, str | None]:
    """(source, target) of `-v SRC:DST[:opts]` or `--mount type=…,source=…,target=…` (a compose
    short volume is `-v`'s form); (None, None) when the value is neither."""
    if not isinstance(value, str):
        return None, None
    if opt == "--mount":
        kv = dict(p.split("=", 1) for p in value.split(",") if "=" in p)
        return kv.get("source") or kv.get("src"), kv.get("target") or kv.get("destination") or kv.get("dst")
    parts = value.split(":")
    return (parts[0], parts[1]) if len(parts) >= 2 else (None, None)


def add_mount(facts: dict, source: str | None, target: str | None) -> None:
    """Record what a container path holds (`mounts`: target → names of the source), so a model
    given as that path can be known by the volume's or the host folder's name."""
    if source and target and target.startswith("/"):
        # compose's `${PWD}/models`: the folder compose runs in, read as the compose file's own
        source = re.sub(r"^\$(?:\{PWD\}|PWD\b)", ".", source)
        facts.setdefault("mounts", {}).setdefault(target.rstrip("/") or "/", []).append(source)


# options of `docker build` that take a value (the tags and the Dockerfile are read; build_args reads
# the --build-arg values through the same table)
BUILD_TAKES = frozenset({
    "-f", "--file", "-t", "--tag", "--build-arg", "--target", "--platform", "--network", "--label", "--cache-from",
    "--cache-to", "--secret", "--ssh", "-o", "--output", "--progress", "--iidfile", "--shm-size", "--ulimit", "--add-host",
    "--build-context", "--metadata-file", "--builder", "-m", "--memory", "--cpu-shares", "--cpuset-cpus", "--isolation",
    "--annotation", "--attest", "--provenance", "--sbom", "--allow", "--cgroup-parent", "--memory-swap", "--cpu-period",
    "--cpu-quota",
})


def find_build(words: list[Word], start: int) -> tuple[list[str], str | None, str, str | None] | None:
    """`docker build [options] CONTEXT` / `docker buildx build …`: its tags, the Dockerfile named by
    -f (None: CONTEXT/Dockerfile), the context and the --target stage, or None when this is not a build."""
    vals = [w.value for w in words]
    n, i = len(words), start + 1
    if i < n and vals[i] in ("buildx", "image"):
        i += 1
    if i >= n or vals[i] != "build":
        return None
    i += 1
    tags: list[str] = []
    file, context, target = None, None, None
    while i < n:
        v = vals[i]
        if v is None:
            return None
        opt, eq, inline = v.partition("=")
        if v.startswith("-") and v != "-":
            takes = opt in BUILD_TAKES and not eq
            value = inline if eq else (vals[i + 1] if takes and i + 1 < n else None)
            if opt in ("-t", "--tag") and value:
                tags.append(value)
            elif opt in ("-f", "--file") and value:
                file = value
            elif opt == "--target" and value:
                target = value
            i += 2 if takes else 1
            continue
        context = v
        i += 1
    return (tags, file, context, target) if tags and context else None


# options of `docker exec` that take a value
_EXEC_TAKES = {"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"}


def find_exec(words: list[Word], start: int) -> tuple[str, int, list[tuple[str, Word | None, Word]]] | None:
    """`docker exec [options] NAME CMD …` (words[start] is the program): the container's name, the
    index of CMD and the variables -e sets, or None when this is not `… exec`."""
    vals = [w.value for w in words]
    n, i = len(words), start + 1
    if i < n and vals[i] == "container":
        i += 1
    if i >= n or vals[i] != "exec":
        return None
    i += 1
    env: list[tuple[str, Word | None, Word]] = []
    while i < n and (v := vals[i]) is not None and v.startswith("-"):
        opt, eq, inline = v.partition("=")
        takes = opt in _EXEC_TAKES and not eq
        value = inline if eq else (vals[i + 1] if takes and i + 1 < n else None)
        if opt in ("-e", "--env") and value and "=" in value:
            k, _, v = value.partition("=")
            env.append((k, _value_word(words[i + 1] if takes else words[i], v), words[i]))
        i += 2 if takes else 1
    name = vals[i] if i + 1 < n else None
    if name is None:
        return None
    return name, i + 1, env


def _value_word(w: Word, text: str) -> Word:
    nw = Word(raw=text, line=w.line, segs=list(w.segs), start=-1, end=-1)
    nw.value = text
    return nw


def gpu_count(spec: str | None) -> int | None:
    """`--gpus` values: 2, all, "device=0,1", '"device=0"', count=2."""
    if spec is None:
        return None
    s = spec.strip().strip("'\"")
    if s.isdigit():
        return int(s) or None
    m = re.search(r"device=([^\s,]+(?:,[^\s,]+)*)", s)
    if m:
        return len([d for d in m.group(1).strip("'\"").split(",") if d])
    m = re.search(r"count=(\d+)", s)
    if m:
        return int(m.group(1)) or None
    return None


def shm_mount(kind: str, spec) -> str | None:
    """The size of /dev/shm when this mount replaces it: a bind or named volume there (`-v
    /dev/shm:/dev/shm` — the host's shared memory, or a disk) holds what its source holds, a
    tmpfs its `size=` (unlimited when not given, as Docker mounts it); None when the mount is
    elsewhere. `kind`: "volume" (SRC:DST[:opts]), "mount" (type=…,target=…), "tmpfs" (DST[:opts])."""
    if isinstance(spec, dict):  # compose long syntax: {type, source, target, tmpfs: {size}}
        if str(spec.get("target", "")).rstrip("/") != "/dev/shm":
            return None
        if spec.get("type") == "tmpfs":
            size = (spec.get("tmpfs") or {}).get("size") if isinstance(spec.get("tmpfs"), dict) else None
            return str(size) if size is not None else "unbounded"
        return "unbounded"
    s = str(spec).strip().strip("'\"")
    if kind == "mount":
        kv = dict(p.partition("=")[::2] for p in s.split(","))
        target = kv.get("target") or kv.get("destination") or kv.get("dst") or ""
        if target.rstrip("/") != "/dev/shm":
            return None
        return kv.get("tmpfs-size") or "unbounded" if kv.get("type") == "tmpfs" else "unbounded"
    if kind == "tmpfs":
        dst, _, opts = s.partition(":")
        if dst.rstrip("/") != "/dev/shm":
            return None
        m = re.search(r"(?:^|,)size=([^,]+)", opts)
        return m.group(1) if m else "unbounded"
    parts = s.split(":")
    if len(parts) < 2 or parts[1].rstrip("/") != "/dev/shm":
        return None
    return "unbounded"


def folder_build(files, rel: str, run: DockerRun) -> tuple[str, None] | None:
    """The Dockerfile beside a script that runs, with no arguments, a local image it does not build
    (`docker run -d vllm-qwen` next to the `Dockerfile` whose ENTRYPOINT is the project's own
    run_model.sh, maddyrucos/pizzeria_agent llm/, eval73): that image is most likely this folder's
    build, whose launch the Dockerfile's site already reads."""
    if run.argv or run.image is None or not is_local_image(run.image.value):
        return None
    folder = rel.rpartition("/")[0]
    path = f"{folder}/Dockerfile" if folder else "Dockerfile"
    return (path, None) if path in files else None
