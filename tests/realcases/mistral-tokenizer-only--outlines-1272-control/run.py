from vllm import LLM, SamplingParams

llm = LLM(
    model="mistralai/Pixtral-12B-2409",
    tokenizer_mode="mistral",
    max_model_len=3000,
    max_num_seqs=1,
    gpu_memory_utilization=0.9,
)
params = SamplingParams(temperature=0.0, max_tokens=256)
messages = [{"role": "user", "content": "Give the receipt's total as JSON."}]
print(llm.chat(messages, params)[0].outputs[0].text)
