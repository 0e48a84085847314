"""A report that agrees with itself: checks run over the report dict (schema/report.schema.json)
before anyone reads it, and a test runs them over every fixture, example and a generated corpus
(tests/test_consistency.py). Each problem names the site and what disagrees:

- `opposite-values`: two checks or findings propose different values for one setting (or one
  sets what another removes);
- `memory`: a verdict about memory that the site's own estimate contradicts (C1 "the weights do
  not fit" beside an estimate that says they fit, or the reverse; B2 "one request does not fit"
  beside a KV cache that holds it);
- `p0-estimate`: a P0 issued from the memory estimate alone when the estimate is not conclusive
  (the weights alone must exceed what vLLM may use, or the cache must miss by a clear margin);
- `scenario`: the scenario proposes a value for a setting that a recommended check sets otherwise
  or removes;
- `status-word`: the word a check's status is shown with does not fit its change (a removal
  labelled "enable");
- `p0-unsafe`: a P0 whose fix is marked unsafe although P0 means vLLM will not start without it
  (or a verified gain at no risk) — only removing an access guard, turning trust_remote_code on or
  sharing the host's IPC namespace with a container (a person's call), or naming another draft model
  or a template file to fetch first, or a value the memory estimate computed, may stay unsafe;
- `no-op`: a change that writes what is already there."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.guards import guards_access, runs_foreign_code

# A KV cache that misses one max_model_len request by less than this share is not a certain
# launch failure: the estimate's own error is about that size.
CONCLUSIVE_MISS = 0.85


def check(report: dict) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s in report.get("sites", []):
        for kind, detail in _site(s):
            out.append({"site": s["id"], "kind": kind, "detail": detail})
    return out


def _site(s: dict):
    yield from _opposite_values(s)
    yield from _memory(s)
    yield from _scenario(s)
    yield from _status_words(s)
    yield from _p0_unsafe(s)
    yield from _no_op(s)


def _norm(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


def _proposals(s: dict) -> dict[str, list[tuple[str, str, Any]]]:
    """target → [(who, op, value)] over the recommended checks and the findings' changes."""
    props: dict[str, list[tuple[str, str, Any]]] = {}
    for c in s.get("checks", []):
        if c["status"] != "recommended":
            continue
        for f in c.get("fix", []):
            props.setdefault(f["target"], []).append((c["id"], f["op"], _norm(f["value"])))
    for r in s.get("recommendations", []):
        if r["kind"] != "finding":
            continue
        for ch in r.get("changes", []):
            if r["check"] in ch.get("checks", []):
                props.setdefault(ch["target"], []).append((r["check"], ch["op"], _norm(ch["value"])))
    return props


def _agree(a: tuple[str, Any], b: tuple[str, Any], current: Any = None, default: Any = None) -> bool:
    """Whether two proposals for one setting can both hold: the same, a removal and the default
    it leaves, two numbers that move it the same way from where it is (the further one satisfies
    both: the planner takes it), keys of one mapping that do not clash."""
    (op1, v1), (op2, v2) = a, b
    removal = {"unset", "unset_env"}
    if op1 in removal or op2 in removal:
        if op1 in removal and op2 in removal:
            return True
        kept = v2 if op1 in removal else v1
        return default is not None and _norm(kept) == _norm(default)
    if op1 == "rename" or op2 == "rename":
        return op1 == op2 and v1 == v2
    if op1 == op2 == "pin" and isinstance(v1, str) and isinstance(v2, str):
        return _pins_meet(v1, v2)
    if isinstance(v1, dict) and isinstance(v2, dict):  # keys of one mapping: only shared keys must agree
        return all(v1[k] == v2[k] for k in set(v1) & set(v2))
    if _num(v1) is not None and _num(v2) is not None and _num(current) is not None:
        return (_num(v1) - _num(current)) * (_num(v2) - _num(current)) > 0  # type: ignore[operator]
    return v1 == v2


def _pins_meet(a: str, b: str) -> bool:
    """Two version specifiers for one package agree when a release satisfies both ('>=0.6.1' and
    '==0.6.1': the planner writes one of them, and the other holds too)."""
    from vllm_kb.engine.kb import catalog as catalog_mod
    from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet

    try:
        sa, sb = SpecifierSet(a), SpecifierSet(b)
    except InvalidSpecifier:
        return a == b
    return any(sa.contains(v) and sb.contains(v) for v in catalog_mod.load().versions)


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _current(s: dict, target: str) -> Any:
    for st in s.get("settings", []):
        if st["name"] == target and st.get("resolved"):
            return st["value"]
    effective = s.get("effective") or {}
    if target == "max_model_len" and effective.get(target) is None:  # unset: the model's context, as vLLM derives it
        return (s.get("memory") or {}).get("max_model_len") or (s.get("model") or {}).get("max_context")
    return effective.get(target) if target in effective else _default(s, target)


def _default(s: dict, target: str) -> Any:
    from vllm_kb.engine.kb import catalog as catalog_mod

    version = (s.get("vllm") or {}).get("catalog_version")
    if not version:
        return None
    try:
        return catalog_mod.load().defaults(version).get(target)
    except (KeyError, ValueError):
        return None


def _opposite_values(s: dict):
    for target, props in _proposals(s).items():
        current, default = _current(s, target), _default(s, target)
        for i, (who1, op1, v1) in enumerate(props):
            for who2, op2, v2 in props[i + 1:]:
                if who1 != who2 and not _agree((op1, v1), (op2, v2), current, default):
                    yield "opposite-values", f"{target}: {who1} proposes {_say(op1, v1)}, {who2} proposes {_say(op2, v2)}"


