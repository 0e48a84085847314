"""Writing `--fix` results: all files or none. Every file is checked first (inside the audited
root, a regular file, unchanged on disk since it was read, one fix per real file when two paths
lead to it); then each new text is staged in a temporary file beside its target (same folder,
so the rename is atomic), fsynced, given the target's mode; only when every file is staged are
they renamed into place, and each folder is fsynced. A failure before the renames removes the
staged files and changes nothing; a failure during them puts back what was already replaced.

Temporary files are named `.vllm-kb-fix-<pid>-<name>.tmp`: a run that was killed (SIGKILL,
power loss) can leave one; the next `--fix` removes those whose process is gone, and the walk
never reads them."""
from __future__ import annotations

import os
import re
import signal
import stat
from contextlib import contextmanager
from dataclasses import dataclass

from vllm_kb.engine.kb.encoding import decode, display_path, encode

TEMP_RE = re.compile(r"^\.vllm-kb-fix-(\d+)-.*\.tmp$")


class WriteError(OSError):
    pass


@dataclass
class _Target:
    rels: list[str]
    real: str
    data: bytes
    mode: int
    uid: int
    gid: int
    original: bytes


def is_temp(name: str) -> bool:
    return bool(TEMP_RE.match(name))


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def plan(root: str, originals: dict[str, str], texts: dict[str, str]) -> list[_Target]:
    """Check every file before anything is written; one target per real file."""
    root_real = os.path.realpath(root)
    by_real: dict[str, _Target] = {}
    for rel in sorted(texts):
        shown = display_path(rel)
        full = os.path.join(root_real, rel)
        real = os.path.realpath(full)
        if not _within(real, root_real):
            raise WriteError(f"{shown}: resolves outside {display_path(str(root))}; nothing was changed")
        try:
            st = os.stat(real)
            if not stat.S_ISREG(st.st_mode):
                raise WriteError(f"{shown}: not a regular file; nothing was changed")
            with open(real, "rb") as fh:
                raw = fh.read()
        except WriteError:
            raise
        except OSError as e:
            raise WriteError(f"{shown}: {e.strerror or e}; nothing was changed") from None
        try:
            text, codec, bom = decode(raw)
        except UnicodeDecodeError:
            text, codec, bom = None, "utf-8", b""
        if text != originals.get(rel):
            raise WriteError(f"{shown}: changed on disk while vllm-kb was fixing it; nothing was changed")
        data = encode(texts[rel], codec, bom)
        got = by_real.get(real)
        if got is not None:
            if got.data != data:
                raise WriteError(f"{display_path(got.rels[0])} and {shown} are one file (a link) and would get different "
                                 f"fixes; audit one of the two paths; nothing was changed")
            got.rels.append(rel)
            continue
        by_real[real] = _Target([rel], real, data, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, raw)
    return list(by_real.values())


def clean_stale(folders: set[str]) -> None:
    """Remove temporary files a killed `--fix` left in these folders (their process is gone)."""
    for folder in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            m = TEMP_RE.match(name)
            if not m or _alive(int(m.group(1))):
                continue
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


@contextmanager
def _terminate_as_interrupt():
    """SIGTERM during the write raises KeyboardInterrupt, so the staged files are cleaned up."""
    def raise_interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, raise_interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _stage(t: _Target, data: bytes) -> str:
    folder, name = os.path.split(t.real)
    tmp = os.path.join(folder, f".vllm-kb-fix-{os.getpid()}-{name[:80]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, t.mode)
        if hasattr(os, "chown") and (os.stat(tmp).st_uid, os.stat(tmp).st_gid) != (t.uid, t.gid):
            try:
                os.chown(tmp, t.uid, t.gid)
            except OSError:
                pass  # not ours to give away: the file keeps our ownership
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write(targets: list[_Target]) -> None:
    folders = {os.path.dirname(t.real) for t in targets}
    clean_stale(folders)
    staged: list[tuple[_Target, str]] = []
    with _terminate_as_interrupt():
        try:
            for t in targets:
                try:
                    staged.append((t, _stage(t, t.data)))
                except OSError as e:
                    raise WriteError(f"{display_path(t.rels[0])}: cannot write ({e.strerror or e}); nothing was changed") from None
        except BaseException:
            for _, tmp in staged:
                _unlink(tmp)
            raise
        done: list[_Target] = []
        current = None
        try:
            for current, tmp in staged:
                os.replace(tmp, current.real)
                done.append(current)
        except BaseException as e:
            for t, tmp in staged:
                if t not in done:
                    _unlink(tmp)
            for t in done:  # put back what was already replaced
                try:
                    os.replace(_stage(t, t.original), t.real)
                except OSError:
                    pass
            if isinstance(e, OSError) and current is not None:
                raise WriteError(f"{display_path(current.rels[0])}: cannot replace ({e.strerror or e}); nothing was changed") from None
            raise
    for folder in folders:
        _fsync_dir(folder)
