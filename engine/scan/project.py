"""A project read: walk the tree, read the pins, run every scanner over the files that can hold
a site, and link trainers to the rollout servers they talk to. What `audit` and `detect` share,
before any check runs."""
from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import dependency_pins, yamlio
from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan import chatchat_config, configs, conflicts, deploy, entry_env, entry_flags, makefile, notebooks, parallel, python_calls, python_subclass, scripts, service_files, words
from vllm_kb.engine.scan import copied_requirements, extra_groups, extra_pins, framework_source, framework_unplaced, notebook_json, own_images, own_release, pip_lines, registered_models, source_pins, vendored, windows_scripts
from vllm_kb.engine.scan import ansible_pins, build_args, conda_envs, pin_scope, req_chains, entry_modules, heredoc_manifests, heredoc_python, hydra_compose, script_installs, install_envs, install_pins, manifest_template, peers, run_records, text_commands, toml_commands, verl_worker, yaml_python
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.site import Site
from vllm_kb.engine.scan.deploy import app_env, helm_chart, image_entry
from vllm_kb.engine.scan.walk import walk
from vllm_kb.engine.scan.yaml_docs import load_docs as _load_yaml_docs


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


def scan_project(path: str | Path, *, vllm_version: str | None = None, exclude: Callable[[str], bool] | None = None,
                 overlay: dict[str, str] | None = None, progress: Callable[[str, int], None] | None = None,
                 files: list[str] | None = None) -> Scan:
    """`files` (relative to the folder `path`) are read instead of walking the tree: how an agent
    hook audits the files it just wrote with only the pins and configs around them."""
    sc = begin(path, vllm_version=vllm_version, exclude=exclude, overlay=overlay, progress=progress, files=files)
    sc.sites = image_entry.with_docker_runs(sc.ctx, sc.sites + [s for _rel, found in sites_by_file(sc, progress) for s in found])
    sc.sites = [s for s in sc.sites if s.id not in sc.ctx.absorbed]  # read as part of another (a KServe runtime)
    # a framework script's copy in the project that a launch runs (LLaMA-Factory's vllm_infer.py): its LLM() is that
    # launch, whose arguments and GPUs the run script gives, not a second site
    launched = {s.launch["runs_file"] for s in sc.sites if s.launch.get("runs_file")}
    sc.sites = [s for s in sc.sites if s.file not in launched or s.launch.get("runs_file")]
    sc.image_only = [s for s in sc.sites if s.launch.get("image_only")]
    sc.sites = [s for s in sc.sites if not s.launch.get("image_only")]
    entry_env.carry(sc.sites, sc.ctx)  # the GPUs a script starts a Python file on
    entry_flags.carry(sc.sites, sc.ctx)  # and the options it gives that file's own argparse
    peers.pair_peers(sc.sites)
    framework_unplaced.mark(sc.sites, sc.ctx)  # a framework from a git commit or branch: its release is not known
    return sc


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
                all_pins += _guarded(ctx, rel, pins_mod.scan, notebook_json.pip_lines(text) if notebooks.is_notebook(rel) else text)
                plugins |= kb_plugins.packages_in(text, dockerfile=pins_mod.is_dockerfile(rel))
                if not pins_mod.is_pin_file(rel):
                    all_pins += source_pins.in_text(rel, text, pins_mod.Pin, shell=False)
        elif rel.lower().endswith((".yml", ".yaml")):  # a conda environment file of any name (`conda env create -f x.yaml`)
            text = ctx.read(rel)
            if text is not None and "vllm" in text.lower() and conda_envs.is_env_file(rel, text):
                all_pins += _guarded(ctx, rel, pins_mod.scan, text)
            elif text is not None and "vllm" in text.lower() and ansible_pins.could_be(text):  # a playbook's pip tasks
                all_pins += _guarded(ctx, rel, ansible_pins.pins, text)
        elif rel.endswith(".sh") or makefile.is_makefile(rel):  # a Makefile's `install:` recipe, as a script's lines
            text = ctx.read(rel)
            if text is not None and "install" in text:
                plugins |= {p for line in text.splitlines() if "install" in line for p in kb_plugins.packages_in(line)}
                all_pins += source_pins.in_text(rel, text, pins_mod.Pin, shell=True)
                if pip_lines.PIP_INSTALL.search(text):  # the vLLM it installs before it starts one
                    all_pins += script_installs.mark_last(ctx, rel, text, _guarded(ctx, rel, pins_mod.script_pins, text))
    all_pins = ansible_pins.agreed(all_pins) + run_records.scan(ctx, files, all_pins)  # playbooks that disagree name none; run records
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
    all_pins = pins_mod.drop_stale_locks(all_pins)
    all_pins = extra_groups.narrow(files, ctx.read, all_pins)  # `pip install -e .[vllm]`: that extra's vLLM, not another's
    all_pins += own_release.pins(files, ctx.read, pins_mod.Pin)  # an EasyR1 or NeMo-RL checkout: its own release
    all_pins += copied_requirements.pins(files, ctx.read, all_pins)  # a requirements file an image copies in and installs
    all_pins += req_chains.pins(ctx, files, all_pins, pins_mod.requirements_pins)  # `-r other.txt`: its pins, the includer's folder's
    # pins above the audited folder, up to its repository's root, stand where the folder has none
    have = {(p.folder, p.package) for p in all_pins}
    nearest: dict[str, str] = {}
    for p in pins_mod.pins_above(ctx, ctx.root):
        first = nearest.setdefault(p.package, p.file)
        if ("", p.package) not in have and p.file == first:
            all_pins.append(p)
    # torch and the packages built against it are judged against vLLM's own pins (check L115), not listed as the project's
    # another platform's torch build (`torchvision==0.20.1` in an Ascend requirements-npu.txt) is no CUDA site's (pin_scope)
    ctx.dependency_pins = [p for p in all_pins if p.package in dependency_pins.PACKAGES and not pin_scope.is_variant(p.file)]
    all_pins = [p for p in all_pins if p.package not in dependency_pins.PACKAGES]
    ctx.dependency_pins = extra_groups.installed_only(files, ctx.read, ctx.dependency_pins,
                                                      [p for p in all_pins if p.package == "vllm"])
    hosts = [p for p in all_pins if p.package in pins_mod.HOST_PACKAGES]
    all_pins = [p for p in all_pins if p.package not in pins_mod.HOST_PACKAGES]
    known = _known_releases(cat)
    by_folder: dict[str, list[pins_mod.Pin]] = {}
    implied = extra_pins.vllm_ranges(all_pins) + extra_pins.docs_floors(ctx, files, all_pins)
    implied += extra_pins.torch_ranges(ctx.dependency_pins, all_pins + implied, known)
    ctx.framework_copies = framework_source.copies(ctx.files, ctx.read)  # framework copies in the tree and the vLLM imports they run
    # another platform's requirements file, a vendored copy's own pins, a sub-folder script's install: not over the project's pins
    deciding = pin_scope.deciding(all_pins + implied + hosts, [c.root for c in ctx.framework_copies])
    for p in deciding:
        if p.package == "vllm":
            by_folder.setdefault(p.folder, []).append(p)
    kept = {id(p) for p in deciding}
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
                not any(c.pin is not None and c.pin.kind == "docs" for c in choices.values()):
            default = next(iter(choices.values()))  # one release everywhere (a tutorial's own floor stays in its folder)
        else:
            default = pins_mod.choose([], known, cat.newest)
    ctx.default_version = cat.resolve(default.version).version
    if "" not in choices and default.pin is not None:  # the pins beside the vLLM pin every unpinned folder runs
        ctx.default_mates = install_pins.installed_with(default.pin, all_pins + hosts + ctx.dependency_pins, ctx.read)
    ctx.versions_by_dir = {f: cat.resolve(c.version).version for f, c in choices.items()}
    own = {} if vllm_version else pin_scope.notebook_choices(ctx, [p for p in deciding if p.package == "vllm"], choices, default,
                                                             lambda ps: pins_mod.choose(ps, known, cat.newest, ctx.dependency_pins))
    return Scan(root, files, ctx, all_pins, [], choices, default, own=own)


