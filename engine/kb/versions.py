"""Release numbers and requirement specifiers, enough for vLLM pins (PEP 440 subset plus
Poetry's ^ and ~), without depending on `packaging` at run time."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

_VERSION = re.compile(
    r"^\s*v?(?P<rel>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>a|b|rc|alpha|beta|c)[-_.]?(?P<pren>\d*))?"
    r"(?:[-_.]?post[-_.]?(?P<post>\d*))?"
    r"(?:[-_.]?dev[-_.]?(?P<dev>\d*))?"
    r"(?:\+(?P<local>[a-z0-9.]+))?\s*$",
    re.I,
)
_PRE_ORDER = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


class InvalidVersion(ValueError):
    pass


class Version:
    __slots__ = ("text", "release", "_key")

    def __init__(self, text: str):
        m = _VERSION.match(str(text))
        if not m:
            raise InvalidVersion(f"not a version: {text!r}")
        self.text = str(text).strip().lstrip("vV")
        rel = tuple(int(x) for x in m["rel"].split("."))
        self.release = rel
        padded = rel + (0,) * (4 - len(rel)) if len(rel) < 4 else rel
        if m["pre"]:
            pre = (_PRE_ORDER[m["pre"].lower()], int(m["pren"] or 0))
        elif m["dev"] is not None and m["post"] is None:
            pre = (-1, 0)  # 1.0.dev1 sorts before 1.0a1
        else:
            pre = (9, 0)
        post = int(m["post"] or 0) if m["post"] is not None else -1
        dev = int(m["dev"] or 0) if m["dev"] is not None else 1 << 30
        self._key = (padded, pre, post, dev)

    @property
    def public(self) -> str:
        return ".".join(str(x) for x in self.release)

    def __eq__(self, other) -> bool:
        return isinstance(other, Version) and self._key == other._key

    # the four orders on the key itself (functools.total_ordering derived three of them from
    # __lt__ and __eq__: two calls each, on the knowledge's release gates at every site)
    def __lt__(self, other: "Version") -> bool:
        return self._key < other._key

    def __le__(self, other: "Version") -> bool:
        return self._key <= other._key

    def __gt__(self, other: "Version") -> bool:
        return self._key > other._key

    def __ge__(self, other: "Version") -> bool:
        return self._key >= other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Version({self.text!r})"

    def __str__(self) -> str:
        return self.text


def parse(text: str) -> Version:
    return _version(text) if type(text) is str else Version(text)


def try_parse(text: str | None) -> Version | None:
    try:
        return parse(text) if text is not None else None
    except InvalidVersion:
        return None


def in_spans(release: "str | Version | None", spans) -> bool:
    """Whether `release` falls in one of the inclusive [first, last] spans a knowledge table lists."""
    v = release if isinstance(release, Version) else try_parse(release)
    return v is not None and any(parse(a) <= v <= parse(b) for a, b in spans)


# a version as written in a specifier, its suffix kept: `==4.50.0.dev0` names 4.50.0.dev0, not 4.50.0
_WRITTEN = re.compile(r"\d+(?:\.\d+)+(?:[-_.]?(?:a|b|rc|alpha|beta|c|post|dev)[-_.]?\d*)*", re.I)


def written_versions(spec: str) -> list[str]:
    """The versions a specifier names, whole (probes for what it allows)."""
    return [v for v in _WRITTEN.findall(spec) if try_parse(v) is not None]


_CLAUSE = re.compile(r"^\s*(===|==|!=|~=|>=|<=|>|<|\^|~|=)?\s*([^\s,;]+)\s*$")


class InvalidSpecifier(ValueError):
    pass


class SpecifierSet:
    """A comma-separated list of clauses; all must hold. Empty means "any version".

    `pip=True` reads the clauses as pip does a project's requirement (PEP 440): `<V` (and the upper
    bound of ~=, ^, ~) admits no pre-release or development build of V itself unless V is one
    (`transformers<5` refuses a 5.0.0.dev0 source build), `>V` no post or local release of V. Only for
    a project's pin or a package's requirement text: the knowledge's own release gates keep the plain
    order, where a dev build falls on exactly one side of every gate (a fork's verl 0.7.0.dev in neither
    `<0.7.0` nor `>=0.7.0` lost every fact the verl file gates: tests/test_versions.py)."""

    def __init__(self, text: str = "", *, pip: bool = False):
        self.text = (text or "").strip()
        self.pip = pip
        self._clauses: list[tuple[str, str]] = []
        self._memo: dict = {}
        if self.text in ("", "*"):
            return
        for part in self.text.split(","):
            part = part.strip()
            if not part:
                continue
            m = _CLAUSE.match(part)
            if not m:
                raise InvalidSpecifier(f"not a version specifier: {part!r}")
            op = m[1] or "=="
            if op == "=":
                op = "=="
            ver = m[2]
            if not ver.endswith(".*"):
                try:
                    Version(ver)
                except InvalidVersion:
                    raise InvalidSpecifier(f"not a version in specifier: {part!r}") from None
            self._clauses.append((op, ver))

    def __bool__(self) -> bool:
        return bool(self._clauses)

    @property
    def exact(self) -> str | None:
        """The version when the set pins exactly one (`==0.6.3`)."""
        if len(self._clauses) == 1 and self._clauses[0][0] in ("==", "===") and not self._clauses[0][1].endswith(".*"):
            return self._clauses[0][1]
        return None

    def contains(self, version: Version | str) -> bool:
        # remembered per set: a check's release gate is asked about the same few releases at every site
        hit = self._memo.get(version)
        if hit is None:
            v = version if isinstance(version, Version) else _version(version)
            hit = all(_holds(op, ver, v, self.pip) for op, ver in self._clauses)
            if len(self._memo) >= 1024:
                self._memo.clear()
            self._memo[version] = hit
        return hit

    def __contains__(self, version) -> bool:
        return self.contains(version)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"SpecifierSet({self.text!r})"


@lru_cache(maxsize=1 << 16)
def contains(spec: str, version: str) -> bool:
    """SpecifierSet(spec).contains(version), remembered: the knowledge's tables ask the same few
    ranges about the same releases for every site and every candidate release (a framework
    site's compatibility search asked 400,000 times for one fixture set). Raises as it does."""
    return SpecifierSet(spec).contains(version)


@lru_cache(maxsize=4096)
def _version(text) -> Version:
    """Version(text), remembered: specifiers compare the same few releases again and again."""
    return Version(text)


def _holds(op: str, ver: str, v: Version, pip: bool = False) -> bool:
    if ver.endswith(".*"):
        prefix = tuple(int(x) for x in ver[:-2].split("."))
        match = _pad(v.release, len(prefix))[: len(prefix)] == prefix  # `==5.0.*` holds 5 (5.0)
        return match if op == "==" else (not match if op == "!=" else False)
    w = _version(ver)
    if op in ("==", "==="):
        width = max(len(v.release), len(w.release))
        same_release = _pad(v.release, width) == _pad(w.release, width)
        # A post or local release of the pinned version is the same code for our purposes.
        plain_pin = w._key[1:] == ((9, 0), -1, 1 << 30)
        return same_release and (v._key[1:] == w._key[1:] or (plain_pin and v._key[1] == (9, 0) and not pip))
    if op == "!=":
        return not _holds("==", ver, v, pip)
    if op == ">=":
        return v >= w
    if op == "<=":
        return v <= w
    below = _below_pip if pip else _below_plain
    if op == ">":
        return _above_pip(v, w) if pip else v > w
    if op == "<":
        return below(v, w)
    if op == "~=":
        if len(w.release) < 2:
            raise InvalidSpecifier("~= needs at least two release numbers")
        upper = w.release[:-2] + (w.release[-2] + 1,)
        return v >= w and below(v, Version(".".join(map(str, upper))))
    if op == "^":  # Poetry: ^0.6.3 → >=0.6.3,<0.7.0 ; ^1.2 → >=1.2,<2
        rel = w.release
        idx = next((i for i, x in enumerate(rel) if x != 0), len(rel) - 1)
        upper = rel[:idx] + (rel[idx] + 1,)
        return v >= w and below(v, Version(".".join(map(str, upper))))
    if op == "~":  # Poetry: ~0.6.3 → >=0.6.3,<0.7.0 ; ~1 → >=1,<2
        rel = w.release
        upper = (rel[0] + 1,) if len(rel) == 1 else rel[:1] + (rel[1] + 1,)
        return v >= w and below(v, Version(".".join(map(str, upper))))
    raise InvalidSpecifier(f"unknown operator {op!r}")


def _below_plain(v: Version, w: Version) -> bool:
    return v < w


def _below_pip(v: Version, w: Version) -> bool:
    """`v < w` less PEP 440's exclusion: a pre-release or dev build of `w` itself (5.0.0.dev0 for `<5`,
    5.0.0.post1.dev0 for `<5.0.0.post1`) is not below it, unless `w` is one too."""
    return v < w and not (_pre(v) and not _pre(w) and _same_release(v, w) and v._key[2] == w._key[2])


def _above_pip(v: Version, w: Version) -> bool:
    """`v > w` less PEP 440's exclusion: a post release of a plain release `w` is not above it; this
    Version keeps no local label, so `w+local` already compares equal to `w`."""
    return v > w and not (v._key[2] != -1 and _final(w) and _same_release(v, w))


def _pre(v: Version) -> bool:
    """A pre-release or development build (1.0rc1, 1.0.dev0, 1.0.post1.dev0)."""
    return v._key[1] != (9, 0) or v._key[3] != 1 << 30


def _final(w: Version) -> bool:
    """A plain release (5.0.0): no pre, post or dev part — the only kind PEP 440's exclusions protect."""
    return w._key[1:] == ((9, 0), -1, 1 << 30)


def _same_release(v: Version, w: Version) -> bool:
    width = max(len(v.release), len(w.release))
    return _pad(v.release, width) == _pad(w.release, width)


def _pad(rel: tuple, width: int) -> tuple:
    return rel + (0,) * (width - len(rel))


def newest_matching(spec: SpecifierSet, candidates: list[Version]) -> Version | None:
    hits = [c for c in candidates if spec.contains(c)]
    return max(hits) if hits else None


def allows_any(spec: str, known: list[str], keep: Callable[[Version], bool], *, pip: bool = False) -> bool:
    """Whether the specifier allows a version `keep` accepts, probed at `known`, the versions it names,
    each one's `.99` patch and 999.0.0 (transformers pins: engine/check/transformers_fit.py and
    transformers_gone.py); a specifier the audit cannot read claims nothing (True). `pip`: read it as
    pip does (SpecifierSet)."""
    try:
        ss = SpecifierSet(spec, pip=pip)
    except InvalidSpecifier:
        return True
    written = written_versions(spec)
    probes = [*known, *written, *(f"{v.rsplit('.', 1)[0]}.99" for v in [*known, *written]), "999.0.0"]
    return any(ss.contains(p) for p in probes if (pv := try_parse(p)) is not None and keep(pv))
