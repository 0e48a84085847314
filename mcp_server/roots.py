"""Which folders a tool may read: the roots the client declares (`roots/list`), or the
server's fallback roots (its working directory unless `--root` says otherwise) when the
client declares none. Every path is resolved — symlinks followed — before it is compared, so
a link inside a root that points elsewhere is refused like the place it points to."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from mcp.server.mcpserver import ListRoots, Resolve
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ListRootsResult


async def ask_client_roots(ctx: Context) -> ListRoots | None:
    """Resolver: ask for the client's roots only when it said it has some. Asking a client
    without the capability is a protocol error, and "no roots" is an answer we handle."""
    caps = ctx.client_capabilities
    return ListRoots() if caps is not None and caps.roots is not None else None


# A tool parameter of this type is filled by the SDK (roots/list on a handshake connection, an
# input-required round on a 2026-07-28 one); it never appears in the tool's input schema.
# Tools take it keyword-only and without a default: on Python 3.10 a `= None` default makes
# typing.get_type_hints wrap the whole Annotated in Optional[...], which hides the Resolve marker.
ClientRoots = Annotated[ListRootsResult | None, Resolve(ask_client_roots)]


def _path_of(uri: object) -> Path | None:
    parsed = urlparse(str(uri))
    if parsed.scheme != "file":
        return None
    return Path(url2pathname(unquote(parsed.path)))


@dataclass(frozen=True)
class Roots:
    paths: tuple[Path, ...]  # resolved, absolute
    declared: bool  # True: the client's; False: the server's fallback

    @classmethod
    def of(cls, client: ListRootsResult | None, fallback: tuple[Path, ...]) -> "Roots":
        declared = tuple(p.resolve() for p in (_path_of(r.uri) for r in (client.roots if client else [])) if p)
        if declared:
            return cls(declared, True)
        return cls(tuple(p.resolve() for p in fallback), False)

    def describe(self) -> str:
        whose = "the client's roots" if self.declared else "the server's root (no roots declared by the client)"
        return f"{whose}: {', '.join(str(p) for p in self.paths)}"

    def confine(self, raw: str) -> Path:
        """The resolved path for `raw` (relative paths are taken from the first root), or a
        ToolError when it lies outside every root."""
        text = (raw or ".").strip()
        if text.startswith("file://"):
            as_path = _path_of(text)
            if as_path is None:  # pragma: no cover - urlparse always yields a file scheme here
                raise ToolError(f"not a file URI: {raw}")
            candidate = as_path
        else:
            candidate = Path(os.path.expanduser(text))
        if not candidate.is_absolute():
            candidate = self.paths[0] / candidate
        resolved = candidate.resolve()
        for root in self.paths:
            if resolved == root or resolved.is_relative_to(root):
                return resolved
        raise ToolError(f"{raw!r} resolves to {resolved}, outside {self.describe()}. "
                        "Pass a path inside one of them, or add its folder as a root in the client.")