def sites_by_file(sc: Scan, progress: Callable[[str, int], None] | None = None) -> Iterator[tuple[str, list[Site]]]:
    """(file, its sites) for every file that can hold one, in the order of the walk: commands,
    Python and Dockerfiles first, then the YAML and JSON no command already read. A consumer may
    stop early (detect); peers are not linked yet (pair_peers)."""
    ctx, files = sc.ctx, sc.files
    # before the workers fork: the project's own subclasses of vllm.LLM, whose calls are sites anywhere
    ctx.llm_subclasses = python_subclass.index(ctx, files)
    ctx.registered_archs = registered_models.index(ctx, files)  # out-of-tree models (ModelRegistry.register_model)
    windows_runs = windows_scripts.index(ctx, files)  # Python files a .bat/.ps1 runs in native Windows
    ctx.entry_index = entry_modules.index(ctx, files)  # console scripts and modules that parse vLLM's CLI
    if not gc.isenabled():  # what is loaded so far (the knowledge, the catalog, the file list) stays to the end
        gc.freeze()  # out of the young collections below (_free_cycles), which would walk it all once
    yaml_files: list[str] = []
    seen: list[Site] = []
    n = parallel.workers(len(files))
    if parallel.forced():
        done = parallel.scan(ctx, files, _scan_one, n) if n > 1 else ((rel, _scan_one(ctx, rel)) for rel in files)
    else:  # workers only once the pace says the scan ahead pays for them
        done = parallel.adaptive(ctx, files, _scan_one, n)
    for rel, found in done:
        if progress is not None:
            progress("scan", len(files))
        if found is None:
            if _suffix(rel) in (".yaml", ".yml", ".json"):
                yaml_files.append(rel)
            continue
        if rel in windows_runs:
            for s in found:
                s.launch.setdefault("windows_shell", windows_runs[rel])
        seen += found
        yield rel, _with_plugins(ctx, found)
    # after the commands, so that a config a command already read is not read again
    for rel in yaml_files:
        if rel in ctx.referenced or pins_mod.is_pin_file(rel):
            continue
        text = ctx.read(rel)
        holes: list = []
        if text is not None and manifest_template.is_template(rel):
            text, holes = manifest_template.rendered(text)
        if text is None or not (words.yaml_candidate(text) or words.runs_entry_point(text) or helm_chart.candidate(ctx, rel, text)):
            continue
        got = manifest_template.mark(_sides(ctx, rel, text, lambda t: _yaml_sites(ctx, rel, t)), rel, holes)
        seen += got
        yield rel, _with_plugins(ctx, got)
    for s in _with_plugins(ctx, entry_modules.orphans(ctx, seen)):  # entry points no command runs
        yield s.file, [s]


