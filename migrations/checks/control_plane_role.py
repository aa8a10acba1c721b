"""``node-role.kubernetes.io/master`` → ``node-role.kubernetes.io/control-plane`` (1.24/1.25).

kubeadm labels control-plane nodes ``node-role.kubernetes.io/control-plane`` from 1.20
(``upgrade apply`` adds it to existing nodes) and stops setting the ``master`` label in 1.24,
removing it on upgrade (kubernetes PR #107533). The ``control-plane`` taint is added beside
the ``master`` one in 1.24, and the ``master`` taint goes in 1.25 (PR #110095). A pod that
selects only ``master`` stays Pending from 1.24; one that tolerates only ``master`` no longer
runs on control-plane nodes from 1.24 (it must tolerate both taints).

For targets from 1.24 on, in every pod spec (and ``RuntimeClass.scheduling``):

- **Selectors** (``nodeSelector``; ``nodeAffinity`` required terms and preferred terms):
  with ``--min-version`` 1.20 or later every node of the window carries ``control-plane``,
  so the key is renamed (K8SM-FLD-017). Below 1.20, an affinity expression on ``master``
  gains an alternative: a copy of its term on ``control-plane`` (terms are ORed), or, for
  ``NotIn``/``DoesNotExist``, a sibling expression in the same term (expressions are ANDed);
  a ``nodeSelector`` cannot say "either" and is kept (K8SM-FLD-034). A ``nodeSelector`` with
  both keys drops ``master`` (K8SM-FLD-035).
- **Tolerations** of ``master``: while the window starts before 1.25 (some node may still
  carry the ``master`` taint) a sibling toleration of ``control-plane`` with the same
  operator, value and effect is added after it; from ``--min-version`` 1.25 the key is
  renamed, or the ``master`` toleration dropped when the ``control-plane`` one exists
  (K8SM-FLD-018).

**Helm charts.** A chart usually renders these fields from its values (``{{ toYaml
.Values.tolerations | nindent 8 }}``): the same rules fix the chart's ``values.yaml`` defaults,
every ``tolerations`` list, ``nodeSelector`` and ``affinity.nodeAffinity`` at any depth, with
the same findings at their values.yaml lines (``templating.values_scheduling``).

**kubeadm's own taint list.** ``nodeRegistration.taints`` of an ``InitConfiguration`` or
``JoinConfiguration`` (kubeadm v1beta1–v1beta4) is what kubeadm puts on the node, exactly as
written; only when it is absent does kubeadm choose (``SetNodeRegistrationDynamicDefaults``
in ``cmd/kubeadm/app/util/config/initconfiguration.go``): ``[master]`` up to 1.23,
``[master, control-plane]`` in 1.24, ``[control-plane]`` from 1.25. On upgrade, kubeadm 1.24
added the ``control-plane`` taint to every control-plane node and kubeadm 1.25 removed the
``master`` one (``AddNewControlPlaneTaint`` / ``RemoveOldControlPlaneTaint`` in
``cmd/kubeadm/app/phases/upgrade/postupgrade.go``; kubernetes PR #107533). So a ``master``
taint written in the config keeps coming back on every node initialised or joined with it,
although kubeadm's CoreDNS tolerates only ``control-plane`` from 1.26 (it added that
toleration in 1.20), as do pods written for 1.25 and later. For targets from 1.24 on:

- the window starts at 1.25 or later: the taint's key is renamed to ``control-plane`` (its
  effect, value and comments stay), or the ``master`` taint is dropped when a
  ``control-plane`` taint with the same effect is already listed (K8SM-KADM-014);
- the window starts at 1.24: a ``control-plane`` taint with the same effect and value is
  added after it, as kubeadm 1.24 did (K8SM-KADM-014);
- the window starts before 1.24: nothing is changed (nodes of those releases carry only
  ``master`` and pods there may tolerate only that), K8SM-KADM-015 says what to do when the
  window moves on.

An empty list (``taints: []``, "no taints") and a list without ``master`` are left alone.

Labels differ on distributions other than kubeadm: check yours.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4
from k8smigrate.kube.node_roles import (
    CONTROL_PLANE,
    MASTER,
    TAINT_ADDED,
    TAINT_GONE,
    add_control_plane_twin,
    fix_affinity,
    fix_node_selector,
    fix_tolerations,
)
from k8smigrate.kube.podspec import POD_APIS, pod_specs
from k8smigrate.model import Check
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "RuntimeClass":
        scheduling = obj.mapping("scheduling")
        specs = [scheduling] if scheduling is not None else []
    else:
        specs = [spec for _meta, spec in pod_specs(obj)]
    for spec in specs:
        fix_node_selector(spec, ctx)
        affinity = spec.mapping("affinity")
        node_affinity = affinity.mapping("nodeAffinity") if affinity is not None else None
        if node_affinity is not None:
            fix_affinity(node_affinity, ctx)
        tolerations = spec.sequence("tolerations")
        if tolerations is not None:
            fix_tolerations(tolerations, ctx)


def kubeadm_body(config: Mapping, ctx: Context) -> None:
    registration = config.mapping("nodeRegistration")
    taints = registration.sequence("taints") if registration is not None else None
    if taints is None:
        return

    def same(a: Mapping, b: Mapping) -> bool:
        return all(a.data(k) == b.data(k) for k in ("value", "effect"))

    others = [t for _i, t in taints.mappings() if t.data("key") == CONTROL_PLANE]
    for item in list(taints.items):
        taint = item.value
        key = taint.scalar("key") if isinstance(taint, Mapping) else None
        if not isinstance(taint, Mapping) or key is None or key.data != MASTER:
            continue
        twin = any(same(taint, o) for o in others)
        where = "nodeRegistration.taints"
        if ctx.everywhere_from(TAINT_GONE) and twin:
            ctx.info(
                "K8SM-KADM-014",
                f"{where}: {MASTER} dropped beside {CONTROL_PLANE} (kubeadm stopped using it in 1.25)",
                key,
            )
            taints.remove(item, keep_comments=True)
        elif ctx.everywhere_from(TAINT_GONE):
            ctx.info(
                "K8SM-KADM-014",
                f"{where}: {MASTER} → {CONTROL_PLANE} (kubeadm's control-plane taint from 1.25; pods written "
                "for 1.25+ tolerate only that one)",
                key,
            )
            key.set(CONTROL_PLANE)
        elif ctx.everywhere_from(TAINT_ADDED) and not twin:
            add_control_plane_twin(taints, item, taint)
            ctx.info(
                "K8SM-KADM-014",
                f"{where}: {CONTROL_PLANE} added beside {MASTER}, as kubeadm 1.24 taints control-plane nodes",
                key,
            )
        elif not ctx.everywhere_from(TAINT_ADDED):
            ctx.warn(
                "K8SM-KADM-015",
                f"{where}: {MASTER} kept while the window starts before 1.24 (nodes there carry only it); "
                f"kubeadm adds {CONTROL_PLANE} in 1.24 and drops {MASTER} in 1.25: add {CONTROL_PLANE} for 1.24 "
                "and rename this one for 1.25+",
                key,
            )
            continue
        else:
            continue
        ctx.note(f"{where} {MASTER} → {CONTROL_PLANE}")


_PODS = Check(
    applies_to={**POD_APIS, "node.k8s.io/v1": ("RuntimeClass",), "node.k8s.io/v1beta1": ("RuntimeClass",)},
    body=body,
    matters_from="1.24",
    needs="1.20",  # every node of the window carries the control-plane label
    trigger="node-role.kubernetes.io/master",
    category="node-role",
    edits=True,
    summary="node-role.kubernetes.io/master selectors and tolerations → control-plane (targets from 1.24)",
    codes=(
        Code("K8SM-FLD-017", "info", "a node selector on the master label renamed, or given a control-plane twin"),
        Code("K8SM-FLD-018", "info", "a toleration of the master taint joined or replaced by one of control-plane"),
        Code("K8SM-FLD-034", "warning", "a nodeSelector on master kept: the window has nodes with only one label"),
        Code("K8SM-FLD-035", "info", "a nodeSelector with both master and control-plane drops master"),
    ),
)
MIGRATIONS = [
    _PODS,
    Check(
        applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), ("InitConfiguration", "JoinConfiguration")),
        body=kubeadm_body,
        component="kubeadm",
        matters_from="1.24",
        trigger="node-role.kubernetes.io/master",
        category="node-role",
        edits=True,
        summary="kubeadm nodeRegistration.taints on node-role.kubernetes.io/master → control-plane (targets from 1.24)",
        codes=(
            Code("K8SM-KADM-014", "info", "a kubeadm master taint joined or replaced by the control-plane taint"),
            Code("K8SM-KADM-015", "warning", "a kubeadm master taint kept: the window starts before 1.24"),
        ),
    ),
]
