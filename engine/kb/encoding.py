"""How a project file's bytes become text and back: UTF-8 (with or without a BOM), and UTF-16
and UTF-32 when a BOM says so — the scanners read them all, and `--fix` writes a file back in
the encoding (and BOM) it came in. Also how a file name that is not valid UTF-8 is shown: the
bytes the file system gives (kept by Python as surrogate escapes) are written `\\xNN`, in every
output, so that nothing crashes on them and two names never look alike."""
from __future__ import annotations

import codecs

# Longest BOM first: a UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS = [(codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]


def sniff(data: bytes) -> tuple[str, bytes]:
    """(codec, BOM) of a file's bytes: the BOM's encoding, else UTF-8 without one."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec, bom
    return "utf-8", b""


def decode(data: bytes) -> tuple[str, str, bytes]:
    """(text, codec, bom); raises UnicodeDecodeError like bytes.decode."""
    codec, bom = sniff(data)
    return data[len(bom):].decode(codec), codec, bom


def encode(text: str, codec: str, bom: bytes) -> bytes:
    return bom + text.encode(codec)


def display_path(name: str) -> str:
    """A path as every output shows it: bytes that are not UTF-8 (surrogate escapes) as `\\xNN`."""
    if not isinstance(name, str):
        return name
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        try:
            return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:  # a lone surrogate that no file system byte made
            return name.encode("utf-8", "backslashreplace").decode("ascii")