def _with_plugins(ctx: ScanContext, found: list[Site]) -> list[Site]:
    """The plugins each site's vLLM may load: the project's, and those its container image holds."""
    for s in found:
        s.plugins = ctx.plugins | (kb_plugins.packages_in(s.image + "\n") if s.image else set())
    return found


def _scan_one(ctx: ScanContext, rel: str) -> list[Site] | None:
    """The sites of a command, Python, Dockerfile, Makefile, TOML or Triton config file; None for one not
    scanned in this pass (YAML and JSON come after every command, other files are not read)."""
    suffix = _suffix(rel)
    if suffix == ".py":
        text = ctx.read(rel)
        found = _sides(ctx, rel, text, lambda t: _guarded(ctx, rel, python_calls.scan, t)) if text is not None else []
        if text is not None and chatchat_config.is_server_config(rel, text):  # Langchain-Chatchat's vLLM worker
            found += _guarded(ctx, rel, chatchat_config.scan, text)
        if text is not None and hydra_compose.mentions(text):  # a verl run the script composes itself
            found += _guarded(ctx, rel, hydra_compose.scan, text)
        if text is not None and verl_worker.mentions(text):  # a verl rollout worker the script builds itself
            found += _guarded(ctx, rel, verl_worker.scan, text)
        _free_cycles()
        return found
    if deploy.is_dockerfile(rel):
        text = ctx.read(rel)
        return _sides(ctx, rel, text, lambda t: _guarded(ctx, rel, deploy.scan_dockerfile, t)) if text is not None else []
    if notebooks.is_notebook(rel):
        text = ctx.read(rel)
        return _guarded(ctx, rel, notebooks.scan, text) if text is not None and "vllm" in text else None
    if suffix in (".yaml", ".yml", ".json"):
        return None
    if windows_scripts.is_windows_script(rel):
        text = ctx.read(rel)
        if text is not None and ("vllm" in text or words.runs_entry_point(text)):
            return _guarded(ctx, rel, windows_scripts.scan, text)
        return None
    if rel.rpartition("/")[2] == "config.pbtxt" or (suffix == ".toml" and not pins_mod.is_pin_file(rel)):  # toml: an argv (cerebrium.toml)
        text, scan = ctx.read(rel), (toml_commands.scan if suffix == ".toml" else deploy.scan_triton)
        text = manifest_template.toml_rendered(text) if text is not None and manifest_template.is_template(rel) else text
        return _guarded(ctx, rel, scan, text) if text is not None and "vllm" in text else None
    if service_files.kind(rel):
        text = ctx.read(rel)
        return _guarded(ctx, rel, service_files.scan, text) if text is not None and "vllm" in text else None
    if makefile.is_makefile(rel):
        text = ctx.read(rel)
        if text is not None and ("vllm" in text or words.framework_words(text) or words.runs_entry_point(text) or own_images.runs_built(ctx, text)):
            return _sides(ctx, rel, text, lambda t: _guarded(ctx, rel, makefile.scan, t))
        return None
    if app_env.is_env_file(rel) and (text := ctx.read(rel)) is not None and app_env.mentions(text):
        if found := _guarded(ctx, rel, app_env.scan, text):  # an application server's own .env (api-for-open-llm)
            return found
    if suffix == ".txt" and (text := ctx.read(rel)) is not None and text_commands.candidate(rel, text):
        return _guarded(ctx, rel, text_commands.scan, text)  # a command template the project's Python fills in
    if suffix in scripts.SHELL_SUFFIXES or suffix in scripts.BATCH_SUFFIXES or suffix == "":
        text = ctx.read(rel) if suffix else _head_if_script(ctx, rel)
        if text is not None and ("vllm" in text or words.framework_words(text) or words.runs_entry_point(text, ctx)
                                 or words.sets_devices(text) or own_images.runs_built(ctx, text)) and scripts.is_shell(rel, text):
            found = _sides(ctx, rel, text, lambda t: _guarded(ctx, rel, image_entry.scan_script, t))
            # a manifest the script writes with a here-document and applies, read as the YAML it is
            if manifests := heredoc_manifests.bodies(text):
                found += _yaml_sites(ctx, rel, heredoc_manifests.masked(text, manifests))
            # `python - <<EOF`, `python -c "…"` (bodies' quoted flag and inline_bodies' quote kind share a place)
            if programs := [*heredoc_python.bodies(text), *heredoc_python.inline_bodies(text)]:
                found += _guarded(ctx, rel, heredoc_python.scan, text, programs)
            return found
    return None


