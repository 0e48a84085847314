"""What a site learns from the rest of the project once every site is found: its Ray cluster,
dependency pins and imports, the transformers pin against the checkpoint and the release, the
GGUF files, plugins, KV connectors, serving hosts and the framework that drives it. Each adds
to the site's `launch` facts, which the checks read."""
from __future__ import annotations

import re

from functools import partial
from pathlib import Path

from vllm_kb.engine.check import candidates, endpoints
from vllm_kb.engine.check.connector_compat import connector_compat
from vllm_kb.engine.check.dependency_pins import dependency_facts
from vllm_kb.engine.check.torch_pin_build import torch_pin_facts
from vllm_kb.engine.check.dynamo_facts import dynamo_facts
from vllm_kb.engine.check.deepgemm_installed import deepgemm_missing, needs_deepgemm
from vllm_kb.engine.check.flashinfer_installed import flashinfer_missing
from vllm_kb.engine.check.framework_compat import framework_compat
from vllm_kb.engine.check.framework_imports import plugin_compat
from vllm_kb.engine.check.plugin_calls import plugin_call_facts
from vllm_kb.engine.check.gguf_fit import gguf_fit
from vllm_kb.engine.check.gguf_loader import loader_fit
from vllm_kb.engine.check.host_compat import host_compat, host_of, host_request
from vllm_kb.engine.check.hub_fit import hub_fit
from vllm_kb.engine.check.import_args import import_arg_facts
from vllm_kb.engine.check.kv_shared_norm import kv_shared_norm_fit
from vllm_kb.engine.check.llm_methods import method_facts
from vllm_kb.engine.check.launch_facts import ray_cluster
from vllm_kb.engine.check.lm_head_absent import lm_head_fit
from vllm_kb.engine.check.st_weights import st_weights_fit
from vllm_kb.engine.check.mtp_weights import mtp_fit
from vllm_kb.engine.check.project_imports import import_facts
from vllm_kb.engine.check.swift_world import swift_processes, swift_world
from vllm_kb.engine.check.trainer_attn import trainer_attention
from vllm_kb.engine.check.transformers_fit import release_requires, rope_fit, text_config_fit, transformers_fit
from vllm_kb.engine.check.transformers_gone import transformers_gone
from vllm_kb.engine.check.transformers_range import transformers_range
from vllm_kb.engine.check.transformers_floor import apply_floor
from vllm_kb.engine.check.transformers_resolve import newest_build
from vllm_kb.engine.check.transformers_per_layer import per_layer_fit
from vllm_kb.engine.check.bnb_version import bnb_version_fit
from vllm_kb.engine.check.transformers_calls import transformers_calls
from vllm_kb.engine.check.transformers_since import own_import, transformers_since
from vllm_kb.engine.check.unpinned import allowed_releases, recent_releases
from vllm_kb.engine.check.verl_fork import verl_fork_kv
from vllm_kb.engine.check.weight_prefixes import unplaced_fit, wrapper_task
from vllm_kb.engine.kb import frameworks
from vllm_kb.engine.kb.versions import Version, try_parse
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.scan import entry_installs, image_beside, pin_alternatives, project_imports, vendored

# vLLM's own image of a release: it installs a transformers release (never a git commit)
# LLM.generate/encode lose the legacy prompt_token_ids keyword (0.10.2 vllm/entrypoints/llm.py:330-338)
_TOKEN_IDS_GONE = Version("0.10.2")
_VLLM_IMAGE = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai:v?\d+\.\d+")


