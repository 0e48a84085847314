"""Engine settings followed through Python data: other modules' constants, conversions of
environment defaults, dict merges and updates, conditional entries, config classes, argparse
defaults, subprocess argv lists, Ray Serve LLM, LLaMA-Factory's ChatModel, vLLM's server run
in-process, and the deployment facts around them (BentoML, Modal, Ray Serve, RayService env)."""
from pathlib import Path

from vllm_kb.engine.scan.project import scan_project


def sites(tmp_path: Path, files: dict[str, str]):
    return {s.id: s for s in scan_project(_write(tmp_path, files)).sites}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_constants_of_another_module_through_conversions(tmp_path):
    got = sites(tmp_path, {
        "app/config.py": 'import os\nMODEL = os.getenv("MODEL", "org/m")\nTP = int(os.getenv("TP", 2))\nUTIL = float(os.getenv("U", "0.8"))\n',
        "app/serve.py": "from vllm import AsyncEngineArgs\nimport config\nfrom config import UTIL\n"
                        "args = AsyncEngineArgs(model=config.MODEL, tensor_parallel_size=config.TP, gpu_memory_utilization=UTIL)\n",
    })
    (s,) = got.values()
    assert s.model.value == "org/m" and values(s) == {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.8}
    assert s.settings["tensor_parallel_size"].note == "default of os.environ.get('TP')"


def test_dict_flow_merges_updates_and_conditions(tmp_path):
    got = sites(tmp_path, {"e.py": '''
from vllm import LLM
BASE = {"dtype": "bfloat16", "max_model_len": 4096}
def build(lora: bool = False):
    kw = {"model": "org/m", **BASE}
    if lora:
        kw["enable_lora"] = True
    kw.update({"max_model_len": 8192})
    kw["seed"] = 1
    return LLM(**kw)
def offline():
    return LLM(**dict(BASE, model="org/n", max_model_len=2048))
'''})
    a, b = sorted(got.values(), key=lambda s: s.line)
    assert a.model.value == "org/m" and values(a) == {"dtype": "bfloat16", "max_model_len": 8192, "seed": 1}
    assert "enable_lora" not in a.settings and any(o["code"] == "conditional" and "enable_lora" in o["what"] for o in a.opaque)
    assert b.model.value == "org/n" and values(b) == {"dtype": "bfloat16", "max_model_len": 2048}


def test_branches_give_one_of_and_decided_ones_are_taken(tmp_path):
    got = sites(tmp_path, {"e.py": '''
import sys
from vllm import LLM
FAST = True
tp = 2
if len(sys.argv) > 1:
    tp = 4
llm = LLM("m", tensor_parallel_size=tp, enforce_eager=True if FAST else False, max_num_seqs=128 if sys.argv else 64)
'''})
    (s,) = got.values()
    assert not s.settings["tensor_parallel_size"].resolved  # 2 or 4: never read as one of them
    assert s.settings["enforce_eager"].value is True
    assert not s.settings["max_num_seqs"].resolved


def test_config_class_fields_parameters_and_argparse_defaults(tmp_path):
    got = sites(tmp_path, {"e.py": '''
import argparse
from dataclasses import dataclass
from vllm import LLM

@dataclass
class Cfg:
    model: str = "org/m"
    tp: int = 1

def run(cfg: Cfg = Cfg(tp=2), seed=7):
    return LLM(model=cfg.model, tensor_parallel_size=cfg.tp, seed=seed)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="org/x")
    p.add_argument("--max-model-len", type=int, default="4096")
    p.add_argument("--eager", action="store_true")
    args = p.parse_args()
    LLM(args.model, max_model_len=args.max_model_len, enforce_eager=args.eager, swap_space=args.nope)
'''})
    a, b = sorted(got.values(), key=lambda s: s.line)
    assert a.model.value == "org/m" and values(a) == {"tensor_parallel_size": 2, "seed": 7}
    assert a.settings["seed"].note == "default of parameter `seed`"
    assert b.model.value == "org/x" and b.model.note == "default of --model"
    assert values(b) == {"max_model_len": 4096, "enforce_eager": False}
    assert not b.settings["swap_space"].resolved


def test_subprocess_argv_list_and_shell_string(tmp_path):
    got = sites(tmp_path, {"launch.py": '''
import subprocess
MODEL = "org/m"
def start(port: int = 8000, max_len=None, gpus: str = "0,1"):
    cmd = ["vllm", "serve", MODEL, "--port", str(port), "--tensor-parallel-size", "2"]
    if max_len is not None:
        cmd += ["--max-model-len", str(max_len)]
    cmd.append("--enforce-eager")
    return subprocess.Popen(cmd, env={"CUDA_VISIBLE_DEVICES": gpus})

def start2():
    args = ["python", "-m", "vllm.entrypoints.openai.api_server", "--model", MODEL, "--dtype", "half"]
    subprocess.run(" ".join(args), shell=True, check=True)
'''})
    a, b = sorted(got.values(), key=lambda s: s.line)
    assert a.kind == "vllm serve" and a.syntax == "python-argv" and a.model.value == "org/m"
    assert values(a) == {"port": 8000, "tensor_parallel_size": 2, "enforce_eager": True}
    assert "max_model_len" not in a.settings and any(o["code"] == "conditional" for o in a.opaque)
    assert a.env["CUDA_VISIBLE_DEVICES"].value == "0,1"
    assert b.model.value == "org/m" and values(b) == {"dtype": "half"}


