"""Container images that run vLLM: the official image and its entrypoint by tag, images built
from vLLM and named for it, and the argv a `docker run` of one executes (an image its environment
configures: engine/scan/image_env.py)."""
from __future__ import annotations

import json
import re

from vllm_kb.engine.kb import deploy_tools, release_dates
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.scan.image_tables import framework_image, name_and_tag
from vllm_kb.engine.scan.shell import SHELLS, Seg, Word, c_script_at

# The vllm/vllm-openai image's ENTRYPOINT by tag (docker/Dockerfile of each release; from 0.25
# a non-root wrapper that execs `vllm serve "$@"`).
# 0.11.1's docker/Dockerfile:500 is the first `ENTRYPOINT ["vllm", "serve"]` (0.11.0's :542 still runs the module)
IMAGE_ENTRYPOINTS = [("0.0.0", ["python3", "-m", "vllm.entrypoints.openai.api_server"]), ("0.11.1", ["vllm", "serve"])]


_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)?vllm/vllm-openai(?::(?P<tag>[\w.+-]+))?(?:@sha256:\w+)?$")
# the project's images for other platforms, tagged with the same releases: vllm/vllm-openai-rocm (from 0.14.0
# docker/Dockerfile.rocm ends its vllm-openai stage in ENTRYPOINT ["vllm", "serve"]) and vllm/vllm-openai-cpu
# (docker/Dockerfile.cpu, the same entrypoint): given a model and flags, each starts vLLM's server
_VARIANT_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)?vllm/vllm-openai-(?:rocm|cpu)(?::(?P<tag>[\w.+-]+))?(?:@sha256:\w+)?$")
VARIANT_ENTRYPOINT = ["vllm", "serve"]
# images built from vLLM whose entrypoint is its OpenAI server: <registry>/<org>/vllm[-variant][:tag]
VLLM_NAMED = re.compile(r"^(?:[\w.-]+(?::\d+)?/)*(?P<name>vllm(?:[-_][\w.-]+)?)(?::(?P<tag>[\w.+-]+))?(?:@sha256:\w+)?$")
# words in an image's name, after `vllm-`, of a program that talks to vLLM rather than serves it: the
# project's own backend, frontend, dashboard, router or exporter (vllm-optimizer-backend/-frontend)
_APP_WORDS = frozenset({"backend", "frontend", "ui", "webui", "web", "dashboard", "optimizer", "exporter", "proxy",
                        "gateway", "router", "client", "operator", "controller", "monitor", "monitoring", "benchmark",
                        "bench", "loadtest", "tuner", "chatbot", "playground"})
# Google's Vertex AI Model Garden image of vLLM, tagged by build day (`…/pytorch-vllm-serve:20231127_0916_RC00`);
# its deployments (Model Garden notebooks' serving_container_args / containerSpec.args) run
# `python -m vllm.entrypoints.api_server` with vLLM's engine flags
_MODEL_GARDEN = re.compile(r"^(?:[\w.-]+(?::\d+)?/)*vertex-vision-model-garden-dockers/pytorch-vllm-serve(?::(?P<tag>[\w.+-]+))?(?:@sha256:\w+)?$")
MODEL_GARDEN_ENTRYPOINT = ["python3", "-m", "vllm.entrypoints.api_server"]
_COMMIT = re.compile(r"(?:^|[-_.+])g?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?=$|[-_.+])")  # a git hash in a tag
# 0.9.0.1 and 0.10.1.1 too; a vendor's own suffix after a dot (Volcengine's `vllm:0.7.1.v1.iaas`), not a dev or rc build
_TAG_VERSION = re.compile(r"^v?(\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)(?:$|[-+_]|\.(?!dev|rc)(?=[a-zA-Z]))")
# Tags of the official image that name a preview build instead of a release: the build its wheel
# carries as a local version label (`vllm==0.10.1+gptoss`, from wheels.vllm.ai/gpt-oss/), which the
# checks that know the build's own behaviour read (engine/check/startup_attn.py).
_PREVIEW_TAGS = {"gptoss": "0.10.1+gptoss"}
# A tag of another maker's image that names the vLLM release it is built on, as one word of the tag:
# `rednotehilab/dots.ocr:vllm-openai-v0.9.1` (its Dockerfile is `FROM vllm/vllm-openai:v0.9.1`),
# `…:cu124-vllm0.8.5`. `openai` says it is the vllm/vllm-openai image with the maker's additions, so its
# entrypoint is that image's server; a tag naming two releases names none.
_TAG_NAMES_VLLM = re.compile(r"(?:^|[-_.])vllm(?P<openai>[-_]?openai)?[-_]?v?(?P<v>\d+\.\d+\.\d+(?:\.post\d+)?)(?=$|[-_+])", re.I)


