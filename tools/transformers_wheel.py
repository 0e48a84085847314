"""One transformers wheel read without importing it: the names its modules bind, the model types
its AutoConfig maps, the attributes its tokenizer classes define — what tools/vllm_transformers_imports.py
holds each vLLM release's start-up against."""
from __future__ import annotations

import ast
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_vllm_imports import _bound  # noqa: E402
from transformers_model_types import assigned_keys  # noqa: E402

# a name bound at a module's top level, read by its line (generous: a line at column 0 is top level)
_TOP = re.compile(r"^(?:class|def)\s+(\w+)|^(\w+)\s*(?::[^=\n]*)?=", re.M)


class Wheel:
    """One transformers wheel's modules, read on demand."""

    def __init__(self, path: Path):
        self.zip = zipfile.ZipFile(path)
        self.files = {n for n in self.zip.namelist() if n.startswith("transformers/") and n.endswith(".py")}
        self._names: dict[str, tuple[set[str], bool]] = {}
        self._below: dict[str, set[str]] = {}

    def maps(self, model_type: str) -> bool:
        """Whether AutoConfig of this release maps the model type (CONFIG_MAPPING_NAMES)."""
        if not hasattr(self, "_mapped"):
            self._mapped = set()
            # from 5.6 the table lives in auto_mappings.py, which configuration_auto.py imports
            for path in ("transformers/models/auto/configuration_auto.py", "transformers/models/auto/auto_mappings.py"):
                if path in self.files:
                    self._mapped.update(assigned_keys(ast.parse(self.text(path)), "CONFIG_MAPPING_NAMES"))
        return model_type in self._mapped

    def text(self, path: str) -> str:
        return self.zip.read(path).decode("utf-8", "replace")

    def module(self, mod: str) -> str | None:
        base = mod.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in self.files:
                return cand
        return None

    def names(self, path: str) -> tuple[set[str], bool]:
        if path not in self._names:
            out: set[str] = set()
            try:
                star = _bound(ast.parse(self.text(path)).body, out)
            except SyntaxError:
                star = True
            self._names[path] = (out, star)
        return self._names[path]

    def below(self, pkg_dir: str) -> set[str]:
        """Every name bound at the top level of a module under the package folder."""
        if pkg_dir not in self._below:
            out: set[str] = set()
            for p in self.files:
                if p.startswith(pkg_dir + "/"):
                    out.update(a or b for a, b in _TOP.findall(self.text(p)))
            self._below[pkg_dir] = out
        return self._below[pkg_dir]

    def resolves(self, mod: str, name: str | None, exact: bool = False) -> bool:
        """Whether `from mod import name` resolves (generous: absence is certain). `exact` (whether a
        name is there YET, tools/vllm_transformers_since.py): a star import under a lazy package's
        TYPE_CHECKING branch does not bind every name, and the package root serves its models'
        exports (from 4.52, define_import_structure over models/) rather than every module's names."""
        parts = mod.split(".")
        for i in range(1, len(parts)):
            if self.module(".".join(parts[:i])) is None:
                return False
        path = self.module(mod)
        if path is None:
            return False
        if name is None or self.module(f"{mod}.{name}") is not None:
            return True
        names, star = self.names(path)
        text = self.text(path)
        lazy = path.endswith("__init__.py") and "_LazyModule" in text
        if name in names or (star and not (exact and lazy)) or "__getattr__" in names:
            return True  # a module-level __getattr__ may serve any name (deprecation shims)
        if not lazy:
            return False
        if re.search(r"[\"']%s[\"']" % re.escape(name), text) is not None:
            return True
        if exact and path == "transformers/__init__.py":
            return "define_import_structure(Path(__file__).parent / \"models\"" in text and name in self.below("transformers/models")
        return name in self.below(path.rsplit("/", 1)[0])


def first_missing(ok: list[bool], versions: list[str]) -> str | None:
    """The transformers release from which the name is gone for good (present somewhere before)."""
    if not any(ok) or ok[-1]:
        return None
    i = len(ok)
    while i > 0 and not ok[i - 1]:
        i -= 1
    return versions[i] if i > 0 else None


def defines(wheel: Wheel, attribute: str) -> bool:
    """Whether any tokenizer module of the release spells the attribute (generous, so that absence is
    certain: a def, a property, an assignment, a string a __getattr__ serves)."""
    if not hasattr(wheel, "_tok_text"):
        wheel._tok_text = "\n".join(wheel.text(p) for p in sorted(wheel.files)
                                    if re.match(r"transformers/tokenization_[\w]+\.py$", p))
    return re.search(r"\b%s\b" % re.escape(attribute), wheel._tok_text) is not None