def test_ray_serve_llm_config_and_chat_model(tmp_path):
    got = sites(tmp_path, {
        "serve.py": '''
from ray.serve.llm import LLMConfig, build_openai_app
cfg = LLMConfig(model_loading_config=dict(model_id="q", model_source="Qwen/Qwen3-8B"),
                engine_kwargs=dict(tensor_parallel_size=2, max_model_len=8192))
''',
        "chat.py": '''
from llamafactory.chat import ChatModel
args = dict(model_name_or_path="org/m", template="qwen", infer_backend="vllm", vllm_maxlen=8192)
ChatModel(args)
ChatModel(dict(model_name_or_path="org/h", infer_backend="huggingface"))
'''})
    llm = got["serve.py:3"]
    assert llm.tool == "ray-serve" and llm.mode == "framework_integrated" and llm.model.value == "Qwen/Qwen3-8B"
    assert values(llm) == {"tensor_parallel_size": 2, "max_model_len": 8192} and llm.gpu_request == 2
    (chat,) = [s for s in got.values() if s.file == "chat.py"]  # the huggingface backend is not vLLM
    assert chat.framework == "llamafactory" and chat.model.value == "org/m" and values(chat)["max_model_len"] == 8192


def test_in_process_server_namespace_with_bentoml_facts(tmp_path):
    got = sites(tmp_path, {"service.py": '''
import bentoml
CONFIG = {"tensor_parallel_size": 4, "max_model_len": 8192}

@bentoml.service(resources={"gpu": 4}, envs=[{"name": "VLLM_USE_V1", "value": "1"}, {"name": "HF_TOKEN"}])
class Svc:
    model_id = "org/m"
    model = bentoml.models.HuggingFaceModel(model_id)

    async def start(self):
        import vllm.entrypoints.openai.api_server as api
        from vllm.entrypoints.openai.cli_args import make_arg_parser
        from vllm.utils import FlexibleArgumentParser
        args = make_arg_parser(FlexibleArgumentParser()).parse_args([])
        args.model = self.model
        args.served_model_name = [self.model_id]
        for k, v in CONFIG.items():
            setattr(args, k, v)
        self.engine = api.build_async_engine_client(args)
'''})
    (s,) = got.values()
    assert s.tool == "bentoml" and s.gpu_request == 4 and s.mode == "standalone_serve"
    assert s.model.value == "org/m" and values(s) == {"served_model_name": ["org/m"], "tensor_parallel_size": 4, "max_model_len": 8192}
    assert s.env["VLLM_USE_V1"].value == "1" and "HF_TOKEN" not in s.env


def test_modal_function_gpus_image_pin_and_env(tmp_path):
    got = sites(tmp_path, {"app.py": '''
import modal
image = modal.Image.debian_slim().pip_install("vllm==0.9.1").env({"VLLM_USE_V1": "1"})
app = modal.App("x")
N = 2
@app.function(gpu=f"H100:{N}", image=image)
def serve():
    import subprocess
    subprocess.Popen(["vllm", "serve", "org/m", "--tensor-parallel-size", str(N)])
'''})
    (s,) = got.values()
    assert s.tool == "modal" and s.gpu_request == 2 and s.installed[0] == "0.9.1"
    assert s.env["VLLM_USE_V1"].value == "1" and values(s) == {"tensor_parallel_size": 2}


def test_rayservice_env_reaches_getenv_defaults(tmp_path):
    got = sites(tmp_path, {
        "svc.yaml": '''apiVersion: ray.io/v1
kind: RayService
metadata: {name: x}
spec:
  serveConfigV2: |
    applications:
      - name: a
        import_path: app.serve:deployment
        runtime_env:
          env_vars: {MAX_LEN: "8192"}
        deployments:
          - name: d
            ray_actor_options: {num_gpus: 2}
''',
        "app/serve.py": '''
import os
from ray import serve
from vllm import AsyncEngineArgs
@serve.deployment
class D:
    def __init__(self):
        AsyncEngineArgs(model="org/m", max_model_len=int(os.getenv("MAX_LEN", "4096")), max_num_seqs=int(os.getenv("SEQS", "8")))
'''})
    (s,) = got.values()
    assert values(s) == {"max_model_len": 8192, "max_num_seqs": 8} and s.gpu_request == 2
    assert s.settings["max_model_len"].note is None and s.settings["max_num_seqs"].note == "default of os.environ.get('SEQS')"


