"""`vllm-kb gpu [--gpu SPEC]`: the hardware facts an audit would use — probed through NVML on this
machine (name, count, memory, compute capability → architecture, driver and CUDA versions,
NVLink when NVML tells, CPU cores), or read from the GPU catalog for a `--gpu` spec. No driver,
no pynvml or an NVML error is reported as a fact ("no NVIDIA GPU visible", with the reason) and
the command still exits 0."""
from __future__ import annotations

import sys
from typing import Any

from vllm_kb.engine.kb.errors import EXIT_CLEAN

def add_parser(sub) -> None:
    g = sub.add_parser("gpu", help="the GPU facts an audit uses: probed with NVML, or from --gpu SPEC")
    g.add_argument("--gpu", default="auto", help='"H100-80GB x8", "none", or auto (probe this machine with NVML; default)')
    g.add_argument("--lang", choices=("en", "zh"), default="en")
    g.add_argument("--format", choices=("text", "json"), default="text")
    g.set_defaults(func=run)


def run(ns, nvml=None) -> int:
    from vllm_kb.engine.kb.machine import resolve as resolve_hardware
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    hw = resolve_hardware(kb.gpus, ns.gpu, nvml)
    data = record(hw, kb, ns.lang)
    if ns.format == "json":
        from vllm_kb.engine.report import json_text  # every JSON output escaped one way

        sys.stdout.write(json_text.dumps(data) + "\n")
    else:
        sys.stdout.write(render(data, kb, ns.lang))
    return EXIT_CLEAN


def record(hw, kb, lang: str) -> dict[str, Any]:
    from vllm_kb.engine.kb.hardware import arch_of

    g = hw.gpu
    out: dict[str, Any] = {
        "source": hw.source, "probed": hw.source == "NVML", "visible": bool(g),
        "gpu": dict(g) if g else None,
        "devices": [dict(d, arch=arch_of(d["compute_capability"])) if d.get("compute_capability") is not None else dict(d)
                    for d in hw.devices],
        "driver": hw.driver, "cuda": hw.cuda, "cpu_cores": hw.cpu_cores, "reason": None, "note": None,
    }
    if not g:
        code, detail = hw.reason or "other", hw.detail or (hw.note or "")
        text = kb.t(f"gpu.reason.{code}", lang, detail=detail)
        out["reason"] = {"code": code, "detail": detail, "text": kb.t("gpu.none", lang, reason=text)}
    elif hw.note:
        out["note"] = (kb.t(f"gpu.{hw.reason}", lang) if hw.reason in ("mixed", "mixed_spec")
                       else kb.t(f"hw.{hw.reason}", lang, asked=hw.detail).lstrip(" —") if hw.reason in ("custom", "nearest")
                       else hw.note)
    return out


def _cc(g: dict) -> str:
    """The compute capability as 9.0, or an AMD GPU's gcnArchName (gfx942): ROCm has no CUDA capability."""
    cc = g.get("compute_capability")
    return f"{cc:.1f}" if isinstance(cc, (int, float)) else str(g.get("gfx") or "?")


def _yn(kb, lang: str, v) -> str:
    return kb.t("gpu.unknown" if v is None else "gpu.yes" if v else "gpu.no", lang)


def render(data: dict, kb, lang: str) -> str:
    from vllm_kb.engine.kb.gpu_mix import memory_label

    t = lambda key, **kw: kb.t(key, lang, **kw)
    lines = [t("gpu.title") if data["probed"] else t("gpu.title_spec", spec=data["source"])]
    g = data["gpu"]
    if g is None:
        lines.append(data["reason"]["text"])
    else:
        lines.append(t("gpu.summary_rocm" if g.get("gfx") else "gpu.summary", count=int(g["count"]), name=g["name"], mem=memory_label(g),
                       cc=_cc(g), arch=g["arch"], fp8=_yn(kb, lang, g.get("fp8")),
                       nvlink=_yn(kb, lang, g.get("nvlink"))))
        for i, d in enumerate(data["devices"]):
            lines.append("  " + t("gpu.device", i=i, name=d["name"], mem=f"{d['memory_gib']:g}",
                                  cc=_cc(d), nvlink=_yn(kb, lang, d.get("nvlink"))))
        lines.append(t("gpu.catalog", id=g["id"]) if g.get("id") else t("gpu.not_in_catalog"))
        if data["note"]:
            lines.append(data["note"])
    if data["driver"]:
        lines.append(t("gpu.driver", driver=data["driver"], cuda=data["cuda"] or t("gpu.unknown")))
    if data["cpu_cores"]:
        lines.append(t("gpu.cpu", n=data["cpu_cores"]))
    lines.append(t("gpu.note_audit"))
    return "\n".join(lines) + "\n"
