"""How a change is spelled at sites that are not a plain `vllm serve` line, a vLLM Python call or
a serve YAML: RL-framework keys (a TRL kwarg, a verl Hydra override, an OpenRLHF flag in the
generation the script already uses, a LLaMA-Factory/ms-swift key) and container launches
(Dockerfile CMD, compose `command:`, Kubernetes `args:`, Helm values)."""
from __future__ import annotations

import json
import shlex
from typing import Any

from vllm_kb.engine.kb import frameworks
from vllm_kb.engine.scan.deploy import llmkube, vllmruntime
from vllm_kb.engine.scan.images import env_image
from vllm_kb.engine.scan.site import Setting, Site

DEPLOY_SYNTAXES = ("dockerfile", "compose", "k8s-args", "helm-values", "vscode-launch")
# argv lists whose changes are told in the list's own form; a Python list (`subprocess.run([...])`,
# Vertex AI's serving_container_args) is told, never written (its items may be f-strings or names)
ARGV_SYNTAXES = (*DEPLOY_SYNTAXES, "python-argv")
# operators' resources whose fields write engine arguments (scan/deploy/vllmruntime.py, llmkube.py):
# style → (argument → path under spec, the value as the field types it, the list the rest go to,
# whether a switch field can only turn its flag on: LLMKube writes nothing for false)
CRD_FIELDS: dict[str, tuple[dict, Any, str, bool]] = {
    "vllmruntime": (vllmruntime.KEYS, vllmruntime.crd_value, "vllmConfig.extraArgs", False),
    "llmkube": (llmkube.KEYS, lambda target, value: value, "extraArgs", True),
}


def crd_field(style: str, target: str, value: Any) -> tuple | None:
    """The spec path a fix writes `target` at in an operator's resource, when a field holds it."""
    got = CRD_FIELDS.get(style)
    if got is None or (got[3] and value is False):
        return None
    return got[0].get(target)
# production-stack's vllmConfig keys (helm/templates/deployment-vllm-multi.yaml); anything else
# goes in extraArgs.
PRODUCTION_STACK_KEYS = {
    "enable_chunked_prefill": "enableChunkedPrefill", "enable_prefix_caching": "enablePrefixCaching",
    "max_model_len": "maxModelLen", "dtype": "dtype", "tensor_parallel_size": "tensorParallelSize",
    "max_num_seqs": "maxNumSeqs", "gpu_memory_utilization": "gpuMemoryUtilization", "max_loras": "maxLoras",
}


def literal(value: Any, style: str) -> str:
    """A value as the site writes values: python, yaml, shell word or Hydra."""
    if style == "python":
        from vllm_kb.engine.fix.literals import py_literal

        return py_literal(value)
    if isinstance(value, bool):
        return ("True" if value else "False") if style == "hydra" else ("true" if value else "false")
    if isinstance(value, float) and value.is_integer():  # novermin: float.is_integer
        value = int(value)
    if isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False)
        return f"'{text}'" if style in ("shell", "hydra") else text
    if style == "shell":
        return shlex.quote(str(value))
    return str(value)


def framework_text(site: Site, key: str, value: Any, existing: Setting | None, syntax: str) -> str | None:
    """`vllm_gpu_memory_utilization=0.4`, `--vllm.enable_sleep`, `actor_rollout_ref.rollout.x=1`, …
    None when the value is a switch's absence."""
    fw = frameworks.get(site.framework)
    style = _cli_style(site, fw)
    if syntax == "python-call":
        return f"{key}={literal(value, 'python')}"
    if syntax in ("yaml-config", "framework-config"):
        return f"{key.rsplit('.', 1)[-1] if '.' in key and existing is not None else key}: {literal(value, 'yaml')}"
    if syntax == "hydra-override" or style["flag"] == "{key}={value}":
        return f"{key}={literal(value, 'hydra' if syntax == 'hydra-override' else 'shell')}"
    flag = "--" + key.lstrip("-")
    if isinstance(value, bool) and style["bool"] == "switch":
        return flag if value else None
    return f"{flag} {literal(value, 'shell')}"


