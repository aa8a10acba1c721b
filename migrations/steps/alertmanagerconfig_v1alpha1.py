"""prometheus-operator AlertmanagerConfig ``monitoring.coreos.com/v1alpha1`` → ``v1beta1`` (opt-in).

v1beta1 came with prometheus-operator 0.57.0 (1829e379, #4709) but is served only by the CRD bundle with the
conversion webhook (``example/prometheus-operator-crd-full``; ``Documentation/platform/ webhook.md``): the
default bundle (``example/prometheus-operator-crd``) serves v1alpha1 alone, which is still the storage
version and the conversion hub and is not deprecated. So this step runs only when asked for (``--only
alertmanagerconfig_v1alpha1``). It follows the operator's converter
(``pkg/apis/monitoring/v1beta1/conversion_from.go`` · ``(*AlertmanagerConfig).ConvertFrom``):

- ``spec.muteTimeIntervals`` → ``spec.timeIntervals`` (``convertTimeIntervalsFrom``: same items);
- matchers of ``spec.route`` and its nested ``routes`` at any depth and of ``spec.inhibitRules[]``
  ``sourceMatch``/``targetMatch``: ``regex`` is gone; without ``matchType``, ``regex: true`` becomes
  ``matchType: "=~"`` (K8SM-AMC-001) and ``regex: false`` goes (``=`` is what an absent ``matchType``
  means); a ``matchType`` wins over ``regex`` (``convertMatchersFrom``; K8SM-AMC-006 when they disagree);
- the Secret key selectors v1beta1 retyped (email ``authPassword``/``authSecret``, ``httpConfig.
  bearerTokenSecret``, OpsGenie/VictorOps ``apiKey``, PagerDuty ``routingKey``/``serviceKey``, Pushover
  ``token``/``userKey``, Slack ``apiURL``, Telegram ``botToken``, WeChat ``apiSecret``, webhook
  ``urlSecret``) lose ``optional`` (K8SM-AMC-002 when it was true) and need ``name`` and ``key``
  (K8SM-AMC-005); Discord, MS Teams and Rocket.Chat selectors keep theirs;
- ``opsgenieConfigs[].updateAlerts`` has no v1beta1 field and is dropped, as the converter drops it
  (K8SM-AMC-003).
"""

from __future__ import annotations

from k8smigrate.addons import alertmanager
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("AlertmanagerConfig",),
    from_api="monitoring.coreos.com/v1alpha1",
    to_api="monitoring.coreos.com/v1beta1",
    available_in="0.57",
    component="prometheus-operator",
    opt_in=True,
    body=alertmanager.alertmanager_config_v1beta1,
    codes=(
        alertmanager.MATCHER_REGEX,
        alertmanager.OPTIONAL_DROPPED,
        alertmanager.LOSSY,
        alertmanager.BOTH,
        alertmanager.SELECTOR_INCOMPLETE,
        alertmanager.MATCH_CONFLICT,
    ),
    summary="AlertmanagerConfig v1alpha1 → v1beta1: timeIntervals, matchType, Secret selectors (opt-in)",
)
