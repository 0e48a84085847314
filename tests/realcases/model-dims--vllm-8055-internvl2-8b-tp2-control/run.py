from vllm import LLM

# InternVL2-8B over two GPUs, as in the review comment
llm = LLM(model="OpenGVLab/InternVL2-8B", dtype="half", trust_remote_code=True, max_num_seqs=5,
          tensor_parallel_size=2, max_num_batched_tokens=8192, max_model_len=4096)
