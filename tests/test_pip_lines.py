"""Which shell words are a `pip install` whose requirements pin the project (engine/scan/pip_lines.py)."""
import pytest

from vllm_kb.engine.scan.install_pins import dockerfile_pins
from vllm_kb.engine.scan.pip_lines import PIP_INSTALL


@pytest.mark.parametrize("line,is_pip", [
    ('RUN python3.12 -m venv venv && venv/bin/pip install "vllm==0.27.1"', True),  # a venv's own pip
    ("RUN /opt/venv/bin/pip install vllm==0.8.5", True),
    ("RUN ${VENV}/bin/pip3.11 install vllm==0.8.5", True),
    ("RUN /opt/conda/bin/python3.11 -m pip install vllm==0.8.5", True),
    ("RUN uv pip install vllm==0.9.0", True),
    ("RUN pip3 install vllm", True),
    ("RUN pipx install vllm", False),
    ("RUN mypip install vllm", False),
])
def test_pip_by_any_path(line, is_pip):
    assert bool(PIP_INSTALL.search(line)) is is_pip


def test_a_venv_pip_pins_the_release():
    """An image that installs vLLM into its own venv (venv/bin/pip) pins that release; before, the
    audit assumed the newest one."""
    pins = dockerfile_pins("Dockerfile", 'FROM nvidia/cuda:13.0.1-base-ubuntu24.04\n'
                                         'RUN python3.12 -m venv venv && venv/bin/pip install "vllm==0.27.1"\n')
    assert [(p.package, p.exact, p.line) for p in pins] == [("vllm", "0.27.1", 2)]
