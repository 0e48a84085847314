from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

# Llama 2 70B (AWQ) on one node with four A100s, split by pipeline stages instead of tensor shards
model = "TheBloke/Llama-2-70B-Chat-AWQ"

llm = LLM(
    model,
    tensor_parallel_size=1,
    pipeline_parallel_size=4,
    quantization="AWQ",
    max_num_batched_tokens=4096,
)

tokenizer = AutoTokenizer.from_pretrained(model)
prompts = ["Explain pipeline parallelism in one paragraph."] * 64
input_tokenized_prompt = [tokenizer.encode(p) for p in prompts]
sampling_params = SamplingParams(temperature=0.0, max_tokens=128)

outputs = llm.generate(
    prompt_token_ids=input_tokenized_prompt,
    use_tqdm=True,
    sampling_params=sampling_params,
)
print(len(outputs))
