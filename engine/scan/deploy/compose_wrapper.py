"""Two compose forms whose vLLM command the argv alone does not show (eval81 jdaln/dgx-spark-inference-stack):

- a wrapper entrypoint: `entrypoint: [/bin/bash, /workspace/mods/fix/run.sh]` + `command: [vllm, serve, M, …]`.
  The script (mounted from the project) patches the image and ends in `exec "$@"`, so the command runs as
  it is written; read through the shell, `bash script args…` found no vLLM and 9 services were no site.
- an image whose ENTRYPOINT is `vllm` given `command: [serve, …]`: `vllm serve …` runs. Where the project
  builds the image (a `docker build -t NAME -f Dockerfile` in a script or in its README) the final stage's
  ENTRYPOINT decides; an image the project does not build is taken as `vllm` only where its name is vLLM's
  (`avarok/vllm-dgx-spark`), and the evidence says so."""
from __future__ import annotations

import json
import re
import shlex

from vllm_kb.engine.scan import mounted_config, own_images

_SHELLS = frozenset({"bash", "sh", "dash", "zsh"})
# the script hands its arguments on as a command: `exec "$@"` (or `"$@"` alone on a line, `exec -- "$@"`)
_PASSES = re.compile(r'^[ \t]*(?:exec[ \t]+(?:--[ \t]+)?)?"\$(?:@|\{@\})"[ \t]*(?:#.*)?$', re.M)


def wrapper_len(ctx, rel: str, entrypoint, mounts: dict | None) -> int:
    """How many words of `entrypoint` are a project script (and its shell) that runs its arguments as a
    command; 0 where it is not one, or the script is not in the project to read."""
    words = _words(entrypoint)
    if not words:
        return 0
    at = 1 if words[0].rsplit("/", 1)[-1] in _SHELLS and len(words) > 1 else 0
    script = words[at]
    if len(words) != at + 1 or not script.endswith(".sh"):
        return 0  # `bash -c "…"`, options, or arguments of its own: read through the shell as before
    path = mounted_config.project_file(ctx, rel, script, mounts) if script.startswith("/") else ctx.resolve_ref(rel, script)
    text = ctx.read(path) if path else None
    return len(words) if text and _PASSES.search(text) else 0


def serve_entry(ctx, image: str | None, command) -> tuple[list[str], str] | None:
    """(["vllm"], why) where `command` starts with `serve` on an image whose ENTRYPOINT is vllm."""
    words = _words(command)
    if not words or words[0] != "serve" or not isinstance(image, str) or "$" in image:
        return None
    got = own_images.entry_program(ctx, image)
    if got is not None:
        return (["vllm"], got[1]) if got[0] == "vllm" else None
    from vllm_kb.engine.scan.images import is_vllm_image, is_vllm_like_image

    if own_images.dockerfiles(ctx, image, docs=True) or is_vllm_image(image) or not is_vllm_like_image(image):
        return None  # built here but not read, or the official image (its entrypoint is already `vllm serve`)
    return ["vllm"], f'ENTRYPOINT ["vllm"]?: {image}'  # language-neutral: the report shows it as written


def _words(val) -> list[str]:
    if isinstance(val, list):
        return [str(v) for v in val]
    if isinstance(val, str):
        try:
            got = json.loads(val) if val.lstrip().startswith("[") else shlex.split(val)
        except ValueError:
            return []
        return [str(v) for v in got] if isinstance(got, list) else []
    return []