def add_project_facts(prepared: list, sc, kb: Knowledge, cat, clients: list, asked: list | None = None) -> None:
    """Each prepared (site, choice, facts) gains the facts above, in place. `clients` is the code
    that asks a server for automatic tool choice (only a site that serves HTTP reads it)."""
    model_types = kb.doc("vllm", "model_types.yaml").data
    vllm_released = kb.doc("vllm", "release_dates.yaml").data["released"]
    gguf_table = kb.doc("vllm", "gguf.yaml").data
    gguf_loader = kb.doc("vllm", "gguf_loader.yaml").data
    prefix_table = kb.doc("vllm", "weight_prefixes.yaml").data
    gguf_markers = kb.doc("models.yaml").data.get("quantized_markers", [])
    tf_scanned = [str(v) for v in kb.doc("vllm", "transformers_imports.yaml").data.get("transformers_scanned") or []]
    launches = project_imports.Launches(sc.files, sc.ctx.read)
    # each client with the one server its URL reaches (engine/check/endpoints.py)
    servers = [s for s, _c, f in prepared if f["site"].get("serves_http")]
    services = endpoints.k8s_services(sc.files, sc.ctx.read) if (clients or asked) and any(
        (s.container or {}).get("labels") for s in servers) else []
    paired = endpoints.pair(clients, servers, services) if clients else {}
    # …and each call that names its model, with the server its URL reaches (check L172)
    naming = endpoints.pair_clients(asked, servers, services) if asked else {}
    first_import: dict[tuple, int] = {}
    for site, choice, facts in prepared:
        facts["launch"]["ray_cluster"] = ray_cluster(site, facts["env"], sc.ctx.read)
        facts["launch"].update(dependency_facts(site, choice, sc.ctx.dependency_pins, sc.ctx.read))  # torch & co. against vLLM's pins
        if torch_short := torch_pin_facts(site, choice, sc.ctx.dependency_pins, facts, sc.ctx.read):  # L6: a torch pin without the GPU's kernels
            facts.setdefault("startup", {}).update(torch_short)
        if "FLASHINFER" in str((facts.get("startup") or {}).get("backend") or "").upper():
            # only a forced FlashInfer backend reads it (L13); the test reads every file of the project
            facts["launch"].update(flashinfer_missing(site, choice, sc.ctx.dependency_pins, sc.files, sc.ctx.read))
        if needs_deepgemm(facts.get("model") or {}, facts["vllm"].get("version")):
            # the sparse-attention indexer's DeepGEMM kernels, which the release's wheel lacks (L160)
            facts["launch"].update(deepgemm_missing(site, choice, sc.ctx.dependency_pins, sc.files, sc.ctx.read))
        if site.file.endswith(".py"):  # the project's own imports of vLLM modules against its release (L139)
            launch = facts["launch"]
            launch.update(import_facts(site.file, str(facts["vllm"].get("version")), _certain(cat, choice), launches))
            launch.update(method_facts(site, facts["vllm"].get("version"), kb.doc("vllm", "llm_methods.yaml").data, launches.tree, sc.ctx.read))  # L287
            if launch.get("generate_token_ids"):  # L288: every release the project may run lacks the keyword
                certain = [try_parse(v) for v in _certain(cat, choice)]
                launch["generate_token_ids_certain"] = bool(certain) and all(v is not None and v >= _TOKEN_IDS_GONE for v in certain)
            if launch.get("vllm_import_at_start"):
                # one module-level import stops the file once: its first launch reports it (a file of 21 calls, eval101)
                at = first_import.setdefault((site.file, launch.get("vllm_import"), launch.get("vllm_import_certain")), site.line)
                if at != site.line:
                    launch["vllm_import_first_at"] = f"{site.file}:{at}"
        # a launch argument vLLM imports by dotted path or file path at start (--middleware, worker_cls, …; L289)
        facts["launch"].update(import_arg_facts(site, str(facts["vllm"].get("version")), _certain(cat, choice),
                                                sc.ctx.module_names(), sc.ctx.files_ending))
        if paired.get(site.id) and facts["site"].get("serves_http"):
            facts["launch"]["tool_clients"] = paired[site.id][:5]
        if naming.get(site.id) and facts["site"].get("serves_http"):
            if wrong := endpoints.unserved(site, naming[site.id]):
                facts["launch"]["client_model_unserved"] = wrong[:5]
                facts["launch"]["served_names"] = ", ".join(sorted(endpoints.served_names(site) or ()))
            if long := endpoints.over_length(naming[site.id], (facts.get("startup") or {}).get("max_len")):
                facts["launch"]["client_max_tokens_over"] = long[:5]  # check L173
        # the transformers pin against the checkpoint's model_type
        # a container holds its image's, unless built here or installed by its own command before vLLM starts
        tf_pin = entry_installs.pin_for(site, "transformers") or pin_alternatives.pin_in(sc.ctx, site, "transformers") \
            or sc.ctx.framework_pin(site.file, "transformers")
        own = (not site.image or getattr(tf_pin, "kind", "") in ("dockerfile", "entry") or getattr(tf_pin, "installed_in", None) is not None
               or image_lock(tf_pin, facts)) and not site.launch.get("backend_env")
        if tf_source := _tf_source(tf_pin if own else None, site.image):
            facts["launch"]["tf_source"] = tf_source  # a commit may predate a release's change (L133: Qwen2-VL's mrope)
        facts["launch"].update(hub_fit(site, model_types, vllm_released))  # …with --no-deps, over a 0.x huggingface_hub (L155)
        facts["launch"].update(transformers_fit(facts, tf_pin if own else None,
                                                model_types, site.image, vllm_released))
        # the bitsandbytes a BitsAndBytes model loads with: the project's own pin, else the image's (L20)
        bnb_pin = entry_installs.pin_for(site, "bitsandbytes") or sc.ctx.framework_pin(site.file, "bitsandbytes")
        bnb_own = (not site.image or getattr(bnb_pin, "kind", "") in ("dockerfile", "entry")
                   or getattr(bnb_pin, "installed_in", None) is not None) and not site.launch.get("backend_env")
        facts["launch"].update(bnb_version_fit(facts, bnb_pin if bnb_own else None, site.image))
        if tf_pin is not None and own:
            facts["launch"].update(rope_fit(facts, tf_pin))  # Llama 3.1's rope_scaling against the same pin
            facts["launch"].update(text_config_fit(facts, tf_pin))  # a nested text_config it reads as a dict (L281)
        if "vllm-gguf-plugin" in site.plugins:  # GGUF left vLLM in 0.24 for this plugin (D5, L10)
            facts["launch"]["gguf_plugin"] = True
        facts["launch"].update(gguf_fit(facts, sc.root, (Path(sc.root) / site.file).parent, tf_pin if own else None, gguf_table, model_types,
                                        site.image, vllm_released, partial(candidates.model_of, kb=kb, markers=gguf_markers,
                                                                           version=str(facts["vllm"].get("version")))))  # L135
        facts["launch"].update(loader_fit(facts, gguf_loader, (gguf_table.get("vllm") or {}).get("preread_since")))  # L135: the release's own GGUF weight loader
        facts["launch"].update(kv_shared_norm_fit(facts, sc.root, (Path(sc.root) / site.file).parent))  # L153: Gemma 4's KV-shared key norms
        facts["launch"].update(lm_head_fit(facts, sc.root, (Path(sc.root) / site.file).parent,
                                           kb.doc("hub_uploads.yaml").data))  # L141: an embedding checkpoint with no output head
        facts["launch"].update(st_weights_fit(facts, kb.doc("hub_uploads.yaml").data))  # L141: Qwen3-Embedding on 0.10.0 with no task
        facts["launch"].update(mtp_fit(facts, sc.root, (Path(sc.root) / site.file).parent))
        if not wrapper_task(site):  # L165: tensors the class config.json names cannot place
            facts["launch"].update(unplaced_fit(facts, sc.root, (Path(sc.root) / site.file).parent, prefix_table))  # G2: an MTP draft with no mtp.* weights
        # a site judged as the release of the image beside it runs in that image, whose transformers was fixed when it was built
        in_image = bool(site.image) or choice.basis == image_beside.BASIS
        if facts["launch"].get("tf_too_old"):  # …whose model type the architecture's own vLLM module also imports (L52 stays P0)
            facts["launch"].update(own_import(facts, tf_pin if own else None, model_types.get("vllm_requires") or {}, image=in_image))
        else:  # a transformers newer than the names vLLM imports from it
            tf_requires = release_requires(model_types.get("vllm_requires") or {}, str((facts.get("vllm") or {}).get("version")))
            facts["launch"].update(transformers_gone(facts, tf_pin if own else None, tf_requires,
                                                     image=in_image, build=partial(newest_build, site.file, tf_pin if own else None,
                                                                                           sc.files, sc.ctx.read, site.image)))
            # …and one older than the names the architecture's own vLLM module imports from it
            facts["launch"].update(transformers_since(facts, tf_pin if own else None, model_types.get("vllm_requires") or {},
                                                      image=in_image))
            # …and one whose functions refuse the calls the release's own config class of the model type makes
            facts["launch"].update(transformers_calls(facts, tf_pin if own else None, model_types.get("vllm_requires") or {}))
            # …and one whose config makes the model's head_dim per-layer, which the release reads globally
            facts["launch"].update(per_layer_fit(facts, tf_pin if own else None, tf_requires, site.image, vllm_released,
                                                 model_types.get("released") or {}))
            # …and one the release's own requirement excludes (pip refuses it beside vLLM, or warns)
            facts["launch"].update(transformers_range(choice, tf_pin if own else None, tf_requires, tf_scanned, sc.ctx.read,
                                                     (vllm_released, model_types.get("released") or {}),
                                                     model_types.get("vllm_requires") or {}))
            apply_floor(facts, model_types, tf_scanned)  # …never below the model type's own floor (L52)
        if site.plugins:  # a plugin's pin against vLLM's
            facts["launch"].update(plugin_compat(site, facts, partial(sc.ctx.framework_pin, site.file)))
        # a general plugin whose registered function imports a module the pinned vLLM lacks (PaddleX)
        facts["launch"].update(plugin_call_facts(facts, partial(sc.ctx.framework_pin, site.file)))
        # a KV-cache connector package the kv-transfer config loads (LMCache): its pin against vLLM's
        facts["launch"].update(connector_compat(site, facts, partial(sc.ctx.framework_pin, site.file)))
        # a serving package that starts vLLM itself (FastChat, Xinference, Ray Serve LLM): its pin against vLLM's
        facts["launch"].update(host_compat(site, facts, cat, partial(sc.ctx.framework_pin, site.file),
                                           sc.ctx.read(site.file) if host_of(site) == "ray" else None))
        # …and a keyword it passes to vLLM where each request runs, said beside a start-up break of the same pair
        facts["launch"].update(host_request(site, facts, partial(sc.ctx.framework_pin, site.file)))
        facts["launch"].update(dynamo_facts(site, partial(sc.ctx.framework_pin, site.file)))  # Dynamo's worker (L143)
        if site.framework != "none":  # the framework's pin against vLLM's
            pin = sc.ctx.framework_pin(site.file, frameworks.get(site.framework).package)
            site.framework_fork = bool(getattr(pin, "own", False))
            # a fork whose own setup pins vLLM (eval83 OpenRLHF-M setup.py `vllm==0.7.3`) declares its own pair
            site.framework_fork_vllm = site.framework_fork and choice.pin is not None and choice.pin.file == pin.file
            gate = vendored.for_site(sc.ctx.vendored, site.file, site.framework)
            copy = vendored.for_site(sc.ctx.framework_copies, site.file, site.framework)
            if vendored.lacks_module(sc.ctx.framework_copies, site.file, site.framework, site.launch.get("module"), sc.ctx.file_set()) is not None:
                gate = copy = None  # the launch runs a module the copy lacks: another checkout of the framework
            site.framework_source = dict(copy.facts) if copy is not None else {}  # the rules' framework.source
            facts["launch"].update(fw := framework_compat(site, facts, cat, pin, gate, copy))
            if choice.pin is not None and choice.pin.last_install and "fw_pip_refuses" in fw:
                # vLLM installed by its own `pip install vllm==X` after the framework (a setup script's or a README's last
                # step): pip warns that the framework's requirement is broken and installs it all the same
                facts["launch"]["fw_pip_refuses"] = fw["fw_pip_refuses"] = False
            facts["launch"].update(v0_only(gate, cat))
            if (between := facts.get("between_releases")) is not None and between.why in ("sub_project", "docs_over"):
                # the other environment's vLLM meets the same framework: its own verdict, none of the judged one's
                theirs = framework_compat(site, between.other, cat, pin, gate, copy)
                between.other["launch"].update({k: None for k in fw if k not in theirs} | theirs)
            # what the release refuses to run without: a check does not propose the other value (A2, A5)
            command = site.framework_command or ("vllm-serve" if site.kind == "trl vllm-serve" else None)
            if needs := frameworks.get(site.framework).requires(site.framework_keys, site.framework_version, command,
                                                                str(facts["vllm"].get("version") or ""), site.framework_source):
                facts["site"]["framework_requires"] = needs
            facts["launch"].update(trainer_attention(site) | verl_fork_kv(site, facts))  # L130; verl's own vLLM copy sizes the cache (L15, L16)
            facts["launch"].update(swift_world(site, facts))  # L70: swift's torchrun world around its rollout engine
            facts["launch"].update(swift_processes(site))  # swift-grpo-device-map: one process over several GPUs


