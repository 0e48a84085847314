# Llama-3.1-70B-Instruct over four GPUs, fed a prompt longer than 8k tokens
from vllm import LLM, SamplingParams

llm = LLM(model="meta-llama/Meta-Llama-3.1-70B-Instruct", tensor_parallel_size=4)
long_doc = open("long_input.txt").read()  # any document of 8k+ tokens
messages = [{"role": "user", "content": "Summarize the following text:\n\n" + long_doc}]
prompt = llm.get_tokenizer().apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
out = llm.generate([prompt], SamplingParams(temperature=0.7, max_tokens=2048))
print(out[0].outputs[0].text)
