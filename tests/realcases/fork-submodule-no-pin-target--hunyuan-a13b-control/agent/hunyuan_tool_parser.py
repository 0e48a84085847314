# a tool-call parser registered into the project's own vLLM build
from vllm.entrypoints.openai.protocol import ChatCompletionRequest
from vllm.entrypoints.openai.tool_parsers.abstract_tool_parser import ToolParser, ToolParserManager


@ToolParserManager.register_module("hunyuan")
class HunyuanToolParser(ToolParser):
    def adjust_request(self, request: ChatCompletionRequest) -> ChatCompletionRequest:
        return request
