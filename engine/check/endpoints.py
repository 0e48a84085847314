"""Clients paired with the server they call, by endpoint: a client that asks for automatic tool
choice (engine/scan/clients.py) is checked against the flags of the one server site its URL
reaches, not against every server of the project.

A server listens on its `--port` (8000 when not written: vLLM's frontend default). It is reached
  - by a container name — a compose service or `container_name`, a `docker run --name` — at its
    own port, from a container on the same network; by the name of a Kubernetes Service that
    selects its pod (or its DNS name) at the Service's port whose targetPort is the server's;
  - by any other host (localhost, an address, a machine's name) at that port, or at the host port
    a container publishes it on (`-p 8080:8000`, compose `ports:`).
A client whose URL reaches exactly one server site is paired with it (`→ host:port` after its
place in the report). None is paired where its URL reaches no server of the project (a public API,
another port) or several (the endpoint is ambiguous), nor where its port cannot be read. A client
whose URL is not written where the audit reads it (`OpenAI()` with OPENAI_BASE_URL) is paired only
with a project that has one HTTP server."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from vllm_kb.engine.scan.agent_clients import URL, public

_DEFAULT_PORT = 8000  # vLLM's frontend (`--port`), every release
_SERVERS = ("vllm serve", "api_server")
_SERVER_FRAMEWORKS = ("trl", "ms-swift")


def endpoint(url: str | None) -> tuple[str, int] | None:
    """(host, port) of a URL; None when it is not one, or its port is a variable."""
    m = URL.match((url or "").strip())
    if not m or "$" in m.group("host") or "{" in m.group("host"):
        return None
    port = m.group("port")
    if port is None:
        port = {"http": 80, "https": 443}.get(m.group("scheme").lower())
    return (m.group("host").strip("[]").lower(), int(port)) if port is not None else None


def _server_port(site) -> int | None:
    """The port the server listens on; None where a tool in front of it decides (KServe, Ray Serve …)."""
    st = site.settings.get("port")
    value = (st.value if st.resolved else None) if st is not None else site.framework_keys.get("port")
    if value is None and st is None and (site.kind in _SERVERS or site.framework in _SERVER_FRAMEWORKS):
        value = _DEFAULT_PORT  # `vllm serve`, `trl vllm-serve`, `swift rollout`: 8000 unless told
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def k8s_services(files: list[str], read) -> list[dict]:
    """The project's Kubernetes Services: name, selector and [port, targetPort] pairs."""
    from vllm_kb.engine.kb import yamlio

    out = []
    for rel in files:
        if not rel.endswith((".yaml", ".yml")) or "Service" not in (text := read(rel) or ""):
            continue
        try:
            docs = yamlio.load_all(text)
        except Exception:  # noqa: BLE001 — a file that is not YAML holds no Service
            continue
        for d in docs:
            data = d.data if isinstance(d.data, dict) else {}
            spec, meta = data.get("spec") or {}, data.get("metadata") or {}
            if data.get("kind") != "Service" or not isinstance(spec, dict) or not isinstance(spec.get("selector"), dict):
                continue
            ports = [[p.get("port"), p.get("targetPort", p.get("port"))] for p in spec.get("ports") or () if isinstance(p, dict)]
            out.append({"name": str(meta.get("name") or ""), "selector": {str(k): str(v) for k, v in spec["selector"].items()},
                        "ports": [p for p in ports if all(isinstance(x, int) for x in p)]})
    return out


class Server:
    """The endpoints one server site answers on."""

    def __init__(self, site, services: Sequence[dict] = ()):
        self.site = site
        self.port = _server_port(site)
        c = site.container or {}
        self.names = {str(n).lower() for n in (c.get("service"), c.get("name")) if n}
        # a Kubernetes Service that selects the pod: reached by its name (or its DNS names) at its own port
        self.service_ports: dict[str, set[int]] = {}
        labels = c.get("labels") or {}
        for svc in services:
            if svc["name"] and labels and all(labels.get(k) == v for k, v in svc["selector"].items()):
                ports = {p for p, target in svc["ports"] if target == self.port}
                if ports:
                    self.service_ports[svc["name"].lower()] = ports
                    self.names.add(svc["name"].lower())
        published = [p for p in c.get("ports") or () if p[1] == self.port]
        # a container with no port written: its own port (host networking, or a publish the audit does not read)
        self.reached = {p[0] for p in published} if published else ({self.port} if self.port is not None else set())

    def answers(self, host: str, port: int) -> bool:
        if host in self.service_ports:
            return port in self.service_ports[host]
        if host in self.names:
            return port == self.port
        return port in self.reached