def v0_only(gate, cat) -> dict:
    """A framework copy in the tree whose vLLM gate takes no release with the V1 engine (0.8.0 on):
    RAGEN's vendored verl 0.1 dispatches 0.3.1/0.4.2/0.5.4/0.6.3 to its own SPMD engine copies and raises
    ValueError for any other (verl/third_party/vllm/__init__.py), so V1 is a framework upgrade (A4)."""
    if gate is None:
        return {}
    allowed = [v for v in cat.versions if gate.allows(str(v))]
    if not allowed or any(v >= cat.index_version("0.8.0") for v in allowed):
        return {}
    return {"framework_vllm_newest": str(allowed[-1]), "framework_vllm_gate": f"{gate.file}:{gate.line}"}


def image_lock(pin, facts: dict) -> bool:
    """An exact transformers pin in a file that also pins exactly the vLLM release the site's image
    holds: the project writes down the image's environment (vllm-gb10's runtime lock beside its
    v0.28.0 image), so the pin stands for the container too. A range, or a file of another
    release, says nothing of what the image holds."""
    vllm = facts.get("vllm") or {}
    if pin is None or not getattr(pin, "exact", None) or not getattr(pin, "file_vllm", None) or not _named_by_image(str(vllm.get("basis") or "")):
        return False
    mine, theirs = try_parse(str(pin.file_vllm)), try_parse(str(vllm.get("version") or ""))
    return mine is not None and mine == theirs