def _yaml_sites(ctx: ScanContext, rel: str, text: str) -> list:
    if helm_chart.is_template(ctx, rel, text):  # Go-template actions: rendered with the chart's values, never a YAML error
        return _guarded(ctx, rel, _template_sites, text)
    docs = _load_yaml_docs(ctx, rel, text)
    return _guarded(ctx, rel, deploy.scan_yaml, text, docs) + _guarded(ctx, rel, configs.scan, docs) \
        + _guarded(ctx, rel, yaml_python.scan, text, docs)


def _template_sites(ctx: ScanContext, rel: str, text: str) -> list:
    text = helm_chart.render(ctx, rel, text)
    try:
        docs = helm_chart.prepare(ctx, rel, yamlio.load_all(text))
    except (yamlio.YamlError, RecursionError) as e:
        ctx.skip(rel, "helm-template", getattr(e, "line", None))  # the renderer keeps the template's lines
        return []
    return helm_chart.unplaced(_guarded(ctx, rel, deploy.scan_yaml, text, docs) + _guarded(ctx, rel, configs.scan, docs))


def _sides(ctx: ScanContext, rel: str, text: str, scan) -> list:
    """A file with unresolved merge-conflict markers is read once per side; what the sides agree on
    stays known (engine/scan/conflicts.py)."""
    if not conflicts.has_markers(text):
        return scan(text)
    ctx.skip(rel, "merge-conflict", conflicts.first_marker_line(text))
    ours, theirs = conflicts.sides(text)
    return conflicts.merge(scan(ours), scan(theirs))


