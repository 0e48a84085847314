"""RL and fine-tuning frameworks that drive vLLM (knowledge/frameworks/*.yaml): which of their
keys map to which engine argument, their defaults, what they fix in code, and how they decide
between colocated and server rollouts. Scanners hand this module the keys they read; it
returns a Site in the framework's own terms."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import cel, resources, yamlio
from vllm_kb.engine.kb.versions import SpecifierSet, parse, try_parse

FRAMEWORK_IDS = ("trl", "verl", "openrlhf", "llamafactory", "ms-swift", "easyr1", "nemo-rl", "roll", "oumi", "skyrl")


@dataclass(frozen=True)
class Key:
    key: str  # canonical spelling (verl: the full Hydra path)
    arg: str | None = None
    role: str | None = None
    default: Any = None
    aliases: tuple[str, ...] = ()
    legacy: bool = False
    backend: str | None = None
    versions: str | None = None  # framework releases that have the key
    not_read_by: tuple[str, ...] = ()  # framework commands whose code never reads the key
    # (arg, field, versions, when): the argument, or a JSON argument's field, a release renames the key to
    passed_as: tuple[tuple[str, str | None, str | None, str | None], ...] = ()

    def default_for(self, version: str | None) -> Any:
        d = self.default
        if isinstance(d, dict) and "changes" in d:
            v = try_parse(version) if version else None
            chosen = d["changes"][-1][1] if v is None else None
            if v is not None:
                for at, value in d["changes"]:
                    if parse(at) <= v:
                        chosen = value
            return chosen
        return d


@dataclass
class Framework:
    id: str
    name: str
    package: str
    raw: dict
    keys: list[Key] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_name: dict[str, Key] = {}
        for k in self.keys:
            for n in (k.key, *k.aliases):
                self._by_name[normalise_key(n)] = k

    def key(self, written: str) -> Key | None:
        """The key a spelling means: `--vllm_num_engines`, `vllm.num_engines`, `+a.b=…`, `vllm-mode`."""
        return self._by_name.get(normalise_key(written))

    def key_for_arg(self, arg: str, version: str | None = None, command: str | None = None) -> Key | None:
        """The key that sets an engine argument; with a release, only a key that release has
        (its `versions`, and the release range the framework catalog read from the wheels) — TRL
        0.14 has no max_model_len key at all; with a command, only a key that command reads."""
        keys = [k for k in self.keys if self._sets(k, arg, version) and (command or "") not in k.not_read_by]
        if version and try_parse(version) is not None:
            # a pre-release (0.8.2.dev0) lies between the last final release and the one it
            # leads to: a key both have first, then the older release's (a rename lands at
            # the new release, not necessarily in every build before it), then the newer's
            tiers = [[k for k in keys if all(self._has(k, v) for v in self._around(version))]]
            tiers += [[k for k in keys if self._has(k, v)] for v in self._around(version)]
            keys = next((t for t in tiers if t), [])
        return next((k for k in keys if not k.legacy), keys[0] if keys else None)

    @staticmethod
    def _whole_arg(k: Key, version: str | None) -> str | None:
        """The argument a `passed_as` entry with no field and no condition hands the key on as in this
        release (verl's rollout.max_num_seqs from 0.6.0): where its default goes; None elsewhere."""
        return next((a for a, f, v, w in k.passed_as if f is None and not w and version_matches(v, version)), None)

    @staticmethod
    def _sets(k: Key, arg: str, version: str | None) -> bool:
        """The key sets the argument: its `arg`, or a `passed_as` entry that hands it on whole under
        that name (OpenRLHF's vllm.enable_sleep is enable_sleep_mode once colocate_all is on)."""
        return k.arg == arg or (k.arg is None and any(a == arg and f is None and version_matches(v, version)
                                                      for a, f, v, _ in k.passed_as))

    def newer_key(self, arg: str, version: str | None, command: str | None = None) -> tuple[str, str] | None:
        """(key, first release) of the framework's first release after `version` that has a key for
        the engine argument, where `version` has none: what a fix can name instead of a key the
        pinned release ignores or rejects (NeMo-RL 0.2.0 fixes dtype=auto; 0.2.1 reads vllm_cfg.precision)."""
        if not version or try_parse(version) is None or self.key_for_arg(arg, version, command) is not None:
            return None
        from vllm_kb.engine.kb.compat import releases

        keys = [k for k in self.keys if self._sets(k, arg, None) and (command or "") not in k.not_read_by and not k.legacy]
        for r in releases(self.id):
            if parse(r) > parse(version):
                got = next((k for k in keys if self._has(k, r)), None)
                if got is not None:
                    return got.key, r
        return None

    def first_of_some(self, k: Key) -> str | None:
        """The first release that reads `k`, where the releases with the framework's vLLM switch (its
        `enable` key) do not all read it; None where every one of them does. A commit whose release is
        unknown (scan/framework_unplaced.py) may be any of them: a key only some read is not written."""
        from vllm_kb.engine.kb.compat import releases

        enable = next((e for e in self.keys if e.role == "enable"), None)
        span = [r for r in releases(self.id) if enable is None or self._has(enable, r)]
        has = [r for r in span if self._has(k, r)]
        return None if len(has) == len(span) else (has[0] if has else "")

    def passed_as(self, k: Key, values: dict[str, Any], version: str | None, command: str | None) -> tuple[str | None, str | None]:
        """(argument, field) a key reaches vLLM as: its `arg`, or the first `passed_as` entry whose
        releases and `when` hold (verl's rollout.cudagraph_capture_sizes is cuda_graph_sizes in 0.6–0.8's
        async server, compilation_config's cudagraph_capture_sizes in 0.6's LLM() and from 0.9.0); an
        unknown release takes the first entry, the newest release's, as the keys' defaults do."""
        for arg, fld, versions, when in k.passed_as:
            if not version_matches(versions, version):
                continue
            if when and not cel.compile(when).evaluate(self._activation(values, version, command)).value:
                continue
            return arg, fld
        return k.arg, None

    def key_versions_hold(self, k: Key, version: str | None) -> bool:
        """A key's `versions` hold for a release; a development build (0.4.0.dev, LeonLixyz/r2e-verl's
        verl fork) may hold the code of either release around it, so the key is read where one of them
        reads it (verl passes actor_rollout_ref.model.trust_remote_code to vLLM from 0.4.0, eval90)."""
        if not version or try_parse(version) is None:
            return version_matches(k.versions, version)
        return any(version_matches(k.versions, v) for v in self._around(version))

    def _has(self, k: Key, version: str) -> bool:
        return version_matches(k.versions, version) and any(self._in_release(n, version) for n in (k.key, *k.aliases))

    def _around(self, version: str) -> list[str]:
        """The releases whose keys a version has: itself, or for a pre-release the final
        release before it and the one it leads to."""
        v = parse(version)
        if v._key[1] == (9, 0) or v._key[2] != -1:
            return [version]
        from vllm_kb.engine.kb.compat import releases

        before = [r for r in releases(self.id) if parse(r) < v]
        return ([before[-1]] if before else []) + [v.public]

    def named_model(self, values: dict[str, Any], version: str | None) -> tuple[str, str] | None:
        """(key, Hugging Face id) of the model a registry key names (knowledge: `model_names`; ms-swift
        2.x `--model_type qwen2-7b-instruct`), from its generated table; None when the key is not
        written, the release reads it otherwise, or the table does not hold the value."""
        spec = self.raw.get("model_names")
        if not spec or (version and try_parse(version) is not None and not version_matches(spec.get("versions"), version)):
            return None
        value = values.get(spec["key"])
        if not isinstance(value, str):
            return None
        row = _model_table(spec["table"]).get(value.strip())
        name = (row or {}).get("hf") or (row or {}).get("ms")
        return (spec["key"], name) if name else None

    def passthrough_for(self, version: str | None) -> dict | None:
        """The mapping key that passes any engine argument through, if this release has it
        (LLaMA-Factory's vllm_config arrives in 0.9.1)."""
        pt = self.passthrough
        if pt and version and try_parse(version) is not None and not all(version_matches(pt.get("versions"), v) for v in self._around(version)):
            return None
        return pt

    def _in_release(self, key: str, version: str) -> bool:
        from vllm_kb.engine.kb.compat import framework_catalog

        entry = (framework_catalog()["frameworks"].get(self.id) or {})
        spans = ((entry.get("keys") or {}).get(key) or {}).get("in")
        if not spans:
            # a spelling the catalog did not read: its `versions` decide, unless the catalog read
            # another spelling of the same key (OpenRLHF's flat and dotted generations)
            k = self.key(key)
            return k is None or not any(((entry.get("keys") or {}).get(n) or {}).get("in") for n in (k.key, *k.aliases))
        v = parse(version)
        newest = max((parse(r) for r in entry.get("releases") or ()), default=None)
        # a span that reaches the newest release read goes on in later releases
        return any(parse(a) <= v and (v <= parse(b) or parse(b) == newest) for a, b in spans)

    @property
    def passthrough(self) -> dict | None:
        return self.raw.get("passthrough")

    @property
    def cli_style(self) -> dict:
        return self.raw["cli_style"]

    def defaults(self, version: str | None, command: str | None = None) -> dict[str, Any]:
        """Engine arguments the framework passes when its key is left unset (a release whose key
        has no default of its own leaves vLLM's)."""
        out = {arg: k.default_for(version) for k in self.keys
               if (arg := k.arg or self._whole_arg(k, version)) and k.default is not None and not k.legacy
               and version_matches(k.versions, version) and (command or "") not in k.not_read_by}
        out.update(self.raw.get("command_defaults", {}).get(command or "", {}))
        return {k: v for k, v in out.items() if v is not None}

    def fixed(self, mode: str, version: str | None = None) -> dict[str, Any]:
        """Engine arguments the framework's code passes whatever its keys say (an entry with
        `versions` only for a release in them; an unknown release is taken as the newest read, as
        the keys' defaults are)."""
        from vllm_kb.engine.kb.compat import releases
        read = version or next(iter(reversed(releases(self.id))), None)
        return {f["arg"]: f["value"] for f in self.raw.get("fixed", [])
                if (not f.get("modes") or mode in f["modes"])
                and (not f.get("versions") or (read is not None and version_matches(f["versions"], read)))}

    def deriving_key(self, arg: str, value: Any, version: str | None) -> tuple[Key, Any] | None:
        """The key this release passes as `arg` unchanged (an `implies` rule whose value is one
        key's own), or whose `write` value turns `arg` to `value` (ms-swift's sleep_level 1 for
        enable_sleep_mode), and what to write there, for a fix where the release has no key named
        for `arg`; a key the release does not read (sleep_level before ms-swift 3.2.1) is none."""
        for rule in self.raw.get("implies", []):
            if rule["arg"] != arg or len(rule["from"]) != 1 or not (version and version_matches(rule.get("versions"), version)):
                continue
            if rule.get("value_from", "").replace(" ", "") == f'keys["{rule["from"][0]}"]':
                return (k, value) if (k := self.key(rule["from"][0])) is not None else None
            k = self.key(rule["from"][0])
            if "write" in rule and rule.get("value") == value and k is not None and try_parse(version) is not None \
                    and all(self._has(k, v) for v in self._around(version)):
                return k, rule["write"]
        return None

    def _activation(self, values, version, command, vllm_version=None, with_defaults=True, peer=None, source=None,
                    written_as: str = "") -> cel.Activation:
        keys = {k.key: k.default_for(version) for k in self.keys if k.default is not None} if with_defaults else {}
        keys.update(values)
        # framework.source: what a copy of the framework in the tree does (scan/framework_source.py), {} without one;
        # written_as: how the keys reach the framework — "call" (a config class's keywords: GRPOConfig(...)),
        # "config" (a config file its parser reads), "" (a command line)
        return cel.Activation({"keys": keys, "command": command or "", "written_as": written_as,
                               "framework": {"version": version or "", "source": dict(source or {})},
                               "vllm": {"version": vllm_version or ""}, "peer": dict(peer or {})})

    def findings(self, values, version, command, vllm_version, peer=None, unread=(), source=None, written_as: str = "") -> list[dict]:
        """The framework's own pitfalls (knowledge/frameworks/<id>.yaml › findings) that hold.
        `peer`: what the project says about the server a client site talks to (plain_server);
        `unread`: keys written with a value the audit cannot read (`data.max_response_length=$LEN`):
        a finding that reads one is not judged on the release's default instead; `source`: what a
        copy in the tree does (framework.source). A finding whose `unsure_when` holds — its premise
        rests on a release the audit cannot place (a .dev snapshot) — is said at P1, without a safe fix.
        A `presence` finding is about a key being written at all: one written with an unread value counts."""
        out = []
        for f in self.raw.get("findings", []):
            given = values
            if f.get("presence"):
                # GRPOConfig(vllm_max_model_len=args.len) fails on the keyword whatever its value
                # (a null would read as absent: a placeholder stands for the value)
                given = {**{k: "(unread)" for k in unread}, **values}
            elif unread and reads_keys(f["when"]) & set(unread):
                continue
            # legacy keys (and a finding that says so) are looked for as written, without defaults
            act = self._activation(given, version, command, vllm_version, with_defaults=f["code"] != "legacy-key" and not f.get("as_written"),
                                   peer=peer, source=source, written_as=written_as)
            if cel.compile(f["when"]).evaluate(act).value:
                if f.get("unsure_when") and cel.compile(f["unsure_when"]).evaluate(act).value:
                    f = dict(f, priority="P1", text={lang: f["text"][lang] + f["unsure_text"][lang] for lang in ("en", "zh")})
                out.append(f)
        return out

    def requires(self, values, version, command, vllm_version, source=None) -> dict[str, dict]:
        """Engine arguments the release refuses to run without (knowledge/frameworks/<id>.yaml ›
        requires), by argument: {value, en, zh}. The keys are read as written, as the finding that
        refuses the launch reads them."""
        act = self._activation(values, version, command, vllm_version, with_defaults=False, source=source)
        return {r["arg"]: {"value": r["value"], **r["text"]} for r in self.raw.get("requires", [])
                if cel.compile(r["when"]).evaluate(act).value}

    def fix_value(self, op: dict, values: dict[str, Any], version: str | None, command: str | None) -> Any:
        """A finding's fix value: `value`, or `value_from` computed over the keys with the release's
        defaults (EasyR1's batched-tokens: the prompt and response lengths' sum); None when unknown."""
        if "value_from" not in op:
            return op.get("value")
        value, unknown = cel.compile(op["value_from"]).compute(self._activation(values, version, command))
        return None if unknown is not None else value

    def implied(self, values: dict[str, Any], version: str | None, command: str | None,
                commit: str | None = None) -> list[tuple[dict, Any]]:
        """(rule, value) for each `implies` rule that holds: engine arguments the framework derives
        from its own keys. A rule with `since_commit` holds, for a framework installed from a commit
        of its main branch, from that commit on (a fix landed between two dev builds of one version);
        otherwise its `versions` decide."""
        from vllm_kb.engine.kb import framework_history

        act = self._activation(values, version, command)
        out = []
        for rule in self.raw.get("implies", []):
            at = framework_history.position(self.id, commit) if commit and rule.get("since_commit") else None
            since = framework_history.position(self.id, rule["since_commit"]) if at is not None else None
            if at is not None and since is not None:
                if at < since:
                    continue
            elif rule.get("versions") and not (version and version_matches(rule["versions"], version)):
                continue
            if not cel.compile(rule["when"]).evaluate(act).value:
                continue
            if "value_from" in rule:
                value, unknown = cel.compile(rule["value_from"]).compute(act)
                if unknown is not None:
                    continue
            else:
                value = rule["value"]
            out.append((rule, value))
        return out

    def dropped(self, args: dict[str, Any], values: dict[str, Any], version: str | None, command: str | None) -> dict[str, dict]:
        """Engine arguments (name → value as set) this release does not hand to vLLM (knowledge:
        `drops`), each with the rule that says so; an unknown release drops nothing."""
        out: dict[str, dict] = {}
        rules = [r for r in self.raw.get("drops", []) if version and version_matches(r["versions"], version)]
        if not rules:
            return out
        act = self._activation(values, version, command)
        for rule in rules:
            if not cel.compile(rule["when"]).evaluate(act).value:
                continue
            for arg, value in args.items():
                if rule["arg"] in ("*", arg) and ("value" not in rule or (type(value) is type(rule["value"]) and value == rule["value"])):
                    out.setdefault(arg, rule)
        return out

    def mode(self, values: dict[str, Any], version: str | None, command: str | None = None) -> tuple[str, bool]:
        """First rule whose predicate holds, over the framework's keys with defaults filled in."""
        rule = self.mode_rule(values, version, command)
        return (rule["mode"], bool(rule.get("client"))) if rule is not None else ("none", False)

    def mode_rule(self, values: dict[str, Any], version: str | None, command: str | None = None) -> dict | None:
        act = self._activation(values, version, command)
        for rule in self.raw["modes"]:
            if cel.compile(rule["when"]).evaluate(act).value:
                return rule
        return None


def reads_keys(expr: str) -> set[str]:
    """The framework keys a predicate reads: `keys.vllm_mode` (a path of the compiled predicate) and
    `keys["actor_rollout_ref.rollout.max_num_batched_tokens"]`, the index form a dotted Hydra key needs,
    which the compiled paths hold only as `keys`."""
    import re

    got = {p[1] for p in cel.compile(expr).paths if len(p) > 1 and p[0] == "keys"}
    return got | set(re.findall(r'keys\[\s*"([^"]+)"\s*\]', expr))


def normalise_key(name: str) -> str:
    n = name.strip().lstrip("+~").lstrip("-")
    return n.replace("-", "_").lower()


@lru_cache(maxsize=None)
def _model_table(name: str) -> dict:
    """A generated registry table (tools/swift_model_types.py): registry key → {hf, ms, …}."""
    import json

    return json.loads(resources.read_text("knowledge", "frameworks", name)).get("model_types") or {}


@lru_cache(maxsize=1)
def load_all() -> dict[str, Framework]:
    out = {}
    for fid in FRAMEWORK_IDS:
        raw = yamlio.load_cached(resources.read_text("knowledge", "frameworks", f"{fid}.yaml")).data
        keys = [Key(key=k["key"], arg=k.get("arg"), role=k.get("role"), default=k.get("default"),
                    aliases=tuple(k.get("aliases", ())), legacy=bool(k.get("legacy")), backend=k.get("backend"),
                    versions=k.get("versions"), not_read_by=tuple(k.get("not_read_by", ())),
                    passed_as=tuple((p["arg"], p.get("field"), p.get("versions"), p.get("when")) for p in k.get("passed_as", ())))
                for k in raw["keys"]]
        out[fid] = Framework(fid, raw["name"], raw["package"], raw, keys)
    return out


def get(fid: str) -> Framework:
    return load_all()[fid]


def version_matches(spec: str | None, version: str | None) -> bool:
    """A framework release against a key's `versions`: PEP 440 clauses, `||` between
    alternatives (a key that left and came back, ms-swift's vllm_enable_lora)."""
    if not spec or not version:
        return True
    return any(SpecifierSet(alt).contains(version) for alt in spec.split("||"))
