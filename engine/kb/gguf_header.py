"""The `general.architecture` of a GGUF file inside the audited project, read from its header
(https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): the magic, the version, the tensor
and key counts, then key/value pairs — llama.cpp writes general.architecture first. Only the first
HEAD_BYTES are read, never a tensor; a file outside the project (after links), a header that is
not GGUF, or a key that is not in the window gives None."""
from __future__ import annotations

import struct
from pathlib import Path

HEAD_BYTES = 1 << 20
_MAX_KEYS = 64  # general.* keys come first; the tokenizer's arrays after them are not walked far
# value type → its size in bytes (8: string, 9: array, handled apart)
_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


class _Short(Exception):
    """The window ends before the key."""


def _read(buf: bytes, pos: int, n: int) -> tuple[bytes, int]:
    if pos + n > len(buf):
        raise _Short
    return buf[pos:pos + n], pos + n


def _int(buf: bytes, pos: int, wide: bool) -> tuple[int, int]:
    raw, pos = _read(buf, pos, 8 if wide else 4)
    return struct.unpack("<Q" if wide else "<I", raw)[0], pos


def _string(buf: bytes, pos: int, wide: bool) -> tuple[bytes, int]:
    n, pos = _int(buf, pos, wide)
    return _read(buf, pos, n)


def _skip(buf: bytes, pos: int, vtype: int, wide: bool) -> int:
    if vtype == 8:
        return _string(buf, pos, wide)[1]
    if vtype == 9:
        (etype,), pos = struct.unpack("<I", _read(buf, pos, 4)[0]), pos + 4
        count, pos = _int(buf, pos, wide)
        if etype in _SIZES:
            return _read(buf, pos, _SIZES[etype] * count)[1]
        for _ in range(count):
            pos = _skip(buf, pos, etype, wide)
        return pos
    if vtype not in _SIZES:
        raise _Short
    return _read(buf, pos, _SIZES[vtype])[1]


def architecture_of(head: bytes) -> str | None:
    """general.architecture from the first bytes of a GGUF file."""
    if head[:4] != b"GGUF" or len(head) < 8:
        return None
    version = struct.unpack("<I", head[4:8])[0]
    wide = version >= 2  # version 1 wrote 32-bit counts and string lengths
    try:
        pos = 8
        _tensors, pos = _int(head, pos, wide)
        keys, pos = _int(head, pos, wide)
        for _ in range(min(keys, _MAX_KEYS)):
            key, pos = _string(head, pos, wide)
            (vtype,), pos = struct.unpack("<I", _read(head, pos, 4)[0]), pos + 4
            if key == b"general.architecture" and vtype == 8:
                value, _ = _string(head, pos, wide)
                text = value.decode("utf-8", "replace")
                return text if text.isprintable() and 0 < len(text) <= 64 else None
            pos = _skip(head, pos, vtype, wide)
    except (_Short, struct.error):
        return None
    return None


def read_architecture(root: str | Path | None, model: str | None, base: str | Path | None = None) -> str | None:
    """The architecture of `model` when it names a .gguf file inside the project (relative to
    `base`, the folder of the file naming it, or to the root)."""
    if root is None or not model or not model.lower().endswith(".gguf") or "$" in model or "://" in model:
        return None
    top = Path(root).resolve()
    rel = Path(model)
    for path in [rel] if rel.is_absolute() else [Path(b) / rel for b in (base, root) if b is not None]:
        try:
            real = path.resolve()
            real.relative_to(top)
            if not real.is_file():
                continue
            with real.open("rb") as fh:
                return architecture_of(fh.read(HEAD_BYTES))
        except (OSError, ValueError, RuntimeError):
            continue
    return None
