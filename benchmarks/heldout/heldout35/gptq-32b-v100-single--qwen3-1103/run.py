from transformers import AutoTokenizer
from vllm import LLM

model_path = "Qwen/Qwen2.5-32B-Instruct-GPTQ-Int4"
tokenizer = AutoTokenizer.from_pretrained(model_path)
llm = LLM(model_path)

messages = [{"role": "user", "content": "hello"}]
text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
for output in llm.generate(text):
    print(output)
