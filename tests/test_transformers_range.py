"""L125's requirement side: a transformers pin outside the range the vLLM release's own requirement
declares (`<5` in 0.11.1–0.19.0, `!=5.0.*…!=5.5.0` in 0.19.1–0.23.0, upper bounds from 0.31.0;
knowledge/vllm/model_types.yaml vllm_requires). In the same pip install as vLLM pip cannot resolve
the pair (P0, the newest accepted transformers proposed); installed after vLLM pip only warns (P1);
installed before it, vLLM's install moves transformers back (nothing). The names vLLM imports are
judged first (vLLM 0.11.0 leaves transformers open, and reads a tokenizer attribute 5.x dropped)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"


def _l125(write_project, files: dict[str, str]):
    rep = audit(write_project({"serve.sh": SERVE, **files}), gpu="A100-80GB")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L125"]
    return (r.status, r.priority if r.status == "recommended" else None), sr.facts["launch"]


def test_the_same_install_as_a_release_that_excludes_it_is_p0(write_project):
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.17.1\ntransformers==5.3.0\n"})
    assert verdict == ("recommended", "P0")
    assert launch["tf_range_same"] and launch["tf_range_requires"] == ">=4.56.0,<5"
    assert launch["tf_range_fix"] == "==4.57.6" and launch["tf_range_at"] == "requirements.txt:2"


def test_an_open_requirement_proposes_its_own_major_line(write_project):
    # 0.10.2 asks for transformers>=4.55.2 with no upper bound, written before 5.0 existed; 5.x drops what it
    # imports (eval75 Neelectric/open-r1_safety was offered 5.25.0): the newest 4.x is the fix
    # …and of the release's own time: 4.56 was the newest minor out when 0.10.2 was (2025-09-13), 4.57 came after
    _, launch = _l125(write_project, {"requirements.txt": "vllm==0.10.2\ntransformers==4.52.3\n"})
    assert launch["tf_range_requires"] == ">=4.55.2" and launch["tf_range_fix"] == "==4.56.2"


def test_an_old_release_is_offered_a_transformers_of_its_time(write_project):
    # uclaml/SPPO#5: transformers==4.36.2 beside vLLM 0.5.0.post1 (transformers>=4.40.0); the change is the newest
    # minor out by that release's day (4.41), not the newest 4.x of today, which later vLLM imports were written for
    _, launch = _l125(write_project, {"requirements.txt": "vllm==0.5.0.post1\ntransformers==4.36.2\n",
                                      "serve.sh": "vllm serve mistralai/Mistral-7B-Instruct-v0.2\n"})
    assert launch["tf_range_requires"] == ">=4.40.0" and launch["tf_range_fix"] == "==4.41.2"
    assert "tf_range_held" not in launch


def test_a_held_tokenizers_pin_makes_the_earlier_vllm_the_change(write_project):
    # DeepSeek-OCR#39: its requirements hold transformers==4.46.3 and tokenizers==0.20.3, vLLM 0.8.5 asks for
    # transformers>=4.51.1; a commenter who raised transformers to 4.57.1 hit a removed import. Keeping both pins,
    # the change is the newest earlier vLLM that admits 4.46.3; raising transformers (to 4.51.x) is the alternative
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.8.5\ntransformers==4.46.3\ntokenizers==0.20.3\n"})
    assert verdict == ("recommended", "P0")
    assert launch["tf_range_fix"] == "==4.51.3" and launch["tf_range_held"] == "tokenizers==0.20.3"
    assert launch["tf_range_vllm_fix"] == "==0.7.0"


def test_an_excluded_minor_of_0_20_is_p0_and_an_allowed_one_is_not(write_project):
    verdict, _ = _l125(write_project, {"requirements.txt": "vllm==0.20.0\ntransformers==5.3.0\n"})
    assert verdict == ("recommended", "P0")
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.20.0\ntransformers==5.6.2\n"})
    assert verdict == ("not_applicable", None) and "tf_range" not in launch


def test_installed_over_vllms_image_is_p1(write_project):
    docker = "FROM vllm/vllm-openai:v0.17.1\nRUN pip install transformers==5.3.0\nENTRYPOINT [\"vllm\", \"serve\", \"Qwen/Qwen2.5-7B-Instruct\"]\n"
    rep = audit(write_project({"Dockerfile": docker}), gpu="A100-80GB")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L125"]
    assert (r.status, r.priority) == ("recommended", "P1")
    assert not sr.facts["launch"]["tf_range_same"]


def test_installed_before_vllm_says_nothing(write_project):
    docker = ("FROM python:3.12\nRUN pip install transformers==5.3.0\nRUN pip install vllm==0.17.1\n"
              "ENTRYPOINT [\"vllm\", \"serve\", \"Qwen/Qwen2.5-7B-Instruct\"]\n")
    rep = audit(write_project({"Dockerfile": docker}), gpu="A100-80GB")
    (sr,) = rep.sites
    assert "tf_range" not in sr.facts["launch"]


def test_a_range_that_meets_vllms_says_nothing(write_project):
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.17.1\ntransformers>=4.50\n"})
    assert verdict == ("not_applicable", None) and "tf_range" not in launch


def test_the_name_vllm_reads_is_judged_first(write_project):
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.11.0\ntransformers==5.1.0\n"})
    assert verdict == ("recommended", "P0")
    assert launch["tf_gone_attr"] and "tf_range" not in launch


def test_a_pin_uv_overrides_or_one_a_marker_limits_is_no_certain_conflict(write_project):
    """uv's override-dependencies replace vLLM's own transformers requirement (the usual way to run
    transformers 5 on a release capped below it), and a line with an environment marker applies only
    on some interpreters (its complement may pin an accepted release): neither is ResolutionImpossible."""
    pyproject = ('[project]\nname = "x"\nversion = "0.1"\ndependencies = ["vllm==0.12.0", "transformers==5.0.0"]\n\n'
                 '[tool.uv]\noverride-dependencies = ["transformers==5.0.0"]\n')
    verdict, launch = _l125(write_project, {"pyproject.toml": pyproject})
    assert verdict != ("recommended", "P0") and not launch.get("tf_range_same")
    verdict, _ = _l125(write_project, {"pyproject.toml": pyproject.split("\n\n[tool.uv]")[0] + "\n"})
    assert verdict == ("recommended", "P0")
    reqs = 'vllm==0.12.0\ntransformers==5.3.0; python_version >= "3.14"\ntransformers==4.57.6; python_version < "3.14"\n'
    verdict, _ = _l125(write_project, {"requirements.txt": reqs})
    assert verdict != ("recommended", "P0")
    # one marker line, alone for its package, applies where the project runs (Linux): still the same install
    verdict, _ = _l125(write_project, {"requirements.txt": 'vllm==0.12.0\ntransformers==5.3.0; sys_platform == "linux"\n'})
    assert verdict == ("recommended", "P0")


def test_a_release_candidate_of_an_excluded_major_is_outside_the_requirement(write_project):
    # pip (and uv) read `<5` as PEP 440 does: 5.0.0rc1 is not below 5, so one requirements file cannot hold both
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.17.1\ntransformers==5.0.0rc1\n"})
    assert verdict == ("recommended", "P0") and launch["tf_range_same"] and launch["tf_range_fix"] == "==4.57.6"
    # an rc of a release the requirement admits is inside it
    verdict, launch = _l125(write_project, {"requirements.txt": "vllm==0.17.1\ntransformers==4.57.0rc1\n"})
    assert "tf_range" not in launch


def test_a_held_tokenizers_pin_beside_a_too_new_transformers_offers_no_earlier_vllm(write_project):
    # lowering transformers keeps to what tokenizers allows less surely, and an earlier release whose open requirement
    # admits transformers 5 (0.11.0's >=4.55.2) breaks on it: only the transformers change is offered
    _, launch = _l125(write_project, {"requirements.txt": "vllm==0.17.1\ntransformers==5.3.0\ntokenizers==0.22.1\n"})
    assert launch["tf_range_fix"] == "==4.57.6" and "tf_range_vllm_fix" not in launch
