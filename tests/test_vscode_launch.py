"""VS Code debug configurations that start vLLM (.vscode/launch.json, JSONC): the module or program,
the args array and the env are a launch site; fixes edit the array's items; VS Code variables stay
unknown. Shape from dongteng/vllm_learn_fss (https://github.com/dongteng/vllm_learn_fss): .vscode/
launch.json and code/course2/launch.json run vllm.entrypoints.openai.api_server with a trailing comma."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.vscode_launch import jsonc_clean, parse_with_spans

LAUNCH = """{
    // Use IntelliSense to learn about possible attributes.
    "version": "0.2.0",
    "configurations": [
        {
            "name": "vllm api_server", // debug the server
            "type": "debugpy",
            "request": "launch",
            "module": "vllm.entrypoints.openai.api_server",
            "args": [
                "--model", "Qwen/Qwen3-1.7B",
                "--swap-space", "4",
                "--max-model-len", "${input:maxLen}",
                "--tensor-parallel-size", "2",
                "--enforce-eager",
            ],
            "env": {"CUDA_VISIBLE_DEVICES": "0,1"},
        },
        {"name": "Python: Current File", "type": "debugpy", "request": "launch", "program": "${file}"},
    ]
}
"""


def test_jsonc_is_json_at_the_same_offsets():
    text = '{"a": "http://x//y", /* c */ "b": [1, 2,], // end\n}'
    data, spans = parse_with_spans(jsonc_clean(text))
    assert data == {"a": "http://x//y", "b": [1, 2]}
    a, b = spans[("a",)]
    assert text[a:b] == '"http://x//y"' and text[slice(*spans[("b", 1)])] == "2"


def test_a_debug_configuration_is_a_site(tmp_path, cli):
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode/launch.json").write_text(LAUNCH)
    (tmp_path / "requirements.txt").write_text("vllm==0.19.0\n")
    rep = audit(tmp_path, gpu="H100-80GB x2")
    (sr,) = rep.sites
    s = sr.site
    assert (s.file, s.line, s.syntax) == (".vscode/launch.json", 9, "vscode-launch")
    assert s.settings["tensor_parallel_size"].value == 2 and s.settings["swap_space"].line == 12
    assert not s.settings["max_model_len"].resolved  # ${input:maxLen}: VS Code asks when it runs
    assert s.env["CUDA_VISIBLE_DEVICES"].value == "0,1"
    assert [r.priority for r in sr.results if r.check.id == "B4"] == ["P0"]  # swap_space: gone in 0.18
    assert [r.status for r in sr.results if r.check.id == "B2"] == ["unknown"]
    cli("audit", str(tmp_path), "--gpu", "H100-80GB x2", "--fix", "--select", "B4")
    new = (tmp_path / ".vscode/launch.json").read_text()
    assert '"--swap-space", "4",' not in new and '"--enforce-eager",\n            ],' in new
    data, _ = parse_with_spans(jsonc_clean(new))
    assert "--swap-space" not in data["configurations"][0]["args"]


def test_another_tools_launch_json_and_other_programs_are_not_sites(tmp_path):
    (tmp_path / "launch.json").write_text('{"model_engine": "vllm", "model_name": "qwen2.5-instruct"}\n')
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode/launch.json").write_text(
        '{"configurations": [{"type": "debugpy", "request": "launch", "program": "${workspaceFolder}/train.py",'
        ' "args": ["--use-vllm"]},]}\n')
    assert audit(tmp_path, gpu="H100-80GB x1").sites == []
