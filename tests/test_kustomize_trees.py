"""Kustomize trees migrated as wholes, each checked with the real ``kubectl kustomize``:
the migrated tree must build, and build what migrating the original build gives.
"""

from __future__ import annotations

from pathlib import Path

from .kustomize_helpers import build, check_builds_the_same, findings, migrate, objects, texts, write_tree

INGRESS_BASE = {
    "base/kustomization.yaml": """
        resources:
        - ingress.yaml
        - service.yaml
    """,
    "base/ingress.yaml": """
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
        spec:
          backend:
            serviceName: web
            servicePort: 80
          rules:
          - host: example.com
            http:
              paths:
              - path: /
                backend:
                  serviceName: web
                  servicePort: 80
    """,
    "base/service.yaml": """
        apiVersion: v1
        kind: Service
        metadata:
          name: web
        spec:
          ports:
          - port: 80
    """,
}

# ------------------------------------------------------------------ no-op


def test_a_tree_on_current_apis_is_left_byte_identical(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "base/kustomization.yaml": "resources:\n- deploy.yaml\n",
            "base/deploy.yaml": """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  selector:
                    matchLabels: {app: a}
                  template:
                    metadata:
                      labels: {app: a}
                    spec:
                      containers:
                      - name: app
                        image: nginx
            """,
            "prod/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: replicas.yaml\n",
            "prod/replicas.yaml": """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  replicas: 3
            """,
        },
    )
    before = texts(tmp_path)
    run = migrate(tmp_path)
    assert texts(tmp_path) == before
    assert not findings(run)


# ------------------------------------------------------------------ strategic merge patches


def test_a_strategic_merge_patch_moves_with_its_base(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **INGRESS_BASE,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                patchesStrategicMerge:
                - ingress.yaml  # the production host
            """,
            "prod/ingress.yaml": """
                apiVersion: extensions/v1beta1
                kind: Ingress
                metadata:
                  name: web
                spec:
                  backend:
                    serviceName: web-prod  # the production service
                  rules:
                  - host: prod.example.com
                    http:
                      paths:
                      - path: /
                        backend:
                          serviceName: web-prod
                          servicePort: 8080
            """,
        },
    )
    check_builds_the_same(tmp_path, ["base", "prod"])
    assert (tmp_path / "prod/ingress.yaml").read_text() == (
        "apiVersion: networking.k8s.io/v1\n"
        "kind: Ingress\n"
        "metadata:\n"
        "  name: web\n"
        "spec:\n"
        "  defaultBackend:\n"
        "    service:\n"
        "      name: web-prod  # the production service\n"
        "  rules:\n"
        "  - host: prod.example.com\n"
        "    http:\n"
        "      paths:\n"
        "      - path: /\n"
        "        pathType: ImplementationSpecific\n"
        "        backend:\n"
        "          service:\n"
        "            name: web-prod\n"
        "            port:\n"
        "              number: 8080\n"
    )


def test_a_json_patch_gets_its_target_and_paths_moved(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **INGRESS_BASE,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                patchesJson6902:
                - target:
                    group: extensions
                    version: v1beta1
                    kind: Ingress
                    name: web
                  path: ingress-patch.yaml
            """,
            "prod/ingress-patch.yaml": """
                - op: replace
                  path: /spec/backend/serviceName
                  value: web-prod
                - op: replace
                  path: /spec/rules/0/http/paths/0/backend/servicePort
                  value: 8080
            """,
        },
    )
    run = check_builds_the_same(tmp_path, ["prod"])
    assert "group: networking.k8s.io\n    version: v1\n" in (tmp_path / "prod/kustomization.yaml").read_text()
    assert (tmp_path / "prod/ingress-patch.yaml").read_text() == (
        "- op: replace\n"
        "  path: /spec/defaultBackend/service/name\n"
        "  value: web-prod\n"
        "- op: replace\n"
        "  path: /spec/rules/0/http/paths/0/backend/service/port/number\n"
        "  value: 8080\n"
    )
    assert any("/spec/backend/serviceName → /spec/defaultBackend/service/name" in f.message for f in findings(run))