def tagged_vllm(image: str | None) -> tuple[str, bool] | None:
    """(release, built on vllm/vllm-openai) where an image that is not vLLM's own nor named for it says
    in its tag which vLLM release it holds; None elsewhere (also where the tag names two releases)."""
    text = (image or "").strip()
    if _IMAGE.match(text) or VLLM_NAMED.match(text) or framework_image(text) or env_image(text) is not None:
        return None
    found = {(m.group("v"), bool(m.group("openai"))) for m in _TAG_NAMES_VLLM.finditer(name_and_tag(text)[1])}
    if len({v for v, _ in found}) != 1:
        return None
    v = try_parse(next(iter(found))[0])
    if v is None or v > parse(release_dates.newest()):
        return None
    return str(v), any(o for _, o in found)


def image_version(image: str | None) -> str | None:
    """`vllm/vllm-openai:v0.10.2` → 0.10.2 (also a vLLM-derived image tagged `v0.10.0-cu128-…`, and
    the release an env-configured image's tag installs); None for latest, nightly or other images."""
    text = (image or "").strip()
    if (env := env_image(text)) is not None:
        return env[1].get("vllm")
    if (fw := framework_image(text).get("vllm")) is not None:
        return fw  # a framework's image whose tag names the vLLM it installs (verlai/verl:app-…-vllm0.10.0-…)
    if (tagged := tagged_vllm(text)) is not None:
        return tagged[0]  # another maker's image built on a vLLM release its tag names
    official = _IMAGE.match(text)
    m = official or VLLM_NAMED.match(text)
    if not m or not m.group("tag"):
        return None
    if official and m.group("tag") in _PREVIEW_TAGS:
        return _PREVIEW_TAGS[m.group("tag")]
    if not official and own_numbering(text):
        return None  # lmcache/vllm-openai:v0.3.7 is LMCache 0.3.7, whatever vLLM it holds
    t = _TAG_VERSION.match(m.group("tag"))
    if t and _COMMIT.search(m.group("tag")[t.end(1):]):
        return None  # aibrix/vllm-openai:v0.6.1-edb07092-20250118: a build of a later commit, dated by its tag
    v = try_parse(t.group(1)) if t else None
    if v is not None and not official and v > parse(release_dates.newest()):
        return None  # another vendor's own numbering (opea/vllm-gaudi:1.22.0 is Gaudi software 1.22), not vLLM's
    return str(v) if v else None


_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.I)


def framework_image_pins(rel: str, lines: list[str], serves: bool, pin_type) -> list:
    """`FROM verlai/verl:app-…-vllm0.10.0-…`, `FROM hiyouga/llamafactory:0.9.3` in a Dockerfile: what the
    framework image's tag says it installs, as `image` pins of the folder (engine/scan/pins.py ranks
    them below any requirement the project writes, and never rewrites a tag as a requirement). An
    image whose ENTRYPOINT/CMD starts vLLM (`serves`) keeps its vLLM to that site."""
    out = []
    for n, line in enumerate(lines, 1):
        m = _FROM.match(line)
        image = m.group(1) if m else ""
        for pkg, v in framework_image(image).items() if image else ():
            if not (serves and pkg == "vllm"):
                out.append(pin_type(rel, n, image, f"=={v}", "image", v, pkg))
    return out


def own_numbering(image: str) -> bool:
    """An image whose tags count its vendor's releases (knowledge/deploy/vendor_images.yaml)."""
    from vllm_kb.engine.kb import deploy_tools

    name = name_and_tag(image)[0]
    return any(re.match(e["match"], name) for e in deploy_tools.load("vendor_images")["images"])


_TAG_DATE = re.compile(r"(?<!\d)(20\d\d)-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])(?!\d)")


