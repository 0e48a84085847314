from vllm import LLM, SamplingParams

# offline Qwen3-VL inference, as in the post: no max_model_len, so the model's 262144 is used
llm = LLM(
    model="Qwen/Qwen3-VL-4B-Instruct",
    mm_encoder_tp_mode="data",
    disable_log_stats=True,
)

params = SamplingParams(temperature=0.7, max_tokens=512)
messages = [{"role": "user", "content": [
    {"type": "image_url", "image_url": {"url": "https://example.com/demo.jpg"}},
    {"type": "text", "text": "Describe this image."},
]}]
print(llm.chat(messages, params)[0].outputs[0].text)
