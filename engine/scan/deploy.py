"""Containers that run vLLM: Dockerfile CMD/ENTRYPOINT (exec and shell forms, the official
image's own entrypoint), docker-compose `command:`/`entrypoint:` with `${VAR:-default}` and
.env, Kubernetes containers (`sh -c "vllm serve …"`, command + args, image entrypoint + args,
`$(ENV)`), the vLLM Helm chart's `image.command`, and production-stack `modelSpec[].vllmConfig`.
Each is turned into the argv the container really runs and read like a shell launch."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.site import Setting, Site
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan import scripts
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.launchers import find_launch
from vllm_kb.engine.scan.shell import Command, Expander, Seg, ShellSyntaxError, Word, parse

# The vllm/vllm-openai image's ENTRYPOINT by tag (docker/Dockerfile of each release; from 0.25
# a non-root wrapper that execs `vllm serve "$@"`).
IMAGE_ENTRYPOINTS = [("0.0.0", ["python3", "-m", "vllm.entrypoints.openai.api_server"]), ("0.12.0", ["vllm", "serve"])]
_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)?vllm/vllm-openai(?::(?P<tag>[\w.+-]+))?(?:@sha256:\w+)?$")


def image_version(image: str | None) -> str | None:
    """`vllm/vllm-openai:v0.10.2` → 0.10.2; None for latest, nightly or other images."""
    m = _IMAGE.match((image or "").strip())
    if not m or not m.group("tag"):
        return None
    v = try_parse(m.group("tag").lstrip("v").split("-")[0])
    return str(v) if v else None


def is_vllm_image(image: str | None) -> bool:
    return bool(_IMAGE.match((image or "").strip()))


def entrypoint_for(image: str | None, newest: str) -> list[str]:
    v = try_parse(image_version(image) or newest)
    chosen = IMAGE_ENTRYPOINTS[0][1]
    for at, ep in IMAGE_ENTRYPOINTS:
        if v is not None and v >= try_parse(at):
            chosen = ep
    return chosen


def _word(text: str, line: int, ex: Expander, compose: bool = False, k8s_env: dict | None = None) -> Word:
    """A literal argv element as a word; `${VAR:-x}` (compose) and `$(VAR)` (Kubernetes) expand."""
    if k8s_env is not None:
        def sub(m):
            return k8s_env.get(m.group(1), m.group(0))
        text = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", sub, text)
        w = Word(raw=text, line=line, segs=[Seg("lit", text)])
        w.value = None if re.search(r"\$\([A-Za-z_]", text) else text
        if w.value is None:
            w.unresolved = text
        return w
    if compose and "$" in text:
        try:
            (cmd,) = parse('"' + text.replace('"', '\\"') + '"') or [Command([], line, line)]
            w = ex.expand(cmd.words[0])
            w.raw, w.line = text, line
            return w
        except (ShellSyntaxError, ValueError):
            pass
    w = Word(raw=text, line=line, segs=[Seg("lit", text)])
    w.value = text
    return w


def _launch_site(ctx: ScanContext, rel: str, words: list[Word], line: int, end_line: int, syntax: str,
                 style: str, env: dict[str, Setting], image: str | None, extra: dict | None = None) -> Site | None:
    launch = find_launch(words)
    if launch is None:
        return None
    version = ctx.catalog.resolve(image_version(image)).version if image_version(image) else ctx.version_for(rel)
    ex = Expander({k: str(s.value) for k, s in env.items() if s.resolved})
    site = scripts._site(ctx, rel, version, Command(words, line, end_line), launch, env, ex, syntax=syntax,
                         source=dict(extra or {}, argv_style=style))
    site.image = image
    return site


# --- Dockerfile -------------------------------------------------------------------------------

def is_dockerfile(rel: str) -> bool:
    name = rel.rpartition("/")[2]
    return name in ("Dockerfile", "Containerfile") or name.startswith("Dockerfile.") or name.endswith(".Dockerfile") or name.endswith(".dockerfile")


@dataclass
class _Instr:
    kw: str
    arg: str  # continuations joined with spaces
    line: int
    pieces: list[tuple[int, str]]  # (line, text) of each physical line, continuation backslash removed

    @property
    def shell_text(self) -> str:
        """The argument as the shell sees it, line breaks kept so words keep their lines."""
        first = self.pieces[0][1].lstrip()
        first = first[len(self.kw):] if first.upper().startswith(self.kw) else first
        return " \\\n".join([first] + [t for _, t in self.pieces[1:]])

    def lines_of(self, needles: list[str]) -> list[int]:
        """The line each needle (in order) is written on; the instruction's line when not found."""
        out, i, col = [], 0, 0
        for nd in needles:
            found = None
            for j in range(i, len(self.pieces)):
                k = self.pieces[j][1].find(nd, col if j == i else 0)
                if k >= 0:
                    found, i, col = self.pieces[j][0], j, k + len(nd)
                    break
            out.append(found or self.line)
        return out


