"""A project's pins and the vLLM release of each folder: the walk (or the files given), every pin
file, script install and image, then the release each folder runs. The first stage of a project
read (engine/scan/project.py), before any scanner looks for a site."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import dependency_pins
from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan import makefile, notebooks
from vllm_kb.engine.scan import copied_requirements, extra_groups, extra_pins, fork_source, framework_source, notebook_json, own_release, pip_lines, source_pins, vendored
from vllm_kb.engine.scan import ansible_pins, build_args, conda_envs, doc_installs, installed_requirements, pin_scope, req_chains, script_installs, install_envs, install_pins, run_records, stale_freeze, sub_projects, truss_config
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.project_files import guarded
from vllm_kb.engine.scan.site import Site
from vllm_kb.engine.scan.walk import walk


@dataclass
class Scan:
    """What reading a project found, before any check runs (shared by audit and detect)."""

    root: Path
    files: list[str]
    ctx: ScanContext
    pins: list
    sites: list[Site]
    choices: dict
    default: pins_mod.VersionChoice
    # Dockerfiles that only start FROM a vLLM image: no launch of their own, the release they name
    # for the launches beside them (engine/scan/image_beside.py)
    image_only: list[Site] = field(default_factory=list)
    # a notebook that installs vLLM itself runs what it installs, whatever its folder's pins (pin_scope.notebook_choices)
    own: dict = field(default_factory=dict)



def begin(path: str | Path, *, vllm_version: str | None = None, exclude: Callable[[str], bool] | None = None,
          overlay: dict[str, str] | None = None, progress: Callable[[str, int], None] | None = None,
          files: list[str] | None = None) -> Scan:
    """The walk (or the `files` given), the pins and the vLLM release of each folder: a Scan with
    no sites yet."""
    cat = catalog_mod.load()
    root = Path(path)
    if not root.exists():
        raise UsageError(f"no such file or folder: {path}")
    single = None
    if root.is_file():
        single, root = root.name, root.parent
    if vllm_version is not None and try_parse(vllm_version) is None:
        raise UsageError(f"--vllm-version {vllm_version!r} is not a version number")
    if files is not None and single is None:
        files = list(files)
    else:
        files = [single] if single else walk(root, progress)
    ctx = ScanContext(root=root.resolve(), catalog=cat, default_version=cat.newest, forced_version=vllm_version or None)
    for rel, code, detail in getattr(files, "skipped", ()):
        ctx.skip(rel, code, detail=detail)
    if exclude is not None:
        files = [rel for rel in files if not exclude(rel)]
    if overlay:
        ctx._cache.update(overlay)
        ctx._overlaid = frozenset(overlay)
    ctx.files = list(files)

    all_pins: list[pins_mod.Pin] = []
    plugins: set[str] = set()
    ctx.build_args = build_args.values(ctx, files)  # `build: args: {VLLM_VERSION: …}` for a Dockerfile's ARG
    for rel in files:
        if pins_mod.is_pin_file(rel) or pins_mod.is_dockerfile(rel) or notebooks.is_notebook(rel):
            text = ctx.read(rel)
            if text is not None:
                # a notebook pins what its `%pip install vllm==X` cells install, read as RUN lines
                all_pins += guarded(ctx, rel, pins_mod.scan, notebook_json.pip_lines(text) if notebooks.is_notebook(rel) else text)
                plugins |= kb_plugins.packages_in(text, dockerfile=pins_mod.is_dockerfile(rel))
                if not pins_mod.is_pin_file(rel):
                    all_pins += source_pins.in_text(rel, install_pins.clones_expanded(text, ctx.build_args.get(rel)), pins_mod.Pin, shell=False, raw=text)
        elif rel.lower().endswith((".yml", ".yaml")):  # a conda environment file of any name (`conda env create -f x.yaml`)
            text = ctx.read(rel)
            if text is not None and truss_config.candidate(rel, text):  # a Truss's `requirements:` list
                all_pins += guarded(ctx, rel, truss_config.pins, text)
            elif text is not None and "vllm" in text.lower() and conda_envs.is_env_file(rel, text):
                all_pins += guarded(ctx, rel, pins_mod.scan, text)
            elif text is not None and "vllm" in text.lower() and ansible_pins.could_be(text):  # a playbook's pip tasks
                all_pins += guarded(ctx, rel, ansible_pins.pins, text)
        elif rel.endswith(".sh") or makefile.is_makefile(rel) or _apptainer_recipe(rel):  # a Makefile's `install:` recipe, as a script's lines
            text = ctx.read(rel)
            if text is not None and "/" in text:
                plugins |= kb_plugins.images_in(text)  # a platform plugin's image the script starts (vllm-ascend's)
            if text is not None and "install" in text and (not _apptainer_recipe(rel) or "Bootstrap:" in text):
                plugins |= {p for line in text.splitlines() if "install" in line for p in kb_plugins.packages_in(line)}
                all_pins += source_pins.in_text(rel, install_pins.clones_expanded(text), pins_mod.Pin, shell=True, raw=text)
                if pip_lines.PIP_INSTALL.search(text):  # the vLLM it installs before it starts one
                    all_pins += script_installs.mark_last(ctx, rel, text, guarded(ctx, rel, pins_mod.script_pins, text))
    # a requirements file of any name a script installs (`pip install -r my_requirements.txt`)
    scripts = [rel for rel in files if rel.endswith((".sh", ".bash")) or makefile.is_makefile(rel) or pins_mod.is_dockerfile(rel)]
    for rel in installed_requirements.files(ctx, scripts, pins_mod.is_pin_file):
        all_pins += guarded(ctx, rel, pins_mod.scan, ctx.read(rel) or "")
    all_pins = ansible_pins.agreed(all_pins) + run_records.scan(ctx, files, all_pins)  # playbooks that disagree name none; run records
    # a vLLM submodule (a fork's, pgimenes/adaserve) is a build from source; the options its tree defines are its own
    all_pins += fork_source.pins(ctx, scripts, pins_mod.Pin)
    ctx.fork_options = fork_source.options(ctx.root, [rel for rel, code, _d in getattr(files, "skipped", ()) if code == "vllm-source"])
    ctx.plugins = frozenset(plugins)
    no_deps: set[str] = set()
    for rel in files:  # requirement files installed with `pip install --no-deps -r`: no resolution joins their pins
        if _instructions(rel):
            text = ctx.read(rel)
            no_deps |= pip_lines.no_deps_files(rel, text, ctx.resolve_ref) if text else set()
    envs = install_envs.project_envs(files, ctx.read, ctx.resolve_ref, _instructions)
    vllm_by_file = {p.file: p.exact for p in all_pins if p.package == "vllm" and p.exact}
    for p in all_pins:
        p.no_deps = p.file in no_deps
        p.envs, p.file_vllm = envs.get(p.file, frozenset()), vllm_by_file.get(p.file)
    _own_envs(ctx, all_pins)
    all_pins = pins_mod.drop_stale_locks(all_pins)
    all_pins = stale_freeze.drop(all_pins, ctx.read)  # a pip freeze no instruction installs, beside the package's own declaration
    all_pins = extra_groups.narrow(files, ctx.read, all_pins)  # `pip install -e .[vllm]`: that extra's vLLM, not another's
    extra_groups.mark_unnamed(files, ctx.read, all_pins)  # a pin of an extra no install names: P0s also of the newest release
    all_pins += own_release.pins(files, ctx.read, pins_mod.Pin)  # an EasyR1 or NeMo-RL checkout: its own release
    all_pins += copied_requirements.pins(files, ctx.read, all_pins)  # a requirements file an image copies in and installs
    all_pins += req_chains.pins(ctx, files, all_pins, pins_mod.requirements_pins)  # `-r other.txt`: its pins, the includer's folder's
    # pins above the audited folder, up to its repository's root, stand where the folder has none
    have = {(p.folder, p.package) for p in all_pins}
    nearest: dict[str, str] = {}
    for p in pins_mod.pins_above(ctx, ctx.root, single=single is not None):
        first = nearest.setdefault(p.package, p.file)
        if ("", p.package) not in have and p.file == first:
            all_pins.append(p)
    # torch and the packages built against it are judged against vLLM's own pins (check L115), not listed as the project's
    # another platform's torch build (`torchvision==0.20.1` in an Ascend requirements-npu.txt) is no CUDA site's (pin_scope)
    ctx.dependency_pins = [p for p in all_pins if p.package in dependency_pins.PACKAGES and not pin_scope.is_variant(p.file)]
    all_pins = [p for p in all_pins if p.package not in dependency_pins.PACKAGES]
    ctx.dependency_pins = extra_groups.installed_only(files, ctx.read, ctx.dependency_pins,
                                                      [p for p in all_pins if p.package == "vllm"])
    ctx.image_installs = [p for p in all_pins if p.package == "vllm" and p.kind == "dockerfile" and p.exact and not pin_scope.is_variant(p.file)]
    hosts = [p for p in all_pins if p.package in pins_mod.HOST_PACKAGES]
    all_pins = [p for p in all_pins if p.package not in pins_mod.HOST_PACKAGES]
    known = _known_releases(cat)
    by_folder: dict[str, list[pins_mod.Pin]] = {}
    implied = extra_pins.vllm_ranges(all_pins) + extra_pins.docs_floors(ctx, files, all_pins)
    implied += doc_installs.last_installs(ctx, files, all_pins)  # a README's vllm==X after its `pip install -e .`
    implied += extra_pins.torch_ranges(ctx.dependency_pins, all_pins + implied, known)
    ctx.framework_copies = framework_source.copies(ctx.files, ctx.read)  # framework copies in the tree and the vLLM imports they run
    # another platform's requirements file, a vendored copy's own pins, a sub-folder script's install: not over the project's pins
    copy_roots = [c.root for c in ctx.framework_copies]
    own = sub_projects.outside(ctx.read, all_pins, copy_roots, "pyproject.toml" in ctx.files)  # a copy its own project, which the root package leaves out
    deciding = pin_scope.deciding(all_pins + implied + hosts, copy_roots, own)
    for p in deciding:
        if p.package == "vllm":
            by_folder.setdefault(p.folder, []).append(p)
    unused = pin_scope.unused_dev_files(ctx, {p.file for p in all_pins if p.package != "vllm" and p.kind == "requirements"})
    kept = {id(p) for p in deciding if p.file not in unused}
    # of a folder's files, one that also pins vLLM is the install its launches run (DB-Opt-R1: requirements-eval.txt's
    # vllm==0.11.0 with transformers>=4.55.2,<5, not requirements-trl.txt's transformers==5.5.4 for TRL alone)
    # a bare name or an unreadable specifier never outranks a pin that names a release (as for vLLM: pins.choose)
    # …and of one pyproject, the extra that lists vLLM (`verl = ["vllm==0.8.5", "transformers>=4.51.0,<5.0.0"]`) over its base list
    vgroups = {(p.file, p.group) for p in all_pins if p.package == "vllm"}
    ctx.framework_pins = {(p.folder, p.package): p for p in sorted(all_pins + hosts, key=lambda p: (
                              pins_mod.is_bare(p), not pins_mod.is_readable(p), p.file_vllm is None, pins_mod.RANK.get(p.kind, 9),
                              (p.file, p.group) not in vgroups, p.exact is None)) [::-1]
                          if p.package != "vllm" and id(p) in kept}
    ctx.source_built = frozenset(f for f, ps in by_folder.items() if any(p.source for p in ps))
    ctx.vendored = vendored.gates(ctx.files, ctx.read)  # framework copies in the tree: the gate that runs
    if vllm_version:
        forced = pins_mod.VersionChoice(vllm_version, True, "cli")
        choices = {"": forced}
        default = forced
    else:
        choices = {folder: pins_mod.choose(ps, known, cat.newest, ctx.dependency_pins) for folder, ps in by_folder.items()}
        if "" in choices:
            default = choices[""]
        elif len({c.version for c in choices.values()}) == 1 and choices and \
                not any(c.pin is not None and c.pin.kind == "docs" for c in choices.values()) \
                and not sub_projects.siblings_only(files, choices) and not truss_config.own_projects(ctx, choices):
            default = next(iter(choices.values()))  # one release everywhere (a tutorial's own floor stays in its folder)
        else:
            default = pins_mod.choose([], known, cat.newest)
    ctx.default_version = cat.resolve(default.version).version
    if "" not in choices and default.pin is not None:  # the pins beside the vLLM pin every unpinned folder runs
        ctx.default_mates = install_pins.installed_with(default.pin, [p for p in all_pins + hosts + ctx.dependency_pins
                                                                      if p.file not in unused], ctx.read)
    ctx.versions_by_dir = {f: cat.resolve(c.version).version for f, c in choices.items()}
    own = {} if vllm_version else pin_scope.notebook_choices(ctx, [p for p in deciding if p.package == "vllm"], choices, default,
                                                             lambda ps: pins_mod.choose(ps, known, cat.newest, ctx.dependency_pins))
    if not vllm_version:  # a Dockerfile's own build, not a sibling's (pin_scope.dockerfile_choices)
        own = {**pin_scope.dockerfile_choices([p for p in deciding if p.package == "vllm"], choices, default,
                                              lambda ps: pins_mod.choose(ps, known, cat.newest, ctx.dependency_pins)), **own}
    return Scan(root, files, ctx, all_pins, [], choices, default, own=own)


def _instructions(rel: str) -> bool:
    """A file whose shell lines install requirement files: a script, README, Makefile, Dockerfile."""
    return rel.endswith((".sh", ".md")) or makefile.is_makefile(rel) or pins_mod.is_dockerfile(rel)


def _known_releases(cat) -> list:
    from vllm_kb.engine.kb.versions import parse

    return [parse(v) for v in cat.raw.get("releases", cat.raw["versions"])]


def _apptainer_recipe(rel: str) -> bool:
    """An Apptainer/Singularity definition file (`x.def`, `Singularity`, `Singularity.gpu`; its text opens with
    `Bootstrap:`): its `%post` section is shell lines run at the image's build, so a `pip install vllm==X` there
    is the release the `.sif` built from it runs (olcf/olcf_containers_examples vllm0141rocm72.def)."""
    name = rel.rpartition("/")[2].lower()
    return name.endswith(".def") or name == "singularity" or name.startswith("singularity.")


def _own_envs(ctx, pins) -> None:
    """A conda environment file's pins are its named environment's; a setup script's own pin, the
    environment the script activated before it (where it named one): pins of two such environments
    never meet (engine/check/dependency_pins.py `_own_install`)."""
    names = {rel: f"env:{name}" for name, (rel, _p) in conda_envs.by_name(ctx).items()}
    at: dict = {}
    for p in pins:
        if p.envs:
            continue
        if p.kind == "conda" and p.file in names:
            p.envs = frozenset((names[p.file],))
        elif p.file.endswith((".sh", ".bash")):
            if p.file not in at:
                at[p.file] = install_envs.script_env_at(ctx.read(p.file) or "")
            if env := at[p.file](p.line):
                p.envs = frozenset((env,))
