"""`diagnose --error` by cause, not by line: the same cause in the words of the program that reports
it (the container runtime, NCCL, Ray, the shell, a kernel library, a reworded release), and a
traceback whose frames name where vLLM decides a check when its message names nothing. A word
several causes share names no check on its own."""
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.kb.knowledge import load

KB = load()


def _top(text, n=3, version=None):
    return [h.id for h in launch.recognise(KB, text, version)][:n]


def test_the_container_runtime_refusing_an_image_for_its_cuda_is_the_driver_check():
    line = ("docker: Error response from daemon: failed to create task for container: OCI runtime create failed: "
            "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a "
            "newer version, or use an earlier cuda container: unknown.")
    assert _top(line, 1) == ["L29"]
    assert _top("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.", 1) == ["L29"]
    # reworded: still the driver, by its words, and said to be a closest guess
    hits = launch.recognise(KB, "RuntimeError: your NVIDIA driver version is too old for this image (needs cuda>=12.4)")
    assert hits[0].id == "L29" and hits[0].kind == "closest"


def test_a_worker_killed_by_sigbus_is_the_container_shared_memory_check():
    assert _top("*** SIGBUS received at time=1712000000 on cpu 5 ***", 1) == ["L40"]
    assert _top("/entrypoint.sh: line 3:    17 Bus error               (core dumped) vllm serve m --tensor-parallel-size 4", 1) == ["L40"]
    # Triton's "shared memory" is the GPU's on-chip memory, not /dev/shm
    assert "L40" not in _top("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 101376.")


def test_two_ranks_on_one_gpu_names_the_shared_gpu_checks():
    for line in ("RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)",
                 "NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000"):
        assert _top(line)[0] == "H8"
    assert set(_top("NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000")) >= {"H8", "L43"}


def test_ray_serve_refusing_an_engine_argument_is_the_option_lifecycle_finding():
    hits = launch.recognise(KB, "ValueError: Unknown engine argument: task")
    assert [(h.id, h.kind) for h in hits][:1] == [("not-in-version", "finding")]
    # reworded by another program: the same family, as a closest guess
    hits = launch.recognise(KB, "pydantic_core.ValidationError: engine_kwargs.foo_bar  Extra inputs are not permitted [type=extra_forbidden]")
    assert hits and hits[0].id == "not-in-version" and hits[0].kind == "closest"


def test_a_model_version_the_release_does_not_implement_is_the_architecture_check():
    assert _top("ValueError: Currently, MiniCPMV only supports versions 2.0, 2.5, 2.6, 4.0. Got version: (4, 5)", 1) == ["L21"]
    assert _top("ValueError: Currently, MiniCPMV only supports versions 2.0, 2.5, and 2.6", 1) == ["L21"]


def test_a_kv_cache_dtype_a_kernel_refuses_is_the_fp8_kv_check_not_bfloat16():
    line = ("RuntimeError: Worker failed with error 'MLA kv_data_type torch.uint8 is not supported. Supported dtypes: "
            "[torch.float16, torch.bfloat16, torch.float8_e4m3fn].', please check the stack trace above for the root cause")
    top = _top(line)
    assert top[:1] == ["L8"] and "L4" not in top
    # bfloat16 named with the GPU's capability is the bfloat16 check
    assert _top("bf16 is not supported on this GPU (compute capability 7.0)", 1) == ["L4"]


def test_an_unknown_quantization_in_any_words_is_the_quantization_name_check():
    assert _top("Value error, Found unknown quantization='mxfp4' in config", 1) == ["L10"]
    hits = launch.recognise(KB, "Value error, Found unknown quantization")  # cut short: no whole wording
    assert hits[0].id == "L10" and hits[0].kind == "closest"


def test_the_model_classes_asserts_on_heads_name_the_tensor_parallel_checks():
    assert _top("assert self.total_num_kv_heads % tp_size == 0", 1) == ["L2"]
    assert _top("    assert tp_size % self.total_num_kv_heads == 0\nAssertionError", 1) == ["L2"]
    assert _top("assert self.total_num_heads % tp_size == 0", 1) == ["L1"]