def _instructions(text: str) -> list[_Instr]:
    """Instructions with continuations joined and comment lines dropped."""
    out: list[_Instr] = []
    buf: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if buf and line.lstrip().startswith("#"):
            continue
        cont = line.endswith("\\")
        buf.append((n, line[:-1] if cont else line))
        if not cont:
            joined = " ".join(x.strip() for _, x in buf)
            kw, _, arg = joined.partition(" ")
            out.append(_Instr(kw.upper(), arg.strip(), buf[0][0], buf))
            buf = []
    return out


def _exec_form(arg: str) -> list[str] | None:
    import json

    if arg.startswith("["):
        try:
            v = json.loads(arg)
            return [str(x) for x in v] if isinstance(v, list) else None
        except ValueError:
            return None
    return None


# `RUN pip install vllm==0.11.0`: the image installs that vLLM whatever the project pins.
_PIP_VLLM = re.compile(r"\b(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\b[^&|;]*?(?<![\w-])(vllm(?:\[[^\]]*\])?==([\w.+]+))")


def scan_dockerfile(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    stages: dict[str, dict] = {}
    cur: dict[str, Any] = {}
    args: dict[str, str] = {}  # ARG defaults before the first FROM apply to FROM lines only; later ones to the stage
    for ins in _instructions(text):
        kw, arg = ins.kw, ins.arg
        if kw == "FROM":
            parts = _expand_vars(arg, args).split()
            base = parts[0] if parts else ""
            inherited = stages.get(base.lower())
            cur = dict(inherited) if inherited else {"image": base, "env": {}, "args": {}, "entrypoint": None, "cmd": None, "installed": None}
            cur["env"] = dict(cur["env"])
            cur["args"] = dict(cur.get("args") or {})
            if len(parts) >= 3 and parts[1].upper() == "AS":
                stages[parts[2].lower()] = cur
        elif kw == "ARG":
            name, eq, default = arg.partition("=")
            target = cur.setdefault("args", {}) if cur else args
            if eq:
                target[name.strip()] = default.strip().strip("'\"")
        elif kw == "ENV":
            known = {**args, **(cur.get("args") or {}), **{k: str(v.value) for k, v in cur.get("env", {}).items()}}
            pairs = _env_pairs(arg)
            for (k, v), ln in zip(pairs, ins.lines_of([f"{k}=" if "=" in arg.split(" ", 1)[0] else k for k, _ in pairs])):
                cur.setdefault("env", {})[k] = Setting(k, _expand_vars(v, known), True, rel, ln, k, v, "dockerfile")
        elif kw == "RUN":
            m = _PIP_VLLM.search(arg)
            if m and cur:
                cur["installed"] = (m.group(2), ins.lines_of([m.group(1)])[0], m.group(1))
        elif kw in ("ENTRYPOINT", "CMD") and cur:
            cur[kw.lower()] = ins
            if kw == "ENTRYPOINT":
                cur["cmd"] = None  # a new ENTRYPOINT resets an inherited CMD
    if not cur:
        return []
    return [s for s in [_docker_site(ctx, rel, cur)] if s is not None]


def _expand_vars(text: str, known: dict[str, str]) -> str:
    """`${MODEL}` / `$MODEL` from ARG and ENV values seen so far; others are left as written."""
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: known.get(m.group(1) or m.group(2), m.group(0)), text)


