"""The `launch` facts the launch checks (knowledge/checks/L.yaml) read: how each argument is
written on the command line, whether the process model and the container let vLLM start, what
the host gives it. Computed from the site the scanners read; never from the auditing machine
unless the user asked for the local probe."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.length_budget import completion_only
from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.scan import python_text
from vllm_kb.engine.scan.site import Site

# Syntaxes whose settings reach vLLM as argv words, parsed by vLLM's own argparse.
ARGV_SYNTAXES = frozenset({"cli", "compose", "k8s-args", "helm-values", "dockerfile", "vscode-launch"})
_KV_ITEM = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=\s*(-?\d+)\s*$")


def arg_forms(site: Site) -> dict[str, Any]:
    """`arg_form`, `kv_value` and `kv_text` for the mapping arguments a command line writes."""
    forms: dict[str, str] = {}
    kv_value: dict[str, dict] = {}
    kv_text: dict[str, str] = {}
    if site.tool == "xinference":
        # `xinference launch --key value` reaches AsyncEngineArgs as a Python value (deploy/utils.py
        # handle_click_args_type: bool, int, float, else the text): argparse's forms never apply
        return {"arg_form": forms, "kv_value": kv_value, "kv_text": kv_text}
    for name, s in site.settings.items():
        if not s.resolved or s.implied:
            continue
        if s.syntax not in ARGV_SYNTAXES and not (s.syntax == "yaml-config" and isinstance(s.value, str)):
            # a Python dict or a YAML mapping: only per-item options are a form of their own (a
            # string of a serve YAML reaches argparse as the flag's text, as on a command line)
            if isinstance(s.value, dict) and any(isinstance(v, dict) for v in s.value.values()):
                forms[name] = "nested"
            continue
        if "." in (s.key or "").lstrip("-"):
            forms[name] = "dotted"
            if isinstance(s.value, dict):
                text = _as_kv(s.value)
                if text:
                    kv_text[name] = text
            continue
        raw = _value_text(s)
        if isinstance(s.value, dict) and re.fullmatch(r"-?\d+", raw.strip("'\"")) and (s.key or "").startswith("--"):
            forms[name] = "number"  # `--compilation-config 3`: read as a level by ≤0.9, a JSON value later
        elif isinstance(s.value, dict) and any(isinstance(v, dict) for v in s.value.values()):
            forms[name] = "nested"  # {"video": {"count": 1, "num_frames": 32}}: per-item options, 0.11.1+
            flat = {k: v.get("count") if isinstance(v, dict) else v for k, v in s.value.items()}
            if all(isinstance(v, int) and not isinstance(v, bool) for v in flat.values()):
                kv_value[name] = flat
        elif isinstance(s.value, dict) and _written_kv(raw):
            # `image=4,video=1` that the scanner already read into a mapping (as ≤0.8.4's nullable_kvs does)
            forms[name] = "kv"
            kv_value[name] = s.value
        elif isinstance(s.value, dict):
            forms[name] = "json"
            text = _as_kv(s.value)
            if text:
                kv_text[name] = text
        elif isinstance(s.value, str) and "=" in s.value and not s.value.lstrip().startswith(("{", "[")):
            forms[name] = "kv"
            parsed = _parse_kv(s.value)
            if parsed is not None:
                kv_value[name] = parsed
        else:
            forms[name] = "value"
    return {"arg_form": forms, "kv_value": kv_value, "kv_text": kv_text}


def _value_text(s) -> str:
    """The value as written: `--limit-mm-per-prompt=image=4` (one word, a compose list item) keeps
    `image=4`, as argparse splits it at the first `=`."""
    raw = str(s.raw or "").strip().strip("'\"")
    key = (s.key or "").strip()
    return raw[len(key) + 1:] if key.startswith("-") and raw.startswith(key + "=") else str(s.raw or "")


def _written_kv(raw) -> bool:
    text = str(raw or "").strip().strip("'\"").strip()
    return bool(text) and not text.startswith(("{", "[")) and all(_KV_ITEM.match(p) for p in text.split(","))


def _parse_kv(text: str) -> dict | None:
    out = {}
    for item in text.split(","):
        m = _KV_ITEM.match(item)
        if not m:
            return None
        out[m.group(1)] = int(m.group(2))
    return out


def _as_kv(value: dict) -> str | None:
    if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return None
    return ",".join(f"{k}={v}" for k, v in value.items())


def sleep_level(site: Site) -> int | None:
    """The level the rollout engine sleeps at, where the framework decides it (TRL: level 2; verl:
    2, or 1 with LoRA; OpenRLHF, EasyR1, NeMo-RL: 1; ms-swift: its sleep_level key — reference/rl-frameworks.md), or
    what the script's own `llm.sleep(level=…)` says."""
    keys = site.framework_keys or {}
    if site.framework == "trl":
        return 2
    if site.framework in ("openrlhf", "easyr1", "nemo-rl"):
        return 1  # EasyR1 vllm_rollout_spmd.py and NeMo-RL vllm.py: llm.sleep(level=1)
    if site.framework == "verl":
        lora = keys.get("actor_rollout_ref.model.lora_rank")
        return 1 if isinstance(lora, int) and lora > 0 else 2
    if site.framework == "ms-swift":
        level = keys.get("sleep_level")
        return level if level in (1, 2) else None
    return site.launch.get("sleep_level")


