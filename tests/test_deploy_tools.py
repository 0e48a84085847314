"""Deployment tools read as the release that renders them: production-stack's chart release, a
KServe InferenceService with its ServingRuntime, KubeAI's Model, a SkyPilot task."""

VALUES = """servingEngineSpec:
  modelSpec:
  - name: llama
    repository: vllm/vllm-openai
    tag: v0.9.1
    modelURL: org/m
    requestGPU: 2
    vllmConfig:
      tensorParallelSize: 2
      maxNumSeqs: 32
"""


def test_production_stack_by_chart_release(scanned, tmp_path):
    new = scanned(root=tmp_path / "new", files={"values.yaml": VALUES, "helmfile.yaml": "releases:\n- name: s\n  chart: vllm/vllm-stack\n  version: 0.1.5\n  values: [values.yaml]\n"})
    old = scanned(root=tmp_path / "old", files={"values.yaml": VALUES, "helmfile.yaml": "releases:\n- name: s\n  chart: vllm/vllm-stack\n  version: 0.1.1\n  values: [values.yaml]\n"})
    (n,), (o,) = new, old
    assert n.tool == "production-stack" and n.settings["max_num_seqs"].value == 32 and n.gpu_request == 2
    assert "max_num_seqs" not in o.settings  # maxNumSeqs is rendered from chart 0.1.2
    assert n.container == {"tool": "helm", "shm_size": "20Gi"}  # the chart mounts /dev/shm when TP is set


def test_kserve_isvc_with_its_serving_runtime(scanned):
    (s,) = scanned({"rt.yaml": """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata: {name: vllm-runtime}
spec:
  supportedModelFormats: [{name: vLLM}]
  containers:
  - name: kserve-container
    image: vllm/vllm-openai:v0.8.5
    command: [python, -m, vllm.entrypoints.openai.api_server]
    args: [--port=8080, --model=/mnt/models]
""", "isvc.yaml": """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: m}
spec:
  predictor:
    model:
      modelFormat: {name: vLLM}
      runtime: vllm-runtime
      storageUri: hf://org/m
      args: [--max-model-len=4096]
"""})
    assert s.tool == "kserve" and s.settings["max_model_len"].value == 4096 and s.settings["port"].value == 8080


RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata: {{name: nm-vllm}}
spec:
  supportedModelFormats: [{{name: huggingface}}]
  containers:
  - name: kserve-container
    image: {image}
    command: [python, -m, vllm.entrypoints.openai.api_server]
    args: [--port=8000, --model=/mnt/models, --max-model-len={length}]
"""
ISVC = """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: m}
spec:
  predictor:
    model:
      modelFormat: {name: huggingface}
      runtime: nm-vllm
      storageUri: hf://org/m
"""


def test_kserve_isvc_takes_the_runtime_of_that_name_nearest_it(scanned, tmp_path):
    # robertgshaw2-neuralmagic/vllm-k8s (eval79): each example folder defines its own `nm-vllm` runtime beside
    # its InferenceService; the service in one folder was tied to another folder's runtime of the same name
    files = {"a-gcs/nm-vllm.yml": RUNTIME.format(image="vllm/vllm-openai:v0.4.2", length=2048),
             "b-pvc/serving-runtime.yml": RUNTIME.format(image="vllm/vllm-openai:v0.8.5", length=4096),
             "b-pvc/inference-service.yml": ISVC}
    (s,) = [x for x in scanned(root=tmp_path / "near", files=files) if x.file == "b-pvc/inference-service.yml"]
    assert s.settings["max_model_len"].value == 4096 and s.image == "vllm/vllm-openai:v0.8.5"
    # the runtime is in another folder only: linked by its name across the repository
    far = {"runtimes/nm-vllm.yml": RUNTIME.format(image="vllm/vllm-openai:v0.8.5", length=4096), "services/isvc.yml": ISVC}
    (s,) = [x for x in scanned(root=tmp_path / "far", files=far) if x.file == "services/isvc.yml"]
    assert s.tool == "kserve" and s.settings["max_model_len"].value == 4096


def test_kserve_runtime_lookup_passes_over_a_malformed_runtime(scanned, tmp_path):
    # review6: a ServingRuntime of another shape (metadata a string, spec a list, containers a number)
    # crashed the scan of every InferenceService that looked its runtime up by name
    bad = ("kind: ServingRuntime\nmetadata: nm-vllm\nspec: [1]\n---\nkind: ServingRuntime\nmetadata: {name: nm-vllm}\n"
           "spec: {containers: 5}\n---\n")
    files = {"z/rt.yml": bad.rstrip("-\n"), "a/rt.yml": RUNTIME.format(image="vllm/vllm-openai:v0.8.5", length=4096),
             "a/isvc.yml": ISVC}
    (s,) = [x for x in scanned(root=tmp_path / "bad", files=files) if x.file == "a/isvc.yml"]
    assert s.tool == "kserve" and s.settings["max_model_len"].value == 4096


def test_compose_service_with_reservations_of_another_type_is_still_read(scanned):
    # review6: `reservations: "x"` (a string where Compose takes a mapping) lost the whole compose file
    (s,) = scanned({"docker-compose.yml": "services:\n  v:\n    image: vllm/vllm-openai:v0.9.0\n"
                    "    command: --model org/m\n    deploy: {resources: {reservations: x}}\n"})
    assert s.model.value == "org/m" and s.gpu_request is None


def test_kubeai_model_and_skypilot_task(scanned):
    got = scanned({"model.yaml": """apiVersion: kubeai.org/v1
