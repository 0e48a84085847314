"""The project script a compose service runs from a bind mount: `volumes: [./start.sh:/app/start.sh:ro]`
with `entrypoint: ["/bin/sh", "/app/start.sh"]` on `image: vllm/vllm-openai:v0.21.0`. The script
runs inside that container, so its `vllm serve` runs the image's release and sees the service's
environment — as a script a Dockerfile COPYs in and runs does (engine/scan/deploy/image_entry.py,
which takes these rows into its index). Audited on its own, the script pins nothing and was judged
at the newest release (eval75 Shivam-Patel-LR/vLLM-deployments qwen3-vl-reranker-2b/start.sh).
A script two services run with different images is left alone."""
from __future__ import annotations

import json
import posixpath
import shlex

from vllm_kb.engine.scan import envfile, mounted_config
from vllm_kb.engine.scan.deploy.compose import _mounts
from vllm_kb.engine.scan.deploy import compose_env
from vllm_kb.engine.scan.deploy.compose_env import _service_env
from vllm_kb.engine.scan.deploy.dockerfile import _final_stage, build_dockerfile


def rows(ctx, script_of) -> dict[str, tuple]:
    """Project script → (compose file, line, image, installed, env, image line, copies) of the one service whose
    entrypoint/command runs it from a bind mount. `script_of`: the file an argv string runs (image_entry._script)."""
    seen: dict[str, list[tuple]] = {}
    for rel, doc, dotenv, folder, name, svc in compose_env.services(ctx, "volumes"):
        got = _service(ctx, rel, folder, name, svc, doc, dotenv, script_of)
        if got is not None:
            seen.setdefault(got[0], []).append(got[1])
    return {f: found[0] for f, found in seen.items() if len({r[2] for r in found}) == 1}


def _service(ctx, rel: str, folder: str, name: str, svc: dict, doc, dotenv: dict, script_of):
    argv: list[str] = []
    line = None
    for part in ("entrypoint", "command"):
        val = svc.get(part)
        if isinstance(val, list):
            argv += [str(v) for v in val]
        elif isinstance(val, str):
            try:
                argv += shlex.split(val)
            except ValueError:
                return None
        if val is not None and line is None:
            line = doc.line_of(("services", name, part))
    if not argv or line is None:
        return None
    script = script_of(json.dumps(argv))
    mounts = _mounts(svc)
    target = mounted_config.project_file(ctx, rel, script, mounts) if script and script.startswith("/") else None
    if target is None:
        return None
    image, installed = svc.get("image"), None
    if svc.get("build") and (df := build_dockerfile(ctx, folder, svc["build"])) and (text := ctx.read(df)):
        st = _final_stage(df, text, ctx.build_args.get(df))
        image = st.get("image") or image
        if st.get("installed"):
            installed = (st["installed"][0], f"{df}:{st['installed'][1]}", st["installed"][2])
    if isinstance(image, str) and "$" in image:
        try:
            image = envfile.interpolate(image, dotenv.get)
        except envfile._Missing:
            image = None
    if not isinstance(image, str) or not image or "$" in image:
        return None
    copies = {}
    for dst, srcs in (mounts or {}).items():
        paths = [posixpath.normpath(posixpath.join(folder, s)) for s in srcs if isinstance(s, str) and s.startswith(("./", "../"))]
        if paths and not any(p.startswith("..") for p in paths):
            copies[dst] = paths
    env = _service_env(ctx, rel, svc, dotenv, line)
    at = doc.line_of(("services", name, "image")) if not svc.get("build") and "image" in svc else None  # where a release change goes
    return target, (rel, line, image, installed, env, at, copies)
