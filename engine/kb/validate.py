"""The knowledge's own consistency, the first part of `vllm-kb kb validate` (engine/validate.py
runs it with the rest): every file against its schema, every CEL predicate compiled, every
fact, flag and env var it names checked against the facts schema and the vLLM catalog for the
releases it claims, ids unique. Cases and stage lints are hooks (`cases`, `stages`) that
engine/validate.py fills, since they need the later stages' code."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import cel, resources, schemas, validate_files, validate_sources, yamlio
from vllm_kb.engine.kb.errors import KnowledgeError, Problem
from vllm_kb.engine.kb.messages import placeholders
from vllm_kb.engine.kb.knowledge import Knowledge, Registry, _check_from
from vllm_kb.engine.kb.versions import SpecifierSet

FILES = [
    (("manifest.yaml",), "manifest"),
    (("categories.yaml",), "categories"),
    (("gpus.yaml",), "gpus"), (("deploy", "cloud_instances.yaml"), "cloud_instances"), (("deploy", "vendor_images.yaml"), "vendor_images"), (("deploy", "model_runner.yaml"), "model_runner"),
    (("models.yaml",), "models"),
    (("hub_uploads.yaml",), "hub_uploads"),
    (("i18n.yaml",), "i18n"),
    (("vllm", "effective_defaults.yaml"), "effective_defaults"),
    (("vllm", "startup.yaml"), "startup"),
    (("vllm", "architectures.yaml"), "architectures"), (("vllm", "runners.yaml"), "runners"), (("vllm", "bnb_support.yaml"), "bnb_support"),
    (("vllm", "model_versions.yaml"), "model_versions"), (("vllm", "vision_tp.yaml"), "vision_tp"), (("vllm", "quant_alignment.yaml"), "quant_alignment"), (("vllm", "example_models.yaml"), "example_models"), (("vllm", "arch_names.yaml"), "arch_names"), (("vllm", "entrypoints.yaml"), "entrypoints"), (("vllm", "kv_cache.yaml"), "kv_cache"), (("vllm", "attention_refusals.yaml"), "attention_refusals"), (("vllm", "attn_selector.yaml"), "attn_selector"), (("vllm", "model_kernels.yaml"), "model_kernels"), (("vllm", "paged_head_sizes.yaml"), "paged_head_sizes"),
    (("vllm", "cuda_builds.yaml"), "cuda_builds"), (("vllm", "cli_choices.yaml"), "cli_choices"), (("vllm", "dependency_pins.yaml"), "dependency_pins"),
    (("vllm", "raise_order.yaml"), "raise_order"), (("vllm", "vocab_padding.yaml"), "vocab_padding"),
    (("vllm", "lora_vocab.yaml"), "lora_vocab"), (("vllm", "lora_moe.yaml"), "lora_moe"), (("vllm", "eplb_moe.yaml"), "eplb_moe"), (("vllm", "gguf.yaml"), "gguf"), (("vllm", "gguf_loader.yaml"), "gguf_loader"), (("vllm", "renames.yaml"), "renames"),
    (("vllm", "plugins.yaml"), "plugins"), (("vllm", "mamba_spec.yaml"), "mamba_spec"), (("vllm", "v0_only.yaml"), "v0_only"), (("vllm", "dual_chunk.yaml"), "dual_chunk"), (("vllm", "weight_prefixes.yaml"), "weight_prefixes"), (("vllm", "mla_types.yaml"), "mla_types"), (("vllm", "llm_methods.yaml"), "llm_methods"),
    (("vllm", "release_bugs.yaml"), "release_bugs"), (("vllm", "no_architectures.yaml"), "no_architectures"),
    (("vllm", "parsers.yaml"), "parsers"), (("vllm", "spec_decode.yaml"), "spec_decode"),
    (("vllm", "release_dates.yaml"), "release_dates"), (("vllm", "model_types.yaml"), "model_types"), (("vllm", "transformers_classes.yaml"), "transformers_classes"), (("vllm", "transformers_imports.yaml"), "transformers_imports"),
    (("vllm", "transformers_since.yaml"), "transformers_since"), (("vllm", "transformers_calls.yaml"), "transformers_calls"), (("vllm", "bnb_version.yaml"), "bnb_version"), (("vllm", "transformers_backend.yaml"), "transformers_backend"), (("vllm", "transformers_per_layer.yaml"), "transformers_per_layer"),
    (("triggers.yaml",), "triggers"),
    (("decision_tree.yaml",), "decision_tree"),
    (("frameworks", "compat.yaml"), "compat"),
    (("frameworks", "engine_kwargs.yaml"), "engine_kwargs"), (("frameworks", "vllm_imports.yaml"), "vllm_imports"),
    (("frameworks", "vllm_uses.yaml"), "vllm_uses"),
]
FACT_GROUPS_FREE = ("args", "passed", "engine", "env")
# Env vars a predicate may read that are not vLLM's own.
# not vLLM's, read by what starts it: UNSLOTH_VLLM_STANDBY is how Unsloth turns vLLM's sleep mode on (H1)
EXTRA_ENV = frozenset({"CUDA_VISIBLE_DEVICES", "HF_TOKEN", "HF_HOME", "HF_HUB_OFFLINE", "NCCL_DEBUG", "PYTORCH_CUDA_ALLOC_CONF", "CUDA_DEVICE_MAX_CONNECTIONS", "OMP_NUM_THREADS",
                       "UNSLOTH_VLLM_STANDBY"})
_TEXT_FLAG = re.compile(r"`(--[a-z][a-z0-9-]*)")
_BARE_FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
_TEXT_ENV = re.compile(r"\b(VLLM_[A-Z0-9_]+)\b")
# VLLM_-prefixed names in prose that are enum members, not env vars.
NOT_ENV = frozenset({"VLLM_COMPILE"})


class Validator:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.cat = catalog_mod.load()
        self.facts_schema = schemas.raw("facts")
        self.n_predicates = 0
        self.n_cases = 0

    def add(self, file: str, id_: str, path: str, message: str) -> None:
        self.problems.append(Problem(file, id_, path, message))

    # -- files ------------------------------------------------------------------------------

    def load(self, parts: tuple[str, ...]) -> yamlio.Document | None:
        name = resources.display_name("knowledge", *parts)
        try:
            return yamlio.load(resources.read_text("knowledge", *parts))
        except yamlio.YamlError as e:
            self.add(f"{name}:{e.line}" if e.line else name, "", "", f"invalid YAML: {e}")
        except FileNotFoundError:
            self.add(name, "", "", "file is missing")
        return None

    def schema(self, name: str, schema: str, data: Any, id_for=None) -> bool:
        ok = True
        for path, msg in schemas.errors(schema, data):
            ok = False
            id_, rest = (id_for(path) if id_for else ("", path))
            self.add(name, id_, schemas.json_path(rest), msg)
        return ok

    def run(self) -> tuple[list[Problem], str]:
        for parts, schema in FILES:
            doc = self.load(parts)
            if doc is not None:
                self.schema(resources.display_name("knowledge", *parts), schema, doc.data)
        from vllm_kb.engine.kb import compat, framework_history, vllm_classes, vllm_symbols

        for name, file, data in (("catalog", "vllm/catalog.json", self.cat.raw), ("framework_catalog", "frameworks/catalog.json", compat.framework_catalog()),
                                 ("vllm_symbols", "frameworks/vllm_symbols.json", vllm_symbols.table()),
                                 ("vllm_classes", "frameworks/vllm_classes.json", vllm_classes.table()),
                                 ("git_history", "frameworks/git_history.json", framework_history.table())):
            for path, msg in schemas.errors(name, data)[:20]:
                self.add(f"knowledge/{file}", "", schemas.json_path(path), msg)
        self.manifest()
        try:
            kb = Knowledge()
            categories = [c["id"] for c in kb.categories]
        except KnowledgeError as e:
            self.problems += e.problems
            return self.problems, ""
        checks = self.checks(categories)
        validate_files.effective_defaults(self)
        validate_files.renames(self)
        validate_files.frameworks(self)
        self.claims()
        validate_files.triggers(self)
        validate_files.i18n_usage(self)
        counts = self.stages()
        stats = (f"{len(checks)} checks in {len(categories)} categories, {self.n_predicates} CEL predicates, {self.n_cases} cases, "
                 f"{counts.get('scenarios', 0)} scenarios, {counts.get('tables', 0)} tables; catalog {self.cat.oldest} … {self.cat.newest}")
        return self.problems, stats

    def stages(self) -> dict[str, int]:
        """Knowledge whose lint needs a later stage's code (decision tree, scenarios, tables):
        engine/validate.py lints it. Returns how many of each kind were linted."""
        return {}

    def manifest(self) -> None:
        doc = self.load(("manifest.yaml",))
        verified = ((doc.data or {}).get("verified_vllm") or {}) if doc else {}
        for key, want in (("oldest", self.cat.oldest), ("newest", self.cat.newest)):
            if verified.get(key) and verified[key] != want:
                self.add("knowledge/manifest.yaml", "", f"verified_vllm.{key}", f"says {verified[key]!r} but the catalog's {key} release is {want!r}")

    # -- checks -----------------------------------------------------------------------------

    def checks(self, categories: list[str]):
        out = []
        for cat in categories:
            parts = ("checks", f"{cat}.yaml")
            name = resources.display_name("knowledge", *parts)
            doc = self.load(parts)
            if doc is None:
                continue
            data = doc.data or {}

            def id_for(path, data=data):
                if len(path) >= 2 and path[0] == "checks" and isinstance(path[1], int):
                    items = data.get("checks") or []
                    cid = items[path[1]].get("id", f"checks[{path[1]}]") if path[1] < len(items) and isinstance(items[path[1]], dict) else f"checks[{path[1]}]"
                    return cid, path[2:]
                return "", path

            if not self.schema(name, "checks", data, id_for):
                continue
            if data.get("category") != cat:
                self.add(name, "", "category", f"expected {cat!r}, got {data.get('category')!r}")
            for raw in data.get("checks", []):
                c = _check_from(raw, cat, name)
                if not c.id.startswith(cat):
                    self.add(name, c.id, "id", f"id must start with its category letter {cat!r}")
                self.check(c)
                out.append(c)
        try:
            Registry(out)
        except KnowledgeError as e:
            self.problems += e.problems
        return out

    def _versions(self, *specs: SpecifierSet | None) -> list[str]:
        return [str(v) for v in self.cat.versions if all(s is None or s.contains(v) for s in specs)]

    def check(self, c) -> None:
        f = c.file
        in_range = self._versions(c.vllm)
        if c.vllm and not in_range:
            self.add(f, c.id, "applies_to.vllm", f"{c.vllm} matches no catalog release ({self.cat.oldest} … {self.cat.newest})")
        for i, r in enumerate(c.rules):
            where = f"rules[{i}]"
            self.predicate(f, c.id, f"{where}.when", r.when)
            versions = self._versions(c.vllm, r.vllm)
            if r.vllm and not versions and r.fix:
                # a fix's names cannot be checked against releases the catalog does not hold
                self.add(f, c.id, f"{where}.vllm", f"{r.vllm} (within {c.vllm or 'any'}) matches no catalog release, so its fix cannot be verified")
            for k, op in enumerate(r.fix):
                self.fix_target(f, c.id, f"{where}.fix[{k}]", op, versions)
                if op.value_from:
                    self.predicate(f, c.id, f"{where}.fix[{k}].value_from", op.value_from, want_bool=False)
            for lang in ("en", "zh"):
                self.placeholders(f, c.id, f"{where}.reason.{lang}", getattr(r.reason, lang))
        for lang in ("en", "zh"):
            self.placeholders(f, c.id, f"otherwise.reason.{lang}", getattr(c.otherwise_reason, lang))
            for field_name in ("title", "advice", "rationale"):
                self.text_names(f, c.id, f"{field_name}.{lang}", getattr(getattr(c, field_name), lang), in_range)
            for i, r in enumerate(c.rules):
                self.text_names(f, c.id, f"rules[{i}].reason.{lang}", getattr(r.reason, lang), self._versions(c.vllm, r.vllm), removal_ok=True)
        validate_sources.rule_sources(self, c)
        validate_sources.error_texts(self, c)
        self.cases(c)

    def predicate(self, file, id_, path, source, want_bool=True, names=None) -> None:
        """A CEL predicate compiles, calls registered functions only and reads known facts
        (`names(parts)`: the error for a path it reads, by default the facts schema's)."""
        names = names or self.fact_name
        self.n_predicates += 1
        try:
            p = cel.compile(source)
        except cel.CelSyntaxError as e:
            self.add(file, id_, path, f"CEL syntax error: {e}")
            return
        for fn in sorted(p.functions - cel.BUILTIN_FUNCTIONS - cel.REGISTERED_FUNCTIONS):
            self.add(file, id_, path, f"unregistered CEL function {fn!r}")
        for parts in sorted(p.paths):
            err = names(parts)
            if err:
                self.add(file, id_, path, err)

    def fact_name(self, parts: tuple[str, ...]) -> str | None:
        props = self.facts_schema["properties"]
        group = parts[0]
        if group not in props:
            return f"unknown fact {'.'.join(parts)!r} (no group {group!r}; groups: {', '.join(props)})"
        if len(parts) < 2:
            return None
        name = parts[1]
        if group in ("args", "passed", "engine"):
            if name not in self.cat.arg_names:
                return f"unknown fact {'.'.join(parts)!r}: no vLLM argument {name!r} in any catalog release"
            return None
        if group == "env":
            if name not in self.cat.env_names and name not in EXTRA_ENV:
                return f"unknown fact {'.'.join(parts)!r}: no vLLM env var {name!r} in any catalog release"
            return None
        sub = props[group].get("properties", {})
        if name not in sub:
            return f"unknown fact {'.'.join(parts)!r} (known under {group}: {', '.join(sorted(sub))})"
        return None

    def fix_target(self, file, id_, path, op, versions: list[str]) -> None:
        """A fix names a real argument or env var, and one that exists wherever it is set."""
        if op.kind in ("pin", "container"):
            return  # a package's version, an option of `docker run`: not an argument (the schema lists them)
        is_env = op.is_env
        entry = self.cat.env(op.target) if is_env else self.cat.arg(op.target)
        what = f"env var {op.target!r}" if is_env else f"argument {op.target!r}"
        if entry is None:
            self.add(file, id_, path, f"no vLLM {what} in any catalog release")
            return
        if op.kind not in ("set", "env"):
            return
        missing = [v for v in versions if not entry.exists(v)]
        if missing:
            exists = _spans([str(v) for v in self.cat.versions if entry.exists(str(v))])
            self.add(file, id_, path, f"{what} is set for vLLM {_spans(missing)} but does not exist there (exists {exists})")
        if is_env or op.value is None:
            return
        pairs: list[tuple[tuple[str, ...], Any]] = [((op.target,), op.value)]
        if isinstance(op.value, dict):
            pairs = [((op.target, k), v) for k, v in op.value.items()]
        for vpath, value in pairs:
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                continue
            bad = [v for v in versions if (got := self.cat.allowed_values(vpath, v)) and got[0]
                   and not self._allowed(vpath, v, str(value), {str(x) for x in got[0]})]
            if bad:
                self.add(file, id_, path + ".value", f"{value!r} is not an allowed {'.'.join(vpath)} in vLLM {_spans(bad)}")

    def _allowed(self, vpath: tuple, version: str, value: str, listed: set[str]) -> bool:
        """`value` is one vLLM parses there; where the catalog lists an enum's member names (its
        default "auto" listed as AUTO: config_format 0.6.4-0.8.x), the lower-case value counts."""
        if value in listed:
            return True
        entry = self.cat.arg(vpath[0]) if len(vpath) == 1 else None
        default = entry.field("default", version) if entry is not None and entry.exists(version) else None
        return isinstance(default, str) and default not in listed and default.upper() in listed and value.upper() in listed

    def placeholders(self, file, id_, path, text: str) -> None:
        for ph in placeholders(text):
            err = self.fact_name(tuple(ph.split(".")))
            if err:
                self.add(file, id_, path, f"placeholder {{{ph}}}: {err}")

    def text_names(self, file, id_, path, text: str, versions: list[str], removal_ok: bool = False, bare: bool = False) -> None:
        """Flags (`--x`) and VLLM_* env vars named in prose must exist in a claimed release."""
        for flag in (_BARE_FLAG if bare else _TEXT_FLAG).findall(text):
            base = flag.split("=")[0]
            e = self.cat.flag(base) or (self.cat.flag("--" + base[5:]) if base.startswith("--no-") else None)
            if e is None:
                self.add(file, id_, path, f"names flag {base!r}, which no catalog release has")
            elif not removal_ok and versions and not any(e.exists(v) for v in versions):
                self.add(file, id_, path, f"names flag {base!r}, absent from every release the check covers")
        for env in _TEXT_ENV.findall(text):
            if env in NOT_ENV:
                continue
            e = self.cat.env(env)
            if e is None:
                self.add(file, id_, path, f"names env var {env!r}, which no catalog release has")
            elif not removal_ok and versions and not any(e.exists(v) for v in versions):
                self.add(file, id_, path, f"names env var {env!r}, absent from every release the check covers")

    def cases(self, c) -> None:
        """Each check's own cases need the check stage to run: engine/validate.py runs them."""

    def claims(self) -> None:
        """Every versioned claim against the catalogs, in every release it covers (engine/kb/claims)."""
        from vllm_kb.engine.kb import claims
        from vllm_kb.engine.kb.claims import frameworks as fw_claims

        for file, id_, path, msg in claims.problems(self.cat) + fw_claims.problems():
            self.add(file, id_, path, msg)


def _spans(versions: list[str]) -> str:
    return "none" if not versions else versions[0] if len(versions) == 1 else f"{versions[0]} … {versions[-1]}"


def validate_kb() -> tuple[list[Problem], str]:
    """The knowledge's own consistency, without running any case or stage lint."""
    return Validator().run()
