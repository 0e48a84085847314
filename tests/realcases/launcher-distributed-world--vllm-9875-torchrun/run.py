import os

import torch.distributed as dist
from vllm import LLM


def main():
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        dist.init_process_group(backend="nccl")
    llm = LLM("/mnt/hwfile/mllm/cache/Qwen2-VL-7B-Instruct",
              max_model_len=100000,
              limit_mm_per_prompt={"video": 10})
    return llm


if __name__ == "__main__":
    main()
