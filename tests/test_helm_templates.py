"""A Helm chart's templates are Go templates, not YAML: they are read as `helm template` would
render them with the chart's own values.yaml (engine/scan/deploy/helm_render.py, helm_chart.py).
What the template names plainly is the value; `include`, `.Release`, a value the chart leaves
empty or a branch on one of them is unknown, never guessed. castai/helm-charts' vLLM chart got no
site before: every template was skipped as invalid YAML."""
from __future__ import annotations

import json

from vllm_kb.engine.scan.deploy import helm_render
from vllm_kb.engine.scan.shell_expand import HOLE_OPEN

CHART = "apiVersion: v2\nname: llm\nversion: 0.1.0\nappVersion: \"0.9.2\"\n"
VALUES = """\
image: {repository: vllm/vllm-openai, tag: v0.9.2}
model: Qwen/Qwen2.5-7B-Instruct
dtype: half
eager: false
extraArgs: [--enable-prefix-caching]
resources:
  limits: {nvidia.com/gpu: 2}
"""
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "llm.fullname" . }}
  labels:
    {{- include "llm.labels" . | nindent 4 }}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          args:
            - --model
            - {{ .Values.model | quote }}
            - --dtype={{ .Values.dtype }}
            {{- if .Values.eager }}
            - --enforce-eager
            {{- end }}
            {{- if .Values.someoneElses }}
            - --max-num-seqs=8
            {{- end }}
            {{- if .Release.IsUpgrade }}
            - --swap-space=4
            {{- end }}
            {{- range .Values.extraArgs }}
            - {{ . | quote }}
            {{- end }}
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
"""


def _root(values: dict) -> dict:
    return {"Values": values, "Chart": {}, "Release": helm_render.UNKNOWN}


def test_lines_are_kept_and_plain_values_substituted():
    out = helm_render.render(DEPLOYMENT, _root({"model": "m", "dtype": "half", "extraArgs": [], "resources": {}}))
    assert len(out.splitlines()) == len(DEPLOYMENT.splitlines())
    lines = out.splitlines()
    assert lines[14].strip() == '- "m"' and lines[15].strip() == "- --dtype=half"
    assert "--enforce-eager" not in out and "--max-num-seqs" not in out


def test_an_unknown_condition_takes_no_branch_and_an_unknown_value_is_a_hole():
    out = helm_render.render('{{- if .Release.IsUpgrade }}\na\n{{- else }}\nb\n{{- end }}\nname: {{ include "x" . }}\n',
                             _root({}))
    assert "a" not in out.split("name")[0] and "b" not in out.split("name")[0]
    assert HOLE_OPEN in out.splitlines()[-1]
    # a value the chart leaves empty is the user's to give: unknown, not ""
    assert HOLE_OPEN in helm_render.render("m: {{ .Values.model.name }}", _root({"model": {"name": None}}))


def test_conditions_functions_and_else_if():
    t = '{{- if eq .Values.src "gcs" }}gs{{- else if and .Values.a (not .Values.b) }}ab{{- else }}other{{- end }}'
    assert helm_render.render(t, _root({"src": "gcs"})) == "gs"
    assert helm_render.render(t, _root({"src": "s3", "a": 1, "b": False})) == "ab"
    assert helm_render.render(t, _root({"src": "s3"})) == "other"
    assert helm_render.render('{{ .Values.x | default "y" | quote }}', _root({})) == '"y"'
    assert helm_render.render('{{ required "set it" .Values.x }}', _root({"x": 3})) == "3"


def _audit(cli, root, *extra):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", *extra)
    assert code in (0, 1), err
    return json.loads(out)


def test_a_chart_template_is_a_site_with_the_values_defaults(cli, write_project):
    root = write_project({"chart/Chart.yaml": CHART, "chart/values.yaml": VALUES, "chart/templates/deployment.yaml": DEPLOYMENT})
    rep = _audit(cli, root, "--gpu", "H100-80GB x2")
    (site,) = rep["sites"]
    assert (site["file"], site["vllm"]["version"]) == ("chart/templates/deployment.yaml", "0.9.2")
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct" and site["gpu_request"] == 2
    got = {s["name"]: (s["value"], s["line"]) for s in site["settings"]}
    assert got["dtype"] == ("half", 16) and got["enable_prefix_caching"][0] is True
    assert "swap_space" not in got and "max_num_seqs" not in got and "enforce_eager" not in got
    assert not rep.get("skipped")


def test_a_change_to_a_template_site_is_told_never_written(cli, write_project):
    """The value lives in values.yaml (or the user's own values): --fix does not edit the template."""
    values = VALUES.replace("dtype: half", "dtype: bfloat16")
    root = write_project({"chart/Chart.yaml": CHART, "chart/values.yaml": values, "chart/templates/deployment.yaml": DEPLOYMENT})
    (site,) = _audit(cli, root, "--gpu", "V100-32GB x2")["sites"]
    assert any(r["check"] for r in site["recommendations"] if r["priority"] == "P0")
    assert site["changes"] and not any(c.get("fixable") for c in site["changes"])


def test_a_configmap_script_runs_with_the_container_args(cli, write_project):
    script = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "llm.fullname" . }}-start
