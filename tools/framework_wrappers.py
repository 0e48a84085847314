"""The serving and evaluation wrappers that build vLLM's engine for the user (engine/check/host_compat.py):
their PyPI distribution, entry modules and SEEDS, read by tools/framework_vllm_imports.py,
framework_vllm_uses.py and framework_vllm_calls.py. Data only, so that each of them can import it."""
from __future__ import annotations

# fid → (PyPI distribution, [(entry module, entry)]): the wrapper's vLLM backend; "backend" is what
# engine/check/framework_imports.entry_loaded takes as always loaded
WRAPPERS = {
    # Ray Serve LLM's vLLM engine (ray.serve.llm); the module moved in 2.49 (serve/engines/vllm/)
    "ray": ("ray", [("ray/serve/llm/__init__.py", "backend"),  # what `from ray.serve.llm import …` loads
                    ("ray/llm/_internal/serve/deployments/llm/vllm/vllm_engine.py", "backend"),
                    ("ray/llm/_internal/serve/engines/vllm/vllm_engine.py", "backend")]),
    "lm_eval": ("lm_eval", [("lm_eval/models/vllm_causallms.py", "backend")]),
    # FastChat's `python -m fastchat.serve.vllm_worker` (PyPI: fschat)
    "fastchat": ("fschat", [("fastchat/serve/vllm_worker.py", "backend")]),
    "lighteval": ("lighteval", [("lighteval/models/vllm/vllm_model.py", "backend"),
                                ("lighteval/models/vllm_model.py", "backend")]),
}
_RAY = ("ray/llm/_internal/serve/deployments/llm/vllm/vllm_engine.py", "ray/llm/_internal/serve/engines/vllm/vllm_engine.py")
SEEDS = {
    # a replica's engine starts in VLLMEngine.start (LLMServer's __init__/start awaits it): a failed call
    # there and the replica never serves
    "ray": [("backend", p, "VLLMEngine.start", "launch") for p in _RAY]
    + [("backend", p, "VLLMEngine.__init__", "launch") for p in _RAY],
    # lm_eval --model vllm: the model is built in VLLM.__init__, every generate_until runs _model_generate
    "lm_eval": [("backend", "lm_eval/models/vllm_causallms.py", "VLLM.__init__", "launch"),
                ("backend", "lm_eval/models/vllm_causallms.py", "VLLM._model_generate", "after_start")],
    # the worker's engine is built under `if __name__ == "__main__"`; every request runs generate_stream
    "fastchat": [("backend", "fastchat/serve/vllm_worker.py", "VLLMWorker.generate_stream", "after_start")],
    "lighteval": [("backend", p, f, w) for p in ("lighteval/models/vllm/vllm_model.py", "lighteval/models/vllm_model.py")
                  for f, w in (("VLLMModel.__init__", "launch"), ("VLLMModel._generate", "after_start"))],
}
