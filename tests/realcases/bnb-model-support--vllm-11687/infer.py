import torch
from vllm import LLM, SamplingParams

# QVQ-72B-Preview (a Qwen2-VL model) saved 4-bit with bitsandbytes, spread over every GPU
llm = LLM(model="unsloth/QVQ-72B-Preview-bnb-4bit",
          gpu_memory_utilization=0.95,
          max_num_seqs=32,
          tensor_parallel_size=torch.cuda.device_count(),
          quantization="bitsandbytes",
          load_format="bitsandbytes",
          dtype=torch.bfloat16,
          enforce_eager=True,
          max_model_len=4096)
print(llm.generate(["Describe the picture."], SamplingParams(max_tokens=64))[0].outputs[0].text)
