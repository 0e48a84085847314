"""`diagnose --error` on start-up failures from public reports, each the smallest text that carries
what the reporter saw: the error line in the words of the program that printed it (vLLM, Python,
Ray, a framework), the rest in our own words. Each names the check that explains it in its top 3."""
import pytest

from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.kb.knowledge import load

KB = load()

# (report, text, expected check, kind of the hit that names it)
REPORTS = [
    # Windows: a pip-installed vLLM has no compiled ops there; the frames sit on a drive letter
    ("https://github.com/vllm-project/vllm/issues/1814",
     'Traceback (most recent call last):\n  File "C:\\Users\\u\\py310\\site-packages\\vllm\\__init__.py", line 3, in <module>\n'
     "    from vllm.engine.arg_utils import EngineArgs\nModuleNotFoundError: No module named 'vllm._C'\n", "L28", "closest"),
    ("https://github.com/Ksuriuri/index-tts-vllm/issues/6", "ModuleNotFoundError: No module named 'vllm._C'", "L28", "closest"),
    # the console script of a Windows venv cannot import vLLM's CLI at all
    ("https://github.com/microsoft/fara/issues/29",
     'Traceback (most recent call last):\n  File "C:\\Users\\u\\Python313\\Scripts\\vllm.exe\\__main__.py", line 2, in <module>\n'
     "    from vllm.entrypoints.cli.main import main\nModuleNotFoundError: No module named 'vllm.entrypoints'\n", "L28", "closest"),
    # OpenRLHF's hybrid engine: vLLM's Ray workers asked for more bundles than the actors' placement group holds
    ("https://github.com/OpenRLHF/OpenRLHF/pull/728",
     "(LLMRayActor pid=4242) ValueError: placement group bundle index 6 is invalid. Valid placement group indexes: 0-4",
     "L34", "check"),
    # Triton Inference Server's vLLM backend calling an API the installed vLLM changed (the log escapes newlines)
    ("https://github.com/triton-inference-server/server/issues/8578",
     'E1216 02:12:49 pb_stub.cc:388] "Failed to initialize Python stub: TypeError: build_async_engine_client_from_engine_args() '
     "got an unexpected keyword argument 'stat_loggers'\\n\\nAt:\\n  /opt/tritonserver/backends/vllm/model.py(301): _run_llm_engine\"",
     "L43", "check"),
    # Xinference handing a server flag, spelled as on the command line, to the engine's arguments
    ("https://github.com/xorbitsai/inference/issues/4196",
     "Server error: 500 - [address=0.0.0.0:40001, pid=99] AsyncEngineArgs.__init__() got an unexpected keyword argument "
     "'tool-call-parser'", "not-in-version", "finding"),
    # ms-swift's vLLM engine reaching for a method the installed vLLM's LLMEngine dropped
    ("https://github.com/modelscope/ms-swift/issues/7065",
     '  File "/opt/conda/lib/python3.11/site-packages/swift/llm/infer/infer_engine/vllm_engine.py", line 382, in _add_request\n'
     "    return self.engine.encode(inputs, pooling_params, request_id)\nAttributeError: 'LLMEngine' object has no attribute 'encode'\n",
     "L43", "check"),
    # an explicit draft TP the release refuses (0.6.3: only 1)
    ("https://github.com/vllm-project/vllm/issues/10483",
     "ValueError: speculative_draft_tensor_parallel_size=4 cannot be other value than 1", "G5", "check"),
    # an FP8 checkpoint without KV scales under an FP8 KV cache on 0.5.3
    ("https://github.com/vllm-project/vllm/issues/6738",
     "ValueError: Only support per-tensor scaling factor for fp8 KV cache", "L8", "check"),
]


@pytest.mark.parametrize("url,text,want,kind", REPORTS, ids=[r[0].split("github.com/")[1] for r in REPORTS])
def test_a_reported_start_up_failure_names_its_check_in_the_top_three(url, text, want, kind):
    hits = launch.recognise(KB, text)[:3]
    assert (want, kind) in [(h.id, h.kind) for h in hits], [(h.id, h.kind) for h in hits]


