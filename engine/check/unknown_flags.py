"""An option no vLLM release has: a plugin's flag (knowledge/vllm/plugins.yaml), a trivial misspelling
of a real option (renamed by `--fix`), or an unknown name whose close candidates are only named.

A rename is an edit only when the two spellings are the same flag to anyone reading them (case, dash
count, `_` for `-`): a close spelling is often another option (`--stage-configs-path` is vllm-omni's,
not a typo of `--hf-config-path`), so such candidates go into the text and never into `--fix`."""
from __future__ import annotations

import difflib
import re

from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.kb.guards import guards_access
from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.site import Finding, Site

DEPLOY_SYNTAXES = ("dockerfile", "compose", "k8s-args", "helm-values", "vscode-launch")


def canonical(name: str) -> str:
    """A flag's name with what never tells two options apart removed: case, leading dashes, `_`/`-`."""
    return name.lstrip("-").lower().replace("_", "-")


def finding(site: Site, s, key: str, cat, version: str) -> Finding:
    """The finding for `key` (as written), which no vLLM release has."""
    tree = site.fork_options.get(canonical(key)) or site.fork_options.get(canonical(s.name))
    if tree is not None:
        # the project's own vLLM source tree (a fork's submodule or vendored copy) defines it
        return Finding("plugin-option", msg("finding.fork_option", key=key, tree=tree), s.file, s.line, "P2", subject=s.name)
    long_flag = "--" + canonical(key)
    passed = {"--" + canonical(o.key or o.name) for o in list(site.settings.values()) + list(site.unknown.values())}
    own = kb_plugins.owner(long_flag, site.plugins, passed)
    if own is not None and own[1]:
        text = msg("finding.plugin_option", key=key, plugin=own[0])
        return Finding("plugin-option", text, s.file, s.line, "P2", subject=s.name)
    names = [n for n in cat.arg_names if cat.arg(n).exists(version)]
    trivial = [n for n in names if canonical(n) == canonical(s.name)]
    if trivial:
        # the same option written another way (`-max-model-len`, `--Max-Model-Len`): renamed, its
        # value kept byte for byte
        dest = trivial[0]
        hint = msg("finding.did_you_mean", guess=_spelled(s, dest, cat, version))
        text = {lang: msg("finding.unknown_option", key=key, hint=hint[lang])[lang] for lang in ("en", "zh")}
        return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("rename", s.name), dest)],
                       safe=True, subject=s.name)
    near = [_spelled(s, n, cat, version) for n in difflib.get_close_matches(s.name, names, n=3, cutoff=0.75)]
    hint = msg("finding.candidates", guesses=", ".join(f"`{n}`" for n in near)) if near else {"en": "", "zh": ""}
    if own is not None:
        hint = {lang: hint[lang] + msg("finding.plugin_not_installed", plugin=own[0])[lang] for lang in ("en", "zh")}
    text = {lang: msg("finding.unknown_option", key=key, hint=hint[lang])[lang] for lang in ("en", "zh")}
    lora = _lora_modules(s, key, cat, version) if own is None or not own[1] else None
    if lora is not None and not sorted(p for p in site.plugins if p not in kb_plugins.known()):
        # an adapter path under a guessed name: vLLM's way is the adapter named in --lora-modules
        # (with --enable-lora), which keeps the path where deleting the flag would lose it
        text = {lang: msg("finding.unknown_option", key=key, hint=hint[lang] + msg("finding.lora_guess", value=lora)[lang])[lang]
                for lang in ("en", "zh")}
        return Finding("unknown-option", text, s.file, s.line, "P0", safe=False, subject=s.name,
                       fix=[(FixOp("unset", s.name), None), (FixOp("set", "enable_lora"), True), (FixOp("set", "lora_modules"), lora)])
    unknown_plugins = sorted(p for p in site.plugins if p not in kb_plugins.known())
    if unknown_plugins:
        # a plugin the knowledge does not list may add this flag: whether the launch fails is not known
        text = msg("finding.unknown_option_plugin", key=key, hint=hint["en"], plugins=", ".join(unknown_plugins))
        text["zh"] = msg("finding.unknown_option_plugin", key=key, hint=hint["zh"], plugins=", ".join(unknown_plugins))["zh"]
        return Finding("unknown-option", text, s.file, s.line, "P1", subject=s.name)
    closest = _closest(s.name, [n for n in difflib.get_close_matches(s.name, names, n=3, cutoff=0.75)])
    if closest is not None and own is None and not guards_access(s.name) and not guards_access(closest):
        # one option far closer than any other (`--max-model-length`, `--gpu-memory-utilisation`):
        # proposed as the change, but only as a guess (`--fix --unsafe-fixes`), never a safe edit
        guess = msg("finding.closest_option", guess=_spelled(s, closest, cat, version))
        text = {lang: msg("finding.unknown_option", key=key, hint=guess[lang])[lang] for lang in ("en", "zh")}
        return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("rename", s.name), closest)],
                       safe=False, subject=s.name)
    if near:
        # a guess between close names is the user's to make: no edit
        return Finding("unknown-option", text, s.file, s.line, "P0", subject=s.name)
    return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("unset", s.name), None)],
                   safe=not guards_access(s.name), subject=s.name)


