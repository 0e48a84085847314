"""Runs the checks against one site's facts. A check is not applicable outside its modes and
vLLM versions; otherwise its rules are tried in order and the first that holds decides. A rule
that needs a fact the site lacks, or one the scanner could not resolve, makes the verdict
`unknown` — never a silent pass."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.check.lowered import lower, note
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.model_resolve import is_local
from vllm_kb.engine.kb.knowledge import Check, FixOp, Knowledge, Rule, Text
from vllm_kb.engine.kb.messages import lookup, placeholders, render

STATUSES = ("enabled", "not_enabled", "recommended", "not_applicable", "unknown")
NO_CHANGE = ("enabled", "not_enabled", "not_applicable")


@dataclass
class Result:
    check: Check
    status: str
    reason: Text
    priority: str | None = None
    rule: Rule | None = None
    missing: tuple[str, ...] = ()
    fix: list[tuple[FixOp, Any]] = field(default_factory=list)  # (op, concrete value)
    safe: bool = False
    values: dict[str, Any] = field(default_factory=dict)  # placeholders for the reason text

    @property
    def needs_change(self) -> bool:
        return self.status == "recommended"

    def reason_text(self, lang: str) -> str:
        return render(self.reason(lang), self.values)


# platforms whose vLLM is not the CUDA or ROCm GPU code (report.platform_name.*); vLLM's CPU backend keeps its own rules
NOT_GPU = frozenset({"tpu", "npu", "hpu", "neuron", "xpu", "openvino"})


def evaluate(check: Check, facts: dict, act: cel.Activation, unresolved: dict[str, str], kb: Knowledge) -> Result:
    mode = facts.get("site", {}).get("mode")
    version = facts.get("vllm", {}).get("version")
    if mode not in check.modes:
        return Result(check, "not_applicable", Text(
            en=kb.t("reason.mode", "en", modes=", ".join(check.modes), mode=mode),
            zh=kb.t("reason.mode", "zh", modes=", ".join(check.modes), mode=mode)))
    rules = check.rules
    plat = (facts.get("site") or {}).get("platform")
    # vLLM's CPU build captures no graphs (0.10.0 platforms/cpu.py:190 empties cudagraph_capture_sizes; the V0 CPU
    # model runner never captured): checks of the GPU's graphs alone (gpu_only) say nothing there
    cpu_build = plat == "cpu" and not (facts.get("site") or {}).get("platform_hint")
    if (check.cuda_only or check.gpu_only) and plat in NOT_GPU or check.gpu_only and cpu_build:
        # a TPU's, an Ascend NPU's … vLLM runs another platform's code (its plugin or backend), not these GPU paths
        name = kb.t(f"report.platform_name.{plat}", "en"), kb.t(f"report.platform_name.{plat}", "zh")
        return Result(check, "not_applicable", Text(en=kb.t("reason.gpu_only", "en", platform=name[0]),
                                                    zh=kb.t("reason.gpu_only", "zh", platform=name[1])))
    if check.cuda_only and plat == "rocm":
        rules = [r for r in check.rules if r.rocm]
        res = _first(check, rules, facts, act, unresolved, kb, version) if rules else None
        if res is not None and res.status == "recommended":
            return res
        gpu = str((facts.get("gpu") or {}).get("name") or "AMD GPU")
        return Result(check, "not_applicable", Text(en=kb.t("reason.cuda_only", "en", gpu=gpu),
                                                    zh=kb.t("reason.cuda_only", "zh", gpu=gpu)))
    if check.vllm and version and not check.vllm.contains(version):
        text = check.outside_versions or Text(
            en=kb.t("reason.versions", "en", spec=str(check.vllm), version=version),
            zh=kb.t("reason.versions", "zh", spec=str(check.vllm), version=version))
        return Result(check, "not_applicable", text, values=_values(text, facts))
    return _first(check, rules, facts, act, unresolved, kb, version) or \
        Result(check, check.otherwise_status, check.otherwise_reason, values=_values(check.otherwise_reason, facts))


def _first(check: Check, rules: list[Rule], facts: dict, act: cel.Activation, unresolved: dict[str, str], kb: Knowledge,
           version: str | None) -> Result | None:
    """The result of the first rule that holds or cannot be decided (None: none holds)."""
    for rule in rules:
        if rule.vllm and version and not rule.vllm.contains(version):
            continue
        pred = cel.compile(rule.when)
        blocked = sorted({unresolved[p[1]] for p in pred.paths if len(p) > 1 and p[0] in ("args", "passed", "engine")
                          and p[1] in unresolved}) if unresolved else None
        if blocked:
            return Result(check, "unknown", Text(
                en=kb.t("reason.unresolved", "en", what="; ".join(blocked)),
                zh=kb.t("reason.unresolved", "zh", what="; ".join(blocked))), missing=tuple(blocked), rule=rule)
        out = pred.evaluate(act)
        if out.value is None:
            what = ", ".join(out.missing) if out.missing else (out.error or "?")
            key = _missing_key(out.missing, facts)
            model = str((facts.get("model") or {}).get("name") or "?")
            args = ", ".join(facts.get("memory_unread") or ())
            return Result(check, "unknown", Text(
                en=kb.t(key, "en", what=what, model=model, args=args), zh=kb.t(key, "zh", what=what, model=model, args=args)),
                missing=out.missing, rule=rule)
        if out.value:
            res = Result(check, rule.status, rule.reason, rule=rule, values=_values(rule.reason, facts))
            if rule.status == "recommended":
                res.priority = rule.priority or check.priority
                res.safe = rule.safe
                res.fix = _concrete(rule.fix, act)
            return res
    return None


def _missing_key(missing: tuple[str, ...], facts: dict) -> str:
    """The words for a check that needs the memory estimate when there is none: why (no GPU, a
    sizing argument not read, a model whose size is not known), rather than the fact's name."""
    why = facts.get("memory_unknown")
    told = ("memory.", "gpu.") if why in ("gpu", "site_gpu", "spec_none") else ("memory.",)
    if (why in ("gpu", "site_gpu", "spec_none", "unread", "model") and any(m.startswith("memory.") for m in missing)
            and all(m.startswith(told) for m in missing)):
        return f"reason.memory_unknown.{why}"
    return "reason.missing"