def test_a_lora_adapter_on_modules_vllm_does_not_wrap_is_uncovered_not_routed_by_its_words():
    # https://github.com/modelscope/ms-swift/issues/4974: an adapter trained on a vision projector, served by ms-swift
    line = ("ValueError: While loading /out/checkpoint-100, expected target modules in ['down_proj', 'o_proj', 'qkv'] but "
            "received ['mlp1.1', 'mlp1.3']. Please verify that the loaded LoRA module is correct")
    assert [(h.id, h.kind) for h in launch.recognise(KB, line)] == [("uncovered", "uncovered")]



@pytest.mark.parametrize("line", [
    # https://github.com/vllm-project/vllm/issues/49064 (Qwen hybrid, H100, 0.28.0) and
    # https://github.com/NVIDIA-AI-Blueprints/retail-shopping-assistant/pull/95 (Nemotron, 2x H100)
    "ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (969).",
    "(EngineCore_DP0 pid=10078) RuntimeError: Worker failed with error 'max_num_seqs (1024) exceeds available Mamba cache "
    "blocks (600). Each decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower "
    "max_num_seqs to at most 600 or increase gpu_memory_utilization.', please check the stack trace above for the root cause",
])
def test_the_mamba_state_blocks_refusal_is_l110(line):
    # covered since L110 mamba-seqs-over-state-blocks (session 10); it was uncovered before
    assert [(h.id, h.kind) for h in launch.recognise(KB, line)][:1] == [("L110", "check")]


@pytest.mark.parametrize("line", [
    # https://github.com/xorbitsai/inference/pull/5052: Qwen3-Next's page sizes, not divide()'s TP split
    "NotImplementedError: The page size of the layer is not divisible by the maximum page size. Cannot unify by adjusting block_size.",
])
def test_hybrid_model_refusals_are_uncovered_not_routed_by_their_words(line):
    assert [(h.id, h.kind) for h in launch.recognise(KB, line)] == [("uncovered", "uncovered")]


@pytest.mark.parametrize("line", [
    # https://github.com/vllm-project/vllm/issues/14475: Qwen2 is registered; the registry's subprocess
    # failed to import the module (the cause is logged above), not an architecture vLLM lacks (L21)
    "ValueError: Model architectures ['Qwen2ForCausalLM'] failed to be inspected. Please check the logs for more details.",
    # https://github.com/vllm-project/vllm/issues/8841: flash-attn built against another torch
    "ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined "
    "symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char",
])
def test_an_import_failure_of_a_registered_architecture_is_uncovered_not_l21(line):
    assert [(h.id, h.kind) for h in launch.recognise(KB, line)] == [("uncovered", "uncovered")]


def test_llama31_rope_scaling_errors_name_l91():
    # https://github.com/runpod-workers/worker-vllm/issues/89 (transformers < 4.43) and
    # https://github.com/vllm-project/vllm/issues/9481 (vLLM reading rope_scaling["type"])
    for line in ("ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 8.0, "
                 "'low_freq_factor': 1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192, 'rope_type': 'llama3'}",
                 "KeyError: 'type'"):
        assert launch.recognise(KB, line)[0].id == "L91"



def test_a_ray_driver_on_a_node_without_gpus_names_l34():
    # vllm/v1/executor/ray_utils.py initialize_ray_cluster (0.5.5-0.32.0): a KubeRay head pod without a GPU
    line = ("ValueError: Current node has no GPU available. current_node_resource={'CPU': 4.0}. vLLM engine cannot "
            "start without GPU. Make sure you have at least 1 GPU available in a node current_node_id='ab' current_ip='10.0.0.2'.")
    assert [h.id for h in launch.recognise(KB, line)][0] == "L34"