def _free_cycles() -> None:
    """The one-shot commands run without the cycle collector (cli/main.py), and a Python file's
    scan leaves cycles behind (a value resolver and the flow that holds it, each holding the
    file's parsed tree): with nothing to free them, vLLM's own tree kept about 600 parsed modules
    alive to the end. A young collection here sees only what was allocated since the previous
    file (the sites kept are moved out of it and not looked at again; what was loaded before the
    scan is frozen out of it), so it costs about what this file's garbage is. With the collector
    on (the MCP server, tests) it runs by itself."""
    if not gc.isenabled():
        gc.collect(0)


def _guarded(ctx: ScanContext, rel: str, scanner, *args) -> list:
    """A scanner's findings in one file. A scanner bug (tests/test_fuzz.py hunts for them) costs
    that file, reported as skipped with the error, never the audit."""
    try:
        return scanner(ctx, rel, *args)
    except RecursionError:
        ctx.skip(rel, "parse-error", detail="nesting too deep")
    except Exception as e:  # noqa: BLE001 — the boundary: every other file is still audited
        ctx.skip(rel, "scanner-error", detail=f"{type(e).__name__}: {e}"[:160])
    return []


def _suffix(rel: str) -> str:
    """PurePosixPath(rel).suffix.lower(), without building a path per file; a manifest template's
    is the data it renders to (`x.yaml.tpl`: `.yaml`, engine/scan/manifest_template.py)."""
    name = rel.rpartition("/")[2]
    dot = name.rfind(".")
    return manifest_template.data_suffix(name, name[dot:].lower() if 0 < dot < len(name) - 1 else "", _suffix)


def _head_if_script(ctx: ScanContext, rel: str) -> str | None:
    try:
        with open(ctx.root / rel, "rb") as f:
            head = f.read(64)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    return ctx.read(rel)


def _instructions(rel: str) -> bool:
    """A file whose shell lines install requirement files: a script, README, Makefile, Dockerfile."""
    return rel.endswith((".sh", ".md")) or makefile.is_makefile(rel) or pins_mod.is_dockerfile(rel)


def _known_releases(cat) -> list:
    from vllm_kb.engine.kb.versions import parse

    return [parse(v) for v in cat.raw.get("releases", cat.raw["versions"])]


def choice_for(file: str, choices: dict, default, own: dict | None = None):
    if own and file in own:
        return own[file]
    parts = PurePosixPath(file).parent.parts
    for depth in range(len(parts), -1, -1):
        key = "/".join(parts[:depth])
        if key in choices:
            return choices[key]
    return default