def _values(text: Text, facts: dict) -> dict[str, Any]:
    return {p: lookup(facts, p) for p in placeholders(text.en + " " + text.zh)}


def _concrete(ops: tuple[FixOp, ...], act: cel.Activation) -> list[tuple[FixOp, Any]]:
    out = []
    for op in ops:
        value = op.value
        if op.kind == "pin" and op.target == "framework":
            # the framework the site runs under (L43's nearest framework release): its own package's pin
            fid = (act.facts.get("site") or {}).get("framework")
            if not isinstance(fid, str) or fid in ("", "none"):
                continue
            op = dataclasses.replace(op, target=fid)
        if op.value_from:
            value, err = cel.compile(op.value_from).compute(act)
            if err is not None or (value is None and (op.alternative or op.kind == "set")):
                # an alternative whose expression gives null is not offered here; nor is a setting
                # with no value to set (LLaMA-Factory's vllm_config would be written with a null)
                continue
        out.append((op, value))
    return out


def _cpu_refusal(res: Result, facts: dict) -> bool:
    """A rule written for vLLM's own CPU backend (its `when` reads site.platform "cpu") keeps its P0
    where the project proves the CPU build (a `+cpu` pin, VLLM_TARGET_DEVICE=cpu, a CPU image)."""
    site = facts.get("site") or {}
    return site.get("platform") == "cpu" and not site.get("platform_hint") \
        and res.rule is not None and '"cpu"' in res.rule.when and "site.platform" in res.rule.when


def evaluate_all(kb: Knowledge, facts: dict, unresolved: dict[str, str], engine_elsewhere: bool = False,
                 only: frozenset[str] | None = None) -> list[Result]:
    """`only`: the checks a site is judged by (a project module's vLLM imports: L139), the others not applicable."""
    act = cel.Activation(facts)
    shown: dict[str, str] = {}  # repr of each fact a check's words quote: the checks quote the same few
    out = []
    for c in kb.checks:
        if engine_elsewhere and c.category != "H" and not c.raw.get("applies_to", {}).get("clients"):
            # a trainer that talks to a separately launched rollout server: its engine checks
            # are answered at the server's own site
            text = Text(en=kb.t("reason.engine_elsewhere", "en"), zh=kb.t("reason.engine_elsewhere", "zh"))
            out.append(Result(c, "not_applicable", text))
            continue
        if only is not None and c.id not in only:
            out.append(Result(c, "not_applicable", Text(en=kb.t("reason.import_site", "en"), zh=kb.t("reason.import_site", "zh"))))
            continue
        res = _evaluate_once(c, facts, act, unresolved, kb, shown)
        if res.priority == "P0" and (facts.get("site") or {}).get("platform", "cuda") not in ("cuda", "rocm") \
                and not _cpu_refusal(res, facts):
            # the start-up failures the checks encode were read from vLLM's own tree; another
            # platform's plugin (vllm-ascend, Neuron …) decides its own. ROCm is in that tree: its
            # sites keep the P0s of the checks that are not CUDA-only (cuda_only: not applicable)
            res.priority = "P1"
        model = facts.get("model") or {}
        if res.priority == "P0" and model.get("params_from_name") and c.id in SIZED_BY_MODEL \
                and is_local(str(model.get("name") or "")):
            # a folder named `…-39b-step400` may be a 7B run's 39th task: a memory verdict on a local folder's
            # name is a guess (an upload's name states its size by convention: hiuman/Vistral-7B-Chat stays P0)
            lower(res, "P1", note(kb, "priority.size_from_name", params=model.get("params_b")))
        out.append(res)
    return out


