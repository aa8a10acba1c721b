"""ValidatingAdmissionPolicy(Binding) ``admissionregistration.k8s.io/v1beta1`` → ``v1``.

``v1`` is served from 1.30 and ``v1beta1`` until 1.33 (removed in 1.34), so these objects
stay as they are for targets up to 1.29 and migrate for later ones. The fields and
defaults are the same (``failurePolicy: Fail``, ``matchPolicy: Equivalent``,
``namespaceSelector``/``objectSelector`` ``{}``): only ``apiVersion`` changes. The older
webhook configurations of the same group and version are a different step.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"),
    from_api="admissionregistration.k8s.io/v1beta1",
    to_api="admissionregistration.k8s.io/v1",
    available_in="1.30",
    summary="ValidatingAdmissionPolicy(Binding) admissionregistration v1beta1 → v1 (apiVersion only)",
)
