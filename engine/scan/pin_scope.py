"""Which pins may decide a folder's release: some files name versions for another environment than
the one the project's own pin files describe, and must not outrank them.

- An accelerator-variant requirements file (`requirements-npu.txt`, `-rocm`, `-xpu`, `-cpu`,
  `-tpu`, `-hpu`, `-neuron`) pins what that platform's install takes. Where a pin file that is no
  variant names the same package for the same folder or one above it, the variant stands aside: it
  is not what the default (CUDA) install gets. LiveMCP-GRPO's vendored verl pins
  `transformers==4.52.4` only in its Ascend `requirements-npu.txt`; the project pins 4.57.6.
- A framework's vendored copy (a `verl/` checkout inside the project, engine/scan/framework_source.py)
  carries upstream's requirement files; the project installs its own. Where the project's root pins
  a package, the copy's pins of it stand aside for the copy's files as well — except where the
  root's vLLM pin is a range (or a bare name): the copy's code still runs only on the
  releases it admits, so for its files the range is both at once (`within`), where some release
  meets both. TFGame's root `vllm>=0.2.0` over its vendored verl's `vllm<=0.6.3`: 0.6.3. Nor where
  the copy is a project of its own that the root package leaves out (engine/scan/sub_projects.py):
  its own pins decide, or, where the root package's files are not read, the root's release is
  judged with the copy's beside it (`rival`).
- A shell script's `pip install vllm==X` (engine/scan/install_pins.py script_pins) in a sub-folder
  decides the release of the launches on its own path (engine/scan/script_installs.py); it does not
  outrank, for the other launches of its folder, a pin file above that pins the package readably — as in
  one folder, where a requirements file already ranks above a script's line (requirement.RANK).
  DB-Opt-R1's `scripts/setup_sm120_vllm_flashinfer_env.sh` installs vllm 0.20.0 into a conda
  environment of its own (its sibling installs transformers 4.52.4 into a LLaMA-Factory one), while
  `scripts/serve_vllm.sh` runs the project's `vllm==0.11.0` with `transformers>=4.55.2,<5`.
- A notebook's own `!pip install` cells build the environment it runs in (a Colab runtime, a fresh
  kernel): where a notebook installs vLLM itself its sites run that, not a sibling notebook's or the
  folder's pin (notebook_choices). A bare name counts only with `-U`/`--upgrade` (the newest release);
  a plain `pip install vllm` keeps the release the environment already holds. TRL's notebooks
  folder: grpo_agent.ipynb installs vllm==0.11.2, sft_trl_lora_qlora.ipynb `pip install -qU vllm`.
- A requirements file whose name says it is for tests, development or docs (`requirements-test.txt`,
  `dev-requirements.txt`, `requirements/docs.txt`) and that no other file of the project names — no
  install line, Dockerfile, workflow, Makefile, tox/nox file, setup.py/pyproject, README — is installed by
  nothing the audit can see (unused_dev_files): its framework pins (transformers, …) do not stand for a
  launch. production-stack's requirements-test.txt pins transformers==4.51.1 beside vllm==0.13.0 while
  its workflows install `-e .[…]` (pyproject, no transformers pin) and its charts run their images."""
from __future__ import annotations

import dataclasses
import re
from pathlib import PurePosixPath

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet
from vllm_kb.engine.scan import pins as pins_mod

# `requirements-npu.txt`, `requirements_rocm.txt`, `requirements/rocm.txt`, `requirements-cpu-build.txt`
_VARIANT = re.compile(r"(?:^|[-_./])(npu|rocm|xpu|cpu|tpu|hpu|neuron|ascend|gaudi|musa|mlu)(?:[-_.]|$)", re.I)
_PIN_FILE_KINDS = ("lock", "requirements", "pyproject", "setup", "conda")


def is_variant(rel: str) -> bool:
    """A requirements file for one accelerator platform (its name or its folder's `requirements/`)."""
    path = PurePosixPath(rel)
    name = path.name.lower()
    if name.endswith((".txt", ".in", ".lock")) and name.startswith("requirement"):
        return _VARIANT.search(name[len("requirement"):].lstrip("s")) is not None
    return path.parent.name.lower() == "requirements" and _VARIANT.search(path.stem) is not None