def _env_pairs(arg: str):
    if "=" not in arg.split(" ", 1)[0]:
        k, _, v = arg.partition(" ")
        return [(k, v.strip().strip('"'))]
    out = []
    for tok in re.findall(r'([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\'[^\']*\'|\S*)', arg):
        out.append((tok[0], tok[1].strip("'\"")))
    return out


def _docker_site(ctx: ScanContext, rel: str, st: dict) -> Site | None:
    import json

    image = st.get("image")
    known = {**(st.get("args") or {}), **{k: str(s.value) for k, s in st["env"].items()}}
    ex = Expander(known)
    env = st["env"]
    words: list[Word] = []
    line = end = 1
    ep, cmd = st.get("entrypoint"), st.get("cmd")
    if ep is not None:
        form = _exec_form(ep.arg)
        if form is None:  # shell form: the CMD is ignored
            return _installed(_shell_site(ctx, rel, ep.shell_text, ep.line, "dockerfile", env, image, known), st, rel)
        words += [_word(t, ln, ex) for t, ln in zip(form, ep.lines_of([json.dumps(t) for t in form]))]
        line = end = ep.line
    elif is_vllm_image(image):
        words += [_word(t, 1, ex) for t in entrypoint_for(image, ctx.catalog.newest)]
    if cmd is not None:
        form = _exec_form(cmd.arg)
        if form is None:
            if ep is None:
                return _installed(_shell_site(ctx, rel, cmd.shell_text, cmd.line, "dockerfile", env, image, known), st, rel)
            form = ["/bin/sh", "-c", cmd.arg]
            words += [_word(t, cmd.line, ex) for t in form]
        else:
            words += [_word(t, ln, ex) for t, ln in zip(form, cmd.lines_of([json.dumps(t) for t in form]))]
        line = cmd.line if ep is None else line
        end = cmd.pieces[-1][0]
    if not words:
        return None
    return _installed(_launch_site(ctx, rel, words, line, end, "dockerfile", "json", env, image), st, rel)


def _installed(site: Site | None, st: dict, rel: str) -> Site | None:
    if site is not None and st.get("installed"):
        version, line, text = st["installed"]
        site.installed = (version, f"{rel}:{line}", text)
    return site


def _shell_site(ctx, rel, text, line, syntax, env, image, known: dict | None = None, anchor: int | None = None,
                source_lines: list[str] | None = None) -> Site | None:
    """A command written as one shell string. `source_lines`: the file's lines, when the string is a
    YAML scalar whose own line breaks say nothing about where its words are written."""
    try:
        cmds = parse(text)
    except ShellSyntaxError as e:
        ctx.skip(rel, "shell-syntax", line, str(e))
        return None
    ex = Expander(known if known is not None else {k: str(s.value) for k, s in env.items() if s.resolved})
    for c in cmds:
        for w in c.words:
            ex.expand(w)
            w.line += line - 1
        if source_lines is not None:
            relocate(c.words, source_lines, line)
        site = _launch_site(ctx, rel, c.words, anchor or line, max(w.line for w in c.words), syntax, "string", env, image)
        if site is not None:
            return site
    return None