def framework_key(site: Site, target: str, value: Any) -> tuple[str, Any] | None:
    """The key (as this site would write it) and value that set an engine argument through the
    framework; None when the framework does not expose the argument."""
    fw = frameworks.get(site.framework)
    k = fw.key_for_arg(target, site.framework_version, site.framework_command)
    if k is None and site.framework_version:
        # this release has no key named for it (verl before 0.7 reads none named
        # enable_sleep_mode: an unknown Hydra key stops the trainer); the key it derives it from
        got = fw.deriving_key(target, value, site.framework_version)
        k, value = got if got is not None else (None, value)
    if k is not None and site.framework_unplaced and not site.framework_version and fw.first_of_some(k) is not None:
        return None  # a git commit of unknown release: the key may be one that commit ignores or rejects
    if k is not None:
        return _spelling(site, fw, k), value
    pt = fw.passthrough_for(site.framework_version)
    if not pt:
        return None
    # key=value overrides (Hydra, OmegaConf) reach into the mapping with a dotted key; flags and
    # config files write the whole mapping (a JSON string on a command line)
    dotted = site.syntax == "hydra-override" or (site.syntax == "cli" and _cli_style(site, fw)["flag"] == "{key}={value}")
    if pt.get("json") or not dotted:
        merged = dict(site.framework_keys.get(pt["key"]) or {})
        merged[target] = value
        return pt["key"], merged
    prefix = pt.get("new_key_prefix", "")
    return f"{prefix}{pt['key']}.{target}", value


def _cli_style(site: Site, fw) -> dict:
    """The framework's flag style, unless this command takes plain flags (LLaMA-Factory's
    scripts/vllm_infer.py reads `--key value`, not the CLI's `key=value`)."""
    if (site.source or {}).get("arg_style") == "flags" and fw.cli_style["flag"] == "{key}={value}":
        return {"flag": "--{key}", "bool": "value"}
    return fw.cli_style


def _spelling(site: Site, fw, k) -> str:
    """OpenRLHF has two generations of flags: write the one the script already uses."""
    if not k.aliases:
        return k.key
    # the spellings as written (framework_written), not framework_keys: those are keyed by the
    # canonical, dotted name whatever the script wrote, so a flat-flag script read as dotted
    written = [s.key for s in site.settings.values() if s.key] + list(site.framework_written or ())
    dotted = any("." in w.lstrip("-") for w in written if fw.key(w) is not None)
    flat = any("." not in w.lstrip("-") and fw.key(w) is not None and fw.key(w).aliases for w in written)
    if flat and not dotted:
        return k.aliases[0]
    if not written and site.framework_version and fw.raw.get("spelling", {}).get("dotted_from"):
        from vllm_kb.engine.kb.versions import parse

        if parse(site.framework_version) < parse(fw.raw["spelling"]["dotted_from"]):
            return k.aliases[0]
    return k.key


