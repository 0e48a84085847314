"""Derived data kept between runs so that a cold start does not redo what never changes: the CEL
parser tables (engine/kb/cel.py) and the knowledge files as parsed (engine/kb/knowledge.py). Each
entry is named by a hash of what it was derived from, so an edited knowledge file or another
library version simply misses; the cache holds nothing about audited projects.

Where: $VLLM_KB_CACHE_DIR, else $XDG_CACHE_HOME/vllm-kb, else ~/.cache/vllm-kb (created 0700);
VLLM_KB_NO_CACHE=1 turns it off. Any failure to read or write it is ignored.

Trust: the CEL tables are lark's pickle, and a pickle runs code when loaded; the compiled CEL
translations are code objects in marshal's format, run when a predicate is evaluated. So a cache folder is
used only when it is the user's own and no one else can write it (0700, verified before each
use; one found open to others is closed and emptied first, since anything in it may have been
planted), and a file in it is read only when it is a regular file of the user's that no one else
can write (`trusted`). A file that fails is rebuilt, never loaded.

Many small entries (one per CEL predicate) live in one `Bundle` file: read once, written back once
at exit when something was added (opening hundreds of files was a sixth of a cold start).

Bounds: every entry is keyed by what it was derived from, so each edit of a knowledge file and
each new version of the code leaves the old entries behind. A process that writes an entry
prunes that folder at its exit (`prune_at_exit`): the entries used most recently are kept up to
the folder's bound, the rest deleted. "Used" is the file's modification time, refreshed when an
entry is read and its time is more than a day old (`used`): one `utime` a day per entry, not one
per run."""
from __future__ import annotations

import json
import marshal
import os
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable


