"""A `vllm serve …` command line held in a string of a YAML/JSON file that no format scanner
claims (a recipe runner's file, a job spec, package.json scripts) is a launch site of its own."""
from vllm_kb.engine.audit import audit


def _sites(tmp_path, files: dict):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return audit(tmp_path, gpu="A100-80GB x2").sites


def test_a_folded_command_in_a_recipe_is_read(tmp_path):
    (sr,) = _sites(tmp_path, {"requirements.txt": "vllm==0.10.1\n", "recipes/qwen.yaml": (
        "name: qwen\ncontainer: vllm-node\ncommand: >\n  vllm serve Qwen/Qwen2.5-7B-Instruct\n"
        "  --tensor-parallel-size 2\n  --max-model-len 8192\n")})
    assert sr.site.kind == "vllm serve" and sr.site.file == "recipes/qwen.yaml"
    assert sr.site.settings["tensor_parallel_size"].value == 2
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"


def test_an_argv_list_and_a_json_script_are_read(tmp_path):
    sites = _sites(tmp_path, {"requirements.txt": "vllm==0.10.1\n",
                              "job.yaml": "jobs:\n  - name: serve\n    argv: [python, -m, vllm.entrypoints.openai.api_server, "
                                          "--model, Qwen/Qwen2.5-7B-Instruct, --max-model-len, '4096']\n",
                              "package.json": '{"scripts": {"llm": "vllm serve Qwen/Qwen2.5-7B-Instruct --port 8001"}}\n'})
    assert sorted(s.site.file for s in sites) == ["job.yaml", "package.json"]


def test_prose_and_claimed_formats_are_not_read_twice(tmp_path):
    sites = _sites(tmp_path, {"requirements.txt": "vllm==0.10.1\n",
                              "notes.yaml": "description: we tried vLLM with serve mode\n",
                              "compose.yaml": "services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n"
                                              "    command: --model Qwen/Qwen2.5-7B-Instruct\n"})
    assert [s.site.file for s in sites] == ["compose.yaml"]


def test_placeholders_take_the_recipes_defaults(tmp_path):
    # a recipe runner's `{name}` placeholders filled from the file's `defaults:` (spark-vllm-docker's
    # run-recipe.py does str.format); a placeholder with no default stays unknown
    sites = _sites(tmp_path, {"recipe.yaml": (
        "model: Qwen/Qwen3-32B\n"
        "defaults:\n  tensor_parallel: 2\n  gpu_memory_utilization: 0.8\n"
        "command: |\n"
        "  vllm serve Qwen/Qwen3-32B -tp {tensor_parallel} \\\n"
        "      --gpu-memory-utilization {gpu_memory_utilization} --port {port}\n")})
    (sr,) = sites
    s = sr.site
    assert s.settings["tensor_parallel_size"].value == 2 and s.settings["gpu_memory_utilization"].value == 0.8
    assert not s.settings["port"].resolved


def test_placeholders_without_defaults_are_unknown_not_stray_positionals(tmp_path):
    # a template Python fills with str.format (tandemn-tuna's Baseten config): `{eager_flag}` is an
    # option or nothing, never a positional vLLM sees
    (sr,) = _sites(tmp_path, {"config.yaml.tpl": (
        "start_command: >-\n  vllm serve /models/{folder} --max-model-len {max_model_len}\n  {eager_flag} {quantization_flag}\n")})
    assert not [f for f in sr.site.remarks if f.code == "stray-positional"]
    assert {o["code"] for o in sr.site.opaque} >= {"unresolved"}


def test_the_documents_vllm_image_is_the_commands_image(tmp_path):
    (tagged,) = _sites(tmp_path / "a", {"svc.yaml": (
        "base_image:\n  image: vllm/vllm-openai:v0.9.1\nserver:\n  start_command: vllm serve Qwen/Qwen2.5-7B-Instruct\n")})
    assert tagged.site.image == "vllm/vllm-openai:v0.9.1" and str(tagged.version.version) == "0.9.1"
    # a tag filled at deploy time: an image of unknown release, not the newest for certain
    (templ,) = _sites(tmp_path / "b", {"svc.yaml": (
        "base_image:\n  image: vllm/vllm-openai:v{vllm_version}\nserver:\n  start_command: vllm serve Qwen/Qwen2.5-7B-Instruct\n")})
    assert templ.site.image == "vllm/vllm-openai"
    # two different vLLM images in one document: which one runs the command is not known
    (two,) = _sites(tmp_path / "c", {"svc.yaml": (
        "a: {image: 'vllm/vllm-openai:v0.9.1'}\nb: {image: 'vllm/vllm-openai:v0.10.1'}\n"
        "server:\n  start_command: vllm serve Qwen/Qwen2.5-7B-Instruct\n")})
    assert two.site.image is None


def test_a_charts_image_split_into_name_and_tag_is_read_with_its_tag(tmp_path):
    # eval70 (redhat-ai-services/helm-charts vllm-kserve): `image: {image: …/rhaiis/vllm-cuda-rhel9, tag: 3.3.0-…}`
    # beside `servingRuntime.command` was read as an untagged image; Red Hat's 3.3 release is a build of vLLM 0.13.0
    run = "servingRuntime:\n  command: [python, '-m', vllm.entrypoints.openai.api_server]\n  args: ['--port=8080']\n"
    (rh,) = _sites(tmp_path / "rh", {"values.yaml": (
        "image:\n  image: 'registry.example.io/rhaiis/vllm-cuda-rhel9'\n  tag: 3.3.0-1771898916\n" + run)})
    assert rh.site.image == "registry.example.io/rhaiis/vllm-cuda-rhel9:3.3.0-1771898916"
    assert (str(rh.version.version), rh.version.basis) == ("0.13.0", "image")
    # the common chart shape: {registry, repository, tag}; an empty tag (the chart's appVersion) stays untagged
    (rt,) = _sites(tmp_path / "rt", {"values.yaml": (
        "image:\n  registry: docker.io\n  repository: vllm/vllm-openai\n  tag: v0.9.1\n" + run)})
    assert rt.site.image == "docker.io/vllm/vllm-openai:v0.9.1" and str(rt.version.version) == "0.9.1"
    (un,) = _sites(tmp_path / "un", {"values.yaml": "image:\n  repository: vllm/vllm-openai\n  tag: ''\n" + run})
    assert un.site.image == "vllm/vllm-openai" and un.version.basis == "image-untagged"