def _named_by_image(basis: str) -> bool:
    """The release is the one the image's tag names (vLLM's own image, a CUDA variant's, another make's)."""
    return basis in ("image", "image-other") or basis.startswith("image-cu")


def _certain(cat, choice) -> list[str]:
    """The releases a failure must hold in to be certain: the pinned one, or each one a range
    allows, each one of the last half year for an install with no bound; none where nothing installs
    or bounds the release (the user's install decides)."""
    if choice.basis in ("range", "image-dated"):
        return [str(v) for v in allowed_releases(cat, choice)]
    if choice.basis == "unbounded":
        # an install line with no bound (`pip install vllm` in a Dockerfile): a build of the last half
        # year got one of that half year's releases, as a removed option is judged (engine/check/unpinned.py)
        return [str(v) for v in recent_releases(cat.versions, cat)]
    return [str(choice.version)] if choice.pinned and choice.basis in ("pin", "cli", "image") else []


def _tf_source(pin, image: str | None) -> str | None:
    """launch.tf_source: "git" (transformers from its repository: a branch or a commit), "release" (a
    version pin, or vLLM's own image, which installs a release), or None (nothing in the project says)."""
    if pin is not None and getattr(pin, "source", "") == "git":
        return "git"
    if pin is not None and getattr(pin, "spec", None):
        return "release"
    return "release" if pin is None and image and _VLLM_IMAGE.match(image) else None