data:
  start.sh: |
    #!/bin/bash
    exec vllm serve --model="{{ .Values.model }}" "$@"
"""
    deployment = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: x}
spec:
  template:
    spec:
      volumes:
        - name: start
          configMap:
            name: {{ include "llm.fullname" . }}-start
      containers:
        - name: engine
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          command: ["/scripts/start.sh"]
          args:
            - "--dtype={{ .Values.dtype }}"
          volumeMounts:
            - {name: start, mountPath: /scripts}
"""
    root = write_project({"chart/Chart.yaml": CHART, "chart/values.yaml": VALUES,
                          "chart/templates/cm.yaml": script, "chart/templates/deploy.yaml": deployment})
    (site,) = _audit(cli, root)["sites"]
    assert site["file"] == "chart/templates/deploy.yaml" and site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    assert {s["name"]: s["value"] for s in site["settings"]}["dtype"] == "half"


def test_templates_of_a_chart_without_vllm_are_not_read(cli, write_project):
    root = write_project({"chart/Chart.yaml": CHART, "chart/values.yaml": "image: {repository: nginx}\n",
                          "chart/templates/deployment.yaml": DEPLOYMENT.replace("vllm", "web"),
                          "serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"})
    rep = _audit(cli, root)
    assert [s["file"] for s in rep["sites"]] == ["serve.sh"] and not rep.get("skipped")


def test_an_unknown_model_flag_value_is_still_the_model_flag(cli, write_project):
    """`--model="$M"`: the model is given by the option (its value unknown), not "no model"."""
    root = write_project({"run.sh": 'vllm serve --model="$M" --dtype=half\n', "requirements.txt": "vllm==0.11.2\n"})
    (site,) = _audit(cli, root)["sites"]
    assert not any("No model is given" in (r.get("reason") or r.get("message") or "") for r in site["recommendations"])


# Lintasarta/vllm-helm (https://github.com/Lintasarta/vllm-helm, eval66): a chart at the repository root
# whose image (a registry mirror of vllm-openai) and args come only from values.yaml, the model the
# first arg of the image's `vllm serve` entrypoint, the GPU count behind `index … "nvidia.com/gpu"`,
# and `affinity: {{ toYaml … | nindent 8 }}` on the key's own line. It was no site before.
MIRROR_VALUES = """\
app: small
modelName: Qwen/Qwen3-0.6B
image: {repository: registry.example.com/team/vllm-openai, tag: v0.11.2}
affinity: {nodeAffinity: {required: [{key: gpu, values: [L40S]}]}}
resources: {limits: {nvidia.com/gpu: "1"}}
extraArgs: ["--gpu-memory-utilization", "0.9", "--tensor-parallel-size", "1"]
"""
MIRROR_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Values.app }}
spec:
  template:
    spec:
      affinity: {{ toYaml .Values.affinity | nindent 8 }}
      containers:
      - name: {{ .Values.app }}
        image: {{ .Values.image.repository }}:{{ .Values.image.tag }}
        args:
          - "{{ .Values.modelName }}"
          {{- range .Values.extraArgs }}
          - "{{ . }}"
          {{- end }}
        resources:
          limits:
            nvidia.com/gpu: {{ index .Values.resources.limits "nvidia.com/gpu" | quote }}
