"""The project's transformers pin against the checkpoint's model_type.

vLLM reads config.json through transformers' AutoConfig unless its own release maps the model
type to a config class of its own (knowledge/vllm/model_types.yaml `vllm_own`); a transformers
release older than the one that added the type (`transformers_first`) raises "The checkpoint you
are trying to load has model type `X` but Transformers does not recognize this architecture", and
vLLM stops. Only a pin whose every allowed version is older than the first minor release that maps
the type says so (`launch.tf_too_old`); no pin, or a pin that allows a newer release, says nothing.
Without a pin, vLLM's own image of a release (`vllm/vllm-openai:vX.Y.Z`) holds the transformers
pip resolved the day it was built: too old when the release's requirement excludes the one that
maps the type, or when that one reached PyPI more than a week after the vLLM release.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from vllm_kb.engine.kb.versions import Version, allows_any, contains, in_spans, parse, try_parse



def _allows_from(spec: str, since: str, later: list[str]) -> bool:
    """Whether the pin allows `since` or any release after it (a pre-release or development build of
    `since` itself may already map the type: no claim)."""
    floor = Version(since)
    return allows_any(spec, [since, *later], lambda pv: Version(".".join(map(str, pv.release))) >= floor)


# vLLM's own image of one release; the days an image may have been rebuilt after the release
_IMAGE = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai:v?(\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)$")
_REBUILT_DAYS = 7


def transformers_fit(facts: dict, pin: Any, table: dict, image: str | None = None,
                     vllm_released: dict | None = None) -> dict[str, Any]:
    """launch.tf_model_type / tf_since / tf_pin / tf_pin_at / tf_too_old for the site's model:
    from the project's transformers pin, else from vLLM's own image (`vllm_released`: vLLM
    release → the day it reached PyPI); and the tokenizer class of transformers 5 against a
    transformers below 5 (engine/check/tokenizer_fit.py)."""
    from vllm_kb.engine.check.tokenizer_fit import tokenizer_fit

    release = str((facts.get("vllm") or {}).get("version") or "")
    tok = tokenizer_fit(facts, pin, _requires(table, release) if release else None,
                        lambda spec: _allows_from(spec, "5.0.0", ["5.5.1", "5.10.0"])) if not facts.get("model_alternatives") else {}
    out = _model_type_fit(facts, pin, table, image, vllm_released)
    auto_map = (facts.get("model") or {}).get("auto_map")
    if out.get("tf_too_old") and isinstance(auto_map, list):
        # trust_remote_code reads the repository's own config class only where config.json's auto_map
        # names AutoConfig (transformers AutoConfig.from_pretrained: has_remote_code); known only where
        # the project holds the config.json
        out["tf_config_code"] = "AutoConfig" in auto_map
    elif out.get("tf_too_old") and (facts.get("model") or {}).get("config_code") is True:
        out["tf_config_code"] = True  # the catalog knows the uploads' auto_map to name AutoConfig (models.yaml config_code)
    elif out.get("tf_too_old") and (facts.get("model") or {}).get("remote_code") is False:
        out["tf_config_code"] = False  # the catalog knows the uploads as transformers' own port (models.yaml remote_code: false)
    return {**out, **tok}


def _model_type_fit(facts: dict, pin: Any, table: dict, image: str | None, vllm_released: dict | None) -> dict[str, Any]:
    if facts.get("model_alternatives"):
        return {}
    if pin is not None and getattr(pin, "source", "") == "git" and not getattr(pin, "spec", None):
        # transformers from its repository's branch or commit: newer than any release's mapping
        return {"tf_pin_has_type": True} if not tf_admits_type(table, (facts.get("model") or {}).get("model_type"),
                                                               str((facts.get("vllm") or {}).get("version") or "")) else {}
    if pin is not None and getattr(pin, "source", "") == "fork" and not getattr(pin, "spec", None):
        return {}  # another owner's transformers branch: what it maps is not known here, the image's no longer counts
    if pin is None or not getattr(pin, "spec", None):
        return _image_fit(facts, image, table, vllm_released or {}) if image else _requires_fit(facts, table)
    got = _model_type_since(facts, table)
    if got is None or _allows_from(pin.spec, got[1], got[2]):
        return _pin_has_type(facts, pin, table)
    model_type, since = got[0], got[1]
    release = str((facts.get("vllm") or {}).get("version") or "")
    # never below the release's own floor either: qwen2 maps from 4.37.0, vLLM 0.5.0.post1 asks for >=4.40.0
    floors = [v for v in re.findall(r">=\s*([0-9][\w.]*)", _requires(table, release) or "") if try_parse(v) is not None]
    raise_to = max([since, *floors], key=parse)
    out = {"tf_model_type": model_type, "tf_since": since, "tf_pin": pin.text, "tf_pin_at": f"{pin.file}:{pin.line}",
           "tf_fix": f">={raise_to}", "tf_too_old": True}
    if not tf_admits_type(table, model_type, release) and (first := first_pip_release(model_type, release, table)):
        # raising transformers leaves the release's own requirement (vLLM 0.19.0's <5 and Gemma 4's 5.5.0): the
        # first release that admits both is the alternative
        out.update(tf_vllm_first=first, tf_vllm_fix=f">={first}", tf_pin_requires=_requires(table, release))
        # and the pin must move too, to a transformers that maps the type inside that release's requirement
        theirs = _requires(table, first)
        fits = [v for v in [since, *got[2]] if not theirs or contains(theirs, v)]
        if fits:
            out["tf_pin_fix"] = f">={fits[0]}"
    return out


def _pin_has_type(facts: dict, pin: Any, table: dict) -> dict[str, Any]:
    """launch.tf_pin_has_type where the project's own pin allows a transformers that maps the model
    type although the release's requirement excludes every one (installed past pip's resolver, or
    --no-deps): L21 then does not say that nothing can fall back."""
    release = str((facts.get("vllm") or {}).get("version") or "")
    model_type = (facts.get("model") or {}).get("model_type")
    if not release or not isinstance(model_type, str) or tf_admits_type(table, model_type, release):
        return {}
    since = table["transformers_first"][model_type]
    return {"tf_pin_has_type": True} if _allows_from(pin.spec, since, _later(table["transformers_first"], since)) else {}


# (id of a table's transformers_first, a transformers release) → (the table, its releases after that one)
_LATER: dict[tuple[int, str], tuple[dict, tuple[str, ...]]] = {}


def _later(first: dict, since: str) -> list[str]:
    """The transformers releases of the table after `since`, in order: the same for every site of
    a model type, and a pass over the table's few hundred types each time (the 5,000-file tree: 3 %
    of the audit); kept per table and release."""
    held = _LATER.get((id(first), since))
    if held is None or held[0] is not first:
        if len(_LATER) >= 256:
            _LATER.clear()
        held = _LATER[(id(first), since)] = (first, tuple(sorted({v for v in first.values() if parse(v) > parse(since)}, key=parse)))
    return list(held[1])


def _model_type_since(facts: dict, table: dict) -> tuple[str, str, list[str]] | None:
    model_type = (facts.get("model") or {}).get("model_type")
    release = (facts.get("vllm") or {}).get("version")
    first = table.get("transformers_first") or {}
    if not isinstance(model_type, str) or model_type not in first or not release:
        return None
    if in_spans(release, (table.get("vllm_own") or {}).get(model_type) or []):
        return None
    since = first[model_type]
    # (parsed through the remembered `parse`: every site asks about the same few hundred releases)
    return model_type, since, _later(first, since)


def release_requires(rows: dict, release: str) -> str | None:
    """vLLM's transformers requirement in `release` from its `vllm_requires` rows; a .postN patch
    keeps its base's (the table lists the bases)."""
    return rows.get(release) or rows.get(release.split(".post")[0])


