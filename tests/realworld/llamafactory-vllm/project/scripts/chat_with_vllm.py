"""Chat with the fine-tuned model through LLaMA-Factory's Python API, vLLM as the engine."""
from llamafactory.chat import ChatModel

args = dict(
    model_name_or_path="Qwen/Qwen2.5-7B-Instruct",
    template="qwen",
    infer_backend="vllm",
    vllm_maxlen=8192,
    vllm_gpu_util=0.8,
)
chat_model = ChatModel(args)

messages = [{"role": "user", "content": "hello"}]
for response in chat_model.chat(messages):
    print(response.response_text)
