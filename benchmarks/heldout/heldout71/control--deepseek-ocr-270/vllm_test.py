from vllm import LLM, SamplingParams
from vllm.model_executor.models.deepseek_ocr import NGramPerReqLogitsProcessor
from PIL import Image


def main():
    llm = LLM(
        model="DeepSeek-OCR",
        enable_prefix_caching=False,
        mm_processor_cache_gb=0,
        logits_processors=[NGramPerReqLogitsProcessor],
    )
    image = Image.open("page.png").convert("RGB")
    params = SamplingParams(
        temperature=0.0,
        max_tokens=8192,
        extra_args=dict(ngram_size=30, window_size=90, whitelist_token_ids={128821, 128822}),
        skip_special_tokens=False,
    )
    outputs = llm.generate(
        [{"prompt": "<image>\nFree OCR.", "multi_modal_data": {"image": image}}], params
    )
    for out in outputs:
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
