from vllm import LLM, SamplingParams

FINE_TUNED_MODEL = "BaSalam/Llama2-7b-entity-attr-v1"


def inference_model(prompts, generation_config):
    llm = LLM(model=FINE_TUNED_MODEL, gpu_memory_utilization=0.9, trust_remote_code=True)
    params = SamplingParams(**generation_config)
    return [o.outputs[0].text for o in llm.generate(prompts, params)]
