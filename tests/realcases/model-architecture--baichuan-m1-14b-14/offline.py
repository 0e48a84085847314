from vllm import LLM, SamplingParams

# stock vLLM, Baichuan-M1's remote-code checkpoint
llm = LLM(model="baichuan-inc/Baichuan-M1-14B-Instruct", trust_remote_code=True)
out = llm.generate(["Name three symptoms of anaemia."], SamplingParams(max_tokens=256))
print(out[0].outputs[0].text)