"""


def test_index_and_a_to_yaml_on_its_key_line():
    root = _root({"r": {"limits": {"nvidia.com/gpu": 2}}, "aff": {"a": {"b": [1]}}})
    assert helm_render.render('{{ index .Values.r.limits "nvidia.com/gpu" }}', root) == "2"
    assert helm_render.render('{{ index .Values.r "nope" "deeper" }}', root) == HOLE_OPEN + "{{index .Values.r 'nope' 'deeper'}}\ue001"
    out = helm_render.render("spec:\n  affinity: {{ toYaml .Values.aff | nindent 4 }}\n  x: 1\n", root)
    assert out == 'spec:\n  affinity: {"a": {"b": [1]}}\n  x: 1\n'  # one flow mapping, the lines kept
    assert helm_render.render("  {{- toYaml .Values.aff | nindent 2 }}", root) == '  "a": {"b": [1]}'  # alone: block lines


def test_a_mirror_image_chart_whose_args_all_come_from_values(cli, write_project):
    root = write_project({"Chart.yaml": CHART, "values.yaml": MIRROR_VALUES, "templates/deployment.yaml": MIRROR_DEPLOYMENT})
    rep = _audit(cli, root)
    (site,) = rep["sites"]
    assert (site["file"], site["vllm"]["version"], site["model"]["name"]) == ("templates/deployment.yaml", "0.11.2", "Qwen/Qwen3-0.6B")
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert got["tensor_parallel_size"] in (1, "1") and site["gpu_request"] == 1 and not rep.get("skipped")


def test_a_mirror_image_whose_first_arg_is_a_program_or_older_entrypoint_is_no_model_launch(cli, write_project):
    """`args: ["bash", …]` is a program; before 0.11.1 the image runs the API server module, whose
    first positional is no model: neither is read as `vllm serve MODEL`."""
    for tag, first in (("v0.11.2", "bash"), ("v0.11.0", "Qwen/Qwen3-0.6B")):
        values = MIRROR_VALUES.replace("v0.11.2", tag).replace("modelName: Qwen/Qwen3-0.6B", f"modelName: {first}")
        root = write_project({"Chart.yaml": CHART, "values.yaml": values, "templates/deployment.yaml": MIRROR_DEPLOYMENT})
        assert not _audit(cli, root)["sites"]


def test_render_gaps_names_the_lines_of_yaml_left_out():
    root = _root({"x": 1})
    text = "a:\n  b: 1\n  env:\n    {{- include \"c.env\" . | nindent 4 }}\n{{- if .Release.IsUpgrade }}\n  c: 2\n{{- end }}\n"
    out, gaps = helm_render.render_gaps(text, root)
    assert out == helm_render.render(text, root) and "\ue003" not in out
    assert gaps == {4, 5}  # the include alone on its line; the `if` on an unknown
    assert helm_render.render_gaps("a: {{ .Values.x }}\n", root) == ("a: 1\n", frozenset())


GATED_VALUES = "image: {repository: vllm/vllm-openai, tag: v0.8.5}\nmodel: meta-llama/Llama-3.1-8B-Instruct\n"
GATED_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    {{- include "c.labels" . | nindent 4 }}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          args: ["--model", {{ .Values.model | quote }}]
          env:
            {{- include "c.env" . | nindent 12 }}
        - name: sidecar
          image: busybox
"""


def _l51(cli, root) -> str | None:
    (site,) = _audit(cli, root)["sites"]
    return next((r["priority"] for r in site["recommendations"] if r["check"] == "L51"), None)