# A container's /dev/shm when nothing sets it: Docker's and containerd's 64 MiB.
DEFAULT_SHM_GIB = 0.0625
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?)b?\s*$", re.I)
_POW = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}


def size_gib(v) -> float | None:
    """A shm size as Docker (`16g`, `10.24gb`, bytes) or Kubernetes (`2Gi`, `512Mi`) writes it."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v) / 2**30
    m = _SIZE.match(str(v))
    if not m:
        return None
    n, unit, binary = float(m.group(1)), m.group(2).lower(), m.group(3)
    base = 1024 if binary or unit in ("", "k", "m", "g", "t", "p") else 1000
    return n * base ** _POW[unit] / 2**30


def container_facts(site: Site) -> dict[str, Any]:
    """Where the launch runs in a container: the tool, whether it shares the host's IPC
    namespace, and the size of its /dev/shm (64 MiB when nothing sets it)."""
    c = getattr(site, "container", None)
    if not c or not c.get("tool"):
        return {}
    out: dict[str, Any] = {"container_tool": str(c["tool"]), "ipc_host": str(c.get("ipc") or "").lower() == "host"}
    if gpu_request_absent(site):
        out["container_no_gpu_request"] = True
    # the container's own command names a program by its bare name where the image's tag has it off PATH
    if c.get("exec") == "vllm" and deploy_tools.path_lacks(site.image, "vllm"):
        out["container_exec_missing"] = "vllm"
    shm = c.get("shm_size")
    if shm == "unbounded":
        return {**out, "shm_unbounded": True}
    gib = size_gib(shm) if shm is not None else DEFAULT_SHM_GIB
    if gib is not None:
        out["shm_gib"] = round(gib, 4)
    return out


def gpu_request_absent(site: Site) -> bool:
    """A container started with no GPU of its own, every option read: a `docker run` with no `--gpus`,
    runtime, `--device` or `--privileged`, or a compose service with no device reservation, `gpus:`,
    `runtime:`, `devices:` or `privileged:` that no other compose file of the project names (compose
    merges the files it is given). Neither with an NVIDIA_VISIBLE_DEVICES of its own (which only a host
    whose daemon runs the NVIDIA runtime by default reads: the launch then counts on it) nor an env file
    that might set one. Docker's default runtime (runc) mounts no GPU device and no driver library, so
    vLLM finds no platform. Only `docker` itself: `nvidia-docker` is the NVIDIA runtime, and podman runs
    the NVIDIA OCI hook for every container where it is installed. A container a Python program starts
    (docker SDK, an argv list) is not judged: its device_requests may come through holes the code leaves
    (`**kwargs`, a wrapper)."""
    c = getattr(site, "container", None)
    if not isinstance(c, dict) or site.syntax == "python-argv":
        return False
    tool = c.get("tool")
    if not (tool == "docker run" and c.get("program") == "docker" or tool == "compose"):
        return False
    return (not c.get("device_opts") and not c.get("options_unknown") and not c.get("env_opaque")
            and "NVIDIA_VISIBLE_DEVICES" not in (c.get("env_names") or ()))


def config_mappings(site: Site) -> dict[str, Any]:
    """Arguments the `vllm serve --config` YAML gives as a mapping: vLLM < 0.16 hands them to
    argparse as `str(dict)`, which no JSON parser reads."""
    names = sorted(n for n, s in site.settings.items()
                   if s.syntax == "yaml-config" and s.resolved and isinstance(s.value, dict) and s.value
                   and "." not in (s.key or ""))
    return {"config_mappings": names} if names else {}


def launch_facts(site: Site) -> dict[str, Any]:
    out = {**arg_forms(site), **site.launch, **container_facts(site), **config_mappings(site), **rollout_world(site),
           **completion_only(site)}
    level = sleep_level(site)
    if level is not None:
        out["sleep_level"] = level
    if "evaluator" not in out and (harness := evaluator(site)):
        out["evaluator"] = harness
    return out


def evaluator(site: Site) -> str | None:
    """The evaluation harness that builds this engine: its command line (`lm_eval --model vllm`), a
    framework's eval command, or a model backend in the harness's own source (the site's file lies in
    its package folder)."""
    names = deploy_tools.load("llm_wrappers").get("evaluators", [])
    if site.tool in names:
        return site.tool
    if site.framework != "none" and site.framework_command == "eval":  # `swift eval` (EvalScope on the framework's engine)
        return site.framework
    return next((p for p in site.file.split("/")[:-1] if p in names), None)


# ppo_trainer.yaml's trainer block in every verl release (0.1 … 0.9)
VERL_TRAINER_DEFAULTS = {"trainer.n_gpus_per_node": 8, "trainer.nnodes": 1}


def rollout_world(site: Site) -> dict[str, Any]:
    """verl's hybrid-engine rollout runs on the trainer's own GPUs, split into groups of the rollout's
    tensor-parallel size; fsdp_workers.py _build_rollout asserts that they divide (0.2 … 0.5.0: "rollout
    world_size: 1 is not divisible by infer_tp: 2"; 0.6.0 on: infer_world_size). Nothing when a count is
    written with a value the audit cannot read."""
    if site.framework != "verl" or site.mode != "rlhf_colocate" or site.framework_command not in (None, "train"):
        return {}
    world = 1
    for key, default in VERL_TRAINER_DEFAULTS.items():
        written = (site.framework_written or {}).get(key)
        value = (site.framework_keys or {}).get(key, default if written is None else None)
        if (n := as_int(value)) is None or n < 1:
            return {}
        world *= n
    tp = site.settings.get("tensor_parallel_size")
    tp_v = as_int(tp.value) if tp is not None and tp.resolved else as_int((site.framework_defaults or {}).get("tensor_parallel_size"))
    out: dict[str, Any] = {"rollout_world": world}
    if tp_v is not None and tp_v > 0:
        # a power of two, as models' heads divide by those (L1 judges the heads)
        out["rollout_tp_fit"] = max(d for d in (1, 2, 4, 8, 16, 32, 64) if d <= tp_v and world % d == 0)
    return out


def _pow2_floor(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def framework_nodes(site: Site) -> int:
    """The nodes a framework spreads its workers over (verl's `trainer.nnodes`,
    `actor_rollout_ref.rollout.nnodes`): 1 when it says nothing."""
    best = 1
    for key, value in (site.framework_keys or {}).items():
        if key.rsplit(".", 1)[-1] in ("nnodes", "num_nodes") and isinstance(value, int) and not isinstance(value, bool) and value > best:
            best = value
    return best


def gpu_layout(engine: dict, visible: int | None, gpu_count, nodes: int = 1, launch: dict | None = None) -> dict[str, Any]:
    """GPUs one node must show this engine (tp × pp × local DP ranks) against the GPUs it sees
    (CUDA_VISIBLE_DEVICES, the container's request, else the machine's), and the nearest layout
    that fits: the same TP and PP with fewer replicas, else a smaller power-of-two TP. An engine a
    framework builds in its training process on one device (TRL 0.14–0.15 `vllm_device`) needs the
    GPUs up to that device instead."""
    device = (launch or {}).get("engine_device")
    if isinstance(device, int) and not isinstance(device, bool):
        seen = visible if visible is not None else (int(gpu_count) if isinstance(gpu_count, (int, float)) else None)
        shares = (launch or {}).get("engine_device_shares_single") and seen == 1
        placed: dict[str, Any] = {"gpus_needed": 1 if shares else device + 1, "multi_node": False}
        if shares or (device == 0 and seen == 1):
            placed["engine_shares_trainer_gpu"] = True  # the trainer's copy of the policy is on the same GPU
        if seen is not None and seen >= 1:
            placed["visible_gpus"] = seen
        return placed
    tp, pp, dp = (as_int(engine.get(k)) or 1 for k in ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size"))
    local = as_int(engine.get("data_parallel_size_local"))
    nnodes = as_int(engine.get("nnodes")) or 1
    multi = (nnodes > 1 or nodes > 1 or engine.get("distributed_executor_backend") == "ray" or bool(engine.get("headless"))
             or (local is not None and local < dp))
    dp_local = local if local is not None else dp
    # engine_gpus: every rank of every node (TP × PP × all DP replicas), the count a report says the launch runs on
    out: dict[str, Any] = {"gpus_needed": tp * pp * dp_local, "engine_gpus": tp * pp * max(dp, dp_local), "multi_node": multi}
    seen = visible if visible is not None else (int(gpu_count) if isinstance(gpu_count, (int, float)) else None)
    if seen is None or seen < 1:
        return out
    out["visible_gpus"] = seen
    if tp * pp * dp_local <= seen:
        return out
    fit: dict[str, int] = {}
    if tp * pp <= seen:
        fit["data_parallel_size"] = seen // (tp * pp)
    else:
        if dp_local > 1:
            fit["data_parallel_size"] = 1
        if pp > seen or tp > seen:
            new_pp = max(1, seen // tp) if tp <= seen else 1
            if new_pp != pp:
                fit["pipeline_parallel_size"] = new_pp
            pp = new_pp
        new_tp = _pow2_floor(max(1, seen // pp))
        if new_tp != tp:
            fit["tensor_parallel_size"] = new_tp
    out["fit"] = fit
    return out


def parser_facts(engine: dict, version: str, cat, model: str | None = None) -> dict[str, Any]:
    """Whether the tool-call / reasoning parser the site names is registered in its release, what
    to write instead (a renamed or misspelt name), the first release that has it, and the parser
    the model's family needs."""
    from vllm_kb.engine.kb import parsers

    out: dict[str, Any] = {}
    for kind, prefix in (("tool_call_parser", "tool_parser"), ("reasoning_parser", "reasoning_parser")):
        mine = parsers.for_model(kind, model, version, cat)
        if mine:
            out[f"model_{prefix}"] = mine
        name = engine.get(kind)
        if not isinstance(name, str) or not name:
            continue
        have = parsers.names(kind, version, cat)
        if have is None:
            continue
        out[f"{prefix}_known"] = name in have
        if name in have:
            gone = parsers.missing_tokens(name, version, model) if kind == "reasoning_parser" else None
            if gone:
                out["reasoning_parser_missing"] = ", ".join(gone)
            continue
        # a renamed or misspelt name, else the parser this release has for the model's family
        better = parsers.suggest(kind, name, version, cat) or (mine if mine and mine != name else None)
        if better:
            out[f"{prefix}_suggest"] = better
        first = parsers.first_release(kind, name)
        if first and cat.index_version(first) > cat.index_version(version):
            out[f"{prefix}_first"] = "==" + first
    return out


# Signs that a Ray cluster spans nodes for this launch: vLLM up to 0.11.0 moves a world larger than
# the node's GPUs onto it instead of failing.
# (`\bray\s+start\b` found by str.find: an alternation that starts with `\b` is tried at every
# position of the file, a millisecond per site of vLLM's own tree)
_RAY_WORDS = ("ray.init(", "RAY_ADDRESS", "ray_cluster", "multi-node-serving", "LeaderWorkerSet", "LWS_GROUP_SIZE")
_RAY_START = re.compile(r"\s+start\b")


def ray_cluster(site: Site, env: dict, read) -> bool:
    if "RAY_ADDRESS" in env or "LWS_GROUP_SIZE" in env:
        return True
    text = read(site.file) or ""
    return any(w in text for w in _RAY_WORDS) or python_text.word_with(text, "ray", _RAY_START, after_dot=True)