def pair(clients: Iterable[Any], sites: list, services: Sequence[dict] = ()) -> dict[str, list[str]]:
    """site id → the clients paired with it, each as `file:line`, with `→ host:port` when paired by
    its URL. `sites`: the project's sites that serve HTTP."""
    return {k: [label for _c, label in v] for k, v in pair_clients(clients, sites, services).items()}


def pair_clients(clients: Iterable[Any], sites: list, services: Sequence[dict] = ()) -> dict[str, list[tuple[Any, str]]]:
    """site id → (client, label) of each client paired with it (pair). `services`: k8s_services."""
    servers = [Server(s, services) for s in sites]
    names = set().union(*(s.names for s in servers)) if servers else set()
    out: dict[str, list[tuple[Any, str]]] = {}
    for c in clients:
        hit, label = _reached(c, servers, names)
        if hit is not None:
            out.setdefault(hit.site.id, []).append((c, label))
    return out


def served_names(site) -> set[str] | None:
    """The names the server answers to: --served-model-name, else the model as written; with the
    --lora-modules names. None where one of them is not read, or adapters may be loaded at run
    time (VLLM_ALLOW_RUNTIME_LORA_UPDATING)."""
    if site.kind not in _SERVERS or site.tool or site.framework != "none" or site.opaque:
        return None  # a tool or framework in front may name the model itself; forwarded args may add a name
    env = site.env.get("VLLM_ALLOW_RUNTIME_LORA_UPDATING")
    if env is not None and str(env.value).strip().lower() not in ("0", "false", ""):
        return None
    st = site.settings.get("served_model_name")
    if st is not None:
        names = st.value if isinstance(st.value, (list, tuple)) else [st.value]
        if not st.resolved or not all(isinstance(n, str) and n for n in names):
            return None
    elif site.model is None or not site.model.resolved or not isinstance(site.model.value, str):
        return None
    else:
        names = [site.model.value]
    lora = site.settings.get("lora_modules")
    if lora is not None:
        mods = lora.value if isinstance(lora.value, (list, tuple)) else [lora.value]
        got = [m.get("name") if isinstance(m, dict) else str(m).partition("=")[0] for m in mods]
        if not lora.resolved or not all(isinstance(n, str) and n for n in got):
            return None
        names = [*names, *got]
    return set(names)


def unserved(site, paired: list[tuple[Any, str]]) -> list[str]:
    """`label: model` of each client paired by its URL that asks for a model the server does not
    serve (a client without a URL in the code may call another API: `OpenAI()` with model="gpt-4o")."""
    names = served_names(site)
    if names is None:
        return []
    return [f"{label}: {c.model}" for c, label in paired if c.url is not None and c.model and c.model not in names]


def _reached(client, servers: list[Server], names: set[str]) -> tuple[Server | None, str]:
    if client.url is None:  # the URL is not written here: only the project's one server can be meant
        return (servers[0], client.where) if len(servers) == 1 else (None, "")
    ep = endpoint(client.url)
    if ep is None or public(ep[0]):
        return None, ""
    host, port = ep
    first = host.split(".")[0]
    if host not in names and first in names and (host.count(".") == 1 or ".svc" in host):
        host = first  # a Service's DNS name: name.namespace(.svc(.cluster.local))
    by_name = [s for s in servers if host in s.names]
    cands = [s for s in (by_name if host in names else servers) if s.answers(host, port)]
    return (cands[0], f"{client.where} → {host}:{port}") if len(cands) == 1 else (None, "")


def over_length(paired: list[tuple[Any, str]], max_len: Any) -> list[str]:
    """`label: max_tokens=N` of each client paired by its URL whose max_tokens alone reaches the
    server's max_model_len: with any prompt, prompt + max_tokens exceeds it (check L173)."""
    if not isinstance(max_len, (int, float)) or isinstance(max_len, bool) or max_len <= 0:
        return []
    return [f"{label}: max_tokens={c.max_tokens}" for c, label in paired
            if c.url is not None and getattr(c, "max_tokens", None) and c.max_tokens >= max_len]