kind: Model
metadata: {name: m}
spec:
  features: [TextGeneration]
  url: hf://org/m
  engine: VLLM
  resourceProfile: nvidia-gpu-l4:2
  args: [--max-model-len=8192, --tensor-parallel-size=2]
""", "task.yaml": """resources: {accelerators: "L4:4"}
envs: {MODEL: org/sky}
setup: pip install vllm==0.9.2
run: |
  vllm serve $MODEL --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE
"""})
    kubeai, sky = got
    assert kubeai.tool == "kubeai" and kubeai.model.value == "org/m" and kubeai.gpu_request == 2
    assert sky.tool == "skypilot" and sky.model.value == "org/sky" and sky.settings["tensor_parallel_size"].value == 4
    assert sky.installed[0] == "0.9.2" and sky.container is None


def test_production_stack_raycluster_mounts_the_same_shm(scanned, tmp_path):
    # production-stack's tutorials/assets/values-15-a…raycluster.yaml: PP 2 over a RayCluster whose
    # head and workers get the chart's memory-backed /dev/shm of modelSpec.shmSize
    values = VALUES.replace("requestGPU: 2\n", "requestGPU: 1\n    shmSize: 8Gi\n    raySpec:\n      enabled: true\n"
                            "      headNode: {requestGPU: 1}\n").replace("tensorParallelSize: 2", "tensorParallelSize: 1\n      pipelineParallelSize: 2")
    (s,) = scanned(root=tmp_path, files={"values.yaml": values, "helmfile.yaml": "releases:\n- name: s\n  chart: vllm/vllm-stack\n  version: 0.1.5\n  values: [values.yaml]\n"})
    assert s.container == {"tool": "helm", "shm_size": "8Gi"} and s.settings["pipeline_parallel_size"].value == 2


# kserve/kserve python/huggingfaceserver/huggingfaceserver/__main__.py: `--max_length` sets max_model_len,
# its own options (model_name, backend, …) stay with it, and a dtype left at auto becomes float16 on a GPU
def test_kserve_huggingface_runtime_maps_its_own_arguments(scanned):
    (s,) = scanned({"isvc.yaml": """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: gemma}
spec:
  predictor:
    model:
      modelFormat: {name: huggingface}
      args: [--model_name=gemma, --model_id=google/gemma-3-4b-it, --backend=vllm, --max_length, '4096', --tensor-parallel-size=1]
      resources: {limits: {nvidia.com/gpu: "1"}}
"""})
    assert (s.kind, s.model.value) == ("kserve huggingfaceserver", "google/gemma-3-4b-it")
    assert {k: v.value for k, v in s.settings.items()} == {"max_model_len": 4096, "tensor_parallel_size": 1}
    assert s.fixed == {"dtype": "float16"} and s.gpu_request == 1


def test_skypilot_flow_mapping_of_accelerators(scanned):
    # `{H100:8, H200:8}`: no space after the colon, so YAML reads each as a key with a null value;
    # the count is still 8 (a SkyPilot recipe for Llama 4 Maverick had TP read as 1 and a false L16)
    (s,) = scanned({"vllm.sky.yaml": """resources:
  accelerators: { H100:8, H200:8, B200:8 }
