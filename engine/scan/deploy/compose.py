"""docker-compose: `command:`/`entrypoint:` (list or folded string) with `${VAR:-default}` from
.env, `environment:` list or map, and the GPUs a service reserves."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import envfile, mounted_config, own_images, scripts
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.docker_run import add_mount, mount_spec, publish_spec, shm_mount
from vllm_kb.engine.scan.image_env import env_command
from vllm_kb.engine.scan.deploy import compose_dotenv, compose_wrapper
from vllm_kb.engine.scan.deploy.compose_devices import device_opts, device_platform, named_elsewhere, reserved
from vllm_kb.engine.scan.deploy.dockerfile import build_dockerfile, built_from, image_installs
from vllm_kb.engine.scan.deploy.common import (
    entrypoint_for,
    int_gpus,
    is_variant_image,
    is_vllm_image,
    is_vllm_like_image,
    launch_site,
    relocate,
    yaml_word,
)
from vllm_kb.engine.scan.shell import ShellSyntaxError, Word, parse
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site


def _env_files(ctx: ScanContext, rel: str, svc: dict, dotenv: dict[str, str]) -> dict[str, Setting]:
    """`env_file:` (a path, a list of paths or of `{path, required}`), relative to the compose
    file: the container's environment before `environment:`, later files winning."""
    spec = svc.get("env_file")
    entries = spec if isinstance(spec, list) else [spec] if spec else []
    out: dict[str, Setting] = {}
    for e in entries:
        path = e.get("path") if isinstance(e, dict) else e
        if not isinstance(path, str):
            continue
        try:
            path = envfile.interpolate(path, dotenv.get)
        except envfile._Missing:
            continue
        target = envfile.beside(rel, path)
        for k, v in (envfile.load(ctx, target) or {}).items() if target else ():
            out[k] = Setting(k, v.value, v.value is not None, v.file, v.line, k, v.raw, "env-file", v.why or f"from {v.where}")
    return out


def _env_unread(ctx: ScanContext, rel: str, svc: dict, dotenv: dict[str, str]) -> bool:
    """Whether an `env_file:` (a `secrets:` entry, an `extends:`) brings variables the audit could not read."""
    spec = svc.get("env_file")
    for e in spec if isinstance(spec, list) else [spec] if spec else []:
        path = e.get("path") if isinstance(e, dict) else e
        try:
            target = envfile.beside(rel, envfile.interpolate(path, dotenv.get)) if isinstance(path, str) else None
        except envfile._Missing:
            return True
        if not target or envfile.load(ctx, target) is None:
            return True
    return bool(svc.get("secrets") or svc.get("extends"))  # an extended service's environment is elsewhere