def tf_admits_type(table: dict, model_type: str | None, release: str) -> bool:
    """Whether the release's transformers requirement admits a transformers that maps the model type
    (true where either is unknown): vLLM 0.16.0 (transformers<5) cannot read a qwen3_5_moe config."""
    since = (table.get("transformers_first") or {}).get(model_type or "")
    if not since:
        return True
    requires = _requires(table, release)
    return not requires or _allows_from(requires, since, _later(table["transformers_first"], since))


def _requires(table: dict, release: str) -> str | None:
    return release_requires(table.get("vllm_requires") or {}, release)


def _image_fit(facts: dict, image: str | None, table: dict, vllm_released: dict) -> dict[str, Any]:
    m = _IMAGE.match(image or "")
    release = (facts.get("vllm") or {}).get("version")
    got = _model_type_since(facts, table) if m and m.group(1) == release else None
    if got is None:
        return {}
    model_type, since, later = got
    requires = _requires(table, str(release))
    built, out, upgradable = vllm_released.get(release), None, False
    if requires and not _allows_from(requires, since, later):
        out = f"{image} (vLLM {release} requires transformers{requires})"
    elif built and (table.get("released") or {}).get(since):
        if date.fromisoformat(table["released"][since]) > date.fromisoformat(str(built)) + timedelta(days=_REBUILT_DAYS):
            out = f"{image} (built {built}; transformers {since} came out {table['released'][since]})"
            upgradable = True  # the release's own requirement admits it: an image built from this one can install it
    if out is None:
        return {}
    facts_out: dict[str, Any] = {"tf_model_type": model_type, "tf_since": since, "tf_pin": out, "tf_pin_at": image or "",
                                 "tf_too_old": True, "tf_image": True}
    if upgradable:
        facts_out.update(tf_image_upgradable=True, tf_fix=f">={since}")
    first = first_image_release(model_type, str(release), table, vllm_released)
    if first:
        facts_out.update(tf_vllm_first=first, tf_vllm_fix=f">={first}")
    return facts_out