def test_inline_patches_are_rewritten_inside_their_block(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **INGRESS_BASE,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                patches:
                - patch: |-
                    apiVersion: extensions/v1beta1
                    kind: Ingress
                    metadata:
                      name: web
                    spec:
                      backend:
                        serviceName: web-prod
                - target:
                    kind: Ingress
                    version: v1beta1
                  patch: |-
                    - op: add
                      path: /spec/rules/0/http/paths/-
                      value:
                        path: /api
                        backend:
                          serviceName: api
                          servicePort: http
            """,
        },
    )
    check_builds_the_same(tmp_path, ["prod"])
    kustomization = (tmp_path / "prod/kustomization.yaml").read_text()
    assert "apiVersion: networking.k8s.io/v1\n" in kustomization
    assert "    version: v1\n" in kustomization
    assert "  patch: |-\n    - op: add\n      path: /spec/rules/0/http/paths/-\n" in kustomization
    assert "            name: http\n" in kustomization


def test_a_component_patches_what_its_includer_accumulates(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **INGRESS_BASE,
            "prod/kustomization.yaml": "resources:\n- ../base\ncomponents:\n- ../tls\n",
            "tls/kustomization.yaml": """
                apiVersion: kustomize.config.k8s.io/v1alpha1
                kind: Component
                patches:
                - path: tls.yaml
            """,
            "tls/tls.yaml": """
                apiVersion: extensions/v1beta1
                kind: Ingress
                metadata:
                  name: web
                spec:
                  tls:
                  - hosts: [example.com]
                    secretName: web-tls
            """,
        },
    )
    check_builds_the_same(tmp_path, ["prod"])
    assert (tmp_path / "tls/tls.yaml").read_text().startswith("apiVersion: networking.k8s.io/v1\n")


# ------------------------------------------------------------------ all or nothing

WEBHOOK = {
    "base/kustomization.yaml": "resources:\n- webhook.yaml\n",
    "base/webhook.yaml": """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfiguration
        metadata:
          name: hook
        webhooks:
        - name: hook.example.com
          clientConfig:
            service:
              name: hook
              namespace: default
          rules:
          - apiGroups: [""]
            apiVersions: [v1]
            operations: [CREATE]
            resources: [pods]
    """,
    "overlay/kustomization.yaml": "resources:\n- ../base\npatchesStrategicMerge:\n- webhook.yaml\n",
    "overlay/webhook.yaml": """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfiguration
        metadata:
          name: hook
          annotations:
            cert-manager.io/inject-ca-from: default/hook-cert
    """,
}


def test_a_patch_stays_with_a_base_held_back_by_a_decision(tmp_path: Path) -> None:
    write_tree(tmp_path, WEBHOOK)
    before = texts(tmp_path)
    run = migrate(tmp_path)
    assert texts(tmp_path) == before
    build(tmp_path / "overlay")
    held = findings(run, "K8SM-KUS-002")
    assert len(held) == 1
    assert held[0].filename.endswith("overlay/webhook.yaml") and held[0].level == "error"
    assert "base/webhook.yaml" in held[0].message and "sideEffects" in held[0].message


def test_with_the_decision_given_base_and_patch_move_together(tmp_path: Path) -> None:
    write_tree(tmp_path, WEBHOOK)
    check_builds_the_same(tmp_path, ["overlay"], decisions={"sideEffects": "None"})
    assert (tmp_path / "overlay/webhook.yaml").read_text().startswith("apiVersion: admissionregistration.k8s.io/v1\n")


def test_old_defaults_land_in_a_patch_only_where_the_base_lacks_them(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **WEBHOOK,
            "overlay/webhook.yaml": """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingWebhookConfiguration
                metadata:
                  name: hook
                webhooks:
                - name: hook.example.com
                  timeoutSeconds: 5
                - name: second.example.com
                  clientConfig:
                    service:
                      name: second
                      namespace: default
            """,
        },
    )
    check_builds_the_same(tmp_path, ["overlay"], decisions={"sideEffects": "None"})
    patch = (tmp_path / "overlay/webhook.yaml").read_text()
    first, second = patch.split("- name: second.example.com")
    assert "failurePolicy" not in first and "sideEffects" not in first  # the base has them now
    assert "failurePolicy: Ignore" in second and "sideEffects: None" in second


def test_a_json_patch_path_with_no_equivalent_holds_base_and_patch(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "base/kustomization.yaml": "resources:\n- deploy.yaml\n",
            "base/deploy.yaml": """
                apiVersion: extensions/v1beta1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  rollbackTo:
                    revision: 2
                  template:
                    metadata:
                      labels: {app: a}
                    spec:
                      containers:
                      - name: app
                        image: nginx
            """,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                patches:
                - target: {kind: Deployment, name: app}
                  patch: |-
                    - op: replace
                      path: /spec/rollbackTo/revision
                      value: 3
            """,
        },
    )
    before = texts(tmp_path)
    run = migrate(tmp_path, target_version="1.16")
    assert texts(tmp_path) == before
    held = findings(run, "K8SM-KUS-002")
    assert {Path(f.filename).name for f in held} == {"deploy.yaml", "kustomization.yaml"}
    assert all("/spec/rollbackTo/revision" in f.message or "kustomization.yaml" in f.message for f in held)
    assert objects(build(tmp_path / "prod"))