def image_date(image: str | None) -> str | None:
    """The build day a vLLM-derived image's tag names (`lmcache/vllm-openai:2025-05-05-v1`,
    `…:nightly-20250505`) as YYYY-MM-DD, or the one its vendor's build of that tag says
    (vendor_build_day); None when neither does."""
    text = (image or "").strip()
    m = _IMAGE.match(text) or VLLM_NAMED.match(text) or _MODEL_GARDEN.match(text)
    d = _TAG_DATE.search(m.group("tag") or "") if m else None
    if d:
        return f"{d.group(1)}-{d.group(2)}-{d.group(3)}"
    return _month_first(text, m.group("tag") or "") if m else vendor_build_day(text)


# the year last, month first: AMD's rocm/vllm-dev tags (`open-mi300-08052025`: the gpt-oss build of
# 5 August 2025). Read so only where the tag cannot also be a day-first date, or for AMD's own images
_US_DATE = re.compile(r"(?<!\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(20\d\d)(?!\d)")


def _month_first(image: str, tag: str) -> str | None:
    u = _US_DATE.search(tag)
    if not u:
        return vendor_build_day(image)
    month, day, year = u.groups()
    if int(day) <= 12 and day != month and not name_and_tag(image)[0].startswith("rocm/"):
        return None  # 08052025 elsewhere: 5 August or 8 May
    return f"{year}-{month}-{day}"


def dated_release(image: str | None, *, grammar: bool = False) -> str | None:
    """The release a vLLM image that names only its build day is judged at: the newest published by
    that day (engine/check/site_release.py, basis image-dated). `grammar`: the release its argv is
    parsed with, the first published after that day where there is one — a build of vLLM's main
    holds what came before that release (lmcache/vllm-openai:2025-04-18 takes 0.8.5's
    --no-enable-chunked-prefill), and the day's grammar, not the newest's, decides how a word is read
    (`--enable-chunked-prefill "false"` takes the value up to 0.8.4, where 0.34.0 reads a switch and
    a stray positional)."""
    day = image_date(image)
    if not day or not (is_vllm_like_image(image) or vendor_build_day(image)):
        return None
    before, after = release_dates.newest_by(day)
    return (after or before) if grammar else before


def vendor_build_day(image: str | None) -> str | None:
    """The day an image whose tag counts its vendor's releases was built from a vLLM commit
    (knowledge/deploy/vendor_images.yaml `built`: ghcr.io/llm-d/llm-d:0.0.8 → 2025-05-14)."""
    from vllm_kb.engine.kb import deploy_tools

    name, tag = name_and_tag(image)
    for e in deploy_tools.load("vendor_images")["images"] if tag else ():
        if re.match(e["match"], name) and tag.lstrip("v") in (e.get("built") or {}):
            return str(e["built"][tag.lstrip("v")])
    return None


def is_vllm_image(image: str | None) -> bool:
    return bool(_IMAGE.match((image or "").strip()))


def is_local_image(image: str | None) -> bool:
    """A vLLM image named without a registry or a namespace (`vllm-node`, `vllm-custom:dev`): no
    official Docker Hub image holds vLLM, so the host built (or loaded) it itself."""
    name = name_and_tag(image)[0]
    return bool(name) and "/" not in name and "$" not in name and is_vllm_like_image(image)


def is_vllm_like_image(image: str | None) -> bool:
    """The official image, or one built from vLLM and named for it (opea/vllm-gaudi, quay.io/modh/vllm,
    lmcache/vllm-openai, rocm/vllm): run with only flags, it starts vLLM's OpenAI server."""
    text = (image or "").strip()
    if not is_vllm_image(text) and _runs_own_entrypoint(text):
        return False  # vllm-runtime of Dynamo: vLLM inside, its own programs at the door
    like = VLLM_NAMED.match(text)
    if like and _APP_WORDS & set(re.split(r"[-_.]", like.group("name").lower())[1:]):
        return False  # a project's own app named for vLLM: vllm-optimizer-backend runs uvicorn (eval68)
    if not like and (tagged := tagged_vllm(text)) is not None and tagged[1]:
        return True  # `rednotehilab/dots.ocr:vllm-openai-v0.9.1`: vllm/vllm-openai with its maker's additions
    return is_vllm_image(text) or bool(like) or bool(_MODEL_GARDEN.match(text))


