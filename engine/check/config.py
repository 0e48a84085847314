"""Project configuration: `[tool.vllm-kb]` in pyproject.toml or a `.vllm-kb.toml` (top-level
keys), found from the audited path upward to the project root (the first folder holding `.git`).
The nearest file wins; in one folder `.vllm-kb.toml` wins over pyproject.toml, and a
pyproject.toml without the table is passed over. Command-line flags win over the file.

    select = ["B", "kv-cache-fp8"]        # only these (ids, names, aliases, category letters, finding codes)
    ignore = ["A5", "deprecated-entrypoint"]
    exclude = ["third_party/**"]          # globs relative to the config file's folder
    gpu = "H100-80GB x8"
    vllm-version = "0.33.0"
    lang = "zh"
    fail-on = "P1"
    format = "sarif"
    baseline = ".vllm-kb-baseline.json"
    docs-url = "https://example.org/vllm-kb/docs/"
    unsafe-fixes = false
    fixable = ["B4", "not-in-version"]    # --fix applies only these rules' fixes (default: all)
    unfixable = ["C5"]                    # … and never these (reported all the same)
    [tool.vllm-kb.per-file-ignores]       # (in .vllm-kb.toml: [per-file-ignores])
    "tests/**" = ["B2", "B3"]

Every mistake is an exit-2 error that names the file and the key:
`.vllm-kb.toml › ignore[1]: unknown check 'B99'`."""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from vllm_kb.engine.kb.errors import Problem, UsageError
from vllm_kb.engine.kb.tomlread import toml


def load():
    """The knowledge base, imported only when a config file is read (keeps `--help` fast)."""
    from vllm_kb.engine.kb.knowledge import load as _load

    return _load()



FILE_NAMES = (".vllm-kb.toml", "pyproject.toml")
FORMATS = ("text", "markdown", "json", "sarif", "github", "gitlab", "json-lines", "concise", "summary")
FAIL_ON = ("P0", "P1", "P2", "never")
LANGS = ("en", "zh")
KEYS = ("select", "ignore", "per-file-ignores", "exclude", "gpu", "vllm-version", "lang", "fail-on", "format",
        "baseline", "docs-url", "unsafe-fixes", "fixable", "unfixable")


class ConfigError(UsageError):
    """A configuration file is invalid; carries every problem in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class Config:
    file: Path | None = None  # None: no configuration file
    base: Path = field(default_factory=Path.cwd)  # what globs and `baseline` are relative to
    select: set[str] | None = None  # rule ids; None: every rule
    ignore: set[str] = field(default_factory=set)
    per_file_ignores: list[tuple[str, set[str]]] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    gpu: str | None = None
    vllm_version: str | None = None
    lang: str | None = None
    fail_on: str | None = None
    format: str | None = None
    baseline: str | None = None
    docs_url: str | None = None
    unsafe_fixes: bool | None = None
    fixable: set[str] | None = None  # rule ids --fix may apply; None: every rule
    unfixable: set[str] = field(default_factory=set)  # rule ids --fix never applies

    def rel(self, root: Path, rel: str) -> str | None:
        """A project file (relative to the audited root) relative to the config's folder, or None
        when it lies outside it."""
        p = os.path.relpath(os.path.join(os.path.realpath(root), rel), os.path.realpath(self.base))
        p = p.replace(os.sep, "/")
        return None if p == ".." or p.startswith("../") else p

    def excluded(self, root: Path, rel: str) -> bool:
        if not self.exclude:
            return False
        r = self.rel(root, rel)
        return r is not None and any(glob_match(g, r) for g in self.exclude)

    def enabled(self, rule_id: str, root: Path, rel: str) -> bool:
        """Whether findings of `rule_id` located in `rel` are reported."""
        if self.select is not None and rule_id not in self.select:
            return False
        if rule_id in self.ignore:
            return False
        if self.per_file_ignores:
            r = self.rel(root, rel)
            if r is not None and any(rule_id in ids and glob_match(g, r) for g, ids in self.per_file_ignores):
                return False
        return True


# --- globs ------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _glob_rx(pattern: str) -> re.Pattern:
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c))
        i += 1
    return re.compile("".join(out) + r"(?:/.*)?\Z", re.DOTALL)


def glob_match(pattern: str, rel: str) -> bool:
    """`tests/**`, `deploy/*.yaml`, `**/legacy.sh`; a pattern without a slash matches a file or
    folder name at any depth (`*.sh`, `legacy`). A pattern that names a folder covers what is in it."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.rstrip("/")
    if not pattern:
        return False
    if "/" not in pattern:
        return any(_glob_rx(pattern).match(part) for part in PurePosixPath(rel).parts)
    return bool(_glob_rx(pattern.lstrip("/")).match(rel))


# --- discovery --------------------------------------------------------------------------------

def find(start: str | Path) -> Path | None:
    """The configuration file for an audited path: nearest first, up to the project root."""
    p = Path(start).resolve()
    d = p if p.is_dir() else p.parent
    while True:
        for name in FILE_NAMES:
            f = d / name
            if f.is_file() and (name != "pyproject.toml" or _has_table(f)):
                return f
        if (d / ".git").exists() or d.parent == d:
            return None
        d = d.parent


