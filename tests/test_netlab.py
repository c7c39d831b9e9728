"""The network lab measures what it claims (tests/netlab.py): delay, jitter, loss, outages, and
a host reachable from a phone's namespace."""
from __future__ import annotations

import socket
import statistics
import sys
import time

import pytest

from tests import netlab

_why = netlab.unavailable()
pytestmark = pytest.mark.skipif(_why is not None, reason=_why or "")


def connect_rtts(lab: netlab.Lab, phone: netlab.Phone, count: int) -> list[float]:
    """TCP connect times (ms) from ``phone`` to a listener in the host's namespace: one SYN and
    one SYN-ACK, so one round trip of the link."""
    with lab.in_host():
        server = socket.socket()
    server.bind((netlab.HOST_ADDRESS, 0))
    server.listen(count)
    port = server.getsockname()[1]
    rtts = []
    try:
        for _ in range(count):
            with phone.inside():
                client = socket.socket()
            with client:
                client.settimeout(3)
                start = time.perf_counter()
                client.connect((netlab.HOST_ADDRESS, port))
                rtts.append((time.perf_counter() - start) * 1000)
            server.accept()[0].close()
    finally:
        server.close()
    return rtts


def udp_delivered(lab: netlab.Lab, phone: netlab.Phone, count: int) -> int:
    """Datagrams of ``count`` sent from the phone that reach the host."""
    with lab.in_host():
        receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind((netlab.HOST_ADDRESS, 0))
    receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    with phone.inside():
        sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    got = 0
    try:
        for i in range(count):
            sender.sendto(i.to_bytes(4, "big"), receiver.getsockname())
            if i % 50 == 49:
                time.sleep(0.002)  # the TUN queue holds 500 packets
        receiver.settimeout(0.3)
        while True:
            try:
                receiver.recv(16)
            except socket.timeout:
                break
            got += 1
    finally:
        sender.close()
        receiver.close()
    return got


def test_delay_makes_the_round_trip():
    with netlab.Lab() as lab:
        phone = lab.phone("p1", delay_ms=40)
        rtts = connect_rtts(lab, phone, 10)
        print(f"\nTCP connect at 40 ms one-way: median {statistics.median(rtts):.1f} ms, "
              f"min {min(rtts):.1f}, max {max(rtts):.1f}")
        assert 79 <= min(rtts) and statistics.median(rtts) <= 90, rtts
        phone.set_link(delay_ms=5)  # live
        fast = connect_rtts(lab, phone, 5)
        assert 9 <= min(fast) and statistics.median(fast) <= 16, fast


def test_jitter_spreads_the_round_trip():
    with netlab.Lab() as lab:
        phone = lab.phone("p1", delay_ms=40, jitter_ms=20)
        rtts = connect_rtts(lab, phone, 40)
        print(f"\nTCP connect at 40±20 ms one-way: min {min(rtts):.1f} median {statistics.median(rtts):.1f} "
              f"max {max(rtts):.1f} stdev {statistics.stdev(rtts):.1f} ms")
        # two independent uniform delays of 20–60 ms: 40–120 ms, stdev 2*20/sqrt(12)/sqrt(2)*2 ≈ 16
        assert 40 <= min(rtts) and max(rtts) <= 130, rtts
        assert statistics.stdev(rtts) > 8, rtts
        assert max(rtts) - min(rtts) > 30, rtts


def test_loss_drops_that_share_and_down_drops_all():
    with netlab.Lab() as lab:
        phone = lab.phone("p1", loss=0.10)
        got = udp_delivered(lab, phone, 2000)
        print(f"\nloss 10 %: {2000 - got} of 2000 datagrams lost ({(2000 - got) / 20:.1f} %)")
        assert 0.07 <= (2000 - got) / 2000 <= 0.13, got
        phone.set_link(loss=0.0, down=True)
        assert udp_delivered(lab, phone, 200) == 0
        with pytest.raises(OSError):
            connect_rtts(lab, phone, 1)  # a SYN never answered: times out
        phone.set_link(down=False)
        assert udp_delivered(lab, phone, 200) == 200


def test_a_phone_reaches_the_host_over_its_link():
    with netlab.Lab() as lab:
        url = lab.start_host(args=["--fresh", "--async-mode", "eventlet"])
        phone = lab.phone("p1", delay_ms=20)
        probe = ("import json,sys,time,urllib.request as u;t=time.perf_counter();"
                 f"r=json.load(u.urlopen('{url}/healthz',timeout=5));"
                 "print(r['ok'], round((time.perf_counter()-t)*1000))")
        done = phone.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        ok, ms = done.stdout.split()
        print(f"\n/healthz from the phone's namespace at 20 ms one-way: {ms} ms")
        assert ok == "True" and int(ms) >= 80  # a connect and a request: two round trips at least


def namespaces() -> set[str]:
    import subprocess

    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True)
    return {line.split()[0] for line in listed.stdout.splitlines() if line.strip()}


def test_the_namespaces_go_after_a_failure_and_after_a_kill():
    import subprocess

    with pytest.raises(ZeroDivisionError):
        with netlab.Lab() as lab:
            lab.phone("p1")
            made = {lab.host_ns, lab.phones["p1"].netns}
            assert made <= namespaces()
            1 / 0
    assert not made & namespaces()
    # a process killed inside its lab (SIGKILL: no cleanup runs) leaves namespaces behind ...
    script = ("import os, sys; sys.path.insert(0, '.'); from tests import netlab\n"
              "lab = netlab.Lab().__enter__(); lab.phone('p1')\n"
              "print(lab.host_ns, lab.phones['p1'].netns, flush=True); os.kill(os.getpid(), 9)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=str(netlab.REPO), timeout=30)
    left = set(done.stdout.split())
    assert len(left) == 2 and left <= namespaces(), done
    # ... which the next lab removes
    with netlab.Lab():
        assert not left & namespaces()
