"""The vLLM release a site runs and its facts (engine/audit.py builds one per site before the checks):
the folder's pin choice, overridden by what the site's own launch says — an image tag or build date,
its own install, a remote host, a GPUStack or Xinference server, a Docker Model Runner, an image
built here — then the facts at that release, and where the release is not certain (a build between
two releases, a development build, a framework range, the image beside) the facts at the other end."""
from __future__ import annotations

import re
from functools import partial
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.check import candidates, framework_compat, framework_range, name_guess, unpinned
from vllm_kb.engine.check.facts import site_facts
from vllm_kb.engine.check.host_compat import release_defaults
from vllm_kb.engine.check.lora_adapters import training_ranks
from vllm_kb.engine.check.startup_modelcap import mark_local
from vllm_kb.engine.kb import frameworks
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.scan import deploy, image_beside, pin_alternatives, pins as pins_mod, source_pins, vendored, xinference_server
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.dmr_launch import model_runner_choice
from vllm_kb.engine.scan.images import dated_release, own_numbering
from vllm_kb.engine.scan.site import Site


def _training_ranks(ctx: ScanContext) -> dict:
    """The project's LoRA training configs by output_dir, read once per audit and only when a site
    names an adapter folder the project does not hold (engine/check/lora_adapters.py)."""
    got = ctx.__dict__.get("_lora_training")
    if got is None:
        got = ctx.__dict__["_lora_training"] = training_ranks(ctx.files, ctx.read)
    return got


def _install(site: Site, choice, basis: str, ctx: ScanContext) -> str | None:
    """How the site's vLLM was installed, where that decides an optional dependency: "image" (vLLM's
    own image, which ships FlashInfer), "pip" (a plain pin; FlashInfer is an extra before 0.11.1 —
    setup.py `extras_require["flashinfer"]` 0.10.1-0.11.0 — and not installed unless asked for)."""
    if basis == "image":
        return "image"
    pin = choice.pin
    if basis != "pin" or pin is None or "flashinfer" in (pin.text or "").lower() or "flashinfer" in pin.extras:
        return None
    if any(p.package == "flashinfer-python" for p in getattr(ctx, "dependency_pins", None) or ()):
        return None
    return "pip"


def _inline_pin(installed: tuple[str, str, str]):
    """The requirement of a script's inline metadata that Site.installed holds, as a pin of its file."""
    f, _, ln = installed[1].rpartition(":")
    return pins_mod.from_requirement(f, int(ln), installed[2].replace(" ", ""), "requirements") if ln.isdigit() else None