def test_argparse_refusing_a_plugins_flags_also_names_the_framework_check():
    hits = launch.recognise(KB, "vllm: error: unrecognized arguments: --stage-configs-path /m/qwen3_tts.yaml --omni")
    assert [(h.id, h.kind) for h in hits] == [("not-in-version", "finding"), ("L43", "closest")]
    # an ordinary unknown flag stays argparse's finding alone
    assert _top("vllm: error: unrecognized arguments: --foo-bar 3") == ["not-in-version"]


REWORDED_UNDER_VERIFY = """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/vllm/engine/arg_utils.py", line 900, in create_engine_config
    model_config = self.create_model_config()
  File "/usr/local/lib/python3.10/dist-packages/vllm/config.py", line 480, in _verify_quantization
    raise ValueError(msg)
ValueError: a message a later release words differently
"""

FRAMEWORK_NOT_IMPLEMENTED = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/trl/scripts/vllm_serve.py", line 210, in llm_worker
    llm = LLM(model=script_args.model)
  File "/opt/venv/lib/python3.11/site-packages/vllm/attention/backends/abstract.py", line 55, in get_state_cls
    raise NotImplementedError
NotImplementedError
"""


def test_a_traceback_names_the_check_by_the_vllm_function_it_was_raised_under():
    hits = launch.recognise(KB, REWORDED_UNDER_VERIFY)
    assert "L10" in [h.id for h in hits] and all(h.kind == "closest" for h in hits)
    # the same function in someone else's package is no evidence
    assert launch.recognise(KB, REWORDED_UNDER_VERIFY.replace("/vllm/", "/mylib/")) == []


def test_a_bare_exception_names_nothing_but_a_framework_frame_above_vllm_names_the_framework_check():
    assert launch.recognise(KB, "NotImplementedError") == []
    hits = launch.recognise(KB, FRAMEWORK_NOT_IMPLEMENTED)
    assert [(h.id, h.kind) for h in hits][:1] == [("L43", "closest")]


def test_hugging_face_access_and_transformers_words_name_their_checks():
    assert _top("requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/x/y/resolve/main/config.json", 1) == ["L51"]
    assert _top("ValueError: Unrecognized configuration class <class 'transformers_modules.x.Config'> for this kind of AutoModel", 1) == ["L52"]


def test_a_word_several_causes_share_names_no_check_alone():
    assert _top("ValueError: hidden size must be divisible by 64") == []
    assert _top("dtype bfloat16 requested") == []
    assert _top("RuntimeError: something about tokens") == []


def test_native_windows_is_named_by_pythons_words_and_by_drive_letter_frames():
    # vllm/utils.py imports the POSIX-only `resource` at the top in 0.6.6–0.7.2
    assert _top("ModuleNotFoundError: No module named 'resource'", 1) == ["L28"]
    # no Windows wheel: the compiled ops are missing (a source checkout shadowing vLLM says the same: a candidate)
    hits = launch.recognise(KB, "ModuleNotFoundError: No module named 'vllm._C'")
    assert [(h.id, h.kind) for h in hits][:1] == [("L28", "closest")]
    assert _top("RuntimeError: use_libuv was requested but PyTorch was build without libuv support", 1) == ["L28"]
    # whatever a Windows process then raised, its frames' drive letters add the platform check
    tb = ('Traceback (most recent call last):\n  File "D:\\\\envs\\\\ml\\\\Lib\\\\site-packages\\\\vllm\\\\engine\\\\arg_utils.py", line 9, in f\n'
          "    g()\nValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
          "initializing the engine.\n")
    assert _top(tb) == ["L16", "L28"]
    assert "L28" not in _top(tb.replace("D:\\\\envs", "/mnt/d/envs"))  # WSL is Linux


def test_argparse_ambiguity_is_the_option_finding_and_model_on_serve_in_090():
    # 0.9.0–0.9.0.1 define --model only when "serve" is not on the command line
    assert _top("vllm serve: error: ambiguous option: --model could match --model-impl, --model-loader-extra-config") == \
        ["L33", "not-in-version"]
    assert _top("api_server.py: error: ambiguous option: --max-lora could match --max-lora-rank, --max-loras") == ["not-in-version"]


def test_inductor_refusing_an_old_gpu_is_the_gpu_generation_check():
    line = ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Found Tesla P40 which is too old "
            "to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA "
            "Capability >= 7.0, but your device is of CUDA capability 6.1")
    assert _top(line, 1) == ["L6"]


def test_a_frameworks_version_range_check_on_vllm_is_the_framework_check():
    line = "ImportError: vllm>=0.4.3,<=0.6.2 is required for a normal functioning of this module, but found vllm==0.6.3."
    assert [(h.id, h.kind) for h in launch.recognise(KB, line)][:1] == [("L43", "check")]
    # the same helper on another package is not about vLLM
    assert "L43" not in _top("ImportError: transformers>=4.41.2,<=4.45.2 is required for a normal functioning of this module, "
                             "but found transformers==4.46.1.")


OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of "
       "which 20.12 MiB is free.")


def test_cuda_out_of_memory_is_a_shared_wording_that_the_rest_of_the_error_orders():
    hits = launch.recognise(KB, OOM)
    assert [(h.id, h.kind) for h in hits] == [("L16", "shared")]  # a candidate, never "recognised"
    # PyTorch names another process holding the GPU's memory: the shared-GPU check comes first
    other = OOM + " Process 4242 has 60.00 GiB memory in use. Including non-PyTorch memory, this process has 19.00 GiB memory in use."
    assert [(h.id, h.kind) for h in launch.recognise(KB, other)] == [("L37", "closest"), ("L16", "shared")]
    # raised while vLLM measures the memory: still the KV-cache check first
    tb = ('Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/vllm/worker/worker.py", line 9, in '
          "determine_num_available_blocks\n    self.model_runner.profile_run()\n" + OOM + "\n")
    assert _top(tb, 1) == ["L16"]


def test_the_text_faces_say_a_shared_wording_is_one_candidate():
    from vllm_kb.cli.diagnose_cmd import render
    from vllm_kb.engine.diagnosis import diagnose
    from vllm_kb.engine.report.diagnosis import record

    for lang, words in (("en", "printed for several causes"), ("zh", "多种原因")):
        out = render(record(diagnose(None, error=OOM, gpu="none", kb=KB), lang), KB, lang)
        assert words in out and "L16" in out


NOTEBOOK = """\
ValueError                                Traceback (most recent call last)
<ipython-input-3-1f2e> in <cell line: 0>()
----> 1 llm = LLM(model="m", quantization="awq")

