"""The bitsandbytes a BitsAndBytes launch runs with against the floor its vLLM release checks
(knowledge/vllm/bnb_version.yaml, tools/vllm_bnb_version.py; L20): vLLM 0.9.2+ raises "bitsandbytes
version is wrong. Please install bitsandbytes>=0.46.1." while it builds the model (model_loader/
bitsandbytes_loader.py:186, layers/quantization/bitsandbytes.py:160 in 0.9.2). An image that keeps its own
bitsandbytes (knowledge/deploy/framework_images.yaml packages:): KServe's huggingfaceserver 0.16.0 holds
0.45.5 from its uv.lock beside vLLM 0.9.2 (kserve/kserve#4875)."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.bnb_version import _floor
from vllm_kb.engine.scan.image_tables import framework_image_package


def test_the_floor_per_release():
    assert _floor("0.9.1")["min"] == "0.45.3" and _floor("0.9.2")["min"] == "0.46.1"
    assert _floor("0.6.1.post2")["min"] == "0.42.0" and _floor("0.27.1")["min"] == "0.46.1"
    assert _floor("0.4.3") is None and _floor("0.28.0") is None  # no BitsAndBytes, or no longer


def test_the_kserve_image_keeps_its_lock_release():
    assert framework_image_package("kserve/huggingfaceserver:v0.16.0-gpu", "bitsandbytes")[0] == "0.45.5"
    assert framework_image_package("kserve/huggingfaceserver:v0.14.1", "bitsandbytes") is None  # not said


def _l20(tmp_path, files: dict):
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="L4").sites
    return next(r for r in sr.results if r.check.id == "L20"), sr


def test_a_pin_below_the_floor_is_a_p0_with_the_pin_change(tmp_path):
    serve = "vllm serve Qwen/Qwen2.5-7B-Instruct --quantization bitsandbytes --max-model-len 4096\n"
    r, sr = _l20(tmp_path, {"requirements.txt": "vllm==0.9.2\nbitsandbytes==0.45.5\n", "serve.sh": serve})
    assert (r.status, r.priority) == ("recommended", "P0") and "0.46.1" in r.reason_text("en")
    assert any(c.target == "bitsandbytes" and c.value == ">=0.46.1" for c in sr.changes)
    r, _ = _l20(tmp_path / "ok", {"requirements.txt": "vllm==0.9.2\nbitsandbytes==0.46.1\n", "serve.sh": serve})
    assert not (r.status == "recommended" and "bitsandbytes version" in r.reason_text("en"))
    r, _ = _l20(tmp_path / "old", {"requirements.txt": "vllm==0.8.5\nbitsandbytes==0.45.5\n", "serve.sh": serve})  # 0.8.5 asks 0.45.3
    assert not (r.status == "recommended" and "bitsandbytes version" in r.reason_text("en"))


def test_a_kserve_huggingfaceserver_image_with_bitsandbytes(tmp_path):
    (tmp_path / "isvc.yaml").write_text(
        "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: q\nspec:\n  predictor:\n    model:\n"
        "      modelFormat:\n        name: huggingface\n      image: kserve/huggingfaceserver:v0.16.0-gpu\n      args:\n"
        "        - --model_id=Qwen/Qwen2.5-7B-Instruct\n        - --quantization=bitsandbytes\n        - --max-model-len=4096\n"
        "      resources:\n        limits:\n          nvidia.com/gpu: \"1\"\n")
    (sr,) = audit(tmp_path, gpu="L4").sites
    r = next(r for r in sr.results if r.check.id == "L20")
    assert (r.status, r.priority) == ("recommended", "P0") and "uv.lock" in r.reason_text("en")


def test_kserve_model_dir_is_the_model_vllm_loads(tmp_path):
    # huggingfaceserver/__main__.py (v0.16.0): args.model = args.model_id or args.model_dir
    (tmp_path / "isvc.yaml").write_text(
        "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: q\nspec:\n  predictor:\n    model:\n"
        "      modelFormat:\n        name: huggingface\n      storageUri: pvc://models/qwen\n      args:\n"
        "        - --model_dir=/mnt/models/Qwen2.5-7B-Instruct\n")
    (sr,) = audit(tmp_path, gpu="L4").sites
    assert sr.site.model.value == "/mnt/models/Qwen2.5-7B-Instruct"