def test_an_env_the_chart_includes_is_not_read_as_no_token(cli, write_project, tmp_path):
    """`env: {{- include "c.env" . | nindent 12 }}` (a named template in _helpers.tpl, often HF_TOKEN from a
    Secret): the rendered container shows no env, but what the include adds is unknown — L51 cannot say
    the gated model gets no token (was a P0). A chart whose include lies elsewhere (metadata labels,
    another container) still is one."""
    files = {"Chart.yaml": CHART, "values.yaml": GATED_VALUES}
    root = write_project({**files, "templates/deployment.yaml": GATED_DEPLOYMENT}, tmp_path / "a")
    assert _l51(cli, root) == "P1"
    no_env = GATED_DEPLOYMENT.replace('          env:\n            {{- include "c.env" . | nindent 12 }}\n', "")
    assert _l51(cli, write_project({**files, "templates/deployment.yaml": no_env}, tmp_path / "b")) == "P0"
    sidecar_env = no_env + '          env:\n            {{- include "c.env" . | nindent 12 }}\n'
    assert _l51(cli, write_project({**files, "templates/deployment.yaml": sidecar_env}, tmp_path / "c")) == "P0"


def test_a_template_that_renders_to_broken_yaml_is_skipped_at_its_line(cli, write_project, tmp_path):
    broken = GATED_DEPLOYMENT.replace("          env:\n", "          env: [\n")
    rep = _audit(cli, write_project({"Chart.yaml": CHART, "values.yaml": GATED_VALUES, "templates/deployment.yaml": broken}, tmp_path))
    got = [(s["file"], s["line"]) for s in rep["project"]["skipped"] if s["code"] == "helm-template"]
    assert got and got[0][0] == "templates/deployment.yaml" and isinstance(got[0][1], int) and not rep["sites"]


TOKEN_SWITCH = GATED_DEPLOYMENT.replace('            {{- include "c.env" . | nindent 12 }}\n', """\
            {{- if .Values.hfToken }}
            - name: HF_TOKEN
              value: {{ .Values.hfToken | quote }}
            {{- end }}
            {{- range .Values.extraEnv }}
            - {{ toYaml . | nindent 14 }}
            {{- end }}
            - name: VLLM_LOGGING_LEVEL
              value: INFO
""")


def test_a_token_the_chart_leaves_to_the_install_is_not_read_as_none(cli, write_project, tmp_path):
    """`{{- if .Values.hfToken }}` with `hfToken: ""` (or `extraEnv: []` ranged over): the chart's placeholders,
    which the install fills (`helm install --set hfToken=…`) — the branch is left out, its lines a gap, and
    L51 says P1, not that the container has no token. A chart that writes the token keeps none to say."""
    for k, (values, want) in enumerate(((GATED_VALUES + 'hfToken: ""\nextraEnv: [{name: A, value: "1"}]\n', "P1"),
                                        (GATED_VALUES + "hfToken: abc\nextraEnv: []\n", None),
                                        (GATED_VALUES + "hfToken: false\nextraEnv: [{name: A, value: '1'}]\n", "P0"))):
        root = write_project({"Chart.yaml": CHART, "values.yaml": values, "templates/deployment.yaml": TOKEN_SWITCH}, tmp_path / str(k))
        assert _l51(cli, root) == want, values
    out, gaps = helm_render.render_gaps("{{- if .Values.a }}\nx: 1\n{{- end }}\n{{- with .Values.b }}\ny: 1\n{{- end }}\n",
                                        _root({"a": "", "b": False}))
    assert gaps == {1} and "x:" not in out and "y:" not in out  # `false` is a choice, "" a placeholder


