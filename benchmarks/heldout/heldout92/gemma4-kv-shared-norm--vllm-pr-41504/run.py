from vllm import LLM, SamplingParams

# a Gemma 4 E4B fine-tuned with transformers' Trainer and saved with save_pretrained
llm = LLM(model="./models/finetuned-gemma-4-e4b")
print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
