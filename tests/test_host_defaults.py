"""An audit of one file or one sub-folder runs with its repository's pins (the folders up to the
one holding .git), the folder's own pins first."""
from vllm_kb.engine.audit import audit


def _repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\nllamafactory==0.9.1\n")
    sub = tmp_path / "svc" / "deep"
    sub.mkdir(parents=True)
    (sub / "run.sh").write_text("vllm serve org/m --max-model-len 4096\n")
    (sub / "api.sh").write_text("llamafactory-cli api --model_name_or_path org/m --template qwen --infer_backend vllm\n")
    return tmp_path, sub


def test_a_single_file_and_a_sub_folder_find_the_pins_above(tmp_path):
    _, sub = _repo(tmp_path)
    for target in (sub / "run.sh", sub, sub.parent):
        rep = audit(target, gpu="none")
        r = next(r for r in rep.sites if r.site.kind == "vllm serve")
        assert r.version.version == "0.8.5" and rep.default_version.pinned, target
    lf = next(r for r in audit(sub, gpu="none").sites if r.site.framework == "llamafactory")
    assert lf.site.framework_version == "0.9.1"


def test_a_pin_of_the_folder_itself_wins_and_no_repository_means_no_climbing(tmp_path):
    _, sub = _repo(tmp_path)
    (sub / "requirements.txt").write_text("vllm==0.10.0\n")
    assert audit(sub, gpu="none").sites[0].version.version == "0.10.0"
    (tmp_path / ".git").rmdir()
    (sub / "requirements.txt").unlink()
    assert not audit(sub, gpu="none").default_version.pinned


def test_a_single_file_without_a_repository_climbs_to_the_nearest_pins(tmp_path):
    # eval97 Zityuen/open-r1-coderm (https://github.com/Zityuen/open-r1-coderm) unpacked without .git:
    # slurm/experimental/serve_r1_vllm.slurm alone, the root Makefile's `uv pip install vllm==0.8.5.post1`
    _, sub = _repo(tmp_path)
    (tmp_path / ".git").rmdir()
    assert audit(sub / "run.sh", gpu="none").sites[0].version.version == "0.8.5"
    (tmp_path / "requirements.txt").unlink()
    (tmp_path / "Makefile").write_text("install:\n\tuv pip install vllm==0.8.5.post1 && \\\n\tuv pip install -e .\n")
    rep = audit(sub / "run.sh", gpu="none")
    assert rep.sites[0].version.version == "0.8.5.post1" and rep.default_version.pinned
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")  # a Makefile that installs no vLLM starts no project
    assert not audit(sub / "run.sh", gpu="none").default_version.pinned


def test_a_single_file_reads_the_pins_beside_it(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "run.sh").write_text("vllm serve org/m --max-model-len 4096\n")
    assert audit(tmp_path / "run.sh", gpu="none").sites[0].version.version == "0.8.5"
    (tmp_path / ".git").mkdir()
    assert audit(tmp_path / "run.sh", gpu="none").sites[0].version.version == "0.8.5"