def scan_compose(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    folder = PurePosixPath(rel).parent.as_posix()
    # `.env` beside it, else what the repository holds in its place (a script's --env-file, .env.example)
    dotfile, stand_in = compose_dotenv.dotenv_for(ctx, rel, "$" in (ctx.read(rel) or ""))
    dotenv = envfile.values(dotfile)
    out = []
    menus = _menu_profiles(doc.data["services"])
    for name, svc in doc.data["services"].items():
        if not isinstance(svc, dict):
            continue
        base = ("services", str(name))
        env: dict[str, Setting] = _env_files(ctx, rel, svc, dotenv)
        raw_env = svc.get("environment")
        if isinstance(raw_env, dict):
            items = [(str(k), "" if v is None else str(v), base + ("environment", str(k))) for k, v in raw_env.items()]
        elif isinstance(raw_env, list):
            items = [(str(e).split("=", 1)[0], str(e).split("=", 1)[1] if "=" in str(e) else dotenv.get(str(e), ""), base + ("environment", i)) for i, e in enumerate(raw_env)]  # type: ignore[misc]
        else:
            items = []
        ex = Expander(dotenv)
        if stand_in:
            ex.notes = {k: stand_in for k in dotenv}
        env_words = []
        for k, v, path in items:
            ln = doc.line_of(path)
            w = yaml_word(v, ln, ex, compose=True)
            env_words.append((k, w))
            env[k] = Setting(k, w.value, w.value is not None, rel, ln, k, v, "compose", w.assumed or w.unresolved,
                             pos=dict(doc.pos(path), env_style="map" if isinstance(raw_env, dict) else "list"))
        image = svc.get("image")
        # `build:` (with or without the `image:` name compose tags the build with): what runs is the
        # build, so its FROM image and RUN installs say the release, not the name
        built = built_from(ctx, folder, svc["build"]) if svc.get("build") else None
        if built:
            image = built[0]
        if isinstance(image, str) and "$" in image:
            image = yaml_word(image, doc.line_of(base + ("image",)), ex, compose=True).value or image
        kept = own_images.base_of(ctx, image) if not svc.get("build") and isinstance(image, str) else None
        if kept:
            image = kept[0]  # the project builds that name keeping its base image: the base's vLLM runs
        rebased = None if kept or built or not isinstance(image, str) else own_images.release_base(
            ctx, dockerfile=build_dockerfile(ctx, folder, svc["build"])) if svc.get("build") else own_images.release_base(ctx, image)
        words: list[Word] = []
        argv_pos: list = []  # where each word is written, for fixes (None: not in this file's lists)
        append = doc.pos(base + ("command",))  # where new arguments go
        style = "yaml-list"
        # a project script that only hands on its arguments (`exec "$@"`): the command runs as written
        wrapped = compose_wrapper.wrapper_len(ctx, rel, svc.get("entrypoint"), _mounts(svc)) if svc.get("command") else 0
        serves = compose_wrapper.serve_entry(ctx, image, svc.get("command")) if svc.get("entrypoint") is None else None
        for part in ("entrypoint", "command"):
            val = svc.get(part)
            if part == "entrypoint" and wrapped:
                continue
            ln = doc.line_of(base + (part,))
            if isinstance(val, list):
                words += [yaml_word(str(t), doc.line_of(base + (part, i)), ex, compose=True) for i, t in enumerate(val)]
                argv_pos += [doc.pos(base + (part, i)) for i in range(len(val))]
                append = doc.pos(base + (part,))
            elif isinstance(val, str):
                style = "string"
                try:
                    cmds = parse(_unquoted_newlines_as_spaces(_interpolated(val, dotenv)))
                except ShellSyntaxError:
                    continue
                for c in cmds[:1]:
                    for w in c.words:
                        ex.expand(w)
                        w.line = ln
                        if stand_in and w.assumed is None and _names_any(val, dotenv):
                            w.assumed = stand_in  # the command's words came from the stand-in's values
                    relocate(c.words, (ctx.read(rel) or "").splitlines(), ln)
                    words += c.words
                    argv_pos += [None] * len(c.words)
                    append = None  # type: ignore[assignment]  # a command string: its words are not edited in place
            elif part == "entrypoint" and serves:  # `command: [serve, …]` on an image whose ENTRYPOINT is `vllm`
                words += [yaml_word(t, doc.line_of(base + ("image",)), ex) for t in serves[0]]
                argv_pos += [None] * len(serves[0])
            elif part == "entrypoint" and val is None and svc.get("command") is None \
                    and (by_env := env_command(image, env_words, doc.line_of(base + ("image",)), ctx.catalog)):
                words += by_env  # an image its env configures (RunPod's worker): the env is its command line
                argv_pos += [None] * len(by_env)
            elif part == "entrypoint" and val is None and (is_vllm_image(image) or is_vllm_like_image(image) and (
                    _flags_only(svc.get("command")) or is_variant_image(image) and _model_first(svc.get("command")))
                    and not own_images.runs_other_program(ctx, image)):  # the project's own app built on vLLM's image
                implicit = entrypoint_for(image, ctx.untagged_image_release)
                words += [yaml_word(t, doc.line_of(base + ("image",)), ex) for t in implicit]
                argv_pos += [None] * len(implicit)
        if not words:
            continue
        if svc.get("command") is None and svc.get("entrypoint") is None and not _empty_cmd(image, svc, kept):
            append = None  # type: ignore[assignment]  # a new `command:` replaces the CMD only vLLM's own image leaves empty
        anchor = next((base + (k,) for k in ("command", "entrypoint") if k in svc), base)
        site = launch_site(ctx, rel, words, doc.line_of(anchor), words[-1].line, "compose", style, env, image,
                            {"service": name, "env_style": "map" if isinstance(raw_env, dict) else "list",
                             "argv_pos": argv_pos, "argv_append": append,
                             "env_at": dict(doc.pos(base + ("environment",)), env_style="list" if isinstance(raw_env, list) else "map")})
        if site is not None:
            _mark_dotenv(site, svc, dotfile, rel)
            if serves:
                site.mode_evidence += f" ({serves[1]})"
            if built and built[1]:
                site.installed = built[1]
            if built and built[2]:
                site.launch["image_installs"] = built[2]  # what the build installs over its base (L155)
            if kept:
                site.launch["image_at"] = kept[1:]  # where a change of the release is made: the build's FROM
                if got := image_installs(ctx, kept[1]):
                    site.launch["image_installs"] = got  # what the build installs over its base (L155)
            elif rebased:  # a build of that name with its own entrypoint: the release is still its base's
                site.image, site.launch["image_at"] = rebased[0], rebased[1:]
            if svc.get("build"):
                site.launch["built_here"] = True  # a build of the project's own (audit: its pin may stand in)
            # which project Dockerfile the container is built from, for its platform (engine/scan/image_platform.py)
            if svc.get("build") and (df := build_dockerfile(ctx, folder, svc["build"])):
                site.source = dict(site.source or {}, build_dockerfile=df)
            elif isinstance(svc.get("image"), str) and "$" not in svc["image"]:
                site.source = dict(site.source or {}, image_written=svc["image"])
            site.gpu_request = _compose_gpus(svc)
            site.container = {k: v for k, v in (("tool", "compose"), ("ipc", svc.get("ipc")), ("shm_size", _shm(svc)),
                                               ("service", name), ("name", svc.get("container_name")), ("ports", _ports(svc)),
                                               ("network", svc.get("network_mode")),
                                               ("runtime", svc.get("runtime")), ("mounts", _mounts(svc)),
                                               ("env_names", sorted(env)), ("env_opaque", _env_unread(ctx, rel, svc, dotenv)),
                                               ("device_ids", _device_ids(svc)), ("profiles", _profiles(svc)),
                                               ("menus", sorted(menus.intersection(_profiles(svc) or ()))),
                                               ("device_opts", device_opts(svc)), ("device_platform", device_platform(svc)),
                                               ("options_unknown", named_elsewhere(ctx, rel, str(name)))) if v}
            entry = svc.get("entrypoint")  # replaces the image's ENTRYPOINT: its first word is what runs
            if not wrapped and (first := (entry[:1] if isinstance(entry, list) else str(entry or "").split()[:1])):
                site.container["exec"] = str(first[0])
            mounted_config.merge(ctx, site, site.container.get("mounts"))  # `--config /app/x.yaml` a volume holds
            out.append(site)
    return out


def _mark_dotenv(site: Site, svc: dict, dotfile, rel: str) -> None:
    """A setting written as `${TP}` from the .env beside the file is changed there (a command
    string is interpolated before it is split, so its flag's text is looked up as written)."""
    origins = {k: v.where for k, v in (dotfile or {}).items() if v.value is not None}
    if not origins:
        return
    written = " ".join(str(svc.get(k)) for k in ("entrypoint", "command") if isinstance(svc.get(k), str))
    for st in site.settings.values():
        raw = st.raw
        if written and st.key and (m := re.search(re.escape(st.key) + r"[=\s]+(\S+)", written)):
            raw = m.group(1)
        probe = Setting(st.name, st.value, st.resolved, raw=raw)
        scripts.mark_sourced(probe, origins, rel)
        if probe.pos:
            st.pos = {**(st.pos or {}), **probe.pos}


def _names_any(text: str, names) -> bool:
    """Whether `text` reads one of the variables (`$NAME`, `${NAME…}`)."""
    return any(re.search(r"\$\{?" + re.escape(k) + r"(?![A-Za-z0-9_])", text) for k in names)


def _interpolated(text: str, dotenv: dict[str, str]) -> str:
    """compose interpolates a string `command:` first and then splits it with shell rules, so
    `${ARGS}` holding `--model m --tensor-parallel-size 8` is three options. What names a variable
    nothing sets stays as written (its words are unknown)."""
    if "$" not in text:
        return text
    try:
        out = envfile.interpolate(text, dotenv.get)
    except envfile._Missing:
        return text
    return out


def _unquoted_newlines_as_spaces(text: str) -> str:
    """compose splits a string command into words itself (go-shellwords, no shell runs it): a line break
    outside quotes parts words like a space, so each line of a `command: |` block adds to one argv
    (eval70 playground: `--model $MODEL` and `${EXTRA_ARGS}` on two lines). Inside quotes it stays
    (`bash -c "…"` keeps its script's lines)."""
    if "\n" not in text.strip():
        return text
    out, quote, i = [], None, 0
    while i < len(text):
        c = text[i]
        if c == "\\" and quote != "'" and i + 1 < len(text):
            out.append(text[i:i + 2])
            i += 2
            continue
        if c in "'\"" and quote in (None, c):
            quote = None if quote else c
        out.append(" " if c == "\n" and quote is None else c)
        i += 1
    return "".join(out)


def _mounts(svc: dict) -> dict | None:
    """What each container path holds: the service's volumes, short (`SRC:DST`) or long form."""
    out: dict = {}
    for v in svc.get("volumes") or [] if isinstance(svc.get("volumes"), list) else []:
        if isinstance(v, str):
            add_mount(out, *mount_spec("-v", v))
        elif isinstance(v, dict):
            add_mount(out, v.get("source") if isinstance(v.get("source"), str) else None,
                      v.get("target") if isinstance(v.get("target"), str) else None)
    return out.get("mounts")


def _ports(svc: dict) -> list | None:
    """The service's published ports as [host, container] (engine/check/endpoints.py pairs clients by them)."""
    got = [p for p in (publish_spec(x) for x in svc.get("ports") or () if isinstance(x, (str, int, dict))) if p]
    return got or None


def _shm(svc: dict):
    """`shm_size:`, unless a volume or tmpfs is mounted at /dev/shm (which then sets it)."""
    mounts = [("volume", v) for v in svc.get("volumes") or [] if isinstance(svc.get("volumes"), list)]
    tmpfs = svc.get("tmpfs")
    mounts += [("tmpfs", t) for t in (tmpfs if isinstance(tmpfs, list) else [tmpfs] if tmpfs else [])]
    for kind, spec in mounts:
        size = shm_mount(kind, spec)
        if size is not None:
            return size
    return svc.get("shm_size")


def _model_first(command) -> bool:
    """`command: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]` for an image whose entrypoint is `vllm serve`:
    a Hub id first is its positional model (a path or a bare word may be a program, and stays one)."""
    first = command[0] if isinstance(command, list) and command else str(command or "").split(" ", 1)[0]
    return re.fullmatch(r"[\w.-]+/[\w.-]+", str(first)) is not None


def _empty_cmd(image, svc: dict, kept) -> bool:
    """vLLM's own image has an ENTRYPOINT and no CMD, so arguments written as a new `command:` reach its
    server; any other image (a build, a vendor's or the project's own on another base) may run a CMD that
    a new `command:` would replace (eval119: a build-only vllm-gaudi service got one from --fix)."""
    return not svc.get("build") and not kept and is_vllm_image(image)


def _flags_only(command) -> bool:
    """The service gives the image's entrypoint only arguments (no program of its own)."""
    if command is None:
        return True
    first = command[0] if isinstance(command, list) and command else str(command).strip()
    return str(first).startswith("-")


def _device_ids(svc: dict) -> str | None:
    """The host GPU ids `device_ids` reserves ("0,1"), as `--gpus device=…` writes them; None for a
    `count`, for `${VAR}` ids or where nothing names them (colocation: engines on other GPUs)."""
    ids = [x.strip() for d in reserved(svc) if isinstance(d.get("device_ids"), list)
           for i in d["device_ids"] for x in str(i).split(",") if x.strip()]
    return "device=" + ",".join(ids) if ids and all(x.isdigit() for x in ids) else None


def _profiles(svc: dict) -> list[str] | None:
    """`profiles:`: a service with some starts only when one of them is activated."""
    got = svc.get("profiles")
    return [str(p) for p in got] if isinstance(got, list) and got else None


def _menu_profiles(services: dict) -> set[str]:
    """The profiles that gate three or more GPU services of the file: a menu of models started one at a
    time (by hand or by an on-demand starter), not engines that run together (engine/check/colocation.py;
    eval81, jdaln/dgx-spark-inference-stack: 41 services of profile `models`, created with `up --no-start`,
    a waker starts one)."""
    count: dict[str, int] = {}
    for svc in services.values():
        if isinstance(svc, dict) and (reserved(svc) or svc.get("gpus") or svc.get("runtime") == "nvidia"):
            for p in _profiles(svc) or ():
                count[p] = count.get(p, 0) + 1
    return {p for p, n in count.items() if n >= 3}


def _compose_gpus(svc: dict) -> int | None:
    """deploy.resources.reservations.devices[] with nvidia/gpu: `count` or `device_ids`."""
    total = 0
    for d in reserved(svc):
        if "device_ids" in d and isinstance(d["device_ids"], list):
            # ['0,1,2,3'] is four devices: the NVIDIA runtime joins the ids with commas
            total += sum(len([x for x in str(i).split(",") if x.strip()]) for i in d["device_ids"])
        elif n := int_gpus(d.get("count")):
            total += n
    return total or None
