from vllm import LLM

# a Mistral 7B v0.3 checkpoint saved in 4 bit with bitsandbytes
llm = LLM("unsloth/mistral-7b-instruct-v0.3-bnb-4bit", dtype="half")