def test_include_printf_empty_and_an_escaped_action():
    helpers = ('{{- define "c.image" -}}\n{{- if quote .Values.image.tag | hasPrefix "sha256:" }}\n'
               '{{- printf "%s@%s" .Values.image.image .Values.image.tag }}\n{{- else }}\n'
               '{{- printf "%s:%s" .Values.image.image .Values.image.tag }}\n{{- end }}\n{{- end }}\n'
               '{{- define "c.labels" -}}\na: b\nc: d\n{{- end }}\n')
    from vllm_kb.engine.scan.deploy import helm_chart

    root = {"Values": {"image": {"image": "reg.io/org/vllm", "tag": "3.3.0"}, "name": "", "mode": "URI"}, "Release": helm_render.UNKNOWN}
    root[helm_render.INCLUDE] = lambda name, dot: helm_chart._include(helm_chart._defines(helpers), name, dot, root, [0])
    out = helm_render.render('image: {{ include "c.image" . }}\nl: {{ include "c.labels" . }}\n'
                             'e: {{ not (quote .Values.name | empty) }}\nm: {{ lower .Values.mode }}\n'
                             'n: --name={{ "{{" }} .Name {{ "}}" }}\n', root)
    lines = out.split("\n")
    assert lines[0] == "image: reg.io/org/vllm:3.3.0" and HOLE_OPEN in lines[1]  # several lines: unknown, as before
    assert lines[2:5] == ["e: true", "m: uri", "n: --name={{ .Name }}"]  # `quote ""` is two characters, never empty


# eval70 (redhat-ai-services/helm-charts, charts/vllm-kserve): the ServingRuntime and the InferenceService are
# both templates, named by the same `include`, the image by another; the service's model.args add to the runtime's
KSERVE_HELPERS = ('{{- define "k.name" -}}\n{{- default (include "k.full" .) .Values.servingRuntime.name -}}\n{{- end }}\n'
                  '{{- define "k.full" -}}\n{{- .Release.Name | trunc 63 }}\n{{- end }}\n'
                  '{{- define "k.image" -}}\n{{- printf "%s:%s" .Values.image.image .Values.image.tag }}\n{{- end }}\n')
KSERVE_VALUES = ("image: {image: registry.example.io/rhaiis/vllm-cuda-rhel9, tag: 3.3.0-1771898916}\n"
                 "model: {args: ['--gpu-memory-utilization=0.90'], uri: 'hf://org/m'}\n"
                 "servingRuntime:\n  name: ''\n  useExisting: ''\n  command: [python, '-m', vllm.entrypoints.openai.api_server]\n"
                 "  args: ['--port=8080', '--model=/mnt/models']\n")
KSERVE_RUNTIME = """\
{{- if not (quote .Values.servingRuntime.useExisting | empty) }}
apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: {{ include "k.name" . }}
spec:
  containers:
    - name: kserve-container
      image: {{ include "k.image" . }}
      command:
        {{- toYaml .Values.servingRuntime.command | nindent 8 }}
      args:
        {{- toYaml .Values.servingRuntime.args | nindent 8 }}
{{- end }}
"""
KSERVE_ISVC = """\
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: {{ include "k.full" . }}
spec:
  predictor:
    model:
      args:
        - --served-model-name={{ "{{" }}.Name{{ "}}" }}
        {{- toYaml .Values.model.args | nindent 8 }}
      modelFormat: {name: vLLM}
      runtime: {{ include "k.name" . }}
      storageUri: {{ .Values.model.uri }}
"""


def test_a_charts_inference_service_takes_the_runtime_the_chart_renders(cli, write_project):
    root = write_project({"c/Chart.yaml": CHART, "c/values.yaml": KSERVE_VALUES, "c/templates/_helpers.tpl": KSERVE_HELPERS,
                          "c/templates/servingruntime.yaml": KSERVE_RUNTIME, "c/templates/inferenceservice.yaml": KSERVE_ISVC})
    (site,) = _audit(cli, root, "--gpu", "H100-80GB x8")["sites"]  # not the values' command line again
    assert site["file"] == "c/templates/inferenceservice.yaml" and site["model"]["name"] == "org/m"
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.13.0", "image")
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert got["gpu_memory_utilization"] == 0.9 and got["port"] == 8080
    assert site["gpu_count"] is None and next(c for c in site["checks"] if c["id"] == "C3")["status"] == "unknown"


