"""A README's install steps that install the project and then vllm==X leave X in the environment
(engine/scan/doc_installs.py); a Markdown install line speaks for its own folder where no pin is near
(engine/scan/extra_pins.py docs_floors); docs/pins.md §1.8, §3."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.project import choice_for, scan_project

SETUP = "from setuptools import setup\nsetup(name='verl', version='0.2.0', install_requires=['ray', {req!r}])\n"
SERVE = "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-0.5B-Instruct')\n"
STEPS = "# Setup\n```\ncd verl\npip install -e .\npip install vllm=={v}\n```\n"


def _choice(write_project, files, site):
    sc = scan_project(write_project(files))
    return choice_for(site, sc.choices, sc.default, sc.own)


def test_the_documented_vllm_installed_after_the_package_is_what_runs(write_project):
    # RUCAIBox entropy2performance/README.md:29-32 over verl/setup.py's `vllm<=0.6.3`
    c = _choice(write_project, {"README.md": STEPS.format(v="0.8.5"), "verl/setup.py": SETUP.format(req="vllm<=0.6.3"),
                                "verl/run.py": SERVE}, "verl/run.py")
    assert str(c.version) == "0.8.5" and c.basis == "pin" and c.pin.kind == "docs" and c.pin.last_install
    assert c.pin.rival == "0.6.3"  # the package's own pin excludes it: its release stays beside (P0 only where both refuse)


def test_a_release_inside_the_package_range_keeps_the_range_top_beside(write_project):
    # RLHFlow/Minimal-RL README.md:59-62: clone, cd into it, `-e .`, then vllm==0.6.3 under setup.py's `vllm<=0.8.2`
    readme = ("```bash\ngit clone https://github.com/RLHFlow/Minimal-RL.git\ncd Minimal-RL/\n"
              "python -m uv pip install -e .\npython -m uv pip install vllm==0.6.3\n```\n")
    c = _choice(write_project, {"README.md": readme, "setup.py": SETUP.format(req="vllm<=0.8.2"), "run.py": SERVE}, "run.py")
    assert str(c.version) == "0.6.3" and c.pin.last_install and c.pin.rival == "0.8.2"


def test_no_project_install_before_it_or_an_exact_requirements_pin_leaves_the_folder_pin(write_project):
    only = "```\npip install vllm==0.8.5\ncd verl\npip install -e .\n```\n"  # vLLM first: the package's install moves it again
    c = _choice(write_project, {"README.md": only, "verl/setup.py": SETUP.format(req="vllm<=0.6.3"), "verl/run.py": SERVE}, "verl/run.py")
    assert not (c.pin and c.pin.last_install)
    c = _choice(write_project, {"README.md": STEPS.format(v="0.8.5"), "verl/setup.py": SETUP.format(req="vllm"),
                                "verl/requirements.txt": "vllm==0.7.3\n", "verl/run.py": SERVE}, "verl/run.py")
    assert str(c.version) == "0.7.3"


def test_an_unknown_folder_stops_the_reading(write_project):
    readme = "```\ncd $HOME/verl\npip install -e .\npip install vllm==0.8.5\n```\n"
    c = _choice(write_project, {"README.md": readme, "verl/setup.py": SETUP.format(req="vllm<=0.6.3"), "verl/run.py": SERVE}, "verl/run.py")
    assert str(c.version) == "0.6.3" and not c.pin.last_install


def test_a_readme_line_speaks_for_its_own_folder_beside_pinned_projects(write_project):
    # RUCAIBox STILL-3-TOOL/README.md:20 vllm==0.6.5; VERL-STILL and OpenRLHF-STILL pin their own folders
    files = {"STILL-3-TOOL/README.md": "```\npip install vllm==0.6.5\n```\n",
             "STILL-3-TOOL/eval/run.py": "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-0.5B-Instruct', swap_space=16)\n",
             "VERL-STILL/pyproject.toml": '[project]\nname = "verl"\nversion = "0.1"\ndependencies = ["vllm<=0.6.3"]\n',
             "other/requirements.txt": "vllm==0.8.5\n", "other/run.py": SERVE}
    c = _choice(write_project, files, "STILL-3-TOOL/eval/run.py")
    assert str(c.version) == "0.6.5" and c.pin.kind == "docs"
    rep = audit(write_project(files), gpu="H100-80GB")
    sr = next(s for s in rep.sites if s.site.file == "STILL-3-TOOL/eval/run.py")
    assert not [r for r in sr.results if r.needs_change and r.priority == "P0"]
