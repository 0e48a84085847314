"""Latency benchmark as shipped at the v0.3.3 tag (trimmed to the engine set-up)."""
import argparse
import time

from vllm import LLM, SamplingParams


def main(args):
    llm = LLM(
        model=args.model,
        tokenizer=args.tokenizer,
        quantization=args.quantization,
        tensor_parallel_size=args.tensor_parallel_size,
        trust_remote_code=args.trust_remote_code,
        dtype=args.dtype,
        enforce_eager=args.enforce_eager,
        kv_cache_dtype=args.kv_cache_dtype,
        device=args.device,
    )
    params = SamplingParams(n=args.n, temperature=1.0, top_p=1.0,
                            ignore_eos=True, max_tokens=args.output_len)
    prompts = [[0] * args.input_len for _ in range(args.batch_size)]
    for _ in range(args.num_iters):
        start = time.perf_counter()
        llm.generate(prompt_token_ids=prompts, sampling_params=params,
                     use_tqdm=False)
        print(f"latency: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="facebook/opt-125m")
    p.add_argument("--tokenizer", default=None)
    p.add_argument("--quantization", "-q", default=None)
    p.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    p.add_argument("--input-len", type=int, default=32)
    p.add_argument("--output-len", type=int, default=128)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--n", type=int, default=1)
    p.add_argument("--num-iters", type=int, default=3)
    p.add_argument("--trust-remote-code", action="store_true")
    p.add_argument("--dtype", default="auto")
    p.add_argument("--enforce-eager", action="store_true")
    p.add_argument("--kv-cache-dtype", default="auto")
    p.add_argument("--device", default="cuda")
    main(p.parse_args())