def release_facts(site: Site, choice, hardware, kb: Knowledge, cat, ctx: ScanContext):
    """The release the site runs (pin, image tag or image build) and its facts."""
    tag = deploy.image_version(site.image)
    # a script's own install on the launch's path that is already the folder's pin says nothing new
    own_pin = bool(site.launch.get("installed_on_path") and site.installed and choice.pin is not None
                   and choice.where == site.installed[1])
    if tag and choice.basis != "cli":
        at_file, at_line = site.launch.get("image_at") or (site.file, site.line)  # a Dockerfile FROM the site's file runs in
        choice = pins_mod.VersionChoice(tag, True, "image", pins_mod.Pin(at_file, at_line, site.image or "", f"=={tag}", "image", tag))
    elif own_pin:
        pass
    elif choice.basis != "cli" and choice.pin is not None and (root := vendored.lacks_module(
            getattr(ctx, "framework_copies", None) or [], site.file, site.framework, site.launch.get("module"), ctx.file_set())) is not None \
            and (not root or choice.pin.file.startswith(root + "/")):
        # `python -m` of a module the framework copy lacks runs another checkout (rllm's pipeline scripts:
        # agentica-project/verl-pipeline), whose vLLM the copy's own pin does not say
        choice = pins_mod.choose([], cat.versions, cat.newest)
    elif site.launch.get("inline_script") and site.installed and choice.basis != "cli" \
            and (req := _inline_pin(site.installed)) is not None:
        # a script's inline metadata (PEP 723, engine/scan/inline_script.py): `uv run` installs what it
        # pins into the script's own environment, read as a requirements file's pin is
        choice = pins_mod.choose([req], cat.versions, cat.newest)
    elif (choice.basis == "pin" or (choice.basis == "range" and pin_alternatives.among_them(site, choice.pin))) \
            and (alternatives := pin_alternatives.choice(site, cat)) is not None:
        choice = alternatives  # one requirements file per backend (engine/scan/pin_alternatives.py): a range over them
    elif site.launch.get("ray_runtime_env") and choice.basis != "cli" and (alternatives := pin_alternatives.choice(site, cat)):
        choice = alternatives  # Ray applications that install different releases for one module (scan/ray_runtime_pins.py)
    elif choice.basis == "range" and (alternatives := pin_alternatives.installs(ctx, choice, cat)) is not None:
        choice = alternatives  # an optional extra's range beside what the project's images install: a range over them
    elif choice.basis == "none" and not site.image and not site.installed \
            and (named := pin_alternatives.named(ctx, cat)) is not None:
        # no pin, but requirements files named for the releases the project's install picks among
        # (RLinf requirements/agentic/vllm_0.8.5_cu12.txt, vllm_0.23.0_cu13.txt): a range over them
        site.launch["release_alternatives"] = named
        choice = pin_alternatives.choice(site, cat) or choice
    elif site.installed and choice.basis != "cli" and (ranged := pins_mod.installed_range(site.installed, cat.versions, cat.newest)):
        choice = ranged  # `pip install "vllm>=0.10"` in the site's own setup: judged as a requirements file's range
    elif site.installed and choice.basis != "cli":
        v, where, text = site.installed
        f, _, ln = where.rpartition(":")
        basis = "executable" if text.rsplit("/", 1)[-1].startswith(("vllm_", "vllm-")) else "build"
        pin = pins_mod.Pin(f, int(ln), text, f"=={v}", "image", v)
        if site.launch.get("ray_runtime_env"):  # the Ray application's runtime_env installs it (scan/ray_runtime_pins.py)
            pin.via = "ray-runtime-env"
        if site.launch.get("installed_on_path"):  # a script's `pip install vllm==X` before the launch (scan/script_installs.py)
            env = site.launch["installed_on_path"]
            pin.via = f"conda:{env}" if isinstance(env, str) else "script"
            pin.replaces = (choice.where, choice.pin.text) if choice.pin is not None and str(choice.version) != v else ()
        choice = pins_mod.VersionChoice(v, True, basis, pin)
        if v == "source" or source_pins.is_dev(v):  # a build from a commit (engine/scan/source_pins.py)
            choice = pins_mod.choose([pins_mod.Pin(f, int(ln), text, "", "image", None, source="git")], cat.versions, cat.newest) \
                if v == "source" else pins_mod.choose([pins_mod.Pin(f, int(ln), text, f"=={v}", "image", v, source="dev")],
                                                      cat.versions, cat.newest)
    elif site.launch.get("remote") and not site.image and choice.basis != "cli":
        # `ssh HOST bash -s <<EOF … vllm serve …`: the remote machine's vLLM, which no pin here installs
        choice = pins_mod.VersionChoice(cat.newest, False, "none", pins_mod.Pin(site.file, site.line, "ssh", "", "image", None, via="remote"))
    elif site.tool == "gpustack" and (got := (site.source or {}).get("release")) and choice.basis != "cli":
        v, at, line, text, via = got  # the model's backend_version, or the GPUStack server image (engine/scan/deploy/gpustack.py)
        choice = pins_mod.VersionChoice(v, True, "image", pins_mod.Pin(at, line, text, f"=={v}", "image", v, via=via))
    elif site.tool == "xinference" and not site.image and choice.basis in ("none", "unbounded") \
            and (srv := xinference_server.server_release(ctx)):
        # a client of the Xinference server the project starts: that image's vLLM runs the model
        at, line, image, v = srv
        choice = pins_mod.VersionChoice(v, True, "image", pins_mod.Pin(at, line, image, f"=={v}", "image", v, via="xinference-server"))
    elif site.tool == "docker-model-runner" and choice.basis != "cli":
        choice = model_runner_choice(site, cat)  # the runner's own vLLM, whichever runner release the host has
    elif (built := dated_release(site.image)) and choice.basis != "cli":
        choice = pins_mod.VersionChoice(built, False, "image-dated",
                                        pins_mod.Pin(site.file, site.line, site.image or "", "", "image", None))
    elif site.image and choice.basis == "pin" and choice.pin is not None and deploy.is_vllm_like_image(site.image) \
            and (deploy.is_local_image(site.image) or site.launch.get("built_here")):
        # a vLLM image built here (`image: vllm-node`, a compose `build:`) that names no release: the
        # project's own pin is the best word on what it installs, and the report says it stands in
        choice = pins_mod.VersionChoice(choice.version, True, "stand-in", choice.pin)
    elif site.image and deploy.is_vllm_like_image(site.image) and choice.basis != "cli":
        # a prebuilt vLLM image (vllm-openai:latest, lmcache/vllm-openai:2025-05-05) runs the release
        # it was built with, which the project's Python pins do not decide
        choice = pins_mod.VersionChoice(cat.newest, False, unpinned.BASIS,
                                        pins_mod.Pin(site.file, site.line, site.image, "", "image", None))
    elif site.image and (choice.basis == "none" or (own_numbering(site.image) and choice.basis in ("pin", "range"))):
        # an image of another make (ghcr.io/llm-d/llm-d-dev:v0.2.2) and no pin in the project: it
        # holds whatever vLLM it was built with, not necessarily the newest; nor does a Python pin of the
        # project decide what a vendor's vLLM image holds (KServe's `vllm==0.24.0` is its huggingfaceserver's,
        # while its LLMInferenceServiceConfig runs llm-d-dev:v0.2.2, a vLLM 0.10 build)
        choice = pins_mod.VersionChoice(cat.newest, False, unpinned.BASIS,
                                        pins_mod.Pin(site.file, site.line, site.image, "", "image", None))
    # a CUDA variant (`vllm==0.20.0+cu129`, `vllm-openai:v0.10.0-cu128`) is another build than the release's default
    # and an image another vendor built from vLLM (lmcache/vllm-openai) holds the kernels it chose
    variant = choice.pin is not None and _CUDA_VARIANT.search(choice.pin.text or "")
    other = choice.basis.startswith("image") and not deploy.is_vllm_image(site.image) \
        or choice.basis == "pin" and choice.pin is not None and choice.pin.kind == "image"  # a vendor image's FROM
    basis = "variant" if variant else ("image-dated-other" if choice.basis == "image-dated" else "image-other") if other else choice.basis
    if variant and choice.basis == "image" and not other:  # vllm/vllm-openai:v0.20.0-cu129: that CUDA's build
        basis = "image-" + variant.group(0)[1:]
    if basis in ("cli", "image") and _built_from_source(site, ctx):
        basis = source_pins.BASIS  # its kernels are the ones that build compiled (TORCH_CUDA_ARCH_LIST), not the release's
    site = release_defaults(site, partial(ctx.framework_pin, site.file))  # a serving package's defaults as its pinned release has them
    # a candidate model is evaluated with everything the site itself is evaluated with
    same: dict[str, Any] = dict(root=ctx.root, basis=basis, trained=lambda: _training_ranks(ctx),
                install=_install(site, choice, basis, ctx), registered=ctx.registered_archs,
                downloads=ctx.model_downloads, pin_text=choice.pin.text if choice.pin else None)
    facts = site_facts(site, hardware, choice.version, choice.pinned, kb, cat, **same)
    mark_local(facts, choice.pin.text if choice.pin else None)
    others = facts.pop("model_alternatives", None)
    if others:  # a local path several catalogued models fit: each is evaluated (engine/check/candidates.py)
        facts["model_alternatives"] = [candidates.parts(site_facts(site, hardware, choice.version, choice.pinned, kb, cat,
                                                                   model=m, **same)) for m in others]
    if (facts.get("model") or {}).get("name_only"):  # the same site with the model known by its name only
        facts["name_control"] = candidates.parts(site_facts(site, hardware, choice.version, choice.pinned, kb, cat,
                                                            model=name_guess.control(facts["model"]), **same))

    def facts_at(release, pinned: bool = choice.pinned) -> dict:  # the same site's facts with another release's
        other = site_facts(site, hardware, str(release), pinned, kb, cat, **same)
        other.pop("model_alternatives", None)
        mark_local(other, choice.pin.text if choice.pin else None)
        return other

    if cat.resolve(str(choice.version)).note == "nearest" and (span := source_pins.span_of(str(choice.version), cat.versions)):
        # a version no release has (a vendor image's `0.7.4`, between 0.7.3 and 0.8.0) is a build of a commit
        # between two releases: the facts of the later one too, so that a P0 of only the earlier is not certain
        facts["between_releases"] = unpinned.Between(str(span[0]), facts_at(span[-1]), f"<{span[-1]}", high=str(span[-1]))
    elif choice.basis == "source" and (span := source_pins.dev_span(choice, cat.versions)):
        if str(span[-1]) != str(choice.version):
            # a development build after a release candidate (`0.16.0rc2.dev367`), judged as that release: main's code
            # after the branch cut may already hold the next minor release's (Qwen3.5's classes before 0.17.0), so a
            # P0 that the later release does not share is not certain
            facts["between_releases"] = unpinned.Between(str(choice.version), facts_at(span[-1]), f"<{span[-1]}", high=str(span[-1]))
        elif str(span[0]) != str(choice.version):
            # a development build (`0.8.0.dev42`), judged as the release it leads to: the facts of the release
            # before it too, so that a P0 of only the later is not certain either
            facts["between_releases"] = unpinned.Between(str(span[0]), facts_at(span[0]), f">{span[0]}", high=str(choice.version))
    elif choice.pin is not None and choice.pin.rival and str(choice.version) != choice.pin.rival:
        # a framework copy that is a project of its own, judged at the root package's release: its own pin's
        # release may run it instead, where which files that package takes is not read (engine/scan/sub_projects.py)
        low, high = sorted((str(choice.version), choice.pin.rival), key=lambda v: cat.index_version(v))
        # …or install docs whose exact vLLM, installed after the package, its own pin excludes (engine/scan/doc_installs.py)
        facts["between_releases"] = unpinned.Between(low, facts_at(choice.pin.rival), str(choice.version),
                                                     why="docs_over" if choice.pin.kind == "docs" else "sub_project", high=high)
    elif (newer := framework_range.at_newest(site, str(choice.version), choice.pinned,
                                             lambda r: framework_compat.refuses(site, r, str(choice.version), facts, cat))) is not None:
        # a framework range pin (`trl>=0.14.0`) whose newest release passes other defaults: a check's P0 with the
        # lowest release's only is not certain (engine/check/framework_range.py)
        other = site_facts(newer, hardware, choice.version, choice.pinned, kb, cat, **same)
        other.pop("model_alternatives", None)
        mark_local(other, choice.pin.text if choice.pin else None)
        facts["between_releases"] = unpinned.Between(str(site.framework_version), other, site.framework_range, why="fw_range",
                                                     high=str(newer.framework_version))
    elif (derived := framework_range.derived_elsewhere(site, str(choice.version), choice.pinned,
                                                       lambda r: framework_compat.refuses(site, r, str(choice.version), facts, cat))) is not None:
        # the framework's release left open beside a pinned vLLM, and its releases derive other engine arguments
        # from the same keys (TRL's colocate max_model_len): a P0 of one derivation only is not certain
        other = site_facts(derived[0], hardware, choice.version, choice.pinned, kb, cat, **same)
        other.pop("model_alternatives", None)
        mark_local(other, choice.pin.text if choice.pin else None)
        fw = frameworks.get(site.framework)
        facts["between_releases"] = unpinned.Between(
            str(choice.version), other, f"{fw.name} (`{site.framework_range}`)" if site.framework_range else fw.name,
            why="fw_derived", high=derived[1])
    elif choice.basis == image_beside.BASIS and str(choice.version) != str(cat.newest):
        # the image beside the site, or a fresh install of the newest release (engine/scan/image_beside.py)
        facts["between_releases"] = unpinned.Between(str(choice.version), facts_at(cat.newest, False), str(choice.version),
                                                     why="beside", high=str(cat.newest))
    elif choice.pin is not None and choice.pin.unnamed_extra and choice.basis in ("pin", "range") \
            and str(choice.version) != str(cat.newest):
        # only an optional extra no install names pins it (docs/pins.md): the launch may run that release,
        # if one installs the extra, or the one a plain `pip install vllm` brings
        facts["between_releases"] = unpinned.Between(str(choice.version), facts_at(cat.newest, False), str(choice.version),
                                                     why="extra", high=str(cat.newest))
    return choice, facts


_CUDA_VARIANT = re.compile(r"[+-]cu\d{3}")


def _built_from_source(site: Site, ctx: ScanContext) -> bool:
    """The site's vLLM is compiled from a checkout or a git URL (its image rebuilds it, or the
    project's pins say so) even though --vllm-version or an image tag names the release."""
    if site.installed and (site.installed[0] == "source" or source_pins.is_dev(site.installed[0])):
        return True
    if not ctx.source_built:
        return False
    parts = PurePosixPath(site.file).parent.parts
    return any("/".join(parts[:depth]) in ctx.source_built for depth in range(len(parts), -1, -1))
