"""An app that spawns vLLM through a driver class (vllm-warden app/runtime/engine/local_subprocess.py,
eval75): `head = [self._binary] + (["serve"] if self._binary == "vllm" else [])` and
`asyncio.create_subprocess_exec(*head, *spec.args)`. The binary is the `__init__` default every
instantiation of the project leaves (a test module's double is not how the project runs), the
`serve` branch is the one that default picks, and the arguments known only at run time are said
to be unknown on the site, not guessed."""
import textwrap

from vllm_kb.engine.audit import audit

DRIVER = """
    import asyncio


    class LocalDriver:
        def __init__(self, *, binary: str = "vllm", log_dir: str) -> None:
            self._binary = binary
            self._log_dir = log_dir

        async def spawn(self, spec):
            head = [self._binary] + (["serve"] if self._binary == "vllm" else [])
            return await asyncio.create_subprocess_exec(*head, *spec.args, start_new_session=True)
"""

APP = """
    def make_driver(settings):
        from app.local import LocalDriver

        return LocalDriver(log_dir=settings.logs)
"""

TEST = """
    from app.local import LocalDriver


    def test_spawn(tmp_path):
        drv = LocalDriver(binary="/bin/sh", log_dir=str(tmp_path))
"""


def _write(root, files: dict[str, str]):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


def test_driver_default_binary_is_a_serve_site_with_unknown_arguments(tmp_path):
    _write(tmp_path, {"app/__init__.py": "", "app/local.py": DRIVER, "app/main.py": APP,
                      "tests/unit/test_local.py": TEST})
    (sr,) = audit(tmp_path, gpu="none").sites
    assert sr.site.kind == "vllm serve" and sr.site.file == "app/local.py"
    assert [(o["code"], o["what"]) for o in sr.site.opaque] == [("run-time-args", "*spec.args")]
    assert "L33" not in {r.check.id for r in sr.results if r.priority in ("P0", "P1")}  # the model may be among them
    assert sr.site.model is None or sr.site.model.value is None  # the model comes with the run-time argv
    assert not [r for r in sr.results if r.priority == "P0"]


def test_no_instantiation_leaves_the_binary_unknown(tmp_path):
    _write(tmp_path, {"app/__init__.py": "", "app/local.py": DRIVER})
    assert audit(tmp_path, gpu="none").sites == []


def test_instantiations_that_disagree_leave_the_binary_unknown(tmp_path):
    other = """
        from app.local import LocalDriver

        def alt():
            return LocalDriver(binary="/opt/sglang/bin/launch", log_dir="x")
    """
    _write(tmp_path, {"app/__init__.py": "", "app/local.py": DRIVER, "app/main.py": APP, "app/alt.py": other})
    assert audit(tmp_path, gpu="none").sites == []


def test_serve_under_an_undecided_condition_is_left_out(tmp_path):
    _write(tmp_path, {"spawn.py": """
        import asyncio

        async def spawn(args, serve):
            head = ["vllm"] + (["serve"] if serve else [])
            return await asyncio.create_subprocess_exec(*head, *args)
    """})
    assert audit(tmp_path, gpu="none").sites == []


def test_literal_spawn_says_its_spread_arguments_are_unknown(tmp_path):
    _write(tmp_path, {"spawn.py": """
        import asyncio

        async def spawn(args):
            return await asyncio.create_subprocess_exec("vllm", "serve", *args)
    """})
    (sr,) = audit(tmp_path, gpu="none").sites
    assert [o["what"] for o in sr.site.opaque] == ["*args"]


def test_docker_sdk_image_from_the_environment_is_no_site(tmp_path):
    # the image is whatever the operator sets (vllm-warden docker_socket.py): nothing says it is vLLM's
    _write(tmp_path, {"drv.py": """
        import os
        import docker

        class DockerDriver:
            def __init__(self, client, image):
                self._client = client
                self._image = image

            def spawn(self, spec):
                image = spec.image or self._image
                return self._client.containers.run(image, command=spec.args, detach=True)

        def make():
            return DockerDriver(docker.from_env(), os.environ["VLLM_ENGINE_IMAGE"])
    """})
    assert audit(tmp_path, gpu="none").sites == []


def test_docker_sdk_image_defaulted_in_the_project_is_a_site_with_unknown_arguments(tmp_path):
    # the driver's image is a default the project writes, and its instantiation leaves it
    _write(tmp_path, {"drv.py": """
        import os
        import docker

        IMAGE = os.environ.get("VLLM_ENGINE_IMAGE", "vllm/vllm-openai:v0.10.1")

        class DockerDriver:
            def __init__(self, client, image=IMAGE):
                self._client = client
                self._image = image

            def spawn(self, spec):  # a per-model image may replace it: unknown, no site
                return self._client.containers.run(spec.image or self._image, command=spec.args)

            def spawn_default(self, args):
                return self._client.containers.run(self._image, command=args, detach=True)

        def make():
            return DockerDriver(docker.from_env())
    """})
    (sr,) = audit(tmp_path, gpu="none").sites
    assert sr.site.line == 16 and sr.site.image == "vllm/vllm-openai:v0.10.1"
    assert [o["what"].strip("\ue000\ue001") for o in sr.site.opaque] == ["args"]  # a hole: unknown at run time
    assert not [r for r in sr.results if r.priority == "P0"]
