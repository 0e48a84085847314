from vllm import LLM, SamplingParams

# token ids of a Harmony-rendered conversation (openai_harmony renders them in the guide)
prefill_ids = [200006, 17360, 200008, 3575, 553, 17554, 162016, 11, 261, 4410, 2359, 2359, 200007]

llm = LLM(model="openai/gpt-oss-120b", trust_remote_code=True)
sampling = SamplingParams(max_tokens=128, temperature=1.0)
outputs = llm.generate(prompt_token_ids=[prefill_ids], sampling_params=sampling)
print(outputs[0].outputs[0].text)
