"""Trainers that talk to a rollout server the project starts elsewhere (TRL/ms-swift server mode),
linked with the server they most likely reach: same file, then same folder, then the same port."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan.site import Site


def pair_peers(sites: list[Site]) -> None:
    """Link each trainer that is a client of a rollout server (TRL/ms-swift server mode) with the
    server it most likely talks to: same file, then same folder, then the same port. Ambiguous
    pairs stay unlinked."""
    servers = [s for s in sites if s.mode == "rlhf_server" and not s.engine_elsewhere and s.framework in ("trl", "ms-swift")]
    for c in (s for s in sites if s.engine_elsewhere):
        cands = [s for s in servers if s.framework == c.framework]
        port = c.framework_keys.get("vllm_server_port")
        for narrow in (lambda s: s.file == c.file, lambda s: _folder(s.file) == _folder(c.file),
                       lambda s: port is not None and _port(s) == port):
            hit = [s for s in cands if narrow(s)]
            if hit:
                cands = hit
                break
        if len(cands) > 1 and all(s.file == c.file for s in cands):
            cands = [min(cands, key=lambda s: abs(s.line - c.line))]
        if len(cands) == 1:
            c.peer = cands[0].id
            cands[0].peer = cands[0].peer or c.id
    for c in sites:
        if c.engine_elsewhere and c.framework == "trl" and not any(s.framework == "trl" for s in servers):
            _plain_server(c, sites)


def _plain_server(c: Site, sites: list[Site]) -> None:
    """A TRL trainer in server mode whose project starts no `trl vllm-serve` but one plain `vllm
    serve` on the port it connects to (8000 by default on both sides): noted as
    `launch["plain_server"]`, for the TRL finding that this server lacks TRL's weight-sync routes."""
    url = c.framework_keys.get("vllm_server_base_url")
    port = c.framework_keys.get("vllm_server_port", 8000)
    if url is not None:
        m = re.match(r"^https?://[^/:]+(?::(\d+))?", str(url))
        if not m:
            return
        port = int(m.group(1) or 80)
    plain = [s for s in sites if s.framework == "none" and s.kind in ("vllm serve", "api_server")]
    if len(plain) != 1:
        return
    try:
        same = int(_port(plain[0]) or 8000) == int(port)
    except (TypeError, ValueError):
        return
    if same:
        c.launch["plain_server"] = f"{plain[0].file}:{plain[0].line}"


def _folder(f: str) -> str:
    return PurePosixPath(f).parent.as_posix()


def _port(s: Site):
    st = s.settings.get("port")
    return st.value if st is not None else s.framework_keys.get("port")