def _runs_own_entrypoint(image: str) -> bool:
    """A framework image with vLLM inside whose entrypoint is not vLLM's server (`server: false` in
    knowledge/deploy/framework_images.yaml): given only flags, it starts no vLLM."""
    from vllm_kb.engine.kb import deploy_tools

    name = name_and_tag(image)[0]
    return any(e.get("server") is False and re.match(e["match"], name) for e in deploy_tools.load("framework_images")["images"])


def is_variant_image(image: str | None) -> bool:
    """vllm/vllm-openai-rocm, vllm/vllm-openai-cpu: the project's own image for another platform."""
    return bool(_VARIANT_IMAGE.match((image or "").strip()))


def entrypoint_for(image: str | None, newest: str) -> list[str]:
    if _MODEL_GARDEN.match((image or "").strip()):
        return MODEL_GARDEN_ENTRYPOINT
    if is_variant_image(image):
        return VARIANT_ENTRYPOINT
    if own := deploy_tools.vendor_entrypoint(name_and_tag(image or "")[0]):
        return own
    if not is_vllm_image(image) and not (image or "").split(":")[0].endswith("/vllm-openai") \
            and not (tagged_vllm(image) or ("", False))[1]:
        return IMAGE_ENTRYPOINTS[0][1]  # images built from vLLM keep the OpenAI server module
    day = image_date(image)
    v = try_parse(image_version(image) or (release_dates.newest_by(day)[0] if day else None) or newest)
    chosen = IMAGE_ENTRYPOINTS[0][1]
    for at, ep in IMAGE_ENTRYPOINTS:
        if v is not None and (since := try_parse(at)) is not None and v >= since:
            chosen = ep
    return chosen


def container_command(run, newest: str) -> list[Word] | None:
    """The argv a `docker run` container runs: --entrypoint or the image's own (for a vLLM image
    given only flags) followed by the arguments after the image."""
    image = run.image.value if run.image is not None else None
    argv = list(run.argv)
    if run.entrypoint and not all(w.value == "" for w in run.entrypoint):
        return run.entrypoint + argv
    if run.entrypoint or run.facts.get("replaces_entrypoint"):
        # `--entrypoint=""` clears the image's entrypoint: the arguments after the image are the command
        # (`docker run --entrypoint="" IMAGE bash -c "pip install vllm[audio] && vllm serve …"`), as
        # `hf jobs run IMAGE CMD` and `apptainer exec IMAGE CMD` run their CMD
        return argv or None
    first = (argv[0].value or "") if argv else ""
    values = [w.value or "" for w in argv]
    if is_vllm_image(image) and (first or "").rsplit("/", 1)[-1] in SHELLS and (k := c_script_at(values, 0)) is not None:
        # `vllm/vllm-openai:v0.8.5 bash -c "vllm serve M"`: the image's entrypoint takes `bash -c …` as its
        # arguments and stops (OPEA GenAIComps #336); the command meant is read, the mistake is a finding
        run.facts["repeats_entrypoint"] = (" ".join(values[:k]), " ".join(entrypoint_for(image, newest)))
        return argv
    # a vendor image whose entrypoint is `vllm serve` takes the model as its first argument, as the official one does
    served = first and not first.startswith("/") \
        and (deploy_tools.vendor_entrypoint(name_and_tag(image or "")[0]) or is_variant_image(image)) \
        and not re.match(r"^(python[\d.]*|vllm|bash|sh|serve)$", first.rsplit("/", 1)[-1])
    if is_vllm_image(image) or is_vllm_like_image(image) and (not argv or (first or "").startswith("-") or served):
        line = run.image.line if run.image is not None else 1
        entrypoint = entrypoint_for(image, newest)
        if is_vllm_image(image) and (k := repeated_program(argv)):
            # `vllm/vllm-openai:v0.17.1 vllm serve M`: the entrypoint already is the server, so the
            # words become its arguments and argparse stops; the site is read as meant, the
            # repetition is a finding (engine/scan/scripts.py)
            run.facts["repeats_entrypoint"] = (" ".join(w.value or "" for w in argv[:k]), " ".join(entrypoint))
            argv = argv[k:]
        return [synth_word(t, line) for t in entrypoint] + argv
    return argv or None


