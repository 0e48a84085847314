"""One file's sites: the scanner each kind of file goes to (commands, Python, Dockerfiles,
Makefiles, TOML, notebooks, service files; YAML and JSON after every command), each behind the
boundary that turns a scanner's error into a skipped file (engine/scan/project.py runs them)."""
from __future__ import annotations

import gc

from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import chatchat_config, configs, conflicts, deploy, makefile, notebooks, python_calls, scripts, service_files, words
from vllm_kb.engine.scan import heredoc_manifests, heredoc_python, hydra_compose, manifest_template, own_images, text_commands, toml_commands, verl_worker, vscode_launch, windows_scripts
from vllm_kb.engine.scan import readme_fences, readme_platform, shell_templates, yaml_python
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.site import Site
from vllm_kb.engine.scan.deploy import app_env, helm_chart, helm_choices, helm_umbrella, image_entry
from vllm_kb.engine.scan.yaml_docs import load_docs as _load_yaml_docs


def with_plugins(ctx: ScanContext, found: list[Site]) -> list[Site]:
    """The plugins each site's vLLM may load: the project's, and those its container image holds."""
    from vllm_kb.engine.scan.platform_of import PLATFORM_PLUGINS
    from vllm_kb.engine.scan.image_platform import build_platform

    for s in found:
        s.plugins = ctx.plugins | (kb_plugins.packages_in(s.image + "\n") if s.image else set())
        s.fork_options = ctx.fork_options
        if not s.image and not s.gpu_types and (near := readme_platform.folder_platform(ctx, s.file)):
            s.platform_near = near  # no image of its own: the one the folder's README runs it in
        if (s.image or (s.source or {}).get("build_dockerfile")) and (built := build_platform(ctx, s)):
            # the image's own Dockerfiles say its platform plugins, not another accelerator's Dockerfile
            s.plugins = frozenset(p for p in s.plugins if p not in PLATFORM_PLUGINS) | built[2]
            s.source = dict(s.source or {}, platform_build=(built[0], built[1]))
    return found


def scan_one(ctx: ScanContext, rel: str) -> list[Site] | None:
    """The sites of a command, Python, Dockerfile, Makefile, TOML or Triton config file; None for one not
    scanned in this pass (YAML and JSON come after every command, other files are not read)."""
    suffix = suffix_of(rel)
    if suffix == ".py":
        text = ctx.read(rel)
        found = sides(ctx, rel, text, lambda t: guarded(ctx, rel, python_calls.scan, t)) if text is not None else []
        if text is not None and chatchat_config.is_server_config(rel, text):  # Langchain-Chatchat's vLLM worker
            found += guarded(ctx, rel, chatchat_config.scan, text)
        if text is not None and hydra_compose.mentions(text):  # a verl run the script composes itself
            found += guarded(ctx, rel, hydra_compose.scan, text)
        if text is not None and verl_worker.mentions(text):  # a verl rollout worker the script builds itself
            found += guarded(ctx, rel, verl_worker.scan, text)
        _free_cycles()
        return found
    if deploy.is_dockerfile(rel):
        text = ctx.read(rel)
        return sides(ctx, rel, text, lambda t: guarded(ctx, rel, deploy.scan_dockerfile, t)) if text is not None else []
    if notebooks.is_notebook(rel):
        text = ctx.read(rel)
        return guarded(ctx, rel, notebooks.scan, text) if text is not None and "vllm" in text else None
    if suffix == ".json" and vscode_launch.is_launch_json(rel) and (text := ctx.read(rel)) is not None and "vllm" in text:
        got = guarded(ctx, rel, vscode_launch.scan, text)  # None: another tool's launch.json, read as JSON below
        if got is not None:
            return got
    if suffix in (".yaml", ".yml", ".json"):
        return None
    if windows_scripts.is_windows_script(rel):
        text = ctx.read(rel)
        if text is not None and ("vllm" in text or words.runs_entry_point(text)):
            return guarded(ctx, rel, windows_scripts.scan, text)
        return None
    if rel.rpartition("/")[2] == "config.pbtxt" or (suffix == ".toml" and not pins_mod.is_pin_file(rel)):  # toml: an argv (cerebrium.toml)
        text, scan = ctx.read(rel), (toml_commands.scan if suffix == ".toml" else deploy.scan_triton)
        text = manifest_template.toml_rendered(text) if text is not None and manifest_template.is_template(rel) else text
        return guarded(ctx, rel, scan, text) if text is not None and "vllm" in text else None
    if service_files.kind(rel):
        text = ctx.read(rel)
        return guarded(ctx, rel, service_files.scan, text) if text is not None and "vllm" in text else None
    if makefile.is_makefile(rel):
        text = ctx.read(rel)
        if text is not None and ("vllm" in text or words.framework_words(text) or words.runs_entry_point(text) or own_images.runs_built(ctx, text)):
            return sides(ctx, rel, text, lambda t: guarded(ctx, rel, makefile.scan, t))
        return None
    if app_env.is_env_file(rel) and (text := ctx.read(rel)) is not None and app_env.mentions(text):
        if found := guarded(ctx, rel, app_env.scan, text):  # an application server's own .env (api-for-open-llm)
            return found
    if readme_fences.is_readme(rel) and (text := ctx.read(rel)) is not None and "vllm" in text.lower():
        return guarded(ctx, rel, readme_fences.scan, text)  # documentation: sites, never a P0
    if suffix == ".txt" and (text := ctx.read(rel)) is not None and text_commands.candidate(rel, text):
        return guarded(ctx, rel, text_commands.scan, text)  # a command template the project's Python fills in
    template = shell_templates.is_template_script(rel)  # `serve.sh.j2`: read as the script it renders to
    if suffix in scripts.SHELL_SUFFIXES or suffix in scripts.BATCH_SUFFIXES or suffix == "" or template:
        text = ctx.read(rel) if suffix else head_if_script(ctx, rel)
        if text is not None and (template or shell_templates.templated(text)):
            text = shell_templates.rendered(text)  # template expressions unknown, lines and offsets the file's
        if text is not None and ("vllm" in text or words.framework_words(text) or words.runs_entry_point(text, ctx)
                                 or words.sets_devices(text) or own_images.runs_built(ctx, text)) and (template or scripts.is_shell(rel, text)):
            found = sides(ctx, rel, text, lambda t: guarded(ctx, rel, image_entry.scan_script, t))
            # a manifest the script writes with a here-document and applies, read as the YAML it is
            if manifests := heredoc_manifests.bodies(text):
                found += yaml_sites(ctx, rel, heredoc_manifests.masked(text, manifests))
            # `python - <<EOF`, `python -c "…"` (bodies' quoted flag and inline_bodies' quote kind share a place)
            if programs := [*heredoc_python.bodies(text), *heredoc_python.inline_bodies(text)]:
                found += guarded(ctx, rel, heredoc_python.scan, text, programs)
            return found
    return None


