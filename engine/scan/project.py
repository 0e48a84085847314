"""A project read: walk the tree, read the pins, run every scanner over the files that can hold
a site, and link trainers to the rollout servers they talk to. What `audit` and `detect` share,
before any check runs. The pins and each folder's release: engine/scan/project_pins.py; one
file's scanners: engine/scan/project_files.py."""
from __future__ import annotations

import copy
import gc
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator

from vllm_kb.engine.scan import entry_env, entry_flags, truss_config, framework_unplaced, parallel, peers, python_subclass, registered_models, windows_scripts, words
from vllm_kb.engine.scan import entry_modules, manifest_template, own_images
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.deploy import helm_chart, helm_umbrella, image_entry
from vllm_kb.engine.scan.project_files import scan_one, sides, suffix_of, with_plugins, yaml_sites
from vllm_kb.engine.scan.project_pins import Scan, begin
from vllm_kb.engine.scan.site import Site

__all__ = ["Scan", "begin", "choice_for", "copy_scan", "scan_project", "sites_by_file"]


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
    truss_config.apply(sc.sites, sc.ctx)  # a Truss's GPUs and base image, from its config.yaml
    entry_env.carry(sc.sites, sc.ctx)  # the GPUs a script starts a Python file on
    entry_flags.carry(sc.sites, sc.ctx)  # and the options it gives that file's own argparse
    peers.pair_peers(sc.sites)
    framework_unplaced.mark(sc.sites, sc.ctx)  # a framework from a git commit or branch: its release is not known
    return sc


def copy_scan(sc: Scan) -> Scan:
    """A project read that one more audit may consume (engine/audit.py `scanned`): an audit adds to
    its sites and context and lets go of the context's texts, so several audits of one read (one per
    GPU) each take a copy, about an eighth of the read's time. The release catalog is shared, not copied."""
    return copy.deepcopy(sc, {id(sc.ctx.catalog): sc.ctx.catalog})


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
        gc.freeze()  # out of the young collections below (project_files._free_cycles), which would walk it all once
    yaml_files: list[str] = []
    seen: list[Site] = []
    n = parallel.workers(len(files))
    if parallel.forced():
        done = parallel.scan(ctx, files, scan_one, n) if n > 1 else ((rel, scan_one(ctx, rel)) for rel in files)
    else:  # workers only once the pace says the scan ahead pays for them
        done = parallel.adaptive(ctx, files, scan_one, n)
    for rel, found in done:
        if progress is not None:
            progress("scan", len(files))
        if found is None:
            if suffix_of(rel) in (".yaml", ".yml", ".json"):
                yaml_files.append(rel)
            continue
        if rel in windows_runs:
            for s in found:
                s.launch.setdefault("windows_shell", windows_runs[rel])
        seen += found
        yield rel, with_plugins(ctx, found)
    # after the commands, so that a config a command already read is not read again
    for rel in yaml_files:
        if rel in ctx.referenced or pins_mod.is_pin_file(rel):
            continue
        text = ctx.read(rel)
        holes: list = []
        if text is not None and manifest_template.is_template(rel):
            text, holes = manifest_template.rendered(text)
        if text is None or not (words.yaml_candidate(text) or words.runs_entry_point(text) or helm_chart.candidate(ctx, rel, text)
                                    or helm_umbrella.is_values(ctx, rel) or own_images.yaml_candidate(ctx, rel, text)):
            continue
        got = manifest_template.mark(sides(ctx, rel, text, lambda t: yaml_sites(ctx, rel, t)), rel, holes)
        seen += got
        yield rel, with_plugins(ctx, got)
    for s in with_plugins(ctx, entry_modules.orphans(ctx, seen)):  # entry points no command runs
        yield s.file, [s]


def choice_for(file: str, choices: dict, default, own: dict | None = None):
    if own and file in own:
        return own[file]
    parts = PurePosixPath(file).parent.parts
    for depth in range(len(parts), -1, -1):
        key = "/".join(parts[:depth])
        if key in choices:
            return choices[key]
    return default
