import argparse
import json

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", default="Qwen/Qwen3-4B")
parser.add_argument("--res_file", required=True)

if __name__ == "__main__":
    args = parser.parse_args()
    llm = LLM(model=args.model_path)
    # a thinking model grading every reasoning step
    sampling = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=32768)
    records = [json.loads(line) for line in open(args.res_file)]
    conversations = [[{"role": "user", "content": r["steps"]}] for r in records]
    scores = [o.outputs[0].text for o in llm.chat(conversations, sampling)]
    print(json.dumps(scores))
