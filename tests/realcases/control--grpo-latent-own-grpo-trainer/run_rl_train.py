import argparse

from models import Wrapper
from training import GRPOTrainer

parser = argparse.ArgumentParser()
parser.add_argument("--model_name", default="Qwen/Qwen3-4B")
parser.add_argument("--use_vllm", action="store_true")
parser.add_argument("--epochs", type=int, default=1)
args = parser.parse_args()

wrapper = Wrapper(args.model_name, args.use_vllm)
trainer = GRPOTrainer(policy=None)