def _say(op: str, v: Any) -> str:
    return "removing it" if op in ("unset", "unset_env") else f"{v!r}"


def _check(s: dict, cid: str) -> dict | None:
    return next((c for c in s.get("checks", []) if c["id"] == cid), None)


def _memory(s: dict):
    mem = s.get("memory") or {}
    c1, b2 = _check(s, "C1"), _check(s, "B2")
    if "fits" in mem and c1 is not None:
        says_no_fit = c1["status"] == "recommended"
        if says_no_fit and mem["fits"]:
            yield "memory", "C1 says the weights do not fit; the site's memory estimate says they fit"
        if c1["status"] in ("enabled", "not_enabled") and not mem["fits"]:
            yield "memory", f"C1 is {c1['status']} although the memory estimate says the weights do not fit"
        if says_no_fit and c1.get("priority") == "P0" and mem.get("weights_per_gpu_gib") is not None \
                and mem.get("requested_per_gpu_gib") is not None and mem["weights_per_gpu_gib"] <= mem["requested_per_gpu_gib"]:
            yield "p0-estimate", (f"C1 is P0 though the weights (≈{mem['weights_per_gpu_gib']} GiB per GPU) fit in what vLLM "
                                  f"may use (≈{mem['requested_per_gpu_gib']} GiB): whether they leave room is an estimate")
    if b2 is not None and b2["status"] == "recommended" and b2.get("priority") == "P0":
        fit, mml = mem.get("max_model_len_fit"), mem.get("max_model_len")
        if mem.get("fits_max_model_len"):
            yield "memory", "B2 says one max_model_len request does not fit; the estimate says it does"
        elif fit is not None and mml and fit >= CONCLUSIVE_MISS * mml:
            yield "p0-estimate", f"B2 is P0 though the KV cache (≈{fit} tokens) misses max_model_len {mml} by less than the estimate's error"


def _scenario(s: dict):
    sc = s.get("scenario") or {}
    if not sc or sc.get("status") not in ("match", None):
        return
    props = _proposals(s)
    for d in sc.get("differences", []):
        for who, op, v in props.get(d["name"], []):
            current = d.get("current") if d.get("current") is not None else _current(s, d["name"])
            if not _agree((op, v), ("set", _norm(d["scenario"])), current, _default(s, d["name"])):
                yield "scenario", f"{d['name']}: scenario {sc['id']} proposes {d['scenario']!r}, {who} proposes {_say(op, v)}"


def _status_words(s: dict):
    for c in s.get("checks", []):
        action = c.get("action")
        if c["status"] != "recommended" or action is None:
            continue
        ops = c.get("fix", [])
        if action == "enable" and ops and all(f["op"] in ("unset", "unset_env") and not f.get("enables") for f in ops):
            yield "status-word", f"{c['id']} is shown as 'enable' but its change removes {', '.join(f['target'] for f in ops)}"
        if action == "remove" and any(f["op"] in ("set", "env") for f in ops):
            yield "status-word", f"{c['id']} is shown as 'remove' but its change sets {', '.join(f['target'] for f in ops)}"


# values that name something the person must download or choose before the launch can use it
_FETCHED = frozenset({"speculative_model", "speculative_config", "chat_template"})
# the settings the memory estimate sizes: a value computed for them is this machine's guess
_SIZED = frozenset({"max_model_len", "gpu_memory_utilization", "tensor_parallel_size", "pipeline_parallel_size",
                    "data_parallel_size", "max_num_seqs", "max_num_batched_tokens"})


def _p0_unsafe(s: dict):
    for r in s.get("recommendations", []):
        if r["priority"] != "P0" or r["safe"] or not r.get("changes"):
            continue
        if all(ch["op"] in ("unset", "unset_env") and guards_access(ch["target"]) for ch in r["changes"]):
            continue  # removing an access guard stays for a person to decide
        if all(runs_foreign_code(ch["target"]) or (ch["op"] == "rename" and runs_foreign_code(ch.get("value")))
               for ch in r["changes"]):
            continue  # so does letting the model repository's code run (also a stray `trust_remote_code=True` made the flag)
        if all(ch["op"] == "container" for ch in r["changes"]):
            continue  # and what the container shares with its host (L40's --ipc=host)
        if all(ch["op"] == "set" and ch["target"] in _FETCHED for ch in r["changes"]):
            continue  # another draft model (L90) or a template file to fetch first (chat-template-path): a person's step
        if r["kind"] == "finding" and r["check"].startswith("unknown-option") and all(ch["op"] == "rename" for ch in r["changes"]):
            continue  # a rename whose target is a guess between close candidates
        if r["kind"] == "finding" and r["check"].startswith("unknown-option") and any(ch["target"] == "lora_modules" for ch in r["changes"]):
            continue  # an adapter path under a guessed flag rewritten to --lora-modules: a guess too
        if r["kind"] == "check" and all(ch["op"] == "set" and ch["target"] in _SIZED for ch in r["changes"]):
            continue  # a value the memory estimate computed (a max_model_len cut): --unsafe-fixes writes it (knowledge.py)
        yield "p0-unsafe", f"{r['check']} is P0 but its fix is marked unsafe"


def _no_op(s: dict):
    for ch in s.get("changes", []):
        if ch["op"] == "set" and ch.get("before") is not None and ch.get("after") == ch["before"]:
            yield "no-op", f"{ch['file']}:{ch['line']}: {ch['target']} is already {ch['after']}"