run: |
  vllm serve org/m --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE
"""})
    assert s.settings["tensor_parallel_size"].value == 8 and s.gpu_request == 8
    assert s.gpu_types == ["H100", "H200", "B200"]


def test_production_stack_lmcache_connector_by_chart_release(scanned, tmp_path):
    # deployment-vllm-multi.yaml: LMCacheConnector up to 0.1.1; from 0.1.2 LMCacheConnectorV1 for
    # vllmConfig.v1 "1"; 0.1.3–0.1.5 export VLLM_USE_V1=0 without a v1 key; 0.1.6+ V1 unless v0 "1"
    def scan(chart, extra=""):
        values = VALUES.replace("maxNumSeqs: 32\n", "maxNumSeqs: 32\n" + extra) + "    lmcacheConfig:\n      enabled: true\n"
        (s,) = scanned(root=tmp_path / f"{chart}{len(extra)}", files={"values.yaml": values, "helmfile.yaml":
                       f"releases:\n- name: s\n  chart: vllm/vllm-stack\n  version: {chart}\n  values: [values.yaml]\n"})
        env = s.env.get("VLLM_USE_V1")
        return s.settings["kv_transfer_config"].value["kv_connector"], env.value if env else None
    assert scan("0.1.1") == ("LMCacheConnector", None)
    assert scan("0.1.2") == ("LMCacheConnector", None)
    assert scan("0.1.2", "      v1: 1\n") == ("LMCacheConnectorV1", "1")
    assert scan("0.1.4") == ("LMCacheConnector", "0")
    assert scan("0.1.6") == ("LMCacheConnectorV1", None)
    assert scan("0.1.6", "      v0: 1\n") == ("LMCacheConnector", "0")


RAYSERVICE = """apiVersion: ray.io/v1
kind: RayService
metadata: {{name: llm}}
spec:
  serveConfigV2: {style}
    applications:
    - name: llms
      import_path: ray.serve.llm:build_openai_app
      args:
        llm_configs:
        - model_loading_config:
            model_id: qwen
            model_source: Qwen/Qwen2.5-7B-Instruct
          engine_kwargs:
            tensor_parallel_size: 2
            max_model_len: 8192
  rayClusterConfig:
    headGroupSpec:
      template:
        spec:
          containers:
          - {{name: ray-head, image: "rayproject/ray-llm:2.46.0-py311-cu124"}}
"""


def test_rayservice_serve_config_string_is_read_at_its_lines(scanned):
    # ray-project/kuberay ray-operator/config/samples/ray-service.llm-serve.yaml: llm_configs inside
    # the RayService's serveConfigV2 string
    (s,) = scanned({"rs.yaml": RAYSERVICE.format(style="|")})
    assert (s.tool, s.line, s.model.value, s.model.line) == ("ray-serve", 11, "Qwen/Qwen2.5-7B-Instruct", 13)
    assert {k: (v.value, v.line) for k, v in s.settings.items()} == {"tensor_parallel_size": (2, 15), "max_model_len": (8192, 16)}
    assert s.gpu_request == 2 and s.syntax == "kwargs-yaml"
    (k,) = scanned({"rs.yaml": RAYSERVICE.format(style="|-  # the Serve config")})
    assert k.line == 11
    # a folded block joins lines: where each key stands is not known, so nothing is reported at a guessed line
    assert scanned({"rs.yaml": RAYSERVICE.format(style=">")}) == []


def test_vllmruntime_reads_as_the_operator_writes_it(scanned):
    # vllm-project/production-stack operator/internal/controller/vllmruntime_controller.go: the
    # chunked-prefill and prefix-caching switches are written off unless true, VLLM_USE_V1=0 unless
    # vllmConfig.v1 is true, gpuMemoryUtilization is a string field
    (s,) = scanned({"rt.yaml": """apiVersion: production-stack.vllm.ai/v1alpha1
kind: VLLMRuntime
metadata: {name: m}
spec:
  model:
    modelURL: Qwen/Qwen2.5-7B-Instruct
    maxModelLen: 8192
    hfTokenSecret: {hfTokenSecretName: hf}
  vllmConfig:
    tensorParallelSize: 2
    gpuMemoryUtilization: "0.85"
    extraArgs: ["--enforce-eager"]
  lmCacheConfig: {enabled: true}
  deploymentConfig:
    resources: {gpu: "2"}
    image: {registry: docker.io, name: "vllm/vllm-openai:v0.10.1"}
