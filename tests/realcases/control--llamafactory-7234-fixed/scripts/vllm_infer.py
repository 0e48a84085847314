# Batch inference over a LLaMA-Factory dataset with vLLM (condensed from the repository script after the fix of 2025-03-11).
import json

import fire
from transformers import Seq2SeqTrainingArguments
from vllm import LLM, SamplingParams

from llamafactory.data import get_dataset, get_template_and_fix_tokenizer
from llamafactory.extras.misc import get_device_count
from llamafactory.hparams import get_infer_args
from llamafactory.model import load_tokenizer


def vllm_infer(
    model_name_or_path: str,
    dataset: str = "alpaca_en_demo",
    template: str = "default",
    cutoff_len: int = 2048,
    max_new_tokens: int = 1024,
    pipeline_parallel_size: int = 1,
    save_name: str = "generated_predictions.jsonl",
):
    model_args, data_args, _, generating_args = get_infer_args(
        dict(model_name_or_path=model_name_or_path, dataset=dataset, template=template,
             cutoff_len=cutoff_len, max_new_tokens=max_new_tokens, preprocessing_num_workers=16)
    )
    training_args = Seq2SeqTrainingArguments(output_dir="dummy_dir")
    tokenizer_module = load_tokenizer(model_args)
    template_obj = get_template_and_fix_tokenizer(tokenizer_module["tokenizer"], data_args)
    template_obj.mm_plugin.expand_mm_tokens = False
    samples = get_dataset(template_obj, model_args, data_args, training_args, "ppo", **tokenizer_module)["train_dataset"]
    inputs = [{"prompt_token_ids": s["input_ids"]} for s in samples]

    engine_args = {
        "model": model_args.model_name_or_path,
        "trust_remote_code": True,
        "dtype": model_args.infer_dtype,
        "max_model_len": cutoff_len + max_new_tokens,
        "tensor_parallel_size": (get_device_count() // pipeline_parallel_size) or 1,
        "pipeline_parallel_size": pipeline_parallel_size,
        "disable_log_stats": True,
    }
    if template_obj.mm_plugin.__class__.__name__ != "BasePlugin":
        engine_args["limit_mm_per_prompt"] = {"image": 4, "video": 2}

    params = SamplingParams(max_tokens=generating_args.max_new_tokens)
    results = LLM(**engine_args).generate(inputs, params)
    with open(save_name, "w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps({"predict": r.outputs[0].text}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    fire.Fire(vllm_infer)
