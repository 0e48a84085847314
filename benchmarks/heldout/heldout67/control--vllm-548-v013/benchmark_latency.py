"""Latency benchmark taken from the vLLM repository's main branch, run against the pip release."""
import argparse
import time

from vllm import LLM, SamplingParams


def main(args):
    print(args)
    llm = LLM(
        model=args.model,
        tokenizer=args.tokenizer,
        tensor_parallel_size=args.tensor_parallel_size,
        max_num_seqs=args.batch_size,
        trust_remote_code=args.trust_remote_code,
    )
    params = SamplingParams(n=args.n, temperature=0.0 if args.use_beam_search else 1.0,
                            top_p=1.0, use_beam_search=args.use_beam_search,
                            ignore_eos=True, max_tokens=args.output_len)
    prompts = [[0] * args.input_len] * args.batch_size
    for _ in range(args.num_iters):
        start = time.time()
        llm.generate(prompt_token_ids=prompts, sampling_params=params, use_tqdm=False)
        print(f"latency: {time.time() - start:.3f} s")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", type=str, default="facebook/opt-125m")
    p.add_argument("--tokenizer", type=str, default=None)
    p.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    p.add_argument("--input-len", type=int, default=32)
    p.add_argument("--output-len", type=int, default=128)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--n", type=int, default=1)
    p.add_argument("--use-beam-search", action="store_true")
    p.add_argument("--num-iters", type=int, default=3)
    p.add_argument("--trust-remote-code", action="store_true")
    main(p.parse_args())