# ------------------------------------------------------------------ references

HPA = {
    "base/kustomization.yaml": "resources:\n- hpa.yaml\n",
    "base/hpa.yaml": """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata:
          name: web
        spec:
          scaleTargetRef:
            apiVersion: apps/v1
            kind: Deployment
            name: web
          minReplicas: 1
          maxReplicas: 5
          metrics:
          - type: Resource
            resource:
              name: cpu
              targetAverageUtilization: 80
    """,
}


def test_hpa_metric_targets_move_in_smp_and_json_patches(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **HPA,
            "smp/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: hpa.yaml\n",
            "smp/hpa.yaml": """
                apiVersion: autoscaling/v2beta1
                kind: HorizontalPodAutoscaler
                metadata:
                  name: web
                spec:
                  metrics:
                  - type: Resource
                    resource:
                      name: memory
                      targetAverageValue: 500Mi
            """,
            "json/kustomization.yaml": """
                resources:
                - ../base
                patches:
                - target: {group: autoscaling, version: v2beta1, kind: HorizontalPodAutoscaler}
                  patch: |-
                    - op: replace
                      path: /spec/metrics/0/resource/targetAverageUtilization
                      value: 60
            """,
        },
    )
    check_builds_the_same(tmp_path, ["smp", "json"])
    assert "averageValue: 500Mi" in (tmp_path / "smp/hpa.yaml").read_text()
    assert (
        "path: /spec/metrics/0/resource/target/averageUtilization" in (tmp_path / "json/kustomization.yaml").read_text()
    )


