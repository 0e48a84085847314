"""LiteLLM's proxy config (`litellm --config config.yaml`): a `model_list` entry whose
`litellm_params.model` is `vllm/<id>` is served by LiteLLM's in-process vLLM provider, which builds
`vllm.LLM(model=<id>)` in the proxy's own process on the first request and nothing else
(litellm/llms/vllm/completion/handler.py `validate_environment`, as knowledge/deploy/llm_wrappers.yaml
says for `litellm.completion`); the entry's other litellm_params are sampling options, never engine
arguments. So the site holds the model alone, and no engine argument can be written here: LiteLLM has
no setting that reaches the engine. `hosted_vllm/<id>` calls a server and is no launch."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.site import Setting, Site

PREFIX = "vllm/"
# LiteLLM reads a value written `os.environ/NAME` from the environment when the proxy starts
_ENV_REF = "os.environ/"


def is_litellm_config(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("model_list"), list) and any(
        isinstance(_model_of(e), str) and _model_of(e).startswith((PREFIX, _ENV_REF)) for e in data["model_list"])


def _model_of(entry):
    params = entry.get("litellm_params") if isinstance(entry, dict) else None
    return params.get("model") if isinstance(params, dict) else None


def scan_litellm_config(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    out = []
    for i, entry in enumerate(doc.data["model_list"]):
        model = _model_of(entry)
        if not isinstance(model, str) or not model.startswith(PREFIX):
            continue  # another provider, or a model the environment names (its provider unknown)
        line = doc.line_of(("model_list", i, "litellm_params", "model"))
        site = Site(file=rel, line=line, syntax="python-call", kind="LLM()", mode="standalone_offline",
                    mode_evidence=f"{rel}:{line}", end_line=line)
        site.tool = "litellm"
        site.model = Setting("model", model[len(PREFIX):], True, rel, line, "litellm_params.model", model, "python-call",
                             "LiteLLM's vllm/ provider builds LLM(model=…) with this alone")
        site.settings["model"] = site.model
        # no mapping to write an engine argument into: each change says LiteLLM has no setting for it
        site.source = {"wrapper_dict": (None, False), "litellm_entry": entry.get("model_name")}
        out.append(site)
    return out
