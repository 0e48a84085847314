"""Where a site's GPU facts come from, for its hardware line: the audit's own machine (`--gpu`, or
the local probe), the deployment that names its GPU (a KAITO instanceType, a nodeSelector), or none,
and why none (no GPU given, `--gpu none`, a GPU the audit does not know, another accelerator). A site
without GPU facts is judged without any GPU, so its line must not repeat --gpu's card as if it held
(eval113 kaito placeholders and MIG slices, MinerU's Ascend image)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.site_platform import platform_why
from vllm_kb.engine.kb.gpu_mix import memory_label
from vllm_kb.engine.kb.hardware import chip_label


def _described(kb, g: dict, lang: str) -> str:
    return kb.t("hw.gpu", lang, name=g["name"], count=int(g.get("count") or 1), mem=memory_label(g), arch=g["arch"], chip=chip_label(g))


def _platform_by(kb, site, facts: dict, lang: str) -> tuple[str | None, str]:
    """(the platform the site's own settings, image or plugins say, the words for what says it)."""
    built = (site.source or {}).get("platform_build")
    if built:  # the project Dockerfile(s) the site's image is built from (engine/scan/image_platform.py)
        return built[0], kb.t("report.platform_by.build", lang, what=", ".join(built[1]))
    plat, what = platform_why(facts.get("args") or {}, facts.get("env") or {}, site.image,
                              (site.launch or {}).get("framework_device"), site.plugins)
    if what is None and site.platform_near:  # the image the README beside it runs it in (scan/readme_platform.py)
        near = site.platform_near
        return near[0], kb.t("report.platform_by.readme", lang, what=f"`{near[1]}`", at=near[2])
    if what is None and (node := (site.container or {}).get("device_platform")):  # `--device /dev/kfd` (scan/docker_run.py)
        return node[0], kb.t("report.platform_by.device_node", lang, what=f"`{node[1]}`")
    if what is None:
        return None, ""
    kind = ("device" if what.startswith("device=") else "plugin" if what in (site.plugins or ()) else
            "env" if what in (facts.get("env") or {}) else "image")
    return plat, kb.t(f"report.platform_by.{kind}", lang, what=f"`{what}`")


def site_hardware(kb, site, facts: dict, hw, lang: str) -> dict[str, Any]:
    """The site's `gpu_facts` (schema/report.schema.json): from, why, at, platform, description, arch, memory_gib, text."""
    sf = facts.get("site") or {}
    gpu = facts.get("gpu")
    names = sf.get("gpu_from")
    at = (site.source or {}).get("gpu_at") or f"{site.file}:{site.line}"
    source = f"`{hw.source}`" if hw.source else "--gpu"
    out: dict[str, Any] = {"from": None, "why": None, "at": None, "platform": None, "description": None, "arch": None,
                           "memory_gib": None}
    if gpu:
        out.update(arch=gpu.get("arch"), memory_gib=gpu.get("memory_gib"), description=_described(kb, gpu, lang) if names else None)
        if names:
            out.update({"from": "deployment", "at": at}, text=kb.t("report.gpu_facts.deployment", lang, names=f"`{names}`", at=at))
        elif unlisted := (site.source or {}).get("gpu_unlisted"):
            out.update({"from": "run", "why": "unlisted", "at": at},
                       text=kb.t("report.gpu_facts.unlisted", lang, names=f"`{unlisted}`", at=at, source=source))
        else:
            out.update({"from": "run"}, text=kb.t("report.gpu_facts.run", lang, source=source))
        return out
    out["from"] = "none"
    if not hw.gpu:
        why = "spec_none" if getattr(hw, "reason", None) == "spec_none" else "no_gpu"
        out.update(why=why, text=kb.t("report.gpu_facts.none_spec" if why == "spec_none" else "report.gpu_facts.none_run", lang))
        return out
    plat, by = _platform_by(kb, site, facts, lang)
    if plat is None and names and sf.get("platform") not in (None, "cuda"):
        plat, by = sf["platform"], f"`{names}` ({at})"  # the deployment names another accelerator (check/site_gpu.py)
    if plat is not None and plat != "cuda":
        name = kb.t(f"report.platform_name.{plat}", lang) if f"report.platform_name.{plat}" in kb.strings else plat
        out.update(why="platform", platform=plat, text=kb.t("report.gpu_facts.none_platform", lang, platform=name, by=by, source=source))
    else:
        out.update(why="deployment", at=at, text=kb.t("report.gpu_facts.none_deployment", lang, names=f"`{names or '?'}`", at=at, source=source))
    return out
