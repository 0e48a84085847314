import os

from ray import serve
from vllm import LLM, SamplingParams


@serve.deployment(name="VLLMDeployment")
class VLLMDeployment:
    def __init__(self, model_id, num_tpu_chips, max_model_len):
        self.llm = LLM(
            model=model_id,
            tensor_parallel_size=num_tpu_chips,
            max_model_len=max_model_len,
            download_dir=os.environ["VLLM_XLA_CACHE_PATH"],
            enforce_eager=True,
        )

    async def __call__(self, request):
        body = await request.json()
        out = self.llm.generate(body["prompt"], SamplingParams(max_tokens=int(body["max_tokens"])))
        return {"text": out[0].outputs[0].text}


model = VLLMDeployment.bind(os.environ["MODEL_ID"], int(os.environ.get("TPU_CHIPS", "8")), None)