def _covers(folder: str, sub: str) -> bool:
    """Whether a pin of `folder` applies to the files of `sub` (the folder itself or one below)."""
    return folder == "" or sub == folder or sub.startswith(folder + "/")


def _readable(p) -> bool:
    if p.exact:
        return True
    try:
        return bool(p.spec.strip()) and bool(SpecifierSet(p.spec))
    except (InvalidSpecifier, ValueError):
        return False


# the part of a requirements file's name that says what it is for
_DEV = re.compile(r"(?:^|[-_./])(tests?|testing|dev|devel|develop|development|docs?|lint|ci)(?:[-_.]|$)", re.I)
_TEXT = (".txt", ".in", ".sh", ".bash", ".md", ".rst", ".yml", ".yaml", ".toml", ".cfg", ".ini", ".py", ".json", ".ipynb", ".mk")


def _dev_name(rel: str) -> bool:
    path = PurePosixPath(rel)
    name = path.name.lower()
    if not name.endswith((".txt", ".in")):
        return False
    if "requirement" in name:
        return _DEV.search(name.replace("requirements", "").replace("requirement", "")) is not None
    return path.parent.name.lower() == "requirements" and _DEV.search(path.stem) is not None


def unused_dev_files(ctx, pin_files: set[str]) -> set[str]:
    """The test/dev/docs requirements files among `pin_files` that no other project file names."""
    dev = {f for f in pin_files if _dev_name(f)}
    if not dev:
        return set()
    names = {f: PurePosixPath(f).name for f in dev}
    named: set[str] = set()
    for rel in ctx.files:
        leaf = PurePosixPath(rel).name.lower()
        if rel in dev or not (leaf.endswith(_TEXT) or "docker" in leaf or leaf in ("makefile", "gnumakefile", "procfile")):
            continue
        text = ctx.read(rel) or ""
        named |= {f for f, n in names.items() if f not in named and n in text}
        if named == dev:
            break
    return dev - named


def _script(rel: str) -> bool:
    return rel.endswith((".sh", ".bash")) or PurePosixPath(rel).name.lower() in ("makefile", "gnumakefile")


def deciding(pins: list, copy_roots: list[str], own: dict[str, bool] | None = None) -> list:
    """The pins that may decide a folder's release (vLLM's, and the frameworks' by the nearest
    folder); the others stay in the project's list of pins, read for the report. `own`: the copies
    that are projects of their own outside the root package (engine/scan/sub_projects.py)."""
    plain = [p for p in pins if not is_variant(p.file)]
    own = own or {}
    out = []
    for p in pins:
        mine = p.folder
        if is_variant(p.file) and any(q.package == p.package and _covers(q.folder, mine) for q in plain):
            continue  # another platform's pin
        roots = [q for q in pins if q.package == p.package and q.folder == "" and not is_variant(q.file)]
        copy = next((r for r in copy_roots if r and _covers(r, mine)), None) if mine else None
        if copy is not None and roots:
            if (both := _within(p, roots)) is not None:
                out.append(both)  # the copy's range within the project's floor
            elif own.get(copy):
                out.append(p)  # the root package leaves the copy out: its own install decides its files
            elif copy in own and p.package == "vllm" and (rival := _rival(p, roots)):
                # either environment may run them: judged at the root's release, a P0 of it alone not certain
                out.append(dataclasses.replace(next(q for q in roots if q.exact), rival=rival, for_copy=mine))
            continue  # the vendored copy's own pin, below the project's
        if mine and _script(p.file) and not p.last_install and any(
                q.package == p.package and q.kind in _PIN_FILE_KINDS and q.folder != mine and _covers(q.folder, mine)
                and _readable(q) and not is_variant(q.file) for q in pins):
            continue  # a setup script's install, below a pin file above its folder
        out.append(p)
    return out


