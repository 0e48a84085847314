import argparse

from engine import make_llm

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="retrieve-then-reason over a knowledge graph")
    ap.add_argument("--dataset", default="cwq")
    ap.add_argument("-m", "--model_name", default="meta-llama/Meta-Llama-3.1-8B-Instruct")
    ap.add_argument("--tensor_parallel_size", type=int, default=1)
    ap.add_argument("--max_seq_len_to_capture", type=int, default=16384)
    args = ap.parse_args()
    chat = make_llm(args.model_name, args.tensor_parallel_size, args.max_seq_len_to_capture)
    print(chat([{"role": "user", "content": "hello"}]))