def test_vars_replacements_and_field_specs_follow_their_objects(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **INGRESS_BASE,
            "prod/config.yaml": """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: settings
                data:
                  host: placeholder
                  backend: placeholder
            """,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                - config.yaml
                vars:
                - name: BACKEND
                  objref:
                    apiVersion: extensions/v1beta1
                    kind: Ingress
                    name: web
                  fieldref:
                    fieldpath: spec.backend.serviceName
                replacements:
                - source:
                    kind: Ingress
                    group: extensions
                    version: v1beta1
                    name: web
                    fieldPath: spec.rules.0.http.paths.0.backend.serviceName
                  targets:
                  - select:
                      kind: ConfigMap
                    fieldPaths:
                    - data.backend
                configurations:
                - params.yaml
            """,
            "prod/params.yaml": """
                varReference:
                - path: spec/rules/host
                  kind: Ingress
            """,
        },
    )
    (tmp_path / "base/ingress.yaml").write_text(
        (tmp_path / "base/ingress.yaml").read_text().replace("host: example.com", "host: $(BACKEND).example.com")
    )
    check_builds_the_same(tmp_path, ["prod"])
    kustomization = (tmp_path / "prod/kustomization.yaml").read_text()
    assert "apiVersion: networking.k8s.io/v1\n" in kustomization
    assert "fieldpath: spec.defaultBackend.service.name\n" in kustomization
    assert "fieldPath: spec.rules.0.http.paths.0.backend.service.name\n" in kustomization
    assert "group: networking.k8s.io\n    version: v1\n" in kustomization


def test_generator_inputs_are_data_even_when_they_look_like_manifests(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app/kustomization.yaml": """
                configMapGenerator:
                - name: examples
                  files:
                  - ingress.yaml
            """,
            "app/ingress.yaml": """
                apiVersion: extensions/v1beta1
                kind: Ingress
                metadata:
                  name: example
            """,
        },
    )
    before = texts(tmp_path)
    migrate(tmp_path)
    assert texts(tmp_path) == before


# ------------------------------------------------------------------ deprecated kustomization fields (opt-in)

OLD_STYLE = {
    **INGRESS_BASE,
    "prod/kustomization.yaml": """
        # production
        bases:
        - ../base  # the shared base
        resources:
        - extra.yaml
        commonLabels:
          team: web  # owner
        patchesStrategicMerge:
        # replicas first
        - extra-patch.yaml
        - |-
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: extra
          data:
            inline: "yes"
        patchesJson6902:
        - target: {version: v1, kind: ConfigMap, name: extra}
          path: extra-json.yaml
        configMapGenerator:
        - name: settings
          env: settings.env
    """,
    "prod/extra.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  a: b\n",
    "prod/extra-patch.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  c: d\n",
    "prod/extra-json.yaml": "- op: add\n  path: /data/e\n  value: f\n",
    "prod/settings.env": "LEVEL=debug\n",
}


def test_deprecated_kustomization_fields_stay_unless_asked(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD_STYLE)
    migrate(tmp_path, target_version="1.16")  # nothing removed at 1.16 here
    assert "bases:\n" in (tmp_path / "prod/kustomization.yaml").read_text()


def test_edit_fix_moves_deprecated_fields_keeping_comments_and_the_build(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD_STYLE)
    run = check_builds_the_same(tmp_path, ["prod"], only=("kustomize_edit_fix",))
    assert (tmp_path / "prod/kustomization.yaml").read_text() == (
        "# production\n"
        "resources:\n"
        "- extra.yaml\n"
        "- ../base  # the shared base\n"
        "labels:\n"
        "- pairs:\n"
        "    team: web  # owner\n"
        "  includeSelectors: true\n"
        "patches:\n"
        "- target: {version: v1, kind: ConfigMap, name: extra}\n"
        "  path: extra-json.yaml\n"
        "# replicas first\n"
        "- path: extra-patch.yaml\n"
        "- patch: |-\n"
        "    apiVersion: v1\n"
        "    kind: ConfigMap\n"
        "    metadata:\n"
        "      name: extra\n"
        "    data:\n"
        '      inline: "yes"\n'
        "configMapGenerator:\n"
        "- name: settings\n"
        "  envs:\n"
        "  - settings.env\n"
    )
    assert {f.message for f in findings(run, "K8SM-KUS-010")} == {
        "bases → resources",
        "patchesJson6902 → patches",
        "patchesStrategicMerge → patches",
        "commonLabels → labels (includeSelectors: true)",
        "configMapGenerator env → envs",
    }


def test_edit_fix_leaves_vars_with_a_warning(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app/kustomization.yaml": """
                resources:
                - config.yaml
                vars:
                - name: NAME
                  objref: {apiVersion: v1, kind: ConfigMap, name: config}
            """,
            "app/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\n",
        },
    )
    before = texts(tmp_path)
    run = migrate(tmp_path, only=("kustomize_edit_fix",))
    assert texts(tmp_path) == before
    assert [f.level for f in findings(run, "K8SM-KUS-011")] == ["warning"]


# ------------------------------------------------------------------ scan, the library and the CLI


def test_scan_lists_what_only_the_tree_tells_with_file_and_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from k8smigrate.cli import app

    write_tree(
        tmp_path,
        {
            **INGRESS_BASE,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                patches:
                - target: {group: extensions, version: v1beta1, kind: Ingress}
                  patch: |-
                    - op: replace
                      path: /spec/backend/serviceName
                      value: web-prod
                configMapGenerator:
                - name: examples
                  files:
                  - example.yaml
            """,
            "prod/example.yaml": "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: example\n",
        },
    )
    before = texts(tmp_path)
    result = CliRunner().invoke(app, ["scan", "--target-version", "1.29", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    kustomization = str(tmp_path / "prod/kustomization.yaml")
    assert (
        f"{kustomization}:4: kustomize        Ingress web patches[0].target group: extensions → networking.k8s.io"
        in (result.stdout)
    )
    assert any(
        line.startswith(f"{kustomization}:7: kustomize")
        and "JSON patch path /spec/backend/serviceName → /spec/defaultBackend/service/name" in line
        for line in lines
    )
    assert not any("example.yaml" in line for line in lines)  # a generator's input is data
    assert texts(tmp_path) == before


def test_migrate_paths_migrates_trees_as_wholes(tmp_path: Path) -> None:
    import k8smigrate

    write_tree(tmp_path, WEBHOOK)
    outcomes = list(
        k8smigrate.migrate_paths(
            [tmp_path],
            in_place=True,
            settings=k8smigrate.Settings(target_version="1.29", decisions={"sideEffects": "None"}),
        )
    )
    assert sorted(Path(o.path).name for o in outcomes if o.written) == ["webhook.yaml", "webhook.yaml"]
    assert (tmp_path / "overlay/webhook.yaml").read_text().startswith("apiVersion: admissionregistration.k8s.io/v1\n")
    build(tmp_path / "overlay")


# ------------------------------------------------------------------ objects as their kustomization builds them


def test_an_object_its_patch_completes_moves_with_the_patch(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "webhook/kustomization.yaml": "resources:\n- manifests.yaml\npatches:\n- path: patch.yaml\n",
            "webhook/manifests.yaml": WEBHOOK["base/webhook.yaml"],
            "webhook/patch.yaml": """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingWebhookConfiguration
                metadata:
                  name: hook
                webhooks:
                - name: hook.example.com
                  sideEffects: None
                  timeoutSeconds: 5
            """,
            "top/kustomization.yaml": "resources:\n- ../webhook\npatchesStrategicMerge:\n- ca.yaml\n",
            "top/ca.yaml": WEBHOOK["overlay/webhook.yaml"],
        },
    )
    run = check_builds_the_same(tmp_path, ["webhook", "top"])
    manifests = (tmp_path / "webhook/manifests.yaml").read_text()
    assert manifests.startswith("apiVersion: admissionregistration.k8s.io/v1\n")
    assert "sideEffects" not in manifests and "failurePolicy: Ignore" in manifests
    assert [Path(f.filename).name for f in findings(run, "K8SM-KUS-008")] == ["manifests.yaml"]
    assert not findings(run, "K8SM-GEN-010")


def test_an_object_used_alone_too_is_not_completed_by_a_patch(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **WEBHOOK,
            "overlay/webhook.yaml": """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingWebhookConfiguration
                metadata:
                  name: hook
                webhooks:
                - name: hook.example.com
                  sideEffects: None
            """,
        },
    )
    before = texts(tmp_path)
    run = migrate(tmp_path)
    assert texts(tmp_path) == before  # base/ builds the webhook alone: it needs the decision
    assert findings(run, "K8SM-GEN-010") and findings(run, "K8SM-KUS-002")


