"""Write the option strings of `vllm serve` to a JSON file."""
import argparse
import json

from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils import FlexibleArgumentParser


def main() -> None:
    own = argparse.ArgumentParser()
    own.add_argument("-o", "--output", required=True)
    args = own.parse_args()
    serve = make_arg_parser(FlexibleArgumentParser())
    flags = sorted(s for a in serve._actions for s in a.option_strings)
    with open(args.output, "w") as f:
        json.dump(flags, f)


if __name__ == "__main__":
    main()