def deploy_text(site: Site, target: str, value: Any, flag: str | None, existing: Setting | None = None) -> str | None:
    """An argument as the container spec writes arguments: JSON-array items, a YAML list, a
    command string, a production-stack vllmConfig key, or Python list items (`"--k=v"` where the
    list writes the option that way)."""
    if site.syntax == "python-argv":
        if flag is None or value is False:
            return None
        joined = existing is not None and bool(existing.raw) and "=" in existing.raw and existing.key in existing.raw
        tokens = [flag] if value is True else ([f"{flag}={_plain(value)}"] if joined else [flag, _plain(value)])
        return ", ".join(json.dumps(t, ensure_ascii=False) for t in tokens)
    style = (site.source or {}).get("argv_style", "string")
    if style == "production-stack":
        key = PRODUCTION_STACK_KEYS.get(target)
        if key:
            return f"{key}: {literal(value, 'yaml')}"
    if (site.source or {}).get("option_keys") and flag is not None:  # KAITO's ConfigMap `vllm:` block: the flag as a key
        return f"{flag.lstrip('-')}: {literal(value, 'yaml')}"
    if at := crd_field(style, target, value):
        return f"{'.'.join(at)}: {literal(CRD_FIELDS[style][1](target, value), 'yaml')}"
    if flag is None:
        return None
    tokens = [flag] if isinstance(value, bool) and value else ([] if isinstance(value, bool) else [flag, _plain(value)])
    if not tokens:
        return None
    if len(tokens) == 2 and style in ("json", "yaml-list") and _joined(existing):
        tokens = [f"{flag}={tokens[1]}"]  # the item the file has, `--k=v`, is the item --fix rewrites (deploy_edits.py)
    if style == "production-stack" or style in CRD_FIELDS:
        return (CRD_FIELDS[style][2] if style in CRD_FIELDS else "extraArgs") + ": [" + ", ".join(json.dumps(t) for t in tokens) + "]"
    if listed := (site.source or {}).get("values_list"):  # an umbrella chart's: the values list its subchart's args range over
        return f"{listed}: [" + ", ".join(json.dumps(t) for t in tokens) + "]"
    if style in ("json", "yaml-list"):
        return ", ".join(json.dumps(t) for t in tokens)
    return " ".join(shlex.quote(t) for t in tokens)


def _joined(existing: Setting | None) -> bool:
    """Whether an existing option is written as one `--k=v` item."""
    if existing is None or not existing.raw or "=" not in existing.raw:
        return False
    def bare(k: str) -> str:
        return k.lstrip("-").replace("-", "_")
    return bare(existing.raw.split("=", 1)[0]) == bare(existing.key)


def _plain(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and value.is_integer():  # novermin: float.is_integer
        return str(int(value))
    return str(value)


def env_text(syntax: str, name: str, value: Any, env_style: str | None = None) -> str:
    """Setting an environment variable where this site's environment is declared; `env_style`:
    how a compose service already writes its `environment:` ("map" or "list")."""
    v = str(value)
    if syntax == "compose" and env_style == "map":
        return f"environment: {{{name}: {json.dumps(v)}}}"
    if syntax == "ray-env-kwargs-yaml":
        return f"runtime_env: {{env_vars: {{{name}: {json.dumps(v)}}}}}"
    if syntax == "ray-env-python-call":
        return f"runtime_env={{\"env_vars\": {{{json.dumps(name)}: {json.dumps(v)}}}}}"
    if syntax == "python-call":
        return f"os.environ[{json.dumps(name)}] = {json.dumps(v)}"
    if syntax == "dockerfile":
        return f"ENV {name}={shlex.quote(v)}"
    if syntax == "compose":
        return f"environment: [{json.dumps(name + '=' + v)}]"
    if syntax in ("k8s-args", "helm-values"):
        return f"env: [{{name: {name}, value: {json.dumps(v)}}}]"
    if syntax == "vscode-launch":
        return f"\"env\": {{{json.dumps(name)}: {json.dumps(v)}}}"
    return f"export {name}={shlex.quote(v)}"


def worker_env(site: Site, target: str) -> str | None:
    """The env var an env-configured worker image reads for an engine argument (its alias, else
    the argument in upper case where the image reads every field so), or None."""
    found = env_image(site.image) if site.image and site.syntax in DEPLOY_SYNTAXES else None
    if found is None or target == "model":
        return None
    entry = found[0]
    named = [k for k, v in (entry.get("aliases") or {}).items() if v == target]
    if named:
        return named[0]
    return target.upper() if entry.get("generic") and target.upper() not in set(entry.get("reserved") or ()) else None


def worker_env_value(value: Any) -> str:
    """A value as a worker reads it from its env: JSON for a mapping or list, true/false for a switch."""
    return json.dumps(value) if isinstance(value, (dict, list)) else str(value).lower() if isinstance(value, bool) else str(value)


def argv_written(s: Setting) -> str:
    """A Python argv list's option as written: its item(s), `"--k=v"` or `"--k", "v"`."""
    if not s.raw or s.key in s.raw:
        return s.raw or json.dumps(s.key)
    return f"{json.dumps(s.key)}, {s.raw}"
