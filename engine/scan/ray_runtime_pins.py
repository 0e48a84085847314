"""The vLLM a Ray `runtime_env` installs for the code it runs: a KubeRay RayService (or a Serve config)
application whose `import_path` names a project module and whose `runtime_env.pip` lists
`vllm==0.4.3` (GoogleCloudPlatform/kubernetes-engine-samples ai-ml/gke-ray/rayserve/llm/llama-3-8b/
ray-service.yaml → serve_chat_completion.py), or a `@serve.deployment(ray_actor_options={"runtime_env":
{"pip": [...]}})` on the class itself. Ray builds that environment for the replica's process, so the module
runs that release, whatever the folder's pins say (eval115 M2: judged at the newest, a false L139 P1).

Only an exact or bounded requirement counts. A bare `vllm` in `pip` keeps a vLLM the image already holds
(pip's "already satisfied"), and an application with no vLLM in its `pip` runs the image's: neither says
a release, so a module any such application imports gets none from here. Two applications that pin one
module to different exact releases make it a range over them (engine/scan/pin_alternatives.py `choice`):
a refusal only some of them meet is no P0."""
from __future__ import annotations

from vllm_kb.engine.scan import pins
from vllm_kb.engine.scan.requirement import Pin

# what `_bind` (engine/scan/python_facts.py) keeps per deployment of a module: (yaml file, line, requirement
# text), or None where the application's runtime_env names no bounded vLLM
Install = tuple[str, int, str] | None


def requirement(runtime_env) -> str | None:
    """The vLLM requirement of a runtime_env's `pip` (a list, or `{"packages": [...]}`), as written."""
    if not isinstance(runtime_env, dict):
        return None
    reqs = runtime_env.get("pip")
    if isinstance(reqs, dict):
        reqs = reqs.get("packages")
    if not isinstance(reqs, list):
        return None
    found = [r.strip() for r in reqs if isinstance(r, str) and _names_vllm(r)]
    return found[-1] if found else None


def _names_vllm(req: str) -> bool:
    p = pins.from_requirement("", 0, req.replace(" ", ""), "image")
    return p is not None and p.package == "vllm"


def located(rel: str, text: str, req: str | None, after: str) -> Install:
    """(file, line, requirement): the line that writes `req` first after the one that writes `after`
    (the application's import_path), where the RayService's serveConfigV2 is a string YAML has no
    positions for."""
    if req is None:
        return None
    lines = text.splitlines()
    start = next((n for n, raw in enumerate(lines) if after in raw), 0)
    at = next((n for n in range(start, len(lines)) if req in lines[n]), None)
    if at is None:
        at = next((n for n, raw in enumerate(lines) if req in raw), start)
    return (rel, at + 1, req)


def apply(site, installs: tuple, versions, newest) -> None:
    """Site.installed (or a range of release alternatives) from every application that deploys the
    site's module; nothing where one of them says no release."""
    if not installs or site.installed is not None or any(i is None for i in installs):
        return
    got = []
    for rel, line, text in installs:
        p = pins.from_requirement(rel, line, text.replace(" ", ""), "image")
        if p is None or p.source or not p.spec.strip():
            return  # a bare name or a build from sources: no release said here
        p.text = text
        got.append(p)
    if len({p.text.replace(" ", "") for p in got}) == 1:
        site.installed = pins.site_install(got[:1], versions, newest)
        if site.installed is not None:
            site.launch["ray_runtime_env"] = True
        return
    if all(p.exact for p in got):  # different exact releases per application: a range over them
        site.launch["release_alternatives"] = [(p.exact, Pin(p.file, p.line, p.text, p.spec, "image", p.exact)) for p in got]
        site.launch["ray_runtime_env"] = True