def _rival(p, roots: list) -> str:
    """The newest known release the copy's own pin admits, where the root pins another exactly; else ""."""
    exact = {q.exact for q in roots if q.exact}
    if len(exact) != 1 or not _readable(p):
        return ""
    if p.exact:
        return "" if p.exact in exact else p.exact
    cat = catalog_mod.load()
    try:
        spec = SpecifierSet(p.spec)
    except (InvalidSpecifier, ValueError):
        return ""
    admitted = [str(v) for v in cat.raw.get("releases", cat.raw["versions"]) if spec.contains(str(v))]
    return "" if not admitted or spec.contains(next(iter(exact))) else max(admitted, key=cat.index_version)


def _within(p, roots: list):
    """A vendored copy's vLLM pin narrowed by the project's root pins where those are ranges
    (`vllm>=0.2.0`, a bare `vllm`) and a known release meets both; None where the root decides
    alone (an exact pin, a source build, a specifier not read) or nothing meets both."""
    if p.package != "vllm" or p.source or not p.spec.strip() or not _readable(p):
        return None
    if any(q.exact or q.source or (q.spec.strip() and not _readable(q)) for q in roots):
        return None
    floors = [q for q in roots if q.spec.strip()]
    spec = ",".join([p.spec.strip()] + [q.spec.strip() for q in floors])
    try:
        both = SpecifierSet(spec)
    except (InvalidSpecifier, ValueError):
        return None
    cat = catalog_mod.load()
    if not any(both.contains(str(v)) for v in cat.raw.get("releases", cat.raw["versions"])):
        return None
    said = "; ".join(f"{q.file}:{q.line} ({q.text})" for q in (floors or roots))
    return dataclasses.replace(p, spec=spec, within=said)


_UPGRADE = re.compile(r"\s(?:-[A-Za-z]*U[A-Za-z]*|--upgrade)\b")


def notebook_choices(ctx, vllm_pins: list, choices: dict, default, choose) -> dict:
    """notebook → the release its own vLLM installs choose (`choose(pins)`: pins.choose), for each
    notebook whose installs say more than its folder's choice: a release, or a bare `-U` install."""
    by_nb: dict[str, list] = {}
    for p in vllm_pins:
        if p.file.endswith(".ipynb") and not p.above and p.included_in is None and p.installed_in is None:
            by_nb.setdefault(p.file, []).append(p)
    out = {}
    for nb, ps in by_nb.items():
        lines = (ctx.read(nb) or "").splitlines()
        mine = [p for p in ps if p.spec.strip() or p.exact or p.source
                or 0 < p.line <= len(lines) and _UPGRADE.search(lines[p.line - 1].replace("\\n", " "))]
        if not mine:
            continue
        got = choose(mine)
        parts = PurePosixPath(nb).parent.parts
        folder = next((choices[k] for d in range(len(parts), -1, -1) if (k := "/".join(parts[:d])) in choices), default)
        if got.pin is not None and folder.pin is not None and (got.pin.file, got.pin.line) == (folder.pin.file, folder.pin.line):
            continue  # the folder's choice is this notebook's own install already
        out[nb] = got
    return out


def dockerfile_choices(vllm_pins: list, choices: dict, default, choose) -> dict:
    """Dockerfile → the release its own vLLM install chooses, for each Dockerfile that installs or builds
    vLLM itself while its folder's choice is another file's: an image runs what its own build installs,
    never a sibling Dockerfile's (substratusai/vllm-docker: Dockerfile.cpu builds v${VERSION} with
    `ARG VERSION=0.6.4.post1`, Dockerfile.cuda-arm `ARG VLLM_REF=v0.8.2`, Dockerfile.tpu 0.6.6.post1)."""
    by_file: dict[str, list] = {}
    for p in vllm_pins:
        if pins_mod.is_dockerfile(p.file) and not p.above and p.included_in is None and (p.spec.strip() or p.exact or p.source):
            by_file.setdefault(p.file, []).append(p)
    out = {}
    for df, ps in by_file.items():
        parts = PurePosixPath(df).parent.parts
        folder = next((choices[k] for d in range(len(parts), -1, -1) if (k := "/".join(parts[:d])) in choices), default)
        if folder.pin is not None and folder.pin.file == df:
            continue  # the folder's choice is this Dockerfile's own install already
        out[df] = choose(ps)
    return out
