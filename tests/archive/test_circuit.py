"""The archive's circuit (issue 65): a read of an archive that is away fails at once, and one read
probes again after the circuit's time; a caller's own error never leaves the circuit stuck open.
The fail-fast reads against a live PostgreSQL stopped and started: tests/archive/test_archived_reads.py
and tests/ops/test_archive_outage.py."""

from __future__ import annotations

import time

import pytest

from service.archive.archive import Archive, ArchiveUnavailable, Circuit

NOWHERE = "postgresql://nobody@/nothing?host=/nonexistent-skyline-socket-folder"


def test_the_circuit_opens_on_a_failure_and_lets_one_probe_through_after_its_time():
    circuit = Circuit(open_seconds=0.05)
    assert circuit.admit() and not circuit.is_open
    circuit.failed()
    assert circuit.is_open and not circuit.admit()
    time.sleep(0.06)
    assert circuit.admit(), "the probe"
    assert not circuit.admit(), "one probe at a time"
    circuit.let_go()  # the probe learnt nothing: the next read probes
    assert circuit.admit()
    circuit.succeeded()
    assert not circuit.is_open and circuit.admit() and circuit.admit()


def test_a_read_of_an_archive_that_is_away_fails_at_once_and_the_next_ones_at_once_too():
    with Archive(NOWHERE, min_size=0, timeout=10.0, fail_fast=True) as archive:
        began = time.monotonic()
        with pytest.raises(ArchiveUnavailable):
            archive.read_game("g1")
        assert time.monotonic() - began < 0.5, "not the pool's 10 s"
        assert archive.circuit is not None and archive.circuit.is_open
        began = time.monotonic()
        for _ in range(20):
            with pytest.raises(ArchiveUnavailable):
                archive.read_game("g1")
        assert time.monotonic() - began < 0.1


def test_a_callers_error_closes_the_circuit_it_probed(database_url: str):
    with Archive(database_url, min_size=0, fail_fast=True) as archive:
        assert archive.circuit is not None
        archive.circuit.failed()
        archive.circuit._open_until = time.monotonic()  # its time is up: the next read probes
        with pytest.raises(ZeroDivisionError):
            with archive._connection():
                raise ZeroDivisionError  # PostgreSQL answered; the error is the caller's
        assert not archive.circuit.is_open
        assert archive.read_game("g1") is None
