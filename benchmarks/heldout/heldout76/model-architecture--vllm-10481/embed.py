from vllm import LLM

# Llama-3.2-1B fine-tuned with Sentence Transformers and saved locally
model_path = "./models/llama32-1b-sentence-transformer"

llm = LLM(
    model=model_path,
    tokenizer=model_path,
    dtype="auto",
    kv_cache_dtype="auto",
    tensor_parallel_size=1,
    max_seq_len_to_capture=2048,
    max_num_batched_tokens=2048,
    max_num_seqs=2048,
    use_v2_block_manager=True,
    enforce_eager=True,
    trust_remote_code=True,
)