# the checks whose verdict rests on the model's size (weights, KV room)
SIZED_BY_MODEL = frozenset({"L15", "L16", "L110"})


def settle_priorities(results: list[Result], findings: list, basis: str, allowed: list | None = None,
                      kb: Knowledge | None = None) -> None:
    """P0 means vLLM will not start. When that depends on the release (a rule with a `vllm:`
    range) and the project allows a range of releases (`vllm>=0.6`), the rule stays P0 only when
    it fails in every known release the range allows (`allowed`); otherwise the failure is what
    the newest of them would do, and the project says it runs others: P1. (With no bound at all,
    what `pip install vllm` gives is the newest release: its verdict stands.) An image tagged with
    its build day allows the newest release of that day and the next one."""
    if basis not in ("range", "image-dated") or not allowed:
        return
    for r in results:
        if r.status != "recommended" or r.priority != "P0":
            continue
        if r.rule is not None and r.rule.vllm is not None and not all(r.rule.vllm.contains(str(v)) for v in allowed):
            lower(r, "P1", unsafe=False)
        elif (starts := _moves_within(r, allowed)) is not None:
            # say why it is not certain: the release that starts is one the project may run
            lower(r, "P1", note(kb, "priority.moves_within", release=starts) if kb is not None else None, unsafe=False)
    # a command line read before the release was known (an image tag read as its build day, after the scan
    # parsed argv as the newest release): a finding none of the allowed releases fails in is no finding
    # (`--enable-chunked-prefill false` a stray positional only from 0.8.5, on an image built in January 2025)
    findings[:] = [f for f in findings if not (getattr(f, "vllm", None) and _fails_in_none(f, allowed))]
    for f in findings:
        if f.priority == "P0" and fails_in_some_only(f, allowed):
            lower(f, "P1", unsafe=False)


def _moves_within(r: Result, allowed: list) -> str | None:
    """The release the rule's own change moves to where the project may already run it (its fix
    pins vllm to a range one of `allowed` meets: an image built the day Llama 4 came out may hold
    0.8.3's code although 0.8.2 was the newest release by then); None otherwise."""
    from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet

    for op, value in r.fix:
        if op.kind == "pin" and op.target == "vllm" and not op.alternative and isinstance(value, str) and value:
            try:
                spec = SpecifierSet(value)
            except InvalidSpecifier:
                continue
            hit = next((str(v) for v in allowed if spec.contains(str(v))), None)
            if hit is not None:
                return hit
    return None


def _fails_in_none(f, releases: list) -> bool:
    from vllm_kb.engine.kb.versions import SpecifierSet

    return not any(SpecifierSet(str(f.vllm)).contains(str(v)) for v in releases)


def fails_in_some_only(f, releases: list) -> bool:
    """A finding that names the releases it fails in (its `vllm` range) and some of `releases` is not one."""
    from vllm_kb.engine.kb.versions import SpecifierSet

    spec = getattr(f, "vllm", None)
    return bool(spec) and not all(SpecifierSet(str(spec)).contains(str(v)) for v in releases)


def cap_opaque(results: list[Result], findings: list) -> None:
    """A site read through a callable no registry knows (engine/scan/python_opaque.py): what the
    wrapper hands vLLM is not seen, so no verdict on it says "vLLM will refuse to start"."""
    for x in [*results, *findings]:
        if getattr(x, "priority", None) == "P0":
            lower(x, "P1", unsafe=False)


