"""Kubernetes objects the project's own YAML holds, found by kind and name: the ConfigMap a volume mounts
(configmap_config.py), the Secret whose keys `envFrom: [{secretRef: {name: X}}]` makes variables of the
container (a token among them: engine/check/hf_access.py), or whose HF_TOKEN key KAITO's
`presetOptions.modelAccessSecret` reads. Of a Secret only the key names are kept, never a value."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import texts_with


def named(ctx, kind: str, name: str) -> list[tuple[str, yamlio.Document]]:
    """(file, document) of each object of `kind` named `name` in the project's YAML."""
    found = []
    files = list(getattr(ctx, "files", None) or [])
    for rel, text in texts_with(ctx, files, (".yaml", ".yml"), kind, name):
        try:
            docs = yamlio.load_all(text)
        except (yamlio.YamlError, RecursionError):
            continue
        for d in docs:
            data = d.data if isinstance(d.data, dict) else {}
            meta = data.get("metadata")
            if data.get("kind") == kind and isinstance(meta, dict) and meta.get("name") == name:
                found.append((rel, d))
    return found


def secret_keys(ctx, name: str) -> frozenset[str] | None:
    """The `data`/`stringData` keys of the one Secret named `name` in the project, or None (none or several)."""
    found = [frozenset(str(k) for part in ("data", "stringData") if isinstance(d.data.get(part), dict) for k in d.data[part])
             for _, d in named(ctx, "Secret", name)]
    return found[0] if len(found) == 1 else None


def env_from_names(ctx, container: dict) -> list[str]:
    """The variables a container's `envFrom` Secrets give it, where the project holds those Secrets (their
    `prefix` added); a Secret made outside the project gives names no file shows."""
    out: list[str] = []
    for e in container.get("envFrom") or []:
        ref = e.get("secretRef") if isinstance(e, dict) else None
        if isinstance(ref, dict) and isinstance(ref.get("name"), str) and (keys := secret_keys(ctx, ref["name"])):
            prefix = e.get("prefix") if isinstance(e.get("prefix"), str) else ""
            out += sorted(prefix + k for k in keys)
    return out