def cache_dir() -> Path | None:
    if os.environ.get("VLLM_KB_NO_CACHE"):
        return None
    d = os.environ.get("VLLM_KB_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "vllm-kb")
    return Path(d)


@lru_cache(maxsize=None)
def code_tag(*module_files: str) -> str:
    """A short digest of the code that derives a cache entry (the given modules' source and this
    package's version): an entry is found only by the code that wrote it, so two copies of
    vllm-kb sharing one cache (an upgrade, a checkout beside an install) never read each other's
    format. A source that cannot be read counts as empty (the version still tells releases apart).
    Computed once per process: every knowledge file's lookup asks it again."""
    import hashlib

    from vllm_kb.engine.kb.about import __version__

    h = hashlib.sha1(__version__.encode())
    for f in module_files:
        try:
            h.update(Path(f).read_bytes())
        except OSError:
            pass
    return h.hexdigest()[:12]


def folder(name: str) -> Path | None:
    """A subfolder of the cache, created on demand; None when there is no usable cache."""
    root = cache_dir()
    if root is None:
        return None
    p = root / name
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        p.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return None
    return p if _private(root) and _private(p) else None


def _mine(st: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or st.st_uid == os.getuid()


def _private(d: Path) -> bool:
    """The folder is a real folder of the user's that only the user can write; an open one of
    the user's is closed and emptied (what is in it may not be theirs)."""
    try:
        st = os.lstat(d)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or not _mine(st):
        return False
    if stat.S_IMODE(st.st_mode) & 0o077:
        try:
            os.chmod(d, 0o700)
            for entry in os.scandir(d):
                if entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    os.unlink(entry.path)
        except OSError:
            return False
        try:
            return not stat.S_IMODE(os.lstat(d).st_mode) & 0o077
        except OSError:
            return False
    return True


DAY = 86400.0
_USED: dict[Path, set[str]] = {}  # per folder, the entries this process read or wrote
_PRUNED: dict[Path, int] = {}  # the folders to prune at exit, with their bounds


def _entry(name: str) -> str:
    """The entry a cache file belongs to: its name without its suffix (a knowledge entry's data
    `<hash>.marshal` and its lines `<hash>.lines.json` are one entry)."""
    return name[:-len(".lines.json")] if name.endswith(".lines.json") else name.rsplit(".", 1)[0]


def used(path: Path) -> None:
    """Note a cache file just read: kept by this process's pruning, and its time refreshed when
    more than a day old (a pruning orders entries by it; a day's precision is all it needs)."""
    import time

    _USED.setdefault(path.parent, set()).add(_entry(path.name))
    try:
        if os.stat(path).st_mtime < time.time() - DAY:
            os.utime(path)
    except OSError:
        pass


def prune_at_exit(path: Path, keep: int) -> None:
    """Note a cache file just written, and prune its folder to `keep` entries at this process's
    exit: once, however many entries the run wrote (listing the folder costs a few ms). A run
    that only reads never lists it."""
    d = path.parent
    _USED.setdefault(d, set()).add(_entry(path.name))
    if d not in _PRUNED:
        import atexit

        atexit.register(lambda: prune(d, _PRUNED[d], frozenset(_USED.get(d, ()))))
    _PRUNED[d] = keep


def prune(d: Path, keep: int, protect: frozenset[str] = frozenset()) -> None:
    """Delete all but the `keep` most recently used entries of folder `d` (`_entry`: a knowledge
    entry's data and lines files go together). Entries named in `protect` (what this process
    read or wrote) count towards `keep` but are never deleted, nor is anything that is not a
    regular file. A write's leftover temporary file (a name that begins with a dot) is deleted
    once it is an hour old: a younger one may still be being written."""
    import time

    now = time.time()
    groups: dict[str, list[tuple[str, float]]] = {}
    try:
        with os.scandir(d) as it:
            for e in it:
                try:
                    if not e.is_file(follow_symlinks=False):
                        continue
                    mtime = e.stat(follow_symlinks=False).st_mtime
                except OSError:
                    continue
                if e.name.startswith("."):
                    if e.name.endswith(".tmp") and mtime < now - 3600:
                        _unlink(e.path)
                    continue
                groups.setdefault(_entry(e.name), []).append((e.path, mtime))
    except OSError:
        return
    room = keep - len(protect & groups.keys())
    others = sorted((g for g in groups if g not in protect), key=lambda g: max(t for _, t in groups[g]), reverse=True)
    for g in others[max(0, room):]:
        for path, _ in groups[g]:
            _unlink(path)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def trusted(path: Path) -> bool:
    """Whether a cache file may be loaded: a regular file (not a link) of the user's that no one
    else can write, in a folder `folder` verified."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and _mine(st) and not stat.S_IMODE(st.st_mode) & 0o022


def read_json(path: Path) -> Any | None:
    if not trusted(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json(path: Path, data: Any) -> None:
    _write_atomic(path, lambda f: json.dump(data, f, ensure_ascii=False, separators=(",", ":")))


def _write_atomic(path: Path, write: Callable[[Any], Any], binary: bool = False) -> None:
    """Atomically (a temporary name, then a rename): a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as f:
            write(f)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


# marshal's format is the interpreter's: an entry is named by the version that wrote it
MARSHAL_TAG = f"marshal{marshal.version}-py{sys.version_info[0]}{sys.version_info[1]}"


def marshal_exact(data: Any) -> bool:
    """Whether marshal gives `data` back as it is (dates and other objects it cannot hold: no)."""
    try:
        return marshal.loads(marshal.dumps(data)) == data
    except (ValueError, TypeError, RecursionError):
        return False


def shared(data: Any) -> Any:
    """`data` with every equal string one object: marshal writes an object met again as a
    reference to the first, so the entry reads back as small as JSON's decoder (which shares
    the keys it meets again) makes it; YAML gives each occurrence a string of its own."""
    seen: dict[str, str] = {}

    def walk(x: Any) -> Any:
        if isinstance(x, str):
            return seen.setdefault(x, x)
        if isinstance(x, dict):
            return {walk(k): walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    try:
        return walk(data)
    except RecursionError:
        return data


def read_marshal(path: Path) -> Any | None:
    """Plain data written by `write_marshal`, under the same rules as a pickle (`trusted`): a
    damaged file can crash what reads it, so only the user's own are read."""
    if not trusted(path):
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()  # marshal.load(f) reads the file an object at a time
        return marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def write_marshal(path: Path, data: Any) -> None:
    _write_atomic(path, lambda f: f.write(marshal.dumps(data)), binary=True)


class Bundle:
    """Entries under one file of a cache folder: `get` reads the file on first use, `put` adds an
    entry, and the file is rewritten (atomically) at the process's exit when an entry was added.
    Entries not asked for in this process are dropped when the file grows past `limit` (a
    knowledge base edited many times leaves old predicates behind). `binary`: the file is in
    marshal's format (values JSON cannot hold, such as compiled code), else JSON."""

    def __init__(self, folder_name: str, file_name: str, limit: int = 4096, binary: bool = False,
                 files: int = 16) -> None:
        self.folder_name, self.file_name, self.limit, self.binary = folder_name, file_name, limit, binary
        self.files = files  # the bound on this folder's files (other code versions' and Pythons' bundles)
        self._entries: dict[str, Any] | None = None
        self._used: set[str] = set()
        self._path: Path | None = None
        self._dirty = False

    def _load(self) -> dict[str, Any]:
        if self._entries is None:
            d = folder(self.folder_name)
            self._path = d / self.file_name if d is not None else None
            got = None if self._path is None else read_marshal(self._path) if self.binary else read_json(self._path)
            self._entries = got if isinstance(got, dict) else {}
            if got is not None and self._path is not None:
                used(self._path)
        return self._entries

    def get(self, key: str) -> Any | None:
        hit = self._load().get(key)
        if hit is not None:
            self._used.add(key)
        return hit

    def put(self, key: str, value: Any) -> None:
        self._load()[key] = value
        self._used.add(key)
        if not self._dirty and self._path is not None:
            self._dirty = True
            import atexit

            prune_at_exit(self._path, self.files)  # registered first, so run after the write (LIFO)
            atexit.register(self.flush)
            _OPEN.append(self)

    def flush(self) -> None:
        if not self._dirty or self._path is None or self._entries is None:
            return
        self._dirty = False
        entries = self._entries
        if len(entries) > self.limit:
            entries = {k: v for k, v in entries.items() if k in self._used}
        (write_marshal if self.binary else write_json)(self._path, entries)


_OPEN: list[Bundle] = []


def flush_all() -> None:
    """Write every bundle that gained entries and prune the folders written to (a forked worker,
    which skips the exit handlers)."""
    for b in _OPEN:
        b.flush()
    for d, keep in _PRUNED.items():
        prune(d, keep, frozenset(_USED.get(d, ())))
