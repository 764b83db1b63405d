"""The Helm chart: linted, checked against values.schema.json, rendered offline (helm-python-sdk) for
several value sets, and every rendered manifest validated by ``kubernetes-validate --strict``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT

CHART = ROOT / "helm" / "skyline"
KUBERNETES_VERSIONS = ["1.29.0", "1.37.0"]

VALUE_SETS = {
    "defaults": {},
    "ingress": {
        "ingress": {
            "enabled": True,
            "className": "nginx",
            "annotations": {"nginx.ingress.kubernetes.io/proxy-read-timeout": "360"},
            "hosts": [{"host": "games.example.org", "paths": [{"path": "/", "pathType": "Prefix"}]}],
            "tls": [{"secretName": "games-tls", "hosts": ["games.example.org"]}],
        }
    },
    "queue-redis": {"queueRedis": {"url": "rediss://default:secret@rq.example:6380/0"}},
    "cluster": {
        "redis": {"url": "redis://redis-cluster:6379", "cluster": True},
        "queueRedis": {"url": "redis://rq-redis:6379/0"},
    },
    "existing-secret": {
        "redis": {"url": "", "existingSecret": "managed-redis", "existingSecretKey": "url"},
        "queueRedis": {"url": "", "existingSecret": "managed-rq", "existingSecretKey": "rq"},
        "database": {"url": "", "existingSecret": "managed-postgres", "existingSecretKey": "uri"},
        "api": {
            "autoscaling": {
                "enabled": False,
                "minReplicas": 2,
                "maxReplicas": 4,
                "targetCPUUtilizationPercentage": 60,
            },
            "replicas": 3,
        },
        "worker": {
            "autoscaling": {
                "enabled": True,
                "minReplicas": 2,
                "maxReplicas": 6,
                "targetCPUUtilizationPercentage": 80,
            },
            "podDisruptionBudget": {"enabled": False},
        },
        "config": {
            "botJobTimeoutSeconds": 20,
            "rateLimitPerAddress": "off",
            "rateLimitPerToken": "100/1m",
            "extraEnv": {"SKYLINE_SSE_MAX_SECONDS": "120"},
        },
    },
}


def render(tools: Path, values: dict, out: Path) -> tuple[int, dict]:
    done = subprocess.run(
        [
            str(tools / "python"),
            str(Path(__file__).parent / "chart_tool.py"),
            str(CHART),
            json.dumps(values),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout.splitlines()[-1])


def documents(files: list[str]) -> list[dict]:
    docs = []
    for name in files:
        docs += [doc for doc in yaml.safe_load_all(Path(name).read_text()) if doc]
    return docs


def by_kind(docs: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for doc in docs:
        found.setdefault(doc["kind"], []).append(doc)
    return found


@pytest.fixture(scope="module")
def rendered(tools, tmp_path_factory):
    results = {}
    for name, values in VALUE_SETS.items():
        code, result = render(tools, values, tmp_path_factory.mktemp(name))
        assert code == 0, result
        assert result["lint"]["errors"] == []
        results[name] = result["files"]
    return results


@pytest.mark.parametrize("value_set", sorted(VALUE_SETS))
def test_every_rendered_manifest_passes_kubernetes_validate_strict(tools, rendered, value_set):
    for version in KUBERNETES_VERSIONS:
        done = subprocess.run(
            [str(tools / "kubernetes-validate"), "--strict", "--quiet", "-k", version, *rendered[value_set]],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_validator_does_catch_a_broken_manifest(tools, rendered, tmp_path):
    deployment = next(d for d in documents(rendered["defaults"]) if d["kind"] == "Deployment")
    deployment["spec"]["replicaz"] = 3
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump(deployment))
    done = subprocess.run(
        [str(tools / "kubernetes-validate"), "--strict", "--quiet", str(broken)],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "replicaz" in done.stdout + done.stderr


def containers(deployment: dict) -> dict:
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    return container


def env_of(container: dict) -> dict:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container["env"]}


def test_defaults_api_and_worker_deployments(rendered):
    kinds = by_kind(documents(rendered["defaults"]))
    assert sorted(kinds) == [
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "Secret",
        "Service",
        "ServiceAccount",
    ]
    deployments = {d["metadata"]["name"]: d for d in kinds["Deployment"]}
    api, worker = deployments["skyline-api"], deployments["skyline-worker"]
    api_container, worker_container = containers(api), containers(worker)
    # The API: the image's default command (gunicorn), probes, resources, no replicas (the HPA owns them).
    assert "command" not in api_container and "args" not in api_container
    assert api_container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert api_container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert api_container["resources"]["requests"]["cpu"] and api_container["resources"]["limits"]["memory"]
    assert "replicas" not in api["spec"]
    # A rolling deploy: the endpoint leaves first (preStop), then SIGTERM ends streams and requests
    # well within the grace period.
    pre_stop = api_container["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop == ["python", "-c", "import time; time.sleep(5)"]
    api_grace = api["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert api_grace > 5 + int(env_of(api_container)["SKYLINE_GRACEFUL_TIMEOUT"])
    (hpa,) = kinds["HorizontalPodAutoscaler"]
    assert hpa["spec"]["scaleTargetRef"]["name"] == "skyline-api" and hpa["spec"]["minReplicas"] >= 2
    # The worker: `skyline worker`, given longer than a bot job to finish it on SIGTERM.
    assert worker_container["command"] == ["skyline", "worker"]
    config = kinds["ConfigMap"][0]["data"]
    grace = worker["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert grace > int(config["SKYLINE_BOT_JOB_TIMEOUT"])
    assert worker_container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    # Both: REDIS_URL and DATABASE_URL from the chart's Secrets, settings from the ConfigMap,
    # non-root, read-only root.
    secrets = {s["metadata"]["name"]: s["stringData"] for s in kinds["Secret"]}
    assert secrets == {
        "skyline-redis": {"redis-url": "redis://redis:6379/0"},
        "skyline-database": {"database-url": "postgresql://skyline@postgres:5432/skyline"},
    }
    for deployment in (api, worker):
        container = containers(deployment)
        reference = env_of(container)["REDIS_URL"]["secretKeyRef"]
        assert reference == {"name": "skyline-redis", "key": "redis-url"}
        reference = env_of(container)["DATABASE_URL"]["secretKeyRef"]
        assert reference == {"name": "skyline-database", "key": "database-url"}
        assert "RQ_REDIS_URL" not in env_of(container), "unset: the queues share REDIS_URL's Redis"
        assert container["envFrom"][0]["configMapRef"]["name"] == kinds["ConfigMap"][0]["metadata"]["name"]
        assert container["securityContext"]["readOnlyRootFilesystem"] is True
        pod = deployment["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] == 10001
        assert {v["name"] for v in pod["volumes"]} == {"tmp"}, "gunicorn's metrics files need a writable /tmp"
    pdbs = {p["metadata"]["name"]: p["spec"] for p in kinds["PodDisruptionBudget"]}
    assert pdbs["skyline-api"]["minAvailable"] == 1 and pdbs["skyline-worker"]["maxUnavailable"] == 1
    (service,) = kinds["Service"]
    assert service["spec"]["selector"] == api["spec"]["selector"]["matchLabels"]
    assert "Ingress" not in kinds
    assert config["SKYLINE_TRUSTED_PROXY_HOPS"] == "0", "no proxy: X-Forwarded-For is not trusted"


def test_ingress_routes_to_the_api_service_with_tls(rendered):
    kinds = by_kind(documents(rendered["ingress"]))
    (ingress,) = kinds["Ingress"]
    (service,) = kinds["Service"]
    rule = ingress["spec"]["rules"][0]
    assert rule["host"] == "games.example.org"
    backend = rule["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": service["metadata"]["name"], "port": {"name": "http"}}
    assert ingress["spec"]["tls"] == [{"secretName": "games-tls", "hosts": ["games.example.org"]}]
    assert ingress["spec"]["ingressClassName"] == "nginx"
    assert kinds["ConfigMap"][0]["data"]["SKYLINE_TRUSTED_PROXY_HOPS"] == "1", "the ingress controller's hop"


def test_a_queue_redis_url_is_given_as_rq_redis_url_to_the_api_and_both_workers(rendered):
    kinds = by_kind(documents(rendered["queue-redis"]))
    secrets = {s["metadata"]["name"]: s["stringData"] for s in kinds["Secret"]}
    assert secrets["skyline-queue-redis"] == {"rq-redis-url": "rediss://default:secret@rq.example:6380/0"}
    deployments = {d["metadata"]["name"]: d for d in kinds["Deployment"]}
    assert set(deployments) == {"skyline-api", "skyline-worker", "skyline-webhooks"}
    for deployment in deployments.values():
        env = env_of(containers(deployment))
        assert env["RQ_REDIS_URL"]["secretKeyRef"] == {"name": "skyline-queue-redis", "key": "rq-redis-url"}
        assert env["REDIS_URL"]["secretKeyRef"] == {"name": "skyline-redis", "key": "redis-url"}


def test_a_redis_cluster_is_told_to_every_process_with_the_queues_own_redis(rendered):
    deployments = by_kind(documents(rendered["cluster"]))["Deployment"]
    assert len(deployments) == 3
    for deployment in deployments:
        env = env_of(containers(deployment))
        assert env["SKYLINE_REDIS_CLUSTER"] == "1"
        assert env["RQ_REDIS_URL"]["secretKeyRef"] == {"name": "skyline-queue-redis", "key": "rq-redis-url"}
    plain = by_kind(documents(rendered["queue-redis"]))["Deployment"]
    assert all("SKYLINE_REDIS_CLUSTER" not in env_of(containers(d)) for d in plain)


def test_a_redis_cluster_without_the_queues_own_redis_is_refused(tools, tmp_path):
    code, result = render(tools, {"redis": {"cluster": True}}, tmp_path)
    assert code == 3 and "RQ cannot use a Redis Cluster" in json.dumps(result)


def test_an_existing_secret_is_used_and_none_is_created(rendered):
    kinds = by_kind(documents(rendered["existing-secret"]))
    assert "Secret" not in kinds
    for deployment in kinds["Deployment"]:
        reference = env_of(containers(deployment))["REDIS_URL"]["secretKeyRef"]
        assert reference == {"name": "managed-redis", "key": "url"}
        reference = env_of(containers(deployment))["RQ_REDIS_URL"]["secretKeyRef"]
        assert reference == {"name": "managed-rq", "key": "rq"}
        reference = env_of(containers(deployment))["DATABASE_URL"]["secretKeyRef"]
        assert reference == {"name": "managed-postgres", "key": "uri"}
    deployments = {d["metadata"]["name"]: d for d in kinds["Deployment"]}
    assert deployments["skyline-api"]["spec"]["replicas"] == 3
    assert "replicas" not in deployments["skyline-worker"]["spec"]
    assert [h["spec"]["scaleTargetRef"]["name"] for h in kinds["HorizontalPodAutoscaler"]] == [
        "skyline-worker"
    ]
    assert [p["metadata"]["name"] for p in kinds["PodDisruptionBudget"]] == ["skyline-api"]
    config = kinds["ConfigMap"][0]["data"]
    assert (
        config["SKYLINE_RATE_LIMIT_PER_ADDRESS"] == "off"
        and config["SKYLINE_RATE_LIMIT_PER_TOKEN"] == "100/1m"
    )
    assert env_of(containers(deployments["skyline-api"]))["SKYLINE_SSE_MAX_SECONDS"] == "120"


@pytest.mark.parametrize(
    ("values", "complaint"),
    [
        ({"redis": {"url": "http://nope"}}, "redis/url"),
        ({"redis": {"url": "", "existingSecret": ""}}, "redis"),
        ({"queueRedis": {"url": "http://nope"}}, "queueRedis/url"),
        ({"database": {"url": "mysql://nope"}}, "database/url"),
        ({"database": {"url": "", "existingSecret": ""}}, "database"),
        ({"api": {"replicaz": 3}}, "replicaz"),
        ({"api": {"replicas": "two"}}, "api/replicas"),
        ({"config": {"rateLimitPerAddress": "lots"}}, "rateLimitPerAddress"),
        ({"ingress": {"enabled": True, "hosts": [{"host": "x.org", "paths": []}]}}, "paths"),
    ],
)
def test_the_values_schema_refuses_mistakes(tools, tmp_path, values, complaint):
    code, result = render(tools, values, tmp_path)
    assert code == 2 and result["error"] == "values"
    assert complaint in result["message"]


def test_an_api_grace_period_shorter_than_its_stop_is_refused(tools, tmp_path):
    values = {"api": {"terminationGracePeriodSeconds": 24, "preStopSeconds": 5, "gracefulTimeoutSeconds": 20}}
    code, result = render(tools, values, tmp_path)
    assert code == 3 and "api.terminationGracePeriodSeconds" in json.dumps(result)


def test_a_worker_grace_period_shorter_than_a_bot_job_is_refused(tools, tmp_path):
    code, result = render(tools, {"worker": {"terminationGracePeriodSeconds": 10}}, tmp_path)
    assert code == 3 and "terminationGracePeriodSeconds" in json.dumps(result)
