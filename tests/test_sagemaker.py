"""AWS's vLLM container for SageMaker turns each SM_VLLM_<NAME> env var into `--<name> <value>`
(knowledge/deploy/env_images.yaml sagemaker-vllm): the env of a Dockerfile FROM it, of the SageMaker
SDK's Model(image_uri=…, env=…) and of boto3's create_model(PrimaryContainer=…) is the site's command line."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.images import env_image

ECR = "763104351884.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-cu128-ubuntu22.04-sagemaker"
SDK = f'''from sagemaker.model import Model

model = Model(image_uri="{ECR}", role="r",
              env={{"SM_VLLM_MODEL": "Qwen/Qwen2.5-0.5B-Instruct", "SM_VLLM_TENSOR_PARALLEL_SIZE": "3",
                    "SM_VLLM_ENABLE_PREFIX_CACHING": "true", "HF_TOKEN": "hf_x"}})
model.deploy(instance_type="ml.g5.12xlarge", initial_instance_count=1)
'''
BOTO = f'''import boto3

boto3.client("sagemaker").create_model(ModelName="m", ExecutionRoleArn="r", PrimaryContainer={{
    "Image": "{ECR}", "Environment": {{"SM_VLLM_MODEL": "Qwen/Qwen2.5-0.5B-Instruct", "SM_VLLM_TENSOR_PARALLEL_SIZE": "3"}}}})
'''
DOCKERFILE = f"FROM {ECR}\nENV SM_VLLM_MODEL=Qwen/Qwen2.5-0.5B-Instruct\nENV SM_VLLM_TENSOR_PARALLEL_SIZE=3\n"


@pytest.mark.parametrize("name,text", [("deploy.py", SDK), ("deploy.py", BOTO), ("Dockerfile", DOCKERFILE)])
def test_the_sm_vllm_env_is_the_command_line(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="A10G x4").sites
    assert sr.site.model.value == "Qwen/Qwen2.5-0.5B-Instruct" and sr.facts["vllm"]["version"] == "0.10.0"
    assert sr.site.settings["tensor_parallel_size"].value == 3
    l1 = next(r for r in sr.results if r.check.id == "L1")  # 14 heads, TP 3
    assert l1.status == "recommended" and l1.priority == "P0"


def test_a_switch_set_true_is_the_flag_and_other_env_is_not_an_argument(tmp_path):
    (tmp_path / "deploy.py").write_text(SDK)
    (sr,) = audit(tmp_path, gpu="A10G x4").sites
    assert sr.site.settings["enable_prefix_caching"].value is True and "hf_token" not in sr.site.settings


def test_the_ec2_image_of_the_same_repository_takes_flags():
    assert env_image(ECR.replace("sagemaker", "ec2")) is None and env_image(ECR) is not None