def _requires_fit(facts: dict, table: dict) -> dict[str, Any]:
    """A pip installation of a pinned vLLM release with no transformers pin of the project's: pip
    resolves transformers within the release's requirement, so when that range excludes every
    release that maps the type (0.11.1-0.19.0 require transformers<5; GLM-5's glm_moe_dsa came in
    5.2) the installed transformers cannot read the config. A range that allows one says nothing:
    pip installs the newest allowed."""
    release = (facts.get("vllm") or {}).get("version")
    if not (facts.get("vllm") or {}).get("pinned"):
        return {}
    got = _model_type_since(facts, table)
    requires = _requires(table, str(release)) if got else None
    if got is None or not requires or _allows_from(requires, got[1], got[2]):
        return {}
    model_type, since, _ = got
    out: dict[str, Any] = {"tf_model_type": model_type, "tf_since": since, "tf_requires": requires,
                           "tf_pin": f"vLLM {release}'s requirement transformers{requires}", "tf_pin_at": "", "tf_too_old": True}
    first = first_pip_release(model_type, str(release), table)
    if first:
        out.update(tf_vllm_first=first, tf_vllm_fix=f">={first}")
    return out


def first_pip_release(model_type: str, release: str, table: dict) -> str | None:
    """The first final vLLM release after `release` that a pip installation reads `model_type`
    with (its own config class, or a requirement that allows a transformers that maps it), when
    every later release whose requirement is known does too."""
    cur, first = try_parse(release), table.get("transformers_first") or {}
    since = first.get(model_type)
    if cur is None or not since:
        return None
    later = _later(first, since)
    after = sorted((r for r in table.get("vllm_releases") or [] if (v := try_parse(r)) is not None and v > cur), key=parse)

    def reads(r: str) -> bool | None:
        if in_spans(r, (table.get("vllm_own") or {}).get(model_type) or []):
            return True
        requires = _requires(table, r)
        return None if not requires else _allows_from(requires, since, later)
    knows = [reads(r) for r in after]
    for i, ok in enumerate(knows):
        if ok:
            return after[i] if all(k is not False for k in knows[i:]) else None
    return None


