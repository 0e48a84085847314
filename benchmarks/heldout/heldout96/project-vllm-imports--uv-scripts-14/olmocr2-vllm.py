# /// script
# requires-python = ">=3.10"
# dependencies = [
#     "vllm==0.22.0",
#     "datasets",
#     "pillow",
# ]
# ///
"""Run olmOCR-2 over a dataset of page images with vLLM (structured JSON output)."""
import argparse

from vllm import LLM, SamplingParams
from vllm.sampling_params import GuidedDecodingParams

MODEL = "allenai/olmOCR-2-7B-1025-FP8"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-model-len", type=int, default=16384)
    args = ap.parse_args()
    llm = LLM(model=MODEL, max_model_len=args.max_model_len, limit_mm_per_prompt={"image": 1})
    params = SamplingParams(
        temperature=0.0,
        max_tokens=4096,
        guided_decoding=GuidedDecodingParams(json={"type": "object"}),
    )
    print(llm, params)


if __name__ == "__main__":
    main()
