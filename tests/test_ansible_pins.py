"""vLLM installed by an Ansible playbook's pip or shell task (engine/scan/ansible_pins.py): the
release of the launches in the playbook's folder (a role's tasks: the role's folder) when the
playbooks agree, never a guess when not."""
from __future__ import annotations

import pytest

from vllm_kb.engine.scan import ansible_pins

SERVE = "    - name: serve\n      ansible.builtin.shell: nohup vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 &\n"
PLAY = "- hosts: gpu\n  become: true\n  tasks:\n{task}" + SERVE


@pytest.mark.parametrize("task,version", [
    ("    - ansible.builtin.pip:\n        name: vllm\n        version: 0.9.2\n", "0.9.2"),
    ("    - pip: name=vllm==0.8.5 state=present\n", "0.8.5"),
    ("    - pip:\n        name: [torch==2.6.0, vllm==0.8.4]\n", "0.8.4"),
    ("    - ansible.builtin.pip: {name: 'vllm==0.10.1.1,ray'}\n", "0.10.1.1"),
    ("    - shell: pip install /opt/wheels/vllm-0.16.0rc2-cp38-abi3-manylinux1_x86_64.whl\n", "0.16.0rc2"),
    ("    - command:\n        cmd: python3 -m pip install -U vllm==0.7.3\n", "0.7.3"),
])
def test_a_playbook_install_is_the_release_of_its_launch(write_project, json_site, task, version):
    v = json_site(write_project({"deploy/site.yml": PLAY.format(task=task)}))["vllm"]
    assert v["version"] == version and v["pinned"] and "deploy/site.yml" in v["source"], v


def test_playbooks_that_disagree_name_no_release(write_project, json_site):
    root = write_project({"deploy/site.yml": PLAY.format(task="    - pip: name=vllm==0.8.5\n"),
                          "deploy/upgrade.yml": "- hosts: gpu\n  tasks:\n    - pip: name=vllm==0.9.2\n"})
    v = json_site(root)["vllm"]
    assert not v["pinned"] and "deploy/" not in (v["source"] or ""), v


def test_only_pip_and_shell_tasks_are_read():
    text = "- hosts: gpu\n  tasks:\n    - debug: msg='pip install vllm==0.1.0'\n    - apt: name=vllm\n"
    assert ansible_pins.could_be(text) is False and ansible_pins.pins(None, "x.yml", text) == []
    k8s = "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - command: [pip, install, vllm==0.6.3]\n"
    assert ansible_pins.pins(None, "pod.yaml", k8s) == []  # no playbook: a mapping at the top


def test_a_roles_tasks_install_for_the_whole_role(write_project, json_site):
    # the role's tasks/main.yml installs vLLM; the script its files/ put on the host runs that release,
    # over the project's own unpinned requirement at the root
    root = write_project({
        "requirements.txt": "vllm>=0.8.0\n",
        "deploy/roles/vllm/tasks/main.yml": "- name: install\n  ansible.builtin.pip:\n    name: vllm==0.9.2\n",
        "deploy/roles/vllm/files/serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192\n",
    })
    v = json_site(root)["vllm"]
    assert v["version"] == "0.9.2" and v["pinned"] and "deploy/roles/vllm/tasks/main.yml" in v["source"], v
    assert ansible_pins._role("deploy/roles/vllm/tasks/main.yml") == "deploy/roles/vllm"
    assert ansible_pins._role("roles/vllm/handlers/x.yml") == "roles/vllm"
    assert ansible_pins._role("deploy/site.yml") is None and ansible_pins._role("roles/vllm/files/x.yml") is None
