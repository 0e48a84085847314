"""What a container's own command installs before it starts vLLM: `pip install -U transformers && vllm
serve …` (a compose `command`, a Kubernetes `args` script, a Dockerfile CMD in shell form), the usual
way to run a model newer than the image. Those packages, not the image's, are the ones vLLM imports;
`--no-deps` installs them without what they require (transformers 5 without the huggingface_hub 1.x
it imports from), which is the second half of the same story (check L155)."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import pip_lines
from vllm_kb.engine.scan.requirement import make_pin, package_name

# where the script starts vLLM: what it installs after that runs too late to matter
_LAUNCH = re.compile(r"\bvllm\s+serve\b|vllm\.entrypoints|\bpython3?\s+-m\s+vllm\b")
_REQ = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*((?:[<>=!~]=?|===)\s*[^;\s]+(?:\s*,\s*[<>=!~]=?\s*[^;\s,]+)*)?$")


def installs(texts: list[str]) -> list[dict]:
    """Each package the scripts' pip commands install before the launch: {package, spec, text, no_deps}."""
    out: list[dict] = []
    for text in texts:
        if not text or "install" not in text or not pip_lines.PIP_INSTALL.search(text):
            continue
        head = _LAUNCH.split(text, 1)[0]
        for _, _, _, words in pip_lines.pip_commands(pip_lines.as_run(head)):
            no_deps = "--no-deps" in words
            for w in pip_lines.requirement_words(words):
                if m := _REQ.match(w.strip()):
                    out.append({"package": package_name(m.group(1)), "spec": (m.group(3) or "").replace(" ", ""),
                                "text": w, "no_deps": no_deps, "quote": _quote(head, w)})
    return out


def _quote(head: str, word: str) -> str | None:
    """How the requirement is written in the command, once: its quote, "" (bare) or None (written twice, not
    found): a requirement added beside it (engine/fix/pins.py) is quoted the same way."""
    if head.count(word) != 1:
        return None
    for q in ("'", '"'):
        if head.count(f"{q}{word}{q}") == 1:
            return q
    return "" if re.search(r"(?:^|\s)" + re.escape(word) + r"(?=\s|$)", head) else None


def pin_for(site, package: str):
    """The site's own command's install of `package` as a pin (written at the site), None if none."""
    got = [i for i in site.launch.get("entry_installs") or [] if i["package"] == package]
    if not got:
        return None
    # a bare name installs pip's newest release: any version, as far as a pin says
    p = make_pin(site.file, site.line, got[-1]["text"], got[-1]["spec"] or ">=0.0.0", "entry")
    p.package = package
    return p


def adopt_vllm(site) -> None:
    """`docker run IMAGE bash -c "pip install vllm==0.6.3 && vllm serve …"`: the container serves the vLLM
    its own command installs, whatever the image holds (a torch or CUDA image's tag names no vLLM); read as
    the last install on the launch's path (Site.installed), as a script's own `pip install` is."""
    from vllm_kb.engine.scan.pin_choice import site_install

    own = pin_for(site, "vllm")
    if site.installed or own is None or own.spec == ">=0.0.0":
        return
    if (got := site_install([own])) is not None:
        site.installed = got
        site.launch["installed_on_path"] = True
