"""What an agent just wrote, audited in the context of its project: the touched files, the pins
in their folder and every folder above it up to the project root, and — for a configuration
file — the scripts that pass it (`--config x.yaml`). Only the findings on the lines that were
written are kept, so an edit is answered about itself, not about the whole repository.

A file counts when the triggers of knowledge/triggers.yaml find evidence in it (the rules
`vllm-kb detect` uses) or a launch site reads settings from it. A pin file that pins vLLM counts
too: changing it changes the release every site below it is checked against, so its answer is
the P0 findings of those sites."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from vllm_kb.engine.scan import words

CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml")
# Files that may pass a configuration file to vLLM: read to find who references a touched config.
_REFERRER_SUFFIXES = {".sh", ".bash", ".zsh", ".slurm", ".sbatch", ".py", ".yaml", ".yml"}
_REFERRER_MAX_BYTES = 512 * 1024
_REFERRERS_MAX = 20
_REFERRER_READS_MAX = 3000  # files read looking for who passes a config: bounds a monorepo's cost
# Engine arguments that other tools' configs use as well: they alone do not make a vLLM config.
_COMMON_KEYS = frozenset({"model", "host", "port", "seed", "dtype", "config", "device", "revision", "tokenizer",
                          "api_key", "served_model_name", "download_dir", "max_tokens"})
_KEY = re.compile(r"""^\s*-?\s*["']?([A-Za-z_][\w.-]*)["']?\s*[:=]""", re.M)


@dataclass(frozen=True)
class Touch:
    """A file an agent wrote. `lines`: the 1-based lines written, None for the whole file (a new
    file). `located` is False when the edit could not be found in the file as it is now: then
    the whole file is looked at, for P0 findings only."""

    path: Path
    lines: frozenset[int] | None = None
    located: bool = True


@dataclass
class TouchedFile:
    file: str  # relative to the project root, POSIX
    sites: list[dict[str, Any]] = field(default_factory=list)  # {kind, line, vllm: {version, source}}
    items: list[dict[str, Any]] = field(default_factory=list)  # engine/report/findings.py entries
    pin: bool = False  # a pin file: items are the P0 findings of the sites it versions


@dataclass
class TouchedAudit:
    root: Path
    files: list[TouchedFile]
    lang: str = "en"


def project_root(path: Path, cwd: Path) -> Path:
    """The nearest folder above `path` holding `.git`; else the agent's working folder when the
    file is inside it; else the file's own folder."""
    for d in path.parents:
        if (d / ".git").exists():
            return d
    return cwd if cwd in path.parents else path.parent


def relevant(path: Path, cwd: Path) -> bool:
    """Cheap first test (the engine not loaded): can this file configure vLLM at all? A text that
    names neither vLLM nor a framework driving it can still be a `--config` file: then a script
    that names it and vLLM must exist."""
    try:
        with open(path, "rb") as f:
            text = f.read(4 * 1024 * 1024).decode("utf-8", "replace")
    except OSError:
        return False
    if words.may_configure_vllm(text):
        return True
    if not path.name.lower().endswith(CONFIG_SUFFIXES) or not _engine_keys(text):
        return False
    from vllm_kb.engine.scan.walk import walk

    root = project_root(path, cwd)
    if root not in path.parents:
        return False
    return bool(_referrers(root, walk(root), [path.relative_to(root).as_posix()], need_vllm=True))


def _engine_keys(text: str) -> bool:
    """Two keys or more that are vLLM engine arguments (as `--config` YAML writes them), beyond
    the names every serving config has."""
    from vllm_kb.engine.kb import catalog

    names = catalog.load().arg_names - _COMMON_KEYS
    found = {k.lower().replace("-", "_") for k in _KEY.findall(text)} & names
    return len(found) >= 2


def context_files(root: Path, rels: list[str]) -> list[str]:
    """The touched files, the pin files beside and above each, the scripts that reference a
    touched configuration file, and for a touched pin file every file below its folder."""
    from vllm_kb.engine.scan import pins as pins_mod

    out: dict[str, None] = dict.fromkeys(rels)
    for rel in rels:
        folder = PurePosixPath(rel).parent
        for d in [folder, *folder.parents]:
            base = root / d
            try:
                names = sorted(os.listdir(base))
            except OSError:
                continue
            for name in names:
                r = name if str(d) == "." else f"{d.as_posix()}/{name}"
                if pins_mod.is_pin_file(r) and (base / name).is_file():
                    out.setdefault(r)
    configs = [r for r in rels if r.lower().endswith(CONFIG_SUFFIXES) and not pins_mod.is_pin_file(r)]
    pins = [r for r in rels if pins_mod.is_pin_file(r)]
    if configs or pins:
        from vllm_kb.engine.scan.walk import walk

        tree = walk(root)
        for r in _referrers(root, tree, configs):
            out.setdefault(r)
        for p in pins:
            pin_dir = PurePosixPath(p).parent.as_posix()
            for r in tree:
                if pin_dir == "." or r.startswith(pin_dir + "/"):
                    out.setdefault(r)
    return list(out)


def _referrers(root: Path, tree: list[str], configs: list[str], need_vllm: bool = False) -> list[str]:
    if not configs:
        return []
    names = {PurePosixPath(c).name for c in configs}
    found = []
    reads = 0
    for r in tree:
        if r in configs or PurePosixPath(r).suffix.lower() not in _REFERRER_SUFFIXES:
            continue
        reads += 1
        if reads > _REFERRER_READS_MAX:
            break
        try:
            if (root / r).stat().st_size > _REFERRER_MAX_BYTES:
                continue
            text = (root / r).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if any(n in text for n in names) and (not need_vllm or words.may_configure_vllm(text)):
            found.append(r)
            if len(found) >= _REFERRERS_MAX:
                break
    return found


def audit_touched(touches: list[Touch], *, cwd: Path, lang: str | None = None, gpu: str | None = None,
                  priorities: tuple[str, ...] = ("P0", "P1")) -> TouchedAudit | None:
    """The findings on the touched lines, per touched file that configures vLLM; None when no
    touched file does. Honours the project's configuration (gpu, vllm_version, select, ignore,
    exclude, baseline) and its suppression comments, as `vllm-kb audit` does."""
    touches = [t for t in touches if t.path.is_file()]
    if not touches:
        return None
    root = project_root(touches[0].path, cwd)
    touches = [t for t in touches if root in t.path.parents]
    by_rel = {t.path.relative_to(root).as_posix(): t for t in touches}

    from vllm_kb.engine.audit import audit, replan
    from vllm_kb.engine.scan import pins as pins_mod
    from vllm_kb.engine.check import config as config_mod
    from vllm_kb.engine.check import suppressions

    cfg = config_mod.resolve(root, None, False, lang or "en")
    lang = lang or cfg.lang or "en"
    by_rel = {r: t for r, t in by_rel.items() if not cfg.excluded(root, r)}
    if not by_rel:
        return None
    files = context_files(root, list(by_rel))
    rep = audit(root, gpu=gpu or cfg.gpu or "none", vllm_version=cfg.vllm_version, files=files)
    used = _vllm_files(rep, set(by_rel))
    if not used:
        return None
    suppressions.apply(rep, cfg, replan)
    if cfg.baseline:
        from vllm_kb.engine.check import baseline as baseline_mod

        bl = baseline_mod.read(str(cfg.base / cfg.baseline), lang)
        if bl.existed:
            suppressions.apply_baseline(rep, bl, replan)
    pinned_by = {sr.site.id: sr.version.pin.file for sr in rep.sites if sr.version.pin is not None}

    from vllm_kb.engine.report import findings as flat
    from vllm_kb.engine.report import model

    data = model.build(rep, lang, advice=False)
    out = []
    for rel in (r for r in by_rel if r in used):
        t = by_rel[rel]
        tf = TouchedFile(rel, pin=pins_mod.is_pin_file(rel))
        tf.sites = [{"kind": s["kind"], "line": s["line"], "file": s["file"],
                     "vllm": {"version": s["vllm"]["version"], "source": s["vllm"]["source"]}}
                    for s in data["sites"] if s["file"] == rel or rel in _files_of(s)]
        for e in flat.entries(data):
            if e["priority"] not in priorities:
                continue
            if tf.pin:
                if e["priority"] == "P0" and e["site"] is not None and pinned_by.get(e["site"]) == rel:
                    tf.items.append(e)
            elif _on_touched_lines(e, rel, t):
                tf.items.append(e)
        out.append(tf)
    return TouchedAudit(root, out, lang)


def _vllm_files(rep, rels: set[str]) -> set[str]:
    """The touched files a site reads, or else with detect evidence (a vLLM pin, an import …)."""
    found: set[str] = set()
    for sr in rep.sites:
        s = sr.site
        found |= rels & {s.file, *(x.file for x in list(s.settings.values()) + list(s.env.values()) if x.file),
                         *([s.config_file] if s.config_file else [])}
    rest = rels - found
    if rest:  # the triggers only for files no site answered for: they cost a CEL program each
        from vllm_kb.engine.advise import detect
        from vllm_kb.engine.scan.project import Scan

        sc = Scan(rep.root, [r for r in rep.files if r in rest], rep.ctx, [p for p in rep.pins if p.file in rest],
                  [], {}, rep.default_version)
        found |= {e.obs.file for e in detect.detect_scan(sc).evidence}
    return found & rels


def _files_of(site: dict) -> set[str]:
    return {site.get("config_file") or "", *(x.get("file") or "" for x in site.get("settings", []) + site.get("env", []))}


def _on_touched_lines(entry: dict, rel: str, t: Touch) -> bool:
    places = [(entry["file"], entry["line"])] + [(c.get("file"), c.get("line")) for c in entry["changes"]]
    if not any(f == rel for f, _ in places):
        return False
    if t.lines is None or not t.located:
        return t.located or entry["priority"] == "P0"
    return any(f == rel and ln in t.lines for f, ln in places)
