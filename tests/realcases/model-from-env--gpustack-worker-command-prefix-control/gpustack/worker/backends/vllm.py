from typing import List


class VLLMServer:
    """Starts vLLM in a container: the entry point here, its arguments from the model's record."""

    def __init__(self, model, model_path: str, runtime):
        self._model = model
        self._model_path = model_path
        self._runtime = runtime

    def start(self):
        command = ["vllm", "serve"]
        command_args = self._build_command_args(port=40000)
        self._create_workload(command=command, command_args=command_args)

    def _build_command_args(self, port: int) -> List[str]:
        args = [self._model_path, "--host", "0.0.0.0", "--port", str(port)]
        args += list(self._model.backend_parameters or [])
        return args

    def _create_workload(self, command: List[str], command_args: List[str]):
        self._runtime.create(image=self._model.image, command=command, args=command_args)
