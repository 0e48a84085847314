from opencompass.models import VLLMwithChatTemplate

# OpenCompass's published vLLM config for Qwen2.5-14B-Instruct: two GPUs, one tensor-parallel group
models = [
    dict(
        type=VLLMwithChatTemplate,
        abbr='qwen2.5-14b-instruct-vllm',
        path='Qwen/Qwen2.5-14B-Instruct',
        model_kwargs=dict(tensor_parallel_size=2),
        max_out_len=4096,
        batch_size=16,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=2),
    )
]