"""})
    assert (s.tool, s.line, s.model.value, s.gpu_request, s.image) == \
        ("production-stack", 6, "Qwen/Qwen2.5-7B-Instruct", 2, "docker.io/vllm/vllm-openai:v0.10.1")
    got = {k: v.value for k, v in s.settings.items()}
    assert got["enable_chunked_prefill"] is False and got["enable_prefix_caching"] is False
    assert s.settings["enable_prefix_caching"].implied and s.settings["max_model_len"].key == "model.maxModelLen"
    assert (got["gpu_memory_utilization"], got["tensor_parallel_size"], got["enforce_eager"], got["port"]) == (0.85, 2, True, 8000)
    assert got["kv_transfer_config"] == {"kv_connector": "LMCacheConnector", "kv_role": "kv_both"}
    assert s.env["VLLM_USE_V1"].value == "0" and s.env["VLLM_RPC_TIMEOUT"].value == "1000000" and "HF_TOKEN" in s.env



def test_vllmruntime_of_the_first_schema_reads_its_own_fields(scanned):
    # production-stack's first CRD (5b7af2b1) kept every field at the top of spec and ran the api_server
    # module; its gateway sample src/gateway_inference_extension/configs/vllm/vllm-runtime.yaml still
    # writes it (spec.image, spec.v1): the image is the release, v1 the connector
    (s,) = scanned({"rt.yaml": """apiVersion: production-stack.vllm.ai/v1alpha1
kind: VLLMRuntime
metadata: {name: m}
spec:
  v1: true
  tensorParallelSize: 2
  extraArgs: ["--max-num-seqs", "64"]
  model:
    modelURL: meta-llama/Llama-3.2-1B-Instruct
  lmCacheConfig: {enabled: true}
  image: {registry: docker.io, name: "lmcache/vllm-openai:2025-05-05-v1"}
  resources: {gpu: "2"}
"""})
    assert (s.image, s.gpu_request, s.kind) == ("docker.io/lmcache/vllm-openai:2025-05-05-v1", 2, "api_server")
    got = {k: v.value for k, v in s.settings.items()}
    assert (got["tensor_parallel_size"], got["max_num_seqs"]) == (2, 64)
    assert got["kv_transfer_config"]["kv_connector"] == "LMCacheConnectorV1" and s.env["VLLM_USE_V1"].value == "1"
    assert s.settings["tensor_parallel_size"].key == "tensorParallelSize"


LLMKUBE = """apiVersion: inference.llmkube.dev/v1alpha1
kind: Model
metadata: {name: llama8b}
spec:
  source: hf://meta-llama/Llama-3.1-8B-Instruct@main
  hardware: {gpu: {count: 2}}
---
apiVersion: inference.llmkube.dev/v1alpha1
kind: InferenceService
metadata: {name: llama}
spec:
  modelRef: llama8b
  runtime: vllm
  parallelSlots: 16
  vllmConfig:
    maxModelLen: 8192
    enablePrefixCaching: false
    speculative: {enabled: true, model: meta-llama/Llama-3.2-1B-Instruct}
  extraArgs: ["--enforce-eager"]
"""


def test_llmkube_inference_service_reads_as_its_operator_writes_it(scanned):
    # defilantech/LLMKube internal/controller/runtime_vllm.go BuildArgs: the Model's source and GPU
    # count, TP from the GPUs when unset, parallelSlots as --max-num-seqs, a switch only when true
    (s,) = scanned({"isvc.yaml": LLMKUBE})
    assert (s.tool, s.line, s.model.value, s.gpu_request) == ("llmkube", 12, "meta-llama/Llama-3.1-8B-Instruct@main", 2)  # as BuildArgs passes it (hfServeArg)
    got = {k: v.value for k, v in s.settings.items()}
    assert got == {"port": 8000, "host": "::", "max_model_len": 8192, "speculative_model": "meta-llama/Llama-3.2-1B-Instruct",
                   "tensor_parallel_size": 2, "max_num_seqs": 16, "enforce_eager": True}
    assert s.settings["tensor_parallel_size"].implied and s.settings["max_num_seqs"].key == "parallelSlots"
    assert s.container == {"tool": "llmkube"}  # the operator mounts no /dev/shm
    # a llama.cpp service, or one whose runtime is not vllm, is no vLLM site
    assert scanned({"isvc.yaml": LLMKUBE.replace("runtime: vllm", "runtime: llamacpp")}) == []


def test_ray_serve_runtime_env_is_the_engine_environment(scanned, cli, write_project, tmp_path):
    # an application's runtime_env.env_vars and its LLMConfig's (the deployment's own keys win) are
    # set in the processes Ray starts vLLM in; a change is written there, not as a shell export
    serve = """applications:
