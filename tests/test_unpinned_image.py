"""An image whose tag names no release (engine/check/unpinned.py): `docker run` of `:latest` starts the
copy the host pulled last, so a start-up failure that only some releases have is a P1 that says which
releases it needs, and one that every release has stays a P0."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.report.model import version_text

COMPOSE = ("services:\n  vllm:\n    image: {image}\n    command: [\"--model\", \"meta-llama/Llama-3.2-1B-Instruct\", {args}]\n"
           "    deploy:\n      resources:\n        reservations:\n          devices: [{{driver: nvidia, count: 4, capabilities: [gpu]}}]\n")


def _site(tmp_path, image: str, args: str):
    (tmp_path / "compose.yaml").write_text(COMPOSE.format(image=image, args=args))
    (sr,) = audit(tmp_path, gpu="H100-80GB x4").sites
    return sr


def _p(sr, check: str):
    return next((r.priority for r in sr.results if r.needs_change and r.check.id == check), None)


def test_a_failure_of_some_releases_is_a_p1_on_latest(tmp_path):
    # --calculate-kv-scales went in 0.28.0, less than half a year before the newest: a copy of `latest`
    # pulled a few months ago still takes it
    sr = _site(tmp_path, "vllm/vllm-openai:latest", '"--calculate-kv-scales"')
    assert sr.version.basis == "image-untagged" and _p(sr, "B3") == "P1"
    (b3,) = [r for r in sr.results if r.check.id == "B3"]
    assert "Only if the image holds vLLM >=0.28" in b3.reason_text("en")
    assert _p(_site(tmp_path, "vllm/vllm-openai:v0.28.0", '"--calculate-kv-scales"'), "B3") == "P0"
    assert _p(_site(tmp_path, "vllm/vllm-openai:nightly", '"--swap-space", "4"'), "B4") == "P1"


def test_a_check_that_every_release_of_the_last_half_year_fails_is_a_p0_on_latest(tmp_path):
    # WillLiang713/vllm-docker (eval79): `vllm/vllm-openai:latest` with `--swap-space 32`; swap_space went
    # in 0.18.0, more than half a year before the newest release, so every copy pulled since refuses it
    # (0.34.0 engine/arg_utils.py has no swap_space), as the catalog's dropped options already say
    for image in ("vllm/vllm-openai:latest", "vllm/vllm-openai"):
        assert _p(_site(tmp_path, image, '"--swap-space", "4"'), "B4") == "P0", image
    # a tag that says nothing of when it was pulled keeps every release from the floor on
    assert _p(_site(tmp_path, "lmcache/vllm-openai:latest", '"--swap-space", "4"'), "B4") == "P1"


def test_a_failure_of_every_release_stays_p0_on_latest(tmp_path):
    # 3 does not divide Llama-3.2-1B's 32 attention heads in any release
    assert _p(_site(tmp_path, "vllm/vllm-openai:latest", '"--tensor-parallel-size", "3"'), "L1") == "P0"


def test_an_option_the_newest_release_dropped_is_a_p1_on_latest(tmp_path):
    # --enable-mamba-fine-grained-prefix-cache went in 0.31.0: a copy of `latest` pulled a few months
    # ago still has it
    sr = _site(tmp_path, "vllm/vllm-openai:latest", '"--enable-mamba-fine-grained-prefix-cache"')
    found = [f for f in sr.remarks if f.code == "not-in-version"]
    assert found and all(f.priority == "P1" for f in found)


def test_an_option_gone_for_half_a_year_is_a_p0_on_latest(tmp_path):
    # jasonacox/TinyLLM vllm/run-awq.sh (eval73): `docker run vllm/vllm-openai:latest … --disable-log-requests`;
    # gone in 0.17.0, so every copy of `latest` pulled in the last half year refuses it, as a fresh
    # install does (test_a_project_that_pins_nothing_is_not_sure_an_option_is_gone)
    sr = _site(tmp_path, "vllm/vllm-openai:latest", '"--disable-log-requests"')
    assert [f.priority for f in sr.remarks if f.code == "not-in-version"] == ["P0"]
    (gone,) = [f for f in sr.remarks if f.code == "not-in-version"]  # said why, with the image's way out (pinaudit2)
    assert "the image is `latest`" in gone.message["en"] and "v0.16.0" in gone.message["en"]
    assert "镜像为 `latest`" in gone.message["zh"]
    # a tag that is not `latest` (a nightly, another make's image, a template's `v{vllm_version}` the
    # audit reads as no tag: eval64 tandemn-tuna) says nothing of when it was pulled
    for image in ("vllm/vllm-openai:nightly", "lmcache/vllm-openai:latest"):
        sr = _site(tmp_path, image, '"--disable-log-requests"')
        assert [f.priority for f in sr.remarks if f.code == "not-in-version"] == ["P1"], image
    from vllm_kb.engine.audit import _latest_tag

    assert _latest_tag("docker.io/vllm/vllm-openai:latest") and not _latest_tag("vllm/vllm-openai")


def test_latest_names_the_tags_that_have_an_option_added_later(tmp_path):
    # review7: --num-scheduler-steps came in 0.5.5 and went after 0.10.0; "tag v0.10.0 or older" named
    # images that lack it too, so the way out names the span of tags that have it
    sr = _site(tmp_path, "vllm/vllm-openai:latest", '"--num-scheduler-steps", "8"')
    (gone,) = [f for f in sr.remarks if f.code == "not-in-version" and f.subject == "num_scheduler_steps"]
    assert gone.priority == "P0" and "from v0.5.5 to v0.10.0" in gone.message["en"] and "or older" not in gone.message["en"]
    assert "v0.5.5 至 v0.10.0" in gone.message["zh"]


def test_a_config_files_model_key_fails_before_083(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-0.5B-Instruct --config cfg.yaml\n")
    (tmp_path / "cfg.yaml").write_text("model: Qwen/Qwen2.5-0.5B-Instruct\nport: 8001\n")
    # 0.9.0–0.9.0.1 define no --model on `vllm serve`: the key from the file is an ambiguous abbreviation
    for pin, p0 in (("0.7.2", True), ("0.9.0", True), ("0.9.1", False)):
        (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
        (sr,) = audit(tmp_path, gpu="H100-80GB").sites
        assert (_p(sr, "L33") == "P0") is p0, pin
    (tmp_path / "serve.sh").write_text("vllm serve --config cfg.yaml\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    (l33,) = [r for r in sr.results if r.check.id == "L33"]
    assert l33.priority == "P0" and "model_tag" in l33.reason_text("en")


# kserve's install/v0.16.0 LLMInferenceServiceConfig runs `vllm serve /mnt/models … --disable-log-requests`
# in ghcr.io/llm-d/llm-d-dev:v0.2.2, an image whose vLLM its tag does not say; with no pin in the
# project it was judged as the newest release (flag removed in 0.17): a false P0 per template.
DEPLOY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: m}}\nspec:\n  template:\n    spec:\n      containers:\n"
          "      - name: main\n        image: {image}\n        command: [vllm, serve, Qwen/Qwen2.5-7B-Instruct]\n"
          "        args: [--port, '8001', --disable-log-requests]\n")


def test_an_image_of_another_make_without_a_pin_is_of_unknown_release(tmp_path):
    (tmp_path / "deploy.yaml").write_text(DEPLOY.format(image="ghcr.io/llm-d/llm-d-dev:v0.2.2"))
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.version.basis == "image-untagged"
    found = [f for f in sr.remarks if f.code == "not-in-version"]
    assert found and all(f.priority == "P1" for f in found)


def test_a_pin_beside_an_image_of_another_make_still_decides(tmp_path):
    (tmp_path / "deploy.yaml").write_text(DEPLOY.format(image="ghcr.io/acme/server:v3"))
    (tmp_path / "requirements.txt").write_text("vllm==0.20.0\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert [f.priority for f in sr.remarks if f.code == "not-in-version"] == ["P0"]


def test_a_python_pin_beside_a_vendors_vllm_image_does_not_decide_its_release(tmp_path):
    # kserve/kserve (https://github.com/kserve/kserve) pins `vllm==0.24.0` for its Python huggingfaceserver
    # (python/kserve/pyproject.toml) while install/v0.16.0/kserve-cluster-resources.yaml runs
    # ghcr.io/llm-d/llm-d-dev:v0.2.2, llm-d's own numbering (knowledge/deploy/vendor_images.yaml), a vLLM 0.10
    # build that still has --disable-log-requests: 18 false P0s in the session-34 census
    (tmp_path / "deploy.yaml").write_text(DEPLOY.format(image="ghcr.io/llm-d/llm-d-dev:v0.2.2"))
    (tmp_path / "requirements.txt").write_text("vllm==0.24.0\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.version.basis == "image-untagged"
    assert [f.priority for f in sr.remarks if f.code == "not-in-version"] == ["P1"]


def test_a_value_older_releases_took_is_a_p1_on_latest(tmp_path):
    # AIBrix's test/regression/v0.2.1/ps_stack.yaml: `--enable-chunked-prefill false` in
    # lmcache/vllm-openai:latest; 0.5.3–0.8.4 took the value, later releases read a stray positional
    (tmp_path / "deploy.yaml").write_text(DEPLOY.format(image="lmcache/vllm-openai:latest").replace(
        "args: [--port, '8001', --disable-log-requests]", "args: [--port, '8001', --enable-chunked-prefill, 'false']"))
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    stray = [f for f in sr.remarks if f.code == "stray-positional"]
    assert stray and all(f.priority == "P1" for f in stray)


def test_a_change_some_releases_need_is_not_written_without_unsafe_fixes(tmp_path):
    # `--enable-reasoning` turns the reasoning parser on in 0.8–0.9 and was removed in 0.10: on an image
    # of unknown release, dropping it could switch reasoning off where it runs; --fix leaves it to the user
    # (a nightly tag: no copy of `latest` pulled in the last half year takes the flag any more)
    sr = _site(tmp_path, "vllm/vllm-openai:nightly", '"--enable-reasoning", "--reasoning-parser", "deepseek_r1"')
    (l31,) = [r for r in sr.results if r.check.id == "L31" and r.needs_change]
    assert l31.priority == "P1" and not l31.safe
    found = [f for f in sr.remarks if f.code == "not-in-version"]
    assert all(not f.safe for f in found)
    sr = _site(tmp_path, "vllm/vllm-openai:v0.10.0", '"--enable-reasoning", "--reasoning-parser", "deepseek_r1"')
    assert any(r.check.id == "L31" and r.priority == "P0" and r.safe for r in sr.results)


def test_a_project_that_pins_nothing_is_not_sure_an_option_is_gone(tmp_path):
    # no pin, no image, no install line: the release is the user's (a Triton or GPUStack container,
    # an environment set up elsewhere); an option only the releases of the last half year dropped
    # (--enable-mamba-fine-grained-prefix-cache, gone in 0.31.0) is a P1 that says so, while one gone
    # for longer (--disable-log-requests, 0.10.1; --tokenizer-pool-size, 0.10.0 in RARE's deploy
    # scripts, heldout56) is refused by every release people install today, as B4 says of --swap-space
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --disable-log-requests "
                                       "--enable-mamba-fine-grained-prefix-cache --tensor-parallel-size 3\n")
    rep = audit(tmp_path, gpu="H100-80GB x4")
    (sr,) = rep.sites
    assert sr.version.basis == "none"
    gone = {f.subject: f for f in sr.remarks if f.code == "not-in-version"}
    recent = gone["enable_mamba_fine_grained_prefix_cache"]
    assert recent.priority == "P1" and "pins no release" in recent.message["en"]
    assert "未固定版本" in recent.message["zh"]
    assert gone["disable_log_requests"].priority == "P0" and "pins no release" not in gone["disable_log_requests"].message["en"]
    # a true P0 for a fresh install, said as one (pinaudit2, eval60 CopyPasteLRM's 46 launches): judged at the newest
    # release because nothing pins vLLM; the ways out are dropping it or pinning a release that has it (named, not written)
    assert "because nothing in the project pins vLLM" in gone["disable_log_requests"].message["en"]
    assert "没有任何文件固定 vLLM" in gone["disable_log_requests"].message["zh"]
    pins = [c for c in sr.changes if c.op == "pin" and c.target == "vllm"]
    assert [(c.value, c.blocked) for c in pins] == [("<=0.16.0", "alternative")]
    assert any(c.op == "unset" and c.target == "disable_log_requests" for c in sr.changes)
    assert "nothing in the project pins vLLM" in version_text(rep.kb, rep.default_version, "en")
    assert any(r.check.id == "L1" and r.priority == "P0" for r in sr.results)  # 28 heads over 3 ranks
    (tmp_path / "requirements.txt").write_text("vllm==0.34.0\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x4").sites
    assert {f.subject: f.priority for f in sr.remarks if f.code == "not-in-version"} == \
        {"disable_log_requests": "P0", "enable_mamba_fine_grained_prefix_cache": "P0"}
    # a framework pin holds the install to the vLLM it declares: the long-gone option stays a P1 there
    (tmp_path / "requirements.txt").write_text("trl==0.18.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --disable-log-requests\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x4").sites
    assert [f.priority for f in sr.remarks if f.code == "not-in-version" and f.subject == "disable_log_requests"] == ["P1"]


def test_latest_with_a_given_release_runs_that_releases_entrypoint(tmp_path):
    # vLLM #7581 (Aug 2024): `docker run vllm/vllm-openai:latest --model X` — the image of 0.5.4 ran the
    # api_server module, which takes --model; `vllm serve` (the ENTRYPOINT from 0.12) is not what ran
    (tmp_path / "run.sh").write_text("docker run --gpus all --ipc=host vllm/vllm-openai:latest --model meta-llama/Llama-3.2-1B-Instruct\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB", vllm_version="0.5.4").sites
    assert sr.site.kind == "api_server" and _p(sr, "L33") is None


def test_fresh_install_is_answered_once_per_root_with_the_same_verdicts(tmp_path, monkeypatch):
    # engine/audit.py _fresh_install: the project's pins are the same for every site of one root, so
    # whether one bounds the install is asked once; the verdicts are those of asking it per site
    from vllm_kb.engine import audit as audit_mod
    from vllm_kb.engine.kb import compat

    for i in range(3):
        (tmp_path / f"serve{i}.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --disable-log-requests "
                                               "--enable-mamba-fine-grained-prefix-cache\n")
    calls = []
    rows = compat.rows
    monkeypatch.setattr(compat, "rows", lambda: calls.append(1) or rows())

    def verdicts():
        return sorted((sr.site.file, f.subject, f.priority) for sr in audit(tmp_path, gpu="H100-80GB x4").sites
                      for f in sr.remarks if f.code == "not-in-version")

    cached = verdicts()
    assert len(calls) == 1 and len(cached) == 6
    assert {p for _, s, p in cached if s == "disable_log_requests"} == {"P0"}
    monkeypatch.setattr(audit_mod.SiteReports, "bounded", lambda self: audit_mod._bounded(self.pins))  # asked per site, as before
    calls.clear()
    assert verdicts() == cached and len(calls) == 3


def test_an_image_written_with_no_tag_is_judged_as_latest(tmp_path):
    # robertgshaw2-neuralmagic/vllm-k8s (eval79): `image: vllm/vllm-openai` with `--disable-log-requests`;
    # docker pulls `latest` for a name with no tag, so it is the P0 `:latest` gets
    for image in ("vllm/vllm-openai", '"docker.io/vllm/vllm-openai"'):
        sr = _site(tmp_path, image, '"--disable-log-requests"')
        assert [f.priority for f in sr.remarks if f.code == "not-in-version"] == ["P0"], image
    # a chart's repository with its tag left to the chart's appVersion, or a template's tag the audit could
    # not read, is not `latest`
    from types import SimpleNamespace

    from vllm_kb.engine.audit import _written_untagged

    site = SimpleNamespace(file="values.yaml", image="vllm/vllm-openai")
    for text in ("image:\n  repository: vllm/vllm-openai\n  tag: \"\"\n", 'image = "vllm/vllm-openai:v{vllm_version}"\n'):
        assert not _written_untagged(site, SimpleNamespace(read=lambda rel, t=text: t)), text
    assert _written_untagged(site, SimpleNamespace(read=lambda rel: "image: vllm/vllm-openai\n"))


def test_tensor_parallel_past_the_pods_one_gpu_is_a_p0_on_an_untagged_image(tmp_path):
    # robertgshaw2-neuralmagic/vllm-k8s nm-cluster/vllm-simple-clusterip.yaml (eval79): `image: vllm/vllm-openai`
    # (docker pulls `latest`), `--tensor-parallel-size 2`, `nvidia.com/gpu: 1`: the container sees exactly the
    # GPU it asks for, and every release of the last half year stops ("World size (2) is larger than the
    # number of available GPUs (1)", 0.34.0 vllm/config/parallel.py); it was a P1 "only if >=0.8.3"
    pod = ("apiVersion: v1\nkind: Pod\nmetadata: {{name: m}}\nspec:\n  containers:\n  - name: main\n    image: {image}\n"
           "    args: [--model, Qwen/Qwen2.5-7B-Instruct, --tensor-parallel-size, '2']\n"
           "    resources:\n      limits:\n        nvidia.com/gpu: 1\n")
    for image, want in (("vllm/vllm-openai", "P0"), ("vllm/vllm-openai:latest", "P0"), ("vllm/vllm-openai:v0.10.1", "P0"),
                        ("vllm/vllm-openai:nightly", "P1")):
        (tmp_path / "pod.yaml").write_text(pod.format(image=image))
        (sr,) = audit(tmp_path).sites
        assert _p(sr, "L34") == want, image
