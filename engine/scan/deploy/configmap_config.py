"""`vllm serve --config /etc/vllm/config.yaml` in a Kubernetes container whose volume there is a
ConfigMap of the project (`volumes: [{name: cfg, configMap: {name: vllm-config}}]`, mounted at the
folder, or at the file with `subPath`): the ConfigMap's `data:` entry is the file vLLM reads, so its
settings are the launch's, the command line still winning. The file lives inside a YAML string, so
its keys have no place a fix could edit: they are read, and a change is written on the command line."""
from __future__ import annotations

import posixpath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import serve_config
from vllm_kb.engine.scan.deploy import k8s_objects
from vllm_kb.engine.scan.images import image_version
from vllm_kb.engine.scan.site import Site


def merge(ctx, site: Site, pod: dict, container: dict) -> None:
    parsed = (site.source or {}).get("parsed")
    a = getattr(parsed, "config_path", None)
    if a is None or a.text is None or not a.text.startswith("/") or site.config_file is not None:
        return
    got = _entry(pod, container, posixpath.normpath(a.text))
    found = _config_map(ctx, *got) if got else None
    if found is None:
        return
    rel, line, text = found
    try:
        doc = yamlio.load(text)
    except (yamlio.YamlError, RecursionError):
        return
    if not isinstance(doc.data, dict):
        return
    tag = image_version(site.image)
    version = ctx.catalog.resolve(tag).version if tag else ctx.version_for(site.file)
    settings, unknown, model, style = serve_config.settings_from_mapping(ctx, rel, version, doc.data, doc)
    for s in (*settings.values(), *unknown.values(), *([model] if model else [])):
        s.line, s.pos = line, None  # inside a YAML string: read, never edited in place
    site.opaque = [o for o in site.opaque if not (o.get("code") == "config-missing" and o.get("what") == f"--config {a.text}")]
    site.config_key_style = style
    for name, s in settings.items():
        if name not in site.settings:
            site.set(s)
    for name, s in unknown.items():
        site.unknown.setdefault(name, s)
    site.launch["model_in_config"] = model is not None
    site.launch["config_map"] = f"{rel}:{line}"
    if model is not None and site.model is None:
        site.model = model


def _entry(pod: dict, container: dict, path: str) -> tuple[str, str] | None:
    """(ConfigMap name, data key) the container path `path` is, through the container's volumeMounts."""
    volumes = {v.get("name"): v for v in pod.get("volumes") or [] if isinstance(v, dict)} if isinstance(pod, dict) else {}
    for m in container.get("volumeMounts") or []:
        if not isinstance(m, dict) or not isinstance(m.get("mountPath"), str):
            continue
        cm = (volumes.get(m.get("name")) or {}).get("configMap")
        if not isinstance(cm, dict) or not isinstance(cm.get("name"), str):
            continue
        target = posixpath.normpath(m["mountPath"])
        sub = m.get("subPath")
        if isinstance(sub, str) and sub and path == target:
            key = sub
        elif not sub and posixpath.dirname(path) == target:
            key = posixpath.basename(path)
            # `items: [{key, path}]` renames a key in the folder
            for item in cm.get("items") or []:
                if isinstance(item, dict) and item.get("path") == key and isinstance(item.get("key"), str):
                    key = item["key"]
        else:
            continue
        return cm["name"], key
    return None


def _config_map(ctx, name: str, key: str) -> tuple[str, int, str] | None:
    """(file, line, text) of the one ConfigMap `name`'s entry `key` the project's YAML holds."""
    found = [(rel, d.line_of(("data", key)), d.data["data"][key]) for rel, d in k8s_objects.named(ctx, "ConfigMap", name)
             if isinstance(d.data.get("data"), dict) and isinstance(d.data["data"].get(key), str)]
    return found[0] if len(found) == 1 else None