# eval93 sagiahrac/llm-d-kv-cache-manager (https://github.com/sagiahrac/llm-d-kv-cache-manager, vllm-setup-helm):
# the image is `{{ include "chart.vllmImage" . }}`, a define that sets `$tag := default .Chart.AppVersion
# .Values.vllm.image.tag` first (v0.10.0 in values.yaml), and the args are one `sh -c` script whose lines
# `{{- if … }}` joins; the site was judged at 0.34.0 from an unbounded `vllm` elsewhere, its script cut after
# --trust-remote-code, and 0.10.0's refusal of `--prefix-caching-hash-algo sha256_cbor` missed.
LLMD_HELPERS = """\
{{- define "chart.vllmImage" -}}
{{- $tag := default .Chart.AppVersion .Values.vllm.image.tag -}}
{{- printf "%s:%s" .Values.vllm.image.repository $tag -}}
{{- end -}}
"""
LLMD_VALUES = """\
vllm:
  image: {repository: vllm/vllm-openai, tag: "v0.10.0"}
  model: {name: Qwen/Qwen3-8B}
  enableChunkedPrefill: true
  gpuMemoryUtilization: null
kvCacheManager: {enabled: true}
"""
LLMD_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: {{ include "chart.vllmImage" . }}
          command: [/bin/sh, '-c']
          args:
            - |
              vllm serve {{ .Values.vllm.model.name }} \\
              --trust-remote-code \\
              {{- if .Values.vllm.enableChunkedPrefill }}
              --enable-chunked-prefill \\{{- else }}--no-enable-chunked-prefill \\
              {{- end }}
              {{- if .Values.vllm.gpuMemoryUtilization }}
              --gpu-memory-utilization {{ .Values.vllm.gpuMemoryUtilization }} \\
              {{- end }}
              {{- if .Values.kvCacheManager.enabled }}
              --prefix-caching-hash-algo sha256_cbor \\
              {{- end }}
          resources: {limits: {nvidia.com/gpu: 1}}
"""


def test_a_define_with_a_variable_gives_the_image_and_the_script_keeps_its_joined_lines(cli, write_project):
    root = write_project({"chart/Chart.yaml": CHART.replace('appVersion: "0.9.2"\n', ""), "chart/values.yaml": LLMD_VALUES,
                          "chart/templates/_helpers.tpl": LLMD_HELPERS, "chart/templates/deployment.yaml": LLMD_DEPLOYMENT,
                          "kv/pyproject.toml": '[project]\nname = "kv"\nversion = "0.1"\ndependencies = ["vllm"]\n'})
    (site,) = _audit(cli, root, "--gpu", "H100-80GB")["sites"]
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.10.0", "image")
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert got["enable_chunked_prefill"] is True and got["prefix_caching_hash_algo"] == "sha256_cbor"
    p0 = [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]
    assert p0 == ["value-not-in-version:prefix_caching_hash_algo=sha256_cbor"]


def test_template_variables_in_order_and_unknown_after_a_block_left_out():
    t = ('{{- $t := .Values.tag -}}\na: {{ $t }}\n{{- $t = "x" }}\nb: {{ $t }}\n'
         '{{- if .Release.IsUpgrade }}{{ $t = "y" }}{{ end }}\nc: {{ $t }}\nd: {{ $cfg.model }}\n')
    lines = helm_render.render(t, _root({"tag": "v1"})).split("\n")
    assert (lines[1], lines[3]) == ("a: v1", "b: x") and HOLE_OPEN in lines[5] and HOLE_OPEN in lines[6]


def test_the_template_action_prints_the_define_as_include_does():
    from vllm_kb.engine.scan.deploy import helm_chart

    root = {"Values": {"vllm": {"image": {"repository": "vllm/vllm-openai", "tag": "v0.10.0"}}}, "Chart": {}}
    root[helm_render.INCLUDE] = lambda name, dot: helm_chart._include(helm_chart._defines(LLMD_HELPERS), name, dot, root, [0])
    assert helm_render.render('image: {{ template "chart.vllmImage" . }}', root) == "image: vllm/vllm-openai:v0.10.0"