def test_a_json_patch_sees_the_labels_the_kustomization_added(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **HPA,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                commonLabels:
                  team: web
                patchesJson6902:
                - target: {group: autoscaling, version: v2beta1, kind: HorizontalPodAutoscaler, name: web}
                  path: labels.yaml
            """,
            "prod/labels.yaml": "- op: replace\n  path: /metadata/labels/team\n  value: platform\n",
        },
    )
    check_builds_the_same(tmp_path, ["prod"])
    assert "version: v2, kind: HorizontalPodAutoscaler" in (tmp_path / "prod/kustomization.yaml").read_text()


def test_a_patch_that_replaces_what_the_base_migration_rewrites_gets_a_deletion(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "base/kustomization.yaml": "resources:\n- deploy.yaml\n",
            "base/deploy.yaml": """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  selector:
                    matchLabels: {app: a}
                  template:
                    metadata:
                      labels: {app: a}
                      annotations:
                        container.seccomp.security.alpha.kubernetes.io/app: runtime/default
                    spec:
                      containers:
                      - name: app
                        image: nginx
            """,
            "chart/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: deploy.yaml\n",
            "chart/deploy.yaml": """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  template:
                    metadata:
                      annotations:
                        container.seccomp.security.alpha.kubernetes.io/app: null
                    spec:
                      containers:
                      - name: app
                        image: nginx:1.25
            """,
        },
    )
    check_builds_the_same(tmp_path, ["base", "chart"])
    assert (tmp_path / "chart/deploy.yaml").read_text().endswith("        securityContext: null\n")


# ------------------------------------------------------------------ what is not read


def test_a_remote_base_is_reported_and_a_patch_for_it_stays(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "prod/kustomization.yaml": """
                resources:
                - github.com/example/shop//deploy/base?ref=v1.0.0
                patches:
                - path: ingress.yaml
            """,
            "prod/ingress.yaml": """
                apiVersion: extensions/v1beta1
                kind: Ingress
                metadata:
                  name: web
                spec:
                  rules:
                  - host: prod.example.com
            """,
        },
    )
    before = texts(tmp_path)
    run = migrate(tmp_path)
    assert texts(tmp_path) == before
    (remote,) = findings(run, "K8SM-KUS-004")
    assert remote.level == "warning" and "github.com/example/shop" in remote.message and remote.line == 2
    (held,) = findings(run, "K8SM-KUS-002")
    assert held.level == "error" and held.filename.endswith("prod/ingress.yaml")
    assert "no object of the run is extensions/v1beta1 Ingress" in held.message


def test_a_templated_kustomization_is_reported_not_read(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"chart/kustomization.yaml": "resources:\n{{- range .Values.files }}\n- {{ . }}\n{{- end }}\n"}
    )
    run = migrate(tmp_path)
    assert [(f.level, f.code) for f in findings(run)] == [("warning", "K8SM-KUS-001")]


def test_a_kustomization_with_a_duplicate_key_keeps_what_it_uses_as_it_is(tmp_path: Path) -> None:
    # kustomize reads the last of two ``patchesJson6902`` keys; a reader that kept the first
    # would move the Ingress and its first patch, and the second (the one kustomize applies)
    # would silently stop matching.
    write_tree(
        tmp_path,
        {
            "app/kustomization.yaml": """
                resources:
                - ingress.yaml
                patchesJson6902:
                - target: {group: networking.k8s.io, version: v1beta1, kind: Ingress, name: web}
                  path: port.yaml
                patchesJson6902:
                - target: {group: networking.k8s.io, version: v1beta1, kind: Ingress, name: web}
                  path: host.yaml
            """,
            "app/ingress.yaml": """
                apiVersion: networking.k8s.io/v1beta1
                kind: Ingress
                metadata:
                  name: web
                spec:
                  rules:
                  - host: old.example.com
                    http:
                      paths:
                      - backend:
                          serviceName: web
                          servicePort: 80
            """,
            "app/port.yaml": "- {op: replace, path: /spec/rules/0/http/paths/0/backend/servicePort, value: 8080}\n",
            "app/host.yaml": "- {op: replace, path: /spec/rules/0/host, value: new.example.com}\n",
        },
    )
    before = texts(tmp_path)
    built = build(tmp_path / "app")
    run = migrate(tmp_path)
    assert texts(tmp_path) == before
    assert build(tmp_path / "app") == built
    [warning] = findings(run, "K8SM-KUS-001")
    assert warning.line == 6 and "duplicate key 'patchesJson6902'" in warning.message
    held = {Path(f.filename).name: f.level for f in findings(run, "K8SM-KUS-002")}
    assert held == {"ingress.yaml": "error", "port.yaml": "error"}


def test_a_field_spec_follows_a_field_only_a_patch_brings(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "crd/kustomization.yaml": """
                resources:
                - crd.yaml
                patchesStrategicMerge:
                - webhook_in_widgets.yaml
                configurations:
                - kustomizeconfig.yaml
            """,
            "crd/crd.yaml": """
                apiVersion: apiextensions.k8s.io/v1beta1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.example.com
                spec:
                  group: example.com
                  names:
                    kind: Widget
                    plural: widgets
                  scope: Namespaced
                  version: v1
                  preserveUnknownFields: false
            """,
            "crd/webhook_in_widgets.yaml": """
                apiVersion: apiextensions.k8s.io/v1beta1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.example.com
                spec:
                  conversion:
                    strategy: Webhook
                    webhookClientConfig:
                      caBundle: Cg==
                      service:
                        namespace: system
                        name: webhook-service
                        path: /convert
            """,
            "crd/kustomizeconfig.yaml": """
                nameReference:
                - kind: Service
                  version: v1
                  fieldSpecs:
                  - kind: CustomResourceDefinition
                    group: apiextensions.k8s.io
                    path: spec/conversion/webhookClientConfig/service/name
                namespace:
                - kind: CustomResourceDefinition
                  group: apiextensions.k8s.io
                  path: spec/conversion/webhookClientConfig/service/namespace
                  create: false
            """,
            "default/kustomization.yaml": "namespace: shop\nnamePrefix: shop-\nresources:\n- ../crd\n- service.yaml\n",
            "default/service.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: webhook-service\n  namespace: system\nspec:\n  ports:\n  - port: 443\n",
        },
    )
    check_builds_the_same(tmp_path, ["crd", "default"])
    config = (tmp_path / "crd/kustomizeconfig.yaml").read_text()
    assert "path: spec/conversion/webhook/clientConfig/service/name\n" in config
    assert "path: spec/conversion/webhook/clientConfig/service/namespace\n" in config


def test_workload_patches_follow_the_workload_to_apps_v1(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "base/kustomization.yaml": "resources:\n- deploy.yaml\n",
            "base/deploy.yaml": """
                apiVersion: apps/v1beta1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  template:
                    metadata:
                      labels: {app: a}
                    spec:
                      containers:
                      - name: app
                        image: nginx:1.14
            """,
            "prod/kustomization.yaml": """
                resources:
                - ../base
                patches:
                - path: track.yaml
                - target: {group: apps, version: v1beta1, kind: Deployment, name: app}
                  patch: |-
                    - op: replace
                      path: /spec/template/spec/containers/0/image
                      value: nginx:1.25
            """,
            "prod/track.yaml": """
                apiVersion: apps/v1beta1
                kind: Deployment
                metadata:
                  name: app
                spec:
                  template:
                    metadata:
                      labels: {track: stable}
            """,
        },
    )
    check_builds_the_same(tmp_path, ["base", "prod"], target_version="1.16")
    kustomization = (tmp_path / "prod/kustomization.yaml").read_text()
    assert "{group: apps, version: v1, kind: Deployment, name: app}" in kustomization
    assert "path: /spec/template/spec/containers/0/image" in kustomization
    assert (tmp_path / "prod/track.yaml").read_text().startswith("apiVersion: apps/v1\n")