def test_device_count_and_environ_reads_stay_unresolved(tmp_path):
    got = sites(tmp_path, {"e.py": '''
import os, torch
from vllm import LLM
LLM(os.environ["MODEL"], tensor_parallel_size=torch.cuda.device_count())
'''})
    (s,) = got.values()
    assert not s.model.resolved and not s.settings["tensor_parallel_size"].resolved
    assert "GPUs" in s.settings["tensor_parallel_size"].note


def test_xinference_launch_model_forwards_engine_keywords(tmp_path):
    # launch_model's own keywords (restful_client.py, v0.10–v3.2) stay Xinference's: xinference's own
    # tests call it with model_size_in_billions, which was a false P0 "unknown option"
    got = sites(tmp_path, {"x.py": '''
from xinference.client import Client
c = Client("http://localhost:9997")
c.launch_model(model_name="qwen2.5-instruct", model_engine="vLLM", model_size_in_billions=7, n_gpu=2,
               gpu_memory_utilization=0.85, max_model_len=8192, enable_thinking=False, envs={"A": "1"})
c.launch_model(model_name="bge-m3", model_type="embedding", model_engine="sentence_transformers")
'''})
    (s,) = got.values()
    assert s.tool == "xinference" and s.mode == "framework_integrated" and s.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert values(s) == {"gpu_memory_utilization": 0.85, "max_model_len": 8192, "tensor_parallel_size": 2}
    assert s.gpu_request == 2 and s.framework_defaults["swap_space"] == 4


def test_bentoml_command_with_build_arguments(tmp_path):
    got = sites(tmp_path, {
        "svc/pyproject.toml": '[tool.bentoml.build.args]\nmodel_id = "org/Big"\ntp = 8\n',
        "svc/service.py": '''
import bentoml
import pydantic

class Args(pydantic.BaseModel):
    tp: int = 1
    port: int = 8000
    model_id: str = "org/small"

    @property
    def extra(self) -> list[str]:
        return ["-tp", str(self.tp)]

args = bentoml.use_arguments(Args)
service = bentoml.service

@service(resources={"gpu": args.tp})
class LLM:
    hf = bentoml.models.HuggingFaceModel(args.model_id.lower())

    def __command__(self) -> list[str]:
        return ["vllm", "serve", self.hf, "--port", str(args.port), *args.extra, "--served-model-name", args.model_id]
'''})
    (s,) = got.values()
    assert s.tool == "bentoml" and s.gpu_request == 8 and s.model.value == "org/big"
    assert values(s) == {"port": 8000, "served_model_name": ["org/Big"]}
    assert any(o["code"] in ("unresolved", "run-time-args") and "args.extra" in o["what"] for o in s.opaque)


def test_kv_transfer_config_object_reads_as_its_fields(tmp_path):
    # vLLM's LMCache examples (vllm#17545) build the connector config as an object, or from its JSON
    got = sites(tmp_path, {"a.py": "from vllm import LLM\nfrom vllm.config import KVTransferConfig\n"
                           "ktc = KVTransferConfig(kv_connector='LMCacheConnector', kv_role='kv_both')\n"
                           "llm = LLM(model='org/m', kv_transfer_config=ktc)\n",
                           "b.py": "from vllm import LLM\nfrom vllm.config import KVTransferConfig\n"
                           "llm = LLM(model='org/m', kv_transfer_config=KVTransferConfig.from_cli("
                           "'{\"kv_connector\": \"SharedStorageConnector\", \"kv_role\": \"kv_both\"}'))\n"})
    by_file = {s.file: values(s) for s in got.values()}
    assert by_file["a.py"]["kv_transfer_config"] == {"kv_connector": "LMCacheConnector", "kv_role": "kv_both"}
    assert by_file["b.py"]["kv_transfer_config"] == {"kv_connector": "SharedStorageConnector", "kv_role": "kv_both"}


def test_argv_grown_flag_by_flag_from_a_config_dict(tmp_path):
    # `for k, v in ENGINE_CONFIG.items(): cmd += [f"--{k.replace('_', '-')}", str(v)]`: the loop is
    # followed once per item of the mapping the code fixes; a loop over what is not known stays opaque
    got = sites(tmp_path, {"svc.py": '''
import subprocess, sys
ENGINE_CONFIG = {"max_model_len": 4096, "tensor_parallel_size": 2, "gpu_memory_utilization": 0.85}
FLAGS = ["--enforce-eager", "--trust-remote-code"]
def start(extra):
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", "org/m"]
    for k, v in ENGINE_CONFIG.items():
        cmd.extend([f"--{k.replace('_', '-')}", str(v)])
    for flag in FLAGS:
        cmd.append(flag)
    for k, v in extra.items():
        cmd += [f"--{k}", str(v)]
    return subprocess.Popen(cmd)
'''})
    (s,) = got.values()
    assert values(s) == {"max_model_len": 4096, "tensor_parallel_size": 2, "gpu_memory_utilization": 0.85,
                         "enforce_eager": True, "trust_remote_code": True}
    assert any("extra" in o["what"] or "k" in o["what"] for o in s.opaque)
