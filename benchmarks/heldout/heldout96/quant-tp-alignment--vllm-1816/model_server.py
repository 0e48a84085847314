from vllm import LLM, SamplingParams

MODEL = "TheBloke/Qwen-14B-Chat-AWQ"

# Built once when the web service starts; two GPUs for tensor parallelism.
model_args = dict(
    trust_remote_code=True,
    quantization="awq",
    tensor_parallel_size=2,
)
llm = LLM(model=MODEL, **model_args)
params = SamplingParams(temperature=0.7, max_tokens=512)
