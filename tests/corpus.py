"""Generated projects in every syntax the scanners read, for the --fix property test
(tests/test_fix_property.py) and the report consistency test (tests/test_consistency.py).

Each project is a dict of files plus the lines that no fix may touch ("bystanders": comments,
keys vLLM does not read, other services and containers) and, for YAML and JSON, bystander
paths with their values. Bystander lines carry a unique `keep` marker so they are easy to find."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import strategies as st

VLLM = "0.33.0"
MODEL = "Qwen/Qwen2.5-7B-Instruct"

# (flag, value or None for a switch): settings the checks and the catalog have opinions about
FLAGS = [
    ("--swap-space", "8"), ("--enforce-eager", None), ("--gpu-memory-utilization", "0.6"),
    ("--max-model-len", "32768"), ("--kv-cache-dtype", "auto"), ("--enable-prefix-caching", None),
    ("--no-enable-prefix-caching", None), ("--max-num-seqs", "256"), ("--tensor-parallel-size", "2"),
    ("--disable-log-requests", None), ("--num-scheduler-steps", "8"), ("--max-num-batched-tokens", "8192"),
    ("--enable-chunked-prefill", None), ("--dtype", "bfloat16"), ("--use-v2-block-manager", None),
    ("--served-model-name", "chat"), ("--port", "8000"), ("--max-seq-len-to-capture", "8192"),
]
VERL_KEYS = [
    ("enforce_eager", "True"), ("free_cache_engine", "True"), ("gpu_memory_utilization", "0.6"),
    ("tensor_model_parallel_size", "2"), ("max_num_batched_tokens", "8192"), ("enable_chunked_prefill", "false"),
    ("max_model_len", "32768"), ("dtype", "bfloat16"), ("enable_prefix_caching", "false"), ("load_format", "dummy_dtensor"),
]


@dataclass
class Project:
    files: dict[str, str]
    encodings: dict[str, str] = field(default_factory=dict)  # rel → codec ("utf-8", "utf-8-sig", "utf-16", …)
    keep_lines: dict[str, list[str]] = field(default_factory=dict)  # rel → lines no fix may touch
    keep_paths: dict[str, list[tuple[tuple, object]]] = field(default_factory=dict)  # rel → (path, value)
    crlf: set[str] = field(default_factory=set)
    syntax: str = ""

    def bytes_of(self, rel: str) -> bytes:
        text = self.files[rel]
        if rel in self.crlf:
            text = text.replace("\n", "\r\n")
        return text.encode(self.encodings.get(rel, "utf-8"))


class Keeper:
    """Hands out unique bystander markers and remembers where they were written."""

    def __init__(self):
        self.n = 0
        self.lines: dict[str, list[str]] = {}
        self.paths: dict[str, list[tuple[tuple, object]]] = {}

    def mark(self) -> str:
        self.n += 1
        return f"keep{self.n}"

    def line(self, rel: str, text: str) -> str:
        self.lines.setdefault(rel, []).append(text)
        return text

    def path(self, rel: str, path: tuple, value) -> None:
        self.paths.setdefault(rel, []).append((path, value))


def _pick_flags(draw, k_min=1, k_max=6):
    idx = draw(st.lists(st.integers(0, len(FLAGS) - 1), min_size=k_min, max_size=k_max, unique=True))
    return [FLAGS[i] for i in idx]


def _tokens(flags, eq_style: bool, snake: bool) -> list[str]:
    out = []
    for flag, value in flags:
        f = "--" + flag[2:].replace("-", "_") if snake else flag
        if value is None:
            out.append(f)
        elif eq_style:
            out.append(f"{f}={value}")
        else:
            out += [f, value]
    return out


# --- syntaxes ---------------------------------------------------------------------------------

@st.composite
def shell(draw) -> Project:
    k = Keeper()
    rel = "serve.sh"
    flags = _pick_flags(draw)
    eq, snake = draw(st.booleans()), draw(st.booleans())
    multi, tail = draw(st.booleans()), draw(st.booleans())
    toks = _tokens(flags, eq, snake)
    lines = ["#!/bin/bash", k.line(rel, f"# {k.mark()} comment above"), k.line(rel, f"export KEEP_{k.mark()}=1")]
    if draw(st.booleans()):
        lines.append("export VLLM_USE_V1=0")
    if multi:
        body = [f"vllm serve {MODEL} \\"] + [f"    {t} \\" for t in toks] + (['    "$@"'] if tail else [])
        body[-1] = body[-1].rstrip(" \\")
        lines += body
    else:
        lines.append(f"vllm serve {MODEL} " + " ".join(toks) + (' "$@"' if tail else ""))
    lines.append(k.line(rel, f"echo {k.mark()}"))
    return Project({rel: "\n".join(lines) + "\n", "requirements.txt": f"vllm=={VLLM}\n"}, keep_lines=k.lines, syntax="shell")


@st.composite
def python(draw) -> Project:
    k = Keeper()
    rel = "job.py"
    kwargs = []
    for flag, value in _pick_flags(draw):
        name = flag[2:].replace("-", "_")
        if name.startswith("no_"):
            kwargs.append(f"{name[3:]}=False")
        elif value is None:
            kwargs.append(f"{name}=True")
        else:
            kwargs.append(f"{name}={value!r}" if not value.replace(".", "").isdigit() else f"{name}={value}")
    multi = draw(st.booleans())
    lines = [k.line(rel, f"# {k.mark()} header"), "import os", "from vllm import LLM", k.line(rel, f"KEEP_{k.mark()} = 'v'  # kept")]
    env_form = draw(st.sampled_from(["none", "assign", "shared-line", "update", "setdefault"]))
    if env_form == "assign":
        lines.append('os.environ["VLLM_USE_V1"] = "0"')
    elif env_form == "shared-line":  # the other statement on the line stays
        lines.append(f'os.environ["KEEP_{k.mark()}"] = "1"; os.environ["VLLM_USE_V1"] = "0"')
    elif env_form == "update":
        keep = k.mark()
        lines.append(f'os.environ.update({{"VLLM_USE_V1": "0", "KEEP_{keep}": "1"}})')
    elif env_form == "setdefault":
        lines.append('os.environ.setdefault("VLLM_USE_V1", "0")')
    if multi:
        lines += [f'llm = LLM(\n    model="{MODEL}",'] + [f"    {a}," for a in kwargs] + [")"]
    else:
        lines.append(f'llm = LLM(model="{MODEL}", ' + ", ".join(kwargs) + ")")
    lines.append(k.line(rel, f"print('{k.mark()}')"))
    files = {rel: "\n".join(lines) + "\n", "requirements.txt": f"vllm=={VLLM}\n"}
    p = Project(files, keep_lines=k.lines, syntax="python")
    _line_endings(draw, p, rel)
    return p


@st.composite
def serve_yaml(draw) -> Project:
    k = Keeper()
    rel = "cfg.yaml"
    snake = draw(st.booleans())
    lines = [k.line(rel, f"# {k.mark()} serve config")]
    for flag, value in _pick_flags(draw):
        key = flag[2:].replace("-", "_") if snake else flag[2:]
        if key.replace("_", "-").startswith("no-"):
            key, value = key[3:], "false"
        lines.append(f"{key}: {value if value is not None else 'true'}")
        if draw(st.booleans()):
            lines.append(k.line(rel, f"# {k.mark()} between"))
    lines.append(k.line(rel, "host: 0.0.0.0  # " + k.mark()))
    files = {rel: "\n".join(lines) + "\n", "run.sh": f"#!/bin/bash\nvllm serve {MODEL} --config cfg.yaml\n",
             "pyproject.toml": f'[project]\nname = "x"\ndependencies = ["vllm=={VLLM}"]\n\n[tool.keep]\nvalue = 1  # untouched\n'}
    p = Project(files, keep_lines=k.lines, syntax="serve-yaml")
    p.keep_lines["pyproject.toml"] = files["pyproject.toml"].splitlines()
    _line_endings(draw, p, rel)
    _encoding(draw, p, rel)
    return p


def _nested_keep(draw, k: Keeper, rel: str, base: tuple, indent: int, depth: int) -> list[str]:
    """A bystander mapping nested `depth` levels deep, block or flow."""
    name = k.mark()
    if depth == 0 or draw(st.booleans()):
        k.path(rel, base + (name,), 1)
        return [k.line(rel, " " * indent + f"{name}: 1")]
    if draw(st.booleans()):
        inner = k.mark()
        k.path(rel, base + (name, inner), "v")
        return [k.line(rel, " " * indent + f"{name}: {{{inner}: v}}")]
    return [" " * indent + f"{name}:"] + _nested_keep(draw, k, rel, base + (name,), indent + 2, depth - 1)


@st.composite
def verl_yaml(draw) -> Project:
    k = Keeper()
    rel = "ppo_trainer.yaml"
    idx = draw(st.lists(st.integers(0, len(VERL_KEYS) - 1), min_size=1, max_size=6, unique=True))
    keys = [VERL_KEYS[i] for i in idx]
    depth = draw(st.integers(0, 3))
    flow = draw(st.booleans())
    anchors = draw(st.booleans())
    lines = [k.line(rel, f"# {k.mark()} verl")]
    if anchors:
        lines += ["common: &common", k.line(rel, "  seed: 7  # keep-anchor"), k.line(rel, "gmu: &gmu 0.6")]
        k.path(rel, ("common", "seed"), 7)
        k.path(rel, ("gmu",), 0.6)
        keys = [(a, "*gmu" if a == "gpu_memory_utilization" else b) for a, b in keys]
    lines += ["actor_rollout_ref:", "  hybrid_engine: true", "  model:", f"    path: {MODEL}"]
    if flow:
        body = ", ".join(["name: vllm"] + [f"{a}: {b}" for a, b in keys])
        lines.append(f"  rollout: {{{body}}}")
    else:
        lines += ["  rollout:", "    name: vllm"]
        for a, b in keys:
            name = f'"{a}"' if draw(st.booleans()) else a
            lines.append(f"    {name}: {b}" + (f"  # {k.mark()} why" if draw(st.booleans()) else ""))
            if draw(st.booleans()):
                lines.append(k.line(rel, f"    # {k.mark()} note"))
        lines += _nested_keep(draw, k, rel, ("actor_rollout_ref", "rollout"), 4, depth)
        if draw(st.booleans()):
            lines += ["    engine_kwargs:", "      vllm:", "        disable_log_stats: false"]
    lines.append(k.line(rel, "  # keep actor"))
    lines += ["trainer:", k.line(rel, "  n_gpus_per_node: 8")]
    k.path(rel, ("trainer", "n_gpus_per_node"), 8)
    if anchors:
        lines += ["extra:", "  <<: *common", k.line(rel, "  other: 2")]
    lines += _nested_keep(draw, k, rel, (), 0, depth)
    files = {rel: "\n".join(lines) + "\n", "requirements.txt": f"vllm=={VLLM}\nverl==0.5.0\n"}
    p = Project(files, keep_lines=k.lines, keep_paths=k.paths, syntax="verl-yaml")
    _line_endings(draw, p, rel)
    _encoding(draw, p, rel)
    return p


@st.composite
def swift_json(draw) -> Project:
    k = Keeper()
    rel = "grpo.json"
    data = {"rlhf_type": "grpo", "model": MODEL, "use_vllm": True, "vllm_mode": "colocate"}
    keep = k.mark()
    data[keep] = {"nested": [1, 2]}
    k.path(rel, (keep,), {"nested": [1, 2]})
    choices = [("vllm_gpu_memory_utilization", 0.4), ("vllm_tensor_parallel_size", 2), ("vllm_max_model_len", 32768),
               ("vllm_enable_prefix_caching", False), ("vllm_engine_kwargs", {"enforce_eager": True})]
    for i in draw(st.lists(st.integers(0, len(choices) - 1), max_size=4, unique=True)):
        key, value = choices[i]
        data[key] = value
    indent = draw(st.sampled_from([2, 4, "\t"]))
    files = {rel: json.dumps(data, indent=indent) + "\n", "requirements.txt": f"vllm=={VLLM}\nms-swift==3.8.0\n"}
    p = Project(files, keep_paths=k.paths, syntax="json")
    _line_endings(draw, p, rel)
    return p


@st.composite
def dockerfile(draw) -> Project:
    k = Keeper()
    rel = "Dockerfile"
    toks = ["--model", MODEL] + _tokens(_pick_flags(draw), draw(st.booleans()), False)
    multi = draw(st.booleans())
    lines = [k.line(rel, f"# {k.mark()}"), f"FROM vllm/vllm-openai:v{VLLM}", k.line(rel, f"LABEL keep={k.mark()}"),
             k.line(rel, f"ENV KEEP_{k.mark()}=1")]
    if draw(st.booleans()):
        lines.append("ENV VLLM_USE_V1=1")
    if multi:
        items = [json.dumps(t) for t in toks]
        lines.append("CMD [" + items[0] + ", \\")
        lines += [f"     {x}, \\" for x in items[1:-1]]
        lines.append(f"     {items[-1]}]" if len(items) > 1 else "]")
    else:
        lines.append("CMD [" + ", ".join(json.dumps(t) for t in toks) + "]")
    p = Project({rel: "\n".join(lines) + "\n"}, keep_lines=k.lines, syntax="dockerfile")
    _line_endings(draw, p, rel)
    return p


def _yaml_list(draw, toks: list[str], indent: int) -> list[str]:
    if draw(st.booleans()):
        return [" " * indent + "- " + json.dumps(t) if draw(st.booleans()) else " " * indent + "- " + _plain(t) for t in toks]
    return None


def _plain(t: str) -> str:
    return t if t.startswith("-") or t.isalpha() or "/" in t else json.dumps(t)


@st.composite
def compose(draw) -> Project:
    k = Keeper()
    rel = "docker-compose.yml"
    toks = ["--model", MODEL] + _tokens(_pick_flags(draw), draw(st.booleans()), False)
    block = _yaml_list(draw, toks, 6)
    lines = [k.line(rel, f"# {k.mark()}"), "services:", "  vllm:", f"    image: vllm/vllm-openai:v{VLLM}"]
    env_map = draw(st.booleans())
    lines.append("    environment:")
    lines.append(k.line(rel, f"      KEEP_{k.mark()}: '1'") if env_map else k.line(rel, f"      - KEEP_{k.mark()}=1"))
    if draw(st.booleans()):
        lines.append("      VLLM_USE_V1: '1'" if env_map else "      - VLLM_USE_V1=1")
    if block is not None:
        lines += ["    command:"] + block
    else:
        lines.append("    command: [" + ", ".join(json.dumps(t) for t in toks) + "]")
    lines += ["  redis:", k.line(rel, "    image: redis:7  # keep"), k.line(rel, f"    command: [redis-server, --{k.mark()}]")]
    p = Project({rel: "\n".join(lines) + "\n"}, keep_lines=k.lines, syntax="compose")
    _line_endings(draw, p, rel)
    return p


@st.composite
def kubernetes(draw) -> Project:
    k = Keeper()
    rel = "deploy.yaml"
    toks = ["--model", MODEL] + _tokens(_pick_flags(draw), draw(st.booleans()), False)
    block = _yaml_list(draw, toks, 12)
    lines = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", k.line(rel, f"  name: {k.mark()}"), "spec:",
             "  template:", "    spec:", "      containers:", "        - name: vllm", f"          image: vllm/vllm-openai:v{VLLM}"]
    if block is not None:
        lines += ["          args:"] + block
    else:
        lines.append("          args: [" + ", ".join(json.dumps(t) for t in toks) + "]")
    lines += ["          env:", "            - name: KEEP", k.line(rel, f"              value: \"{k.mark()}\"")]
    lines += ["        - name: sidecar", k.line(rel, "          image: busybox  # keep"),
              k.line(rel, f"          args: [sleep, '{k.mark()}']")]
    p = Project({rel: "\n".join(lines) + "\n"}, keep_lines=k.lines, syntax="kubernetes")
    _line_endings(draw, p, rel)
    return p


@st.composite
def helm(draw) -> Project:
    k = Keeper()
    rel = "values.yaml"
    if draw(st.booleans()):
        toks = ["vllm", "serve", MODEL] + _tokens(_pick_flags(draw), draw(st.booleans()), False)
        lines = [k.line(rel, f"# {k.mark()}"), "image:", '  repository: "vllm/vllm-openai"', f'  tag: "v{VLLM}"',
                 "  command: [" + ", ".join(json.dumps(t) for t in toks) + "]", k.line(rel, "containerPort: 8000")]
    else:
        lines = [k.line(rel, f"# {k.mark()}"), "servingEngineSpec:", "  modelSpec:", "    - name: llama",
                 '      repository: "vllm/vllm-openai"', f'      tag: "v{VLLM}"', f'      modelURL: "{MODEL}"',
                 "      requestGPU: 1", "      vllmConfig:", k.line(rel, f"        # {k.mark()}")]
        for key, value in draw(st.lists(st.sampled_from([("maxModelLen", 32768), ("tensorParallelSize", 2),
                                                         ("gpuMemoryUtilization", 0.6), ("enablePrefixCaching", "false"),
                                                         ("dtype", "bfloat16"), ("maxNumSeqs", 256)]), max_size=4, unique=True)):
            lines.append(f"        {key}: {value}")
        if draw(st.booleans()):
            lines.append('        extraArgs: ["--swap-space", "4"]')
        lines.append(k.line(rel, "routerSpec: {replicaCount: 1}"))
    p = Project({rel: "\n".join(lines) + "\n"}, keep_lines=k.lines, syntax="helm")
    _line_endings(draw, p, rel)
    return p


def _line_endings(draw, p: Project, rel: str) -> None:
    if draw(st.booleans()):
        p.crlf.add(rel)


def _encoding(draw, p: Project, rel: str) -> None:
    p.encodings[rel] = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]))


SYNTAXES = {"shell": shell, "python": python, "serve-yaml": serve_yaml, "verl-yaml": verl_yaml, "json": swift_json,
            "dockerfile": dockerfile, "compose": compose, "kubernetes": kubernetes, "helm": helm}


def projects() -> st.SearchStrategy[Project]:
    return st.one_of(*(fn() for fn in SYNTAXES.values()))