def _plain_yaml(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def relocate(words: list[Word], lines: list[str], start: int) -> None:
    """Give each word the line it is written on, searching the file text in order from `start`
    (a folded or block scalar keeps no line numbers of its own)."""
    i, col = start - 1, 0
    for w in words:
        for j in range(i, min(len(lines), i + 500)):
            k = lines[j].find(w.raw, col if j == i else 0)
            if k >= 0:
                w.line, i, col = j + 1, j, k + len(w.raw)
                break


# --- YAML deployments: compose, Kubernetes, Helm --------------------------------------------

def scan_yaml(ctx: ScanContext, rel: str, text: str, docs: list[yamlio.Document]) -> list[Site]:
    sites: list[Site] = []
    for doc in docs:
        data = doc.data
        if not isinstance(data, dict):
            continue
        if isinstance(data.get("services"), dict):
            sites += _compose(ctx, rel, doc)
        elif "kind" in data and "spec" in data:
            sites += _k8s(ctx, rel, doc)
        elif isinstance(data.get("servingEngineSpec"), dict):
            sites += _production_stack(ctx, rel, doc)
        elif isinstance(data.get("image"), dict) and isinstance(data["image"].get("command"), list):
            sites += _helm_chart(ctx, rel, doc)
    return sites


def _dotenv(ctx: ScanContext, folder: str) -> dict[str, str]:
    rel = f"{folder}/.env" if folder else ".env"
    text = ctx.read(rel) if (ctx.root / rel).is_file() else None
    out = {}
    for line in (text or "").splitlines():
        m = re.match(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$", line)
        if m and not line.lstrip().startswith("#"):
            out[m.group(1)] = m.group(2).strip().strip("'\"")
    return out


def _compose(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    folder = PurePosixPath(rel).parent.as_posix()
    dotenv = _dotenv(ctx, "" if folder == "." else folder)
    out = []
    for name, svc in doc.data["services"].items():
        if not isinstance(svc, dict):
            continue
        base = ("services", str(name))
        env: dict[str, Setting] = {}
        raw_env = svc.get("environment")
        if isinstance(raw_env, dict):
            items = [(str(k), "" if v is None else str(v), doc.line_of(base + ("environment", str(k)))) for k, v in raw_env.items()]
        elif isinstance(raw_env, list):
            items = [(str(e).split("=", 1)[0], str(e).split("=", 1)[1] if "=" in str(e) else dotenv.get(str(e), ""), doc.line_of(base + ("environment", i))) for i, e in enumerate(raw_env)]
        else:
            items = []
        ex = Expander(dotenv)
        for k, v, ln in items:
            w = _word(v, ln, ex, compose=True)
            env[k] = Setting(k, w.value, w.value is not None, rel, ln, k, v, "compose", w.assumed or w.unresolved)
        image = svc.get("image")
        words: list[Word] = []
        style = "yaml-list"
        for part in ("entrypoint", "command"):
            val = svc.get(part)
            ln = doc.line_of(base + (part,))
            if isinstance(val, list):
                words += [_word(str(t), doc.line_of(base + (part, i)), ex, compose=True) for i, t in enumerate(val)]
            elif isinstance(val, str):
                style = "string"
                try:
                    cmds = parse(val)
                except ShellSyntaxError:
                    continue
                for c in cmds[:1]:
                    for w in c.words:
                        ex.expand(w)
                        w.line = ln
                    relocate(c.words, (ctx.read(rel) or "").splitlines(), ln)
                    words += c.words
            elif part == "entrypoint" and val is None and is_vllm_image(image):
                words += [_word(t, doc.line_of(base + ("image",)), ex) for t in entrypoint_for(image, ctx.catalog.newest)]
        if not words:
            continue
        anchor = next((base + (k,) for k in ("command", "entrypoint") if k in svc), base)
        site = _launch_site(ctx, rel, words, doc.line_of(anchor), words[-1].line, "compose", style, env, image,
                            {"service": name, "env_style": "map" if isinstance(raw_env, dict) else "list"})
        if site is not None:
            site.gpu_request = _compose_gpus(svc)
            out.append(site)
    return out


def _int_gpus(v) -> int | None:
    """A GPU count as a manifest writes it (2, "2"); None for anything else ("all", 0.5)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int) and v > 0:
        return v
    if isinstance(v, str) and v.strip().isdigit() and int(v) > 0:
        return int(v)
    return None


def _compose_gpus(svc: dict) -> int | None:
    """deploy.resources.reservations.devices[] with nvidia/gpu: `count` or `device_ids`."""
    res = ((svc.get("deploy") or {}).get("resources") or {}) if isinstance(svc.get("deploy"), dict) else {}
    devices = ((res.get("reservations") or {}).get("devices") or []) if isinstance(res, dict) else []
    total = 0
    for d in devices if isinstance(devices, list) else []:
        if not isinstance(d, dict):
            continue
        if "device_ids" in d and isinstance(d["device_ids"], list):
            total += len(d["device_ids"])
        elif _int_gpus(d.get("count")):
            total += _int_gpus(d["count"])
    return total or None


def _resource_gpus(resources) -> int | None:
    """Kubernetes `resources.limits` / `requests` of nvidia.com/gpu (limits win, as the scheduler uses them)."""
    if not isinstance(resources, dict):
        return None
    for part in ("limits", "requests"):
        got = _int_gpus((resources.get(part) or {}).get("nvidia.com/gpu")) if isinstance(resources.get(part), dict) else None
        if got:
            return got
    return None


def _containers(data: dict, base: tuple) -> list[tuple[tuple, dict]]:
    """Every container spec in a Kubernetes object, wherever the pod template sits."""
    out = []
    stack = [(data, base)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("containers", "initContainers") and isinstance(v, list):
                    out += [(path + (k, i), c) for i, c in enumerate(v) if isinstance(c, dict)]
                elif isinstance(v, (dict, list)):
                    stack.append((v, path + (k,)))
        elif isinstance(node, list):
            stack += [(v, path + (i,)) for i, v in enumerate(node)]
    return sorted(out, key=lambda x: [str(p) for p in x[0]])


def _k8s(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    out = []
    for path, c in _containers(doc.data, ()):
        env: dict[str, Setting] = {}
        k8s_env: dict[str, str] = {}
        for i, e in enumerate(c.get("env") or []):
            if isinstance(e, dict) and "name" in e and "value" in e:
                k8s_env[str(e["name"])] = str(e["value"])
                ln = doc.line_of(path + ("env", i))
                env[str(e["name"])] = Setting(str(e["name"]), str(e["value"]), True, rel, ln, str(e["name"]), str(e["value"]), "k8s-args")
        image = c.get("image")
        command, args = c.get("command"), c.get("args")
        line = doc.line_of(path + ("command",)) if command is not None else doc.line_of(path + ("args",))
        if isinstance(command, list) and len(command) >= 2 and str(command[0]).rsplit("/", 1)[-1] in ("sh", "bash") and command[1] == "-c":
            script = str(args[0]) if isinstance(args, list) and args else str(command[2]) if len(command) > 2 else ""
            ln = doc.line_of(path + ("args", 0)) if isinstance(args, list) and args else line
            script = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: k8s_env.get(m.group(1), m.group(0)), script)
            site = _shell_site(ctx, rel, script, ln, "k8s-args", env, image, anchor=line,
                               source_lines=(ctx.read(rel) or "").splitlines())
        else:
            words: list[Word] = []
            if isinstance(command, list):
                words += [_word(str(t), doc.line_of(path + ("command", i)), Expander(), k8s_env=k8s_env) for i, t in enumerate(command)]
            elif is_vllm_image(image):
                words += [_word(t, doc.line_of(path + ("image",)), Expander()) for t in entrypoint_for(image, ctx.catalog.newest)]
            if isinstance(args, list):
                words += [_word(str(t), doc.line_of(path + ("args", i)), Expander(), k8s_env=k8s_env) for i, t in enumerate(args)]
            site = _launch_site(ctx, rel, words, line, words[-1].line if words else line, "k8s-args", "yaml-list", env, image) if words else None
        if site is not None:
            site.gpu_request = _resource_gpus(c.get("resources"))
            out.append(site)
    return out


def _helm_chart(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    img = doc.data["image"]
    image = f"{img.get('repository', '')}:{img.get('tag', '')}" if img.get("repository") else None
    words = [_word(str(t), doc.line_of(("image", "command", i)), Expander()) for i, t in enumerate(img["command"])]
    site = _launch_site(ctx, rel, words, doc.line_of(("image", "command")), words[-1].line if words else 1,
                        "helm-values", "json", {}, image)
    if site is not None:
        site.gpu_request = _resource_gpus(doc.data.get("resources"))
    return [site] if site is not None else []


# production-stack helm/templates/deployment-vllm-multi.yaml: vllmConfig keys → flags.
_PS_FLAGS = {
    "maxModelLen": "--max-model-len", "dtype": "--dtype", "tensorParallelSize": "--tensor-parallel-size",
    "maxNumSeqs": "--max-num-seqs", "gpuMemoryUtilization": "--gpu_memory_utilization", "maxLoras": "--max_loras",
    "runner": "--runner", "convert": "--convert",
}


def _production_stack(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    out = []
    specs = doc.data["servingEngineSpec"].get("modelSpec") or []
    for i, spec in enumerate(specs if isinstance(specs, list) else []):
        if not isinstance(spec, dict):
            continue
        base = ("servingEngineSpec", "modelSpec", i)
        ex = Expander()
        start = doc.line_of(base)
        words = [_word("vllm", start, ex), _word("serve", start, ex)]
        if spec.get("modelURL"):
            words.append(_word(str(spec["modelURL"]), doc.line_of(base + ("modelURL",)), ex))
        cfg = spec.get("vllmConfig") if isinstance(spec.get("vllmConfig"), dict) else {}
        cb = base + ("vllmConfig",)
        for key, flag in _PS_FLAGS.items():
            if key in cfg:
                ln = doc.line_of(cb + (key,))
                words += [_word(flag, ln, ex), _word(str(cfg[key]), ln, ex)]
        if "enableChunkedPrefill" in cfg:
            ln = doc.line_of(cb + ("enableChunkedPrefill",))
            words.append(_word("--enable-chunked-prefill" if cfg["enableChunkedPrefill"] else "--no-enable-chunked-prefill", ln, ex))
        # the chart emits --no-enable-prefix-caching unless enablePrefixCaching is set
        ln = doc.line_of(cb + ("enablePrefixCaching",) if "enablePrefixCaching" in cfg else cb)
        words.append(_word("--enable-prefix-caching" if cfg.get("enablePrefixCaching") else "--no-enable-prefix-caching", ln, ex))
        for j, extra in enumerate(cfg.get("extraArgs") or []):
            words.append(_word(str(extra), doc.line_of(cb + ("extraArgs", j)), ex))
        image = f"{spec.get('repository', '')}:{spec.get('tag', '')}" if spec.get("repository") else None
        site = _launch_site(ctx, rel, words, start, words[-1].line, "helm-values", "production-stack", {}, image,
                            {"model_spec": spec.get("name", i)})
        if site is not None:
            site.gpu_request = _int_gpus(spec.get("requestGPU"))
            # settings read from vllmConfig keys are named as written there, not as the flags the chart emits
            by_line = {doc.line_of(cb + (k,)): k for k in cfg if k != "extraArgs"}
            for st in site.settings.values():
                if st.line in by_line and st.key.startswith("--"):
                    st.key, st.raw = by_line[st.line], _plain_yaml(cfg[by_line[st.line]])
            if "enablePrefixCaching" not in cfg and "enable_prefix_caching" in site.settings:
                site.settings["enable_prefix_caching"].note = "emitted by the production-stack chart when enablePrefixCaching is unset"
                site.settings["enable_prefix_caching"].key = "vllmConfig.enablePrefixCaching"
                site.settings["enable_prefix_caching"].implied = True
            out.append(site)
    return out
