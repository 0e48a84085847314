"""Framework sites whose framework is installed from a git commit or branch (`trl @
git+https://github.com/huggingface/trl.git@e751a16…`) rather than a release: which release's code
runs is not known, so nothing that holds only for some releases is taken as fact.

- `site.framework_unplaced` keeps the pin as written; the framework's own P0 findings that read the
  release are said at P1 (engine/check/catalog_findings.py);
- the engine arguments the framework hard-codes only in some releases (`fixed` entries with
  `versions`, e.g. TRL's max_num_batched_tokens=4096 from 0.19.0) are dropped: an unknown release
  is otherwise read as the newest, and a P0 (L17) would rest on that guess.

A commit the framework's history holds (knowledge/frameworks/git_history.json) is judged at the development
version its files said (trl e751a16: 0.17.0.dev0), which lies before the release it led to.

A release tag (`@v0.19.0`) gives the pin its version and is a release like any other.

A pin that allows a range (`trl>=0.14.0`, `trl[vllm]<0.17.0`) gives its lower bound as the version while pip
installs the newest release it resolves: `site.framework_range` / `framework_spec` keep it, and the framework's
own findings are judged over every release it allows (engine/check/framework_range.py); so are those of a pin
with the vllm extra and no version (`trl[vllm]`) beside a pinned vLLM, the releases whose extra takes that vLLM."""
from __future__ import annotations

from vllm_kb.engine.kb import framework_history, frameworks
from vllm_kb.engine.scan import framework_git


def mark(sites: list, ctx) -> None:
    for site in sites:
        if site.framework in (None, "none"):
            continue
        fw = frameworks.get(site.framework)
        pin = ctx.framework_pin(site.file, fw.package)
        if pin is not None and not pin.exact and not getattr(pin, "source", "") and not getattr(pin, "own", False):
            if _bounded(pin.spec):
                site.framework_range, site.framework_spec = pin.text, pin.spec
            elif not pin.spec and "vllm" in getattr(pin, "extras", ()):
                # `trl[vllm]` with no version: beside a pinned vLLM, the releases whose extra takes it
                site.framework_range = pin.text
        if site.framework_version:
            continue
        if pin is None or getattr(pin, "source", "") != "git" or pin.exact:
            continue
        site.framework_unplaced = pin.text
        every_release = {f["arg"] for f in fw.raw.get("fixed", []) if not f.get("versions")}
        site.fixed = {k: v for k, v in site.fixed.items() if k in every_release}
        # a commit the framework's history holds is the development version its files said then: the
        # framework's own findings are judged at it, not at the newest release (TinyZero-TRL, eval105:
        # trl at e751a16 is 0.17.0.dev0, whose GRPOConfig still has vllm_device; legacy-key said it gone)
        site.framework_version = _commit_version(pin.text) or ""


def _commit_version(text: str) -> str | None:
    g = framework_git.parse(text)
    got = framework_history.commit(g.package, g.ref) if g is not None and g.kind == "commit" else None
    return (got[0].get("version") or None) if got is not None else None


def _bounded(spec: str | None) -> bool:
    """A specifier that bounds the release from either side (`>=0.14.0`, `<0.17.0`, `~=0.9.1`), not an exact one."""
    parts = [p.strip() for p in (spec or "").split(",") if p.strip()]
    return bool(parts) and any(p.startswith((">", "<", "~=")) for p in parts) and not any(p.startswith(("==", "===")) for p in parts)