- import_path: ray.serve.llm:build_openai_app
  runtime_env:
    env_vars: {VLLM_ATTENTION_BACKEND: FLASHINFER, VLLM_USE_V1: "1"}
  args:
    llm_configs:
    - model_loading_config: {model_id: q, model_source: Qwen/Qwen2.5-7B-Instruct}
      runtime_env:
        env_vars:
          VLLM_USE_V1: "0"
      engine_kwargs: {max_model_len: 8192}
"""
    (s,) = scanned({"serve.yaml": serve}, root=tmp_path / "yaml")
    assert {k: (v.value, v.line) for k, v in s.env.items()} == {"VLLM_ATTENTION_BACKEND": ("FLASHINFER", 4), "VLLM_USE_V1": ("0", 10)}
    (p,) = scanned(root=tmp_path / "py", files={"app.py": "from ray.serve.llm import LLMConfig\nc = LLMConfig(model_loading_config=dict(model_id='q', "
                               "model_source='org/m'), runtime_env=dict(env_vars={'VLLM_USE_V1': '1'}))\n"})
    assert p.env["VLLM_USE_V1"].value == "1"
    root = write_project({"serve.yaml": serve, "requirements.txt": "vllm==0.10.1\n"}, tmp_path / "fix")
    cli("audit", str(root), "--gpu", "A100-80GB", "--fix")
    got = (root / "serve.yaml").read_text()
    assert 'VLLM_USE_V1: "0"' not in got and "        env_vars: {}\n" in got  # the key's own bytes, nothing else of that block
    assert got.count("\n") == serve.count("\n") - 1 and "engine_kwargs: {max_model_len: 8192}" in got


def test_a_pod_that_requests_no_gpu_says_nothing_of_the_machines_gpu_count(write_project, tmp_path):
    # eval70 (llm-inference-platform): a Deployment with no nvidia.com/gpu got C3 "TP 1 uses only part of the 8 visible
    # GPUs" from --gpu; what such a pod sees is the cluster's (device plugin, default runtime), not stated in the manifest
    from vllm_kb.engine.audit import audit

    pod = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: v}\nspec:\n  template:\n    spec:\n      containers:\n"
           "      - name: v\n        image: vllm/vllm-openai:v0.9.1\n        args: [--model, org/m]\n{res}")
    bare = audit(write_project({"d.yaml": pod.replace("{res}", "")}, tmp_path / "bare"), gpu="H100-80GB x8")
    asked = audit(write_project({"d.yaml": pod.replace("{res}", "        resources: {limits: {nvidia.com/gpu: '2'}}\n")},
                                tmp_path / "asked"), gpu="H100-80GB x8")
    (b,), (a,) = bare.sites, asked.sites
    assert "count" not in b.facts["gpu"] and b.facts["gpu"]["memory_gib"]
    assert next(r for r in b.results if r.check.id == "C3").status == "unknown"
    assert a.facts["gpu"]["count"] == 2 and next(r for r in a.results if r.check.id == "C3").status == "recommended"


def test_kserve_model_image_replaces_the_runtimes(scanned):
    # kserve#4875: the predictor's model is a container whose own image names KServe 0.16.0's GPU build (vLLM 0.9.2),
    # which leaves dtype at vLLM's auto; read as an untagged runtime it was taken for 0.13-0.14's float16 (a false L5 P0)
    (s,) = scanned({"isvc.yaml": """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: gemma}
spec:
  predictor:
    model:
      modelFormat: {name: huggingface}
      runtime: kserve-huggingfaceserver
      image: kserve/huggingfaceserver:v0.16.0-gpu
      args: [--model_name=gemma, --model_id=google/gemma-3-4b-it, --backend=vllm]
      resources: {limits: {nvidia.com/gpu: "1"}}
