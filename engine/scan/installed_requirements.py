"""A requirements file of any name that a project script installs (`pip install -r my_requirements.txt`
in install.sh): a pin source like requirements.txt, for the folder it sits in. Only files named
`requirement*`, `constraints*.txt` or kept under `requirements/` are read as pins by name
(engine/scan/pins.py is_pin_file); eval89 Lorenayannnnn/classmate-cot-verl
(https://github.com/Lorenayannnnn/classmate-cot-verl) pins vllm==0.11.0 in my_requirements.txt, which
its install.sh installs, and was judged unpinned (the newest release)."""
from __future__ import annotations

from vllm_kb.engine.scan import pip_lines

_FLAGS = ("-r", "--requirement", "-c", "--constraint")


def _refs(words: list[str]):
    for k, w in enumerate(words):
        opt, eq, val = w.partition("=")
        if opt in _FLAGS:
            ref = val if eq else (words[k + 1] if k + 1 < len(words) else "")
        elif w.startswith("-r") and len(w) > 2 and not w.startswith("--"):
            ref = w[2:]
        else:
            continue
        if ref:
            yield ref.strip("'\"")


def files(ctx, scripts: list[str], is_pin_file) -> list[str]:
    """The project's text files of requirements that `scripts` install with -r/-c and that are not read by name."""
    out: dict[str, None] = {}
    for rel in scripts:
        text = ctx.read(rel)
        if not text or "-r" not in text and "--requirement" not in text and "-c" not in text and "--constraint" not in text:
            continue
        docker = rel.rpartition("/")[2].lower().startswith(("dockerfile", "containerfile"))
        for _, _, _, words in pip_lines.pip_commands(text if docker else pip_lines.as_run(text)):
            for ref in _refs(words):
                got = ctx.resolve_ref(rel, ref)
                if got is not None and got.endswith((".txt", ".in")) and not is_pin_file(got):
                    out[got] = None
    return list(out)