def repeated_program(argv: list[Word]) -> int:
    """How many leading words of a vLLM image's command repeat a server program (`vllm serve`,
    `serve`, `python3 -m vllm.entrypoints.openai.api_server`); 0 when none do."""
    vals = [w.value or "" for w in argv[:3]]
    if len(vals) >= 2 and vals[0].rsplit("/", 1)[-1] == "vllm" and vals[1] == "serve":
        return 2
    if vals and vals[0] == "serve":
        return 1
    if len(vals) == 3 and re.match(r"^python[\d.]*$", vals[0].rsplit("/", 1)[-1]) and vals[1] == "-m" \
            and vals[2] == "vllm.entrypoints.openai.api_server":
        return 3
    return 0


def synth_word(text: str, line: int) -> Word:
    w = Word(raw=text, line=line, segs=[Seg("lit", text)], start=-1, end=-1)
    w.value = text
    return w




_FROM = re.compile(r"^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?", re.I)


def dockerfile_entrypoint(text: str, newest: str, target: str | None = None) -> list[str] | None:
    """The ENTRYPOINT of a Dockerfile's final stage (or the `--target` one: vLLM's CI builds the
    `vllm-test` stage, which has none) in exec form (shell form as `/bin/sh -c …`), the one a stage
    inherits from an earlier stage, or the vLLM image's own when the stage starts from one; None
    when none is known."""
    stages: dict[str, list[str] | None] = {}
    ep: list[str] | None = None
    alias = None
    args: dict[str, str] = {}  # ARG defaults: `ARG BASE_IMAGE=vllm/vllm-openai:…` then `FROM ${BASE_IMAGE}`
    for raw in re.sub(r"\\[ \t]*\r?\n", " ", text).splitlines():
        line = raw.strip()
        head, _, arg = line.partition(" ")
        if head.upper() == "ARG" and (a := re.match(r"(\w+)=(\S+)$", arg.strip())):
            args.setdefault(a.group(1), a.group(2).strip("'\""))
        line = re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda v: args.get(v.group(1) or v.group(2), v.group(0)), line) if head.upper() == "FROM" else line
        if head.upper() == "FROM" and (m := _FROM.match(line)):
            base = m.group(1).lower()
            ep = stages[base] if base in stages else (entrypoint_for(m.group(1), newest) if is_vllm_like_image(m.group(1)) else None)
            alias = m.group(2).lower() if m.group(2) else None
        elif head.upper() == "ENTRYPOINT":
            arg = arg.strip()
            try:
                got = json.loads(arg) if arg.startswith("[") else ["/bin/sh", "-c", arg]
            except ValueError:
                got = None
            ep = got if isinstance(got, list) and got and all(isinstance(x, str) for x in got) else None
        else:
            continue
        if alias:
            stages[alias] = ep
    return stages.get(target.lower()) if target and target.lower() in stages else ep


def local_entrypoint(text: str | None, newest: str, line: int, target: str | None = None) -> list[Word] | None:
    """The ENTRYPOINT of an image the script builds itself (`docker build -t TAG [--target STAGE]`
    from a project Dockerfile), as words for `docker run TAG …`."""
    ep = dockerfile_entrypoint(text, newest, target) if text else None
    return [synth_word(t, line) for t in ep] if ep else None


def env_image(image: str | None) -> tuple[dict, dict] | None:
    """The knowledge entry of an image configured by env vars (knowledge/deploy/env_images.yaml),
    with what its tag says: `worker` (its release) and `vllm` (the release it installs)."""
    from vllm_kb.engine.kb import deploy_tools

    name, tag = name_and_tag(image)
    for entry in deploy_tools.load("env_images")["images"]:
        if re.match(entry["match"], name) and not (entry.get("tag_has") and not re.search(entry["tag_has"], tag or "")):
            m = _TAG_VERSION.match(tag) or re.match(r"^v?(\d+\.\d+\.\d+)", tag)
            worker = try_parse(m.group(1)) if m else None
            if worker is not None and entry.get("until") and worker >= parse(str(entry["until"])):
                return None  # from this tag on the image takes vLLM's flags, not env
            vllm = str(worker) if worker is not None and entry.get("releases") == "tag" else None
            for at, v in entry.get("releases", ()) if isinstance(entry.get("releases"), list) else ():
                since = try_parse(str(at))
                if worker is not None and since is not None and worker >= since:
                    vllm = str(v)
            return entry, {"worker": str(worker) if worker else None, "vllm": vllm}
    return None