def _image_knows(model_type: str, release: str, table: dict, vllm_released: dict) -> bool | None:
    """Whether vLLM's own image of `release` reads `model_type`: the release's own config class,
    or a requirement that allows the transformers that maps it, built after that one came out
    (an image is built the day its release reaches PyPI, so the newest transformers then is in it).
    None: a release whose requirement or day is not known (0.15.x ship no requirement file)."""
    if in_spans(release, (table.get("vllm_own") or {}).get(model_type) or []):
        return True
    since = (table.get("transformers_first") or {}).get(model_type)
    requires = _requires(table, release)
    built, came = vllm_released.get(release), (table.get("released") or {}).get(since or "")
    if not since or not came:
        return False
    if not requires or not built:
        return None
    first = table["transformers_first"]
    later = _later(first, since)
    return _allows_from(requires, since, later) and date.fromisoformat(str(came)) <= date.fromisoformat(str(built))


def first_image_release(model_type: str, release: str, table: dict, vllm_released: dict) -> str | None:
    """The first final vLLM release after `release` whose own image reads `model_type`, when every
    release after it does too (a type that a later release stops reading names none: the change
    would hold only in some releases)."""
    cur = try_parse(release)
    if cur is None:
        return None
    after = sorted((r for r in table.get("vllm_releases") or [] if (v := try_parse(r)) is not None and v > cur), key=parse)
    knows = [_image_knows(model_type, r, table, vllm_released) for r in after]
    for i, ok in enumerate(knows):
        if ok:
            return after[i] if all(k is not False for k in knows[i:]) else None
    return None


# transformers' LlamaConfig took rope_scaling only as {type, factor} (linear or dynamic) until
# 4.43.0, the release that added the `llama3` rope type Llama 3.1–3.3 checkpoints write:
# older releases raise "`rope_scaling` must be a dictionary with two fields, `type` and `factor`"
# while AutoConfig reads config.json, before vLLM sees the model (check L91).
ROPE_LLAMA3_SINCE = "4.43.0"


def rope_fit(facts: dict, pin: Any) -> dict[str, Any]:
    """launch.tf_rope_old (with tf_pin / tf_pin_at) when the checkpoint's rope type is `llama3` on
    a `llama` model type and every transformers release the pin allows predates 4.43.0."""
    model = facts.get("model") or {}
    if facts.get("model_alternatives") or model.get("rope_type") != "llama3" or model.get("model_type") != "llama":
        return {}
    if pin is None or not getattr(pin, "spec", None) or _allows_from(pin.spec, ROPE_LLAMA3_SINCE, ["4.44.0", "4.50.0", "5.0.0"]):
        return {}
    return {"tf_rope_old": True, "tf_pin": pin.text, "tf_pin_at": f"{pin.file}:{pin.line}"}


# the transformers minor release whose config class of the model type reads a nested text_config as its
# own sub-config (Qwen2VLConfig / Qwen2_5_VLConfig sub_configs gain "text_config" in 4.52; read in the
# 4.49.0, 4.51.3 and 4.52.4 wheels): an older one keeps it as a plain dict attribute
TEXT_CONFIG_SINCE = {"qwen2_vl": "4.52.0", "qwen2_5_vl": "4.52.0"}


def text_config_fit(facts: dict, pin: Any) -> dict[str, Any]:
    """launch.tf_text_config_flat (with tf_text_config_since, tf_pin / tf_pin_at) when the project's own
    config.json nests the language settings under text_config and every transformers release the pin
    allows predates the config class that reads it: vLLM's get_hf_text_config then finds a dict and
    asserts num_attention_heads on it (check L281)."""
    model = facts.get("model") or {}
    since = TEXT_CONFIG_SINCE.get(str(model.get("model_type")))
    if facts.get("model_alternatives") or not since or model.get("text_config_nested") is not True:
        return {}
    if pin is None or not getattr(pin, "spec", None) or _allows_from(pin.spec, since, ["4.53.0", "4.57.0", "5.0.0"]):
        return {}
    return {"tf_text_config_flat": True, "tf_text_config_since": since, "tf_pin": pin.text, "tf_pin_at": f"{pin.file}:{pin.line}"}
