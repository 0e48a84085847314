from smolagents import CodeAgent, GradioUI, VLLMModel


def main():
    model = VLLMModel(
        model_id="HuggingFaceTB/SmolLM3-3B",
        model_kwargs={"max_model_len": 4096, "max_num_batched_tokens": 4096},
    )
    agent = CodeAgent(model=model, tools=[])
    GradioUI(agent).launch()


if __name__ == "__main__":
    main()