[/usr/local/lib/python3.11/dist-packages/vllm/entrypoints/llm.py](https://localhost:8080/#) in __init__(self, model)
    245
--> 247         self.llm_engine = LLMEngine.from_engine_args(

File /usr/local/lib/python3.10/dist-packages/vllm/config.py:480, in ModelConfig._verify_quantization(self)
    478     methods = QUANTIZATION_METHODS
--> 480     raise ValueError(msg)

ValueError: a message a later release words differently
"""


def test_a_notebooks_traceback_names_the_check_by_its_frames_too():
    # IPython 7 (Colab links the path) and IPython 8 frame lines
    hits = launch.recognise(KB, NOTEBOOK)
    assert hits[0].id == "L10" and hits[0].kind == "closest"
    assert launch.recognise(KB, NOTEBOOK.replace("/vllm/", "/mylib/")) == []


def test_trls_warning_on_an_untested_vllm_names_the_framework_check_in_a_failing_log():
    log = ("/venv/lib/python3.12/site-packages/trl/import_utils.py:114: UserWarning: TRL currently supports vLLM versions from "
           "0.10.2 to 0.17.1. You have version 0.19.0 installed. We recommend installing a supported version to avoid "
           "compatibility issues.\nRuntimeError: something the failure says in its own words\n")
    assert "L43" in _top(log)
    assert _top("UserWarning: TRL currently only supports vLLM version `0.10.2`. You have version 0.11.0 installed.", 1) == ["L43"]