def settle_documented(results: list[Result], findings: list, kb: Knowledge, launch: dict) -> None:
    """A launch the project offers but does not run as it stands — written only in a README's code
    fence (engine/scan/readme_fences.py), or a chart template rendered under a value its values.yaml
    does not choose (engine/scan/deploy/helm_choices.py): a refusal there is P1, and no change to it
    is written without --unsafe-fixes. A README's tuning advice (a P1 of checks A-J) is P2 there."""
    if launch.get("documented"):
        why = note(kb, "priority.documented")
        # a README's command is an example the reader adapts: tuning advice on it (categories A-J) is no
        # P1; a refusal lowered from P0 below keeps its P1 (eval111 GLM-V README TP4: C4, I5, B2, B3)
        example = note(kb, "priority.documented_tuning")
        for r in results:
            own = (r.rule.priority if r.rule is not None else None) or r.check.priority
            if r.priority == "P1" and own == "P1" and r.status == "recommended" and not r.check.id.startswith("L"):
                lower(r, "P2", example)
    elif launch.get("values_choice"):
        why = note(kb, "priority.values_choice", choice=launch["values_choice"])
    else:
        return
    for x in [*results, *findings]:
        if getattr(x, "priority", None) == "P0":
            lower(x, "P1", why)
        elif hasattr(x, "safe"):
            x.safe = False


# The dependency index: what a check's verdict can depend on — the site's mode and release, the
# fact paths its rules and fix values read, the facts its texts quote, and what the scanner could
# not resolve among the arguments it reads. Sites that agree on all of it (most sites of a large
# project do, on most checks) share one evaluation.
_DEPS: dict[int, tuple] = {}
_RESULTS: dict[tuple, Result] = {}
_RESULTS_LIMIT = 50_000  # a long-lived MCP server starts over past this


def _deps(check: Check) -> tuple:
    hit = _DEPS.get(id(check))
    if hit is not None and hit[0] is check:
        return hit[1], hit[2], hit[3]
    paths: set[tuple[str, ...]] = {("site", "mode"), ("vllm", "version")}
    if check.cuda_only or check.gpu_only:
        # `evaluate` answers such a check on ROCm (cuda_only) or another platform by the platform alone (reason.gpu_only)
        paths |= {("site", "platform"), ("gpu", "name")}
    quoted: set[str] = set()
    texts = [check.otherwise_reason] + ([check.outside_versions] if check.outside_versions else [])
    for rule in check.rules:
        paths |= cel.compile(rule.when).paths
        for op in rule.fix:
            if op.value_from:
                paths |= cel.compile(op.value_from).paths
        texts.append(rule.reason)
    for t in texts:
        quoted.update(placeholders(t.en + " " + t.zh))
    ordered = tuple(sorted(paths))
    args = tuple(sorted({p[1] for p in paths if len(p) > 1 and p[0] in ("args", "passed", "engine")}))
    _DEPS[id(check)] = (check, ordered, tuple(sorted(quoted)), args)
    return ordered, tuple(sorted(quoted)), args


# A check outside the site's mode says so and nothing else (`evaluate`'s first answer): most of the
# checks at most sites (a serving check at an offline engine …), answered without the index's key.
_OUTSIDE_MODE: dict[tuple[int, str | None], tuple[Check, Knowledge, Result]] = {}


def _evaluate_once(check: Check, facts: dict, act: cel.Activation, unresolved: dict[str, str], kb: Knowledge,
                   shown: dict[str, str] | None = None) -> Result:
    mode = facts.get("site", {}).get("mode")
    if (mode is None or type(mode) is str) and mode not in check.modes:
        held = _OUTSIDE_MODE.get((id(check), mode))
        if held is None or held[0] is not check or held[1] is not kb:
            held = _OUTSIDE_MODE[(id(check), mode)] = (check, kb, evaluate(check, facts, act, unresolved, kb))
        return _copy(held[2])
    paths, quoted, args = _deps(check)
    why = facts.get("memory_unknown")  # what an unknown memory check's words name (_missing_key)
    shown = {} if shown is None else shown
    for q in quoted:
        if q not in shown:
            shown[q] = repr(lookup(facts, q))
    key = (id(check), tuple(map(act.key, paths)), tuple(map(shown.__getitem__, quoted)),
           tuple(map(unresolved.get, args)),
           (why, repr(facts.get("memory_unread")), (facts.get("model") or {}).get("name")) if why else None)
    hit = _RESULTS.get(key)
    if hit is None or hit.check is not check:
        hit = evaluate(check, facts, act, unresolved, kb)
        if len(_RESULTS) >= _RESULTS_LIMIT:
            _RESULTS.clear()
        _RESULTS[key] = hit
    return _copy(hit)


def _copy(r: Result) -> Result:
    """copy.copy of a Result (a plain dataclass: a new instance given the same attributes) without
    copy's protocol look-ups, for each of a site's ~130 results."""
    new = object.__new__(Result)
    new.__dict__.update(r.__dict__)
    return new