def yaml_sites(ctx: ScanContext, rel: str, text: str) -> list:
    if helm_chart.is_template(ctx, rel, text):  # Go-template actions: rendered with the chart's values, never a YAML error
        return guarded(ctx, rel, _template_sites, text)
    docs = _load_yaml_docs(ctx, rel, text)
    umbrella = guarded(ctx, rel, _umbrella_sites) if helm_umbrella.is_values(ctx, rel) else []
    return guarded(ctx, rel, deploy.scan_yaml, text, docs) + guarded(ctx, rel, configs.scan, docs) \
        + guarded(ctx, rel, yaml_python.scan, text, docs) + umbrella


def _umbrella_sites(ctx: ScanContext, rel: str) -> list:
    """An umbrella chart's values.yaml: each local vLLM subchart it enables, its templates rendered with
    the umbrella's values, one launch at the subchart's key (engine/scan/deploy/helm_umbrella.py)."""
    out = []
    for sub in helm_umbrella.subcharts(ctx, rel):
        for tpl, rendered in sub.chart.rendered.items():
            try:
                docs = helm_chart.prepare(ctx, tpl, yamlio.load_all(rendered), sub.chart)
            except (yamlio.YamlError, RecursionError):
                continue
            for s in helm_chart.unplaced(deploy.scan_yaml(ctx, rel, rendered, docs) + configs.scan(ctx, rel, docs)):
                s.line = s.end_line = sub.line
                s.mode_evidence = s.mode_evidence.replace(f"{rel}:", f"{tpl}:")  # the renderer keeps the template's lines
                if sub.args_list and isinstance(s.source, dict):
                    s.source["values_list"] = f"{sub.key}.{sub.args_list}"
                for setting in (*s.settings.values(), *s.env.values(), *s.unknown.values(), *([s.model] if s.model else [])):
                    flag = (setting.key or "").split("=", 1)[0]
                    setting.file, setting.line = rel, sub.line_of(flag, str(setting.raw or "").strip("'\""))
                out.append(s)
    return out


def _template_sites(ctx: ScanContext, rel: str, text: str) -> list:
    text = helm_chart.render(ctx, rel, text)
    try:
        docs = helm_chart.prepare(ctx, rel, yamlio.load_all(text))
    except (yamlio.YamlError, RecursionError) as e:
        ctx.skip(rel, "helm-template", getattr(e, "line", None))  # the renderer keeps the template's lines
        return []
    found = helm_chart.unplaced(guarded(ctx, rel, deploy.scan_yaml, text, docs) + guarded(ctx, rel, configs.scan, docs))
    source = ctx.read(rel) or ""
    if "eq" in source and ".Values." in source:  # a launch the chart renders under another value (`servingTopology: multiNode`)
        found += guarded(ctx, rel, helm_choices.sites, source, found,
                         lambda t, d: deploy.scan_yaml(ctx, rel, t, d) + configs.scan(ctx, rel, d))
    return found


def sides(ctx: ScanContext, rel: str, text: str, scan) -> list:
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


def guarded(ctx: ScanContext, rel: str, scanner, *args) -> list:
    """A scanner's findings in one file. A scanner bug (tests/test_fuzz.py hunts for them) costs
    that file, reported as skipped with the error, never the audit."""
    return ctx.one_launch(rel, None, scanner, ctx, rel, *args, failed=[])  # every other file is still audited


def suffix_of(rel: str) -> str:
    """PurePosixPath(rel).suffix.lower(), without building a path per file; a manifest template's
    is the data it renders to (`x.yaml.tpl`: `.yaml`, engine/scan/manifest_template.py)."""
    name = rel.rpartition("/")[2]
    dot = name.rfind(".")
    return manifest_template.data_suffix(name, name[dot:].lower() if 0 < dot < len(name) - 1 else "", suffix_of)


def head_if_script(ctx: ScanContext, rel: str) -> str | None:
    try:
        with open(ctx.root / rel, "rb") as f:
            head = f.read(64)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    return ctx.read(rel)