# Names people give an adapter path that vLLM's own server does not have (vllm#13669
# `--lora-path`); several are other servers' flags: llama.cpp `--lora`, SGLang `--lora-paths`,
# TGI `--lora-adapters`, vllm-omni `--lora-path`. vLLM's form, `--lora-modules name=path`, has been
# taken from 0.3.2 (openai/api_server.py:96) to now (LoRAParserAction: name=path, JSON from 0.6.3).
LORA_GUESSES = frozenset({"lora", "lora-path", "lora-paths", "lora-dir", "lora-adapter", "lora-adapters",
                          "lora-model", "lora-name-or-path", "lora-weights", "adapter", "adapter-path",
                          "adapter-dir", "adapters", "peft-path", "peft-model", "peft-model-path"})


def _lora_modules(s, key: str, cat, version: str) -> str | None:
    """`name=path` for an adapter path written under a guessed flag, when the release takes
    --lora-modules and the value is one plain path (several, or an unread one, are the user's)."""
    if canonical(key) not in LORA_GUESSES or s.syntax not in ("cli", *DEPLOY_SYNTAXES) or not s.resolved:
        return None
    path = s.value if isinstance(s.value, str) else None
    if not path or not cat.flags_for_dest("lora_modules", version) or re.search(r"[\s,={}]", path):
        return None
    name = re.sub(r"[^A-Za-z0-9_.-]", "-", path.rstrip("/").rsplit("/", 1)[-1]).strip("-.") or "adapter"
    return f"{name}={path}"


# how close the one proposed option must be (difflib's ratio over the canonical names), and how far
# ahead of the next candidate
CLOSEST_CUTOFF = 0.85
CLOSEST_LEAD = 0.05


def _closest(name: str, near: list[str]) -> str | None:
    """The one candidate clearly closest to `name`, or None when none is close enough or two are
    about as close."""
    ranked = sorted(((difflib.SequenceMatcher(None, canonical(name), canonical(n)).ratio(), n) for n in near), reverse=True)
    if not ranked or ranked[0][0] < CLOSEST_CUTOFF:
        return None
    if len(ranked) > 1 and ranked[1][0] > ranked[0][0] - CLOSEST_LEAD:
        return None
    return ranked[0][1]


def _spelled(s, dest: str, cat, version: str) -> str:
    """`dest` written the way the site writes options."""
    if s.syntax in ("cli", *DEPLOY_SYNTAXES):
        spelled = cat.long_flag(dest, version) or "--" + dest.replace("_", "-")
        if s.key.startswith("--") and "_" in s.key and "-" not in s.key[2:]:
            spelled = "--" + spelled[2:].replace("-", "_")
        return spelled
    if s.syntax == "yaml-config":
        return dest.replace("_", "-") if "-" in s.key else dest
    return dest