"""})
    assert s.image == "kserve/huggingfaceserver:v0.16.0-gpu" and s.launch["image_at"] == ("isvc.yaml", 9)
    assert "dtype" not in s.fixed


def test_a_program_as_the_cmd_of_a_vllm_image_is_no_model_for_its_entrypoint(scanned):
    # eval89 Hiroaki-Masuzawa/llm_vlm_memo (https://github.com/Hiroaki-Masuzawa/llm_vlm_memo): FROM
    # vllm/vllm-openai:latest, then CMD ["/usr/bin/supervisord"] — run with --entrypoint="" by its script, so no
    # `vllm serve /usr/bin/supervisord`; a model path as the CMD stays the inherited `vllm serve`'s model
    supervised = scanned({"Dockerfile": 'FROM vllm/vllm-openai:latest\nRUN pip install supervisor\nCMD ["/usr/bin/supervisord"]\n'})
    assert supervised == []
    (site,) = scanned({"Dockerfile": 'FROM vllm/vllm-openai:latest\nCMD ["/models/Qwen2.5-7B-Instruct", "--max-model-len", "4096"]\n'})
    assert site.settings["max_model_len"].value == 4096


TEMPLATE = """apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: vllm-mistral-7b-serving-template
objects:
- apiVersion: serving.kserve.io/v1alpha1
  kind: ServingRuntime
  metadata:
    name: mistral-7b
  spec:
    containers:
    - args:
      - --model
      - /mnt/models/
      - --max-model-len
      - "6144"
      image: quay.io/rh-aiservices-bu/vllm-openai-ubi9:0.4.2
      name: kserve-container
"""


def test_the_objects_of_an_openshift_template_are_read_as_resources(scanned):
    # eval89 alpha-hack-program/doc-bot (https://github.com/alpha-hack-program/doc-bot):
    # vllm_runtime/vllm-mistral-7b-template.yaml wraps its KServe ServingRuntime in a Template's `objects:` (2 missed sites)
    (site,) = scanned({"template.yaml": TEMPLATE})
    s = site.settings["max_model_len"]
    assert (site.line, s.value, s.line) == (12, 6144, 15)
    assert site.source["argv_pos"][-1] == {"yaml": [0, ["objects", 0, "spec", "containers", 0, "args", 3]]}  # a fix edits it there
    assert scanned({"template.yaml": TEMPLATE.replace("kind: Template", "kind: Other")}) == []


NO_COMMAND = """services:
  vllm-gaudi:
    build:
      context: vllm-fork
      dockerfile: Dockerfile.hpu
    image: opea/vllm-gaudi:latest
  vendor:
    image: opea/vllm-gaudi:1.2
  stock:
    image: vllm/vllm-openai:v0.8.4
"""

NO_ARGS = """apiVersion: v1
kind: Pod
metadata:
  name: {name}
spec:
  containers:
    - name: vllm
      image: {image}
"""


def test_a_fix_writes_no_new_command_where_the_image_may_run_its_own(scanned):
    # eval119 opea-project/GenAIComps (https://github.com/opea-project/GenAIComps,
    # .github/workflows/docker/compose/third_parties-compose.yaml:47): --fix added `command:` to a build-only
    # vllm-gaudi service. A new `command:` / `args:` replaces the image's CMD: only vLLM's own image (an
    # ENTRYPOINT of its server, no CMD) takes new arguments that way; a build, a vendor's image or the
    # project's own may have a CMD of its own
    by_service = {s.source["service"]: s for s in scanned({"compose.yaml": NO_COMMAND})}
    assert by_service["vllm-gaudi"].source["argv_append"] is None
    assert by_service["vendor"].source["argv_append"] is None
    assert by_service["stock"].source["argv_append"] is not None
    pods = {s.file: s for s in scanned({"a.yaml": NO_ARGS.format(name="a", image="opea/vllm-gaudi:1.2"),
                                        "b.yaml": NO_ARGS.format(name="b", image="vllm/vllm-openai:v0.8.4")})}
    assert pods["a.yaml"].source["argv_append"] is None
    assert pods["b.yaml"].source["argv_append"] == {"yaml": [0, ["spec", "containers", 0, "args"]]}
