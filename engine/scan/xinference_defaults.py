"""What Xinference's own release decides for the engine of a launch: from 2.12.0 trust_remote_code
is the server's XINFERENCE_TRUST_REMOTE_CODE (off unless set), whatever the launch passes
(knowledge/deploy/xinference.yaml `trust_remote_code_env`); 0.8.5-0.15.2 set max_model_len 4096
(`max_model_len_default`). The release is the project's pin of xinference; without one the default
is left unknown rather than assumed."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb import deploy_tools, versions

# files where a project sets the server's environment beside its launch script
_ENV_FILES = ("Dockerfile", "docker-compose", "compose.", ".env", "values", "deployment")


def _mentioned(ctx, rel: str, env: dict, name: str) -> bool:
    """The variable is set for the launch, or written anywhere the server's environment may come from."""
    if name in (env or {}):
        return True
    for f in [rel] + [f for f in ctx.files if any(f.rsplit("/", 1)[-1].startswith(p) or f.endswith(p) for p in _ENV_FILES)]:
        text = ctx.read(f)
        if text and name in text:
            return True
    return False


def engine_defaults(ctx, rel: str, env: dict, defaults: dict[str, Any]) -> dict[str, Any]:
    """The defaults of xinference.yaml for this launch, with trust_remote_code as the release sets it."""
    know = deploy_tools.load("xinference")
    spec = know.get("trust_remote_code_env") or {}
    out = dict(defaults)
    release = ctx.framework_version(rel, "xinference") if ctx is not None else None
    length = know.get("max_model_len_default") or {}
    if length and release is not None and versions.try_parse(release) is not None \
            and versions.contains(length["releases"], release):
        out.setdefault("max_model_len", length["value"])
    if not spec or "trust_remote_code" not in out:
        return out
    if release is None or versions.try_parse(release) is None:
        out.pop("trust_remote_code")  # the newest releases turn it off: unknown without the pin
    elif versions.contains(spec["releases"], release):
        if _mentioned(ctx, rel, env, spec["env"]):
            out.pop("trust_remote_code")  # the server's variable decides, and the project may set it
        else:
            out["trust_remote_code"] = False
    return out