def _has_table(f: Path) -> bool:
    try:
        text = f.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return "vllm-kb" in text and re.search(r"^\s*\[\s*tool\s*\.\s*[\"']?vllm-kb[\"']?\s*[\].]", text, re.MULTILINE) is not None


def display(f: Path) -> str:
    try:
        return os.path.relpath(f)
    except ValueError:  # another drive (Windows)
        return str(f)


def load_file(f: Path, lang: str = "en") -> Config:
    name = display(f)
    kb = load()
    try:
        data = toml().loads(f.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError([Problem(name, "", "", kb.t("config.unreadable", lang, error=getattr(e, "strerror", None) or e))]) from None
    except toml().TOMLDecodeError as e:
        raise ConfigError([Problem(name, "", "", kb.t("config.invalid_toml", lang, error=e))]) from None
    prefix = ""
    if f.name == "pyproject.toml":
        data = data.get("tool", {}).get("vllm-kb", {})
        prefix = "tool.vllm-kb."
    return parse(data, f, lang, prefix)


def parse(data: dict[str, Any], f: Path, lang: str = "en", prefix: str = "") -> Config:
    from vllm_kb.engine.check.rules import rules as rules_of

    kb = load()
    name = display(f)
    problems: list[Problem] = []
    cfg = Config(file=f, base=f.parent)

    def bad(path: str, key: str, /, **kw) -> None:
        problems.append(Problem(name, "", prefix + path, kb.t(key, lang, **kw)))

    reg = rules_of()

    def ids(path: str, value: Any) -> set[str]:
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            bad(path, "config.expected_list")
            return set()
        out: set[str] = set()
        for i, x in enumerate(value):
            hit = reg.expand(x)
            if hit is None:
                guess = difflib.get_close_matches(x, [k for r in reg for k in r.keys], n=1, cutoff=0.7)
                hint = kb.t("config.did_you_mean", lang, guess=guess[0]) if guess else ""
                bad(f"{path}[{i}]", "config.unknown_rule", rule=x, hint=hint)
            else:
                out |= {r.id for r in hit}
        return out

    def choice(path: str, value: Any, allowed: tuple[str, ...]) -> str | None:
        if value not in allowed:
            bad(path, "config.expected_one_of", allowed=", ".join(allowed), got=repr(value))
            return None
        return value

    def string(path: str, value: Any) -> str | None:
        if not isinstance(value, str) or not value.strip():
            bad(path, "config.expected_string", got=repr(value))
            return None
        return value

    for key, value in data.items():
        if key not in KEYS:
            guess = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1, cutoff=0.6)
            hint = kb.t("config.did_you_mean", lang, guess=guess[0]) if guess else ""
            bad(key, "config.unknown_key", key=key, hint=hint)
        elif key == "select":
            cfg.select = ids(key, value)
        elif key == "ignore":
            cfg.ignore = ids(key, value)
        elif key == "fixable":
            cfg.fixable = ids(key, value)
        elif key == "unfixable":
            cfg.unfixable = ids(key, value)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                bad(key, "config.expected_table")
                continue
            for glob, listed in value.items():
                cfg.per_file_ignores.append((glob, ids(f"{key}.{_toml_key(glob)}", listed)))
        elif key == "exclude":
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                bad(key, "config.expected_list")
            else:
                cfg.exclude = list(value)
        elif key == "lang":
            cfg.lang = choice(key, value, LANGS)
        elif key == "fail-on":
            cfg.fail_on = choice(key, value, FAIL_ON)
        elif key == "format":
            cfg.format = choice(key, value, FORMATS)
        elif key == "unsafe-fixes":
            if not isinstance(value, bool):
                bad(key, "config.expected_bool", got=repr(value))
            else:
                cfg.unsafe_fixes = value
        elif key == "gpu":
            cfg.gpu = string(key, value)
            if cfg.gpu and cfg.gpu.lower() != "auto":
                from vllm_kb.engine.kb import hardware

                try:
                    hardware.parse_spec(cfg.gpu, kb.gpus)
                except UsageError as e:
                    bad(key, "config.invalid_value", error=e)
                    cfg.gpu = None
        elif key == "vllm-version":
            from vllm_kb.engine.kb.versions import try_parse

            cfg.vllm_version = string(key, value)
            if cfg.vllm_version and try_parse(cfg.vllm_version) is None:
                bad(key, "config.invalid_version", got=repr(value))
                cfg.vllm_version = None
        elif key == "baseline":
            cfg.baseline = string(key, value)
        elif key == "docs-url":
            cfg.docs_url = string(key, value)
    if problems:
        raise ConfigError(problems)
    return cfg


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else '"' + k.replace('"', '\\"') + '"'


def resolve(path: str | Path, explicit: str | None = None, isolated: bool = False, lang: str = "en") -> Config:
    """The configuration for an audit of `path`: `--config FILE`, else the nearest file, else none."""
    if isolated:
        return Config()
    if explicit:
        if not Path(explicit).is_file():
            raise UsageError(load().t("config.missing", lang, file=explicit))
        return load_file(Path(explicit), lang)
    found = find(path) if Path(path).exists() else None
    return load_file(found, lang) if found else Config()
