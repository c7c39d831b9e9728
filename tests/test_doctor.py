"""The join doctor's own checks (partyhost/doctor.py): address kinds, the real connection to the
laptop's own address, the firewall commands' outputs as each OS prints them, and that a missing
or hanging command never fails or blocks the start for long."""

from __future__ import annotations

import socket
import sys
import time

from partyhost import doctor, i18n
from partyhost.netaddr import Candidate


def cand(address: str, interface: str = "wlan0") -> Candidate:
    return Candidate(address=address, interface=interface, family=6 if ":" in address else 4,
                     default_route=True, virtual=False)


def test_address_kinds():
    assert doctor.address_kind("192.168.1.20") == "private"
    assert doctor.address_kind("10.0.0.5") == "private"
    assert doctor.address_kind("172.20.10.2") == "private"  # an iPhone hotspot
    assert doctor.address_kind("100.70.1.2") == "private"  # a carrier-range travel router
    assert doctor.address_kind("fd00::5") == "private"
    assert doctor.address_kind("169.254.3.4") == "link_local"
    assert doctor.address_kind("[fe80::1%3]") == "link_local"
    assert doctor.address_kind("127.0.0.1") == "loopback"
    assert doctor.address_kind("8.8.8.8") == "public"
    assert doctor.address_kind("not an ip") == "invalid"


def test_reach_connects_to_a_listening_port_and_names_the_error_of_a_closed_one():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        assert doctor.reach("127.0.0.1", port) is None
    # the same port, now closed: refused, as a code the texts name, no exception
    assert doctor.reach("127.0.0.1", port) == "refused"


def test_firewall_outputs_as_each_os_prints_them():
    assert doctor.parse_ufw("Status: active\n\nTo   Action  From\n8765/tcp ALLOW Anywhere\n") == "on"
    assert doctor.parse_ufw("Status: inactive\n") == "off"
    assert doctor.parse_ufw("ERROR: You need to be root to run this script\n") == "unknown"
    assert doctor.parse_firewalld("running\n") == "on"
    assert doctor.parse_firewalld("not running\n") == "off"
    assert doctor.parse_socketfilterfw("Firewall is enabled. (State = 1)\n") == "on"
    assert doctor.parse_socketfilterfw("Firewall is disabled. (State = 0)\n") == "off"
    netsh = ("\nPrivate Profile Settings:\n----------------------------------------------\n"
             "State                                 ON\nFirewall Policy                       "
             "BlockInbound,AllowOutbound\n\nOk.\n")
    assert doctor.parse_netsh(netsh) == "on"
    assert doctor.parse_netsh(netsh.replace(" ON", " OFF")) == "off"
    assert doctor.parse_netsh("The requested operation requires elevation.") == "unknown"


def test_firewall_state_runs_real_programs_skips_missing_ones_and_times_out():
    py = sys.executable
    table = {"linux": [
        ("missing", ["/no/such/program-partyhost"], doctor.parse_ufw),
        ("hangs", [py, "-c", "import time; time.sleep(30)"], doctor.parse_ufw),
        ("root", [py, "-c", "print('ERROR: You need to be root')"], doctor.parse_ufw),
        ("firewalld", [py, "-c", "print('running')"], doctor.parse_firewalld),
    ]}
    started = time.monotonic()
    assert doctor.firewall_state("linux", timeout=0.5, commands=table) == ("firewalld", "on")
    assert time.monotonic() - started < 5  # the hanging one was cut at its timeout
    # only an unclear answer: the tool is named, the state unknown; nothing present: ("", unknown)
    assert doctor.firewall_state("linux", commands={"linux": table["linux"][2:3]}) == ("root", "unknown")
    assert doctor.firewall_state("linux", commands={"linux": table["linux"][:1]}) == ("", "unknown")
    assert doctor.firewall_state("plan9", commands=table) == ("", "unknown")
    # this machine's own table never raises
    tool, state = doctor.firewall_state()
    assert state in ("on", "off", "unknown")


def test_diagnose_reports_what_it_found_and_the_terminal_says_it_in_both_languages():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        report = doctor.diagnose([cand("127.0.0.1", "lo"), cand("192.168.1.20")], 0, port,
                                 after=12, firewall=("ufw", "on"))
    codes = [(f.code, f.level) for f in report.findings]
    assert codes == [("reach_ok", "ok"), ("address_loopback", "warn"),
                     ("several_addresses", "info"), ("firewall_on", "warn")]
    view = report.view()
    assert view["after"] == 12 and view["checks"][3]["params"] == {"tool": "ufw", "port": port}
    lines = report.terminal_lines({lang: i18n.catalogue(lang) for lang in i18n.LANGS})
    assert len(lines) == 4 and lines[3].startswith("⚠ ")
    assert f"ポート{port}" in lines[3] and f"allow port {port}" in lines[3]
    assert f"127.0.0.1 のポート{port}" in lines[0]
    assert "{" not in "".join(lines)  # every parameter filled

    closed = doctor.diagnose([cand("192.168.1.20")], 0, 9, firewall=("", "unknown"),
                             reach_fn=lambda a, p: "timed_out")
    assert [f.code for f in closed.findings] == ["reach_failed", "address_private", "firewall_unknown"]
    assert closed.findings[0].params["detail"] == "timed_out"
    said = closed.terminal_lines({lang: i18n.catalogue(lang) for lang in i18n.LANGS})[0]
    assert "応答がありません" in said and "no answer" in said
    assert [f.code for f in doctor.diagnose([], 0, 9, firewall=("macOS", "off")).findings] == \
        ["no_address", "firewall_off"]


def test_every_doctor_text_exists_in_both_languages():
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    keys = {k for k in ja if k.startswith("doctor.")}
    assert keys == {k for k in en if k.startswith("doctor.")}
    for code in ("reach_ok", "reach_failed", "address_private", "address_link_local",
                 "address_loopback", "address_public", "no_address", "several_addresses",
                 "firewall_on", "firewall_off", "firewall_unknown"):
        assert f"doctor.check.{code}" in keys


def test_the_tv_gets_the_checks_of_the_address_the_picker_chose():
    from tests.helpers import Rig

    addresses = [cand("192.168.1.20"), cand("10.8.0.2", "tun0")]
    rig = Rig(ADDRESSES=addresses, PORT=8765)
    rig.engine.doctor = [doctor.diagnose(addresses, i, 8765, after=45, firewall=("ufw", "off"),
                                         reach_fn=lambda a, p: None if a == "192.168.1.20" else "refused").view()
                         for i in range(2)]
    tv = rig.tv()
    phone = rig.phone()
    first = tv.state["join"]["doctor"]
    assert first["after"] == 45 and first["checks"][0]["code"] == "reach_ok"
    assert tv.send("host", {"op": "address", "index": 1})["ok"]
    chosen = tv.state["join"]["doctor"]["checks"]
    assert chosen[0] == {"code": "reach_failed", "level": "warn",
                         "params": {"address": "10.8.0.2", "port": 8765, "detail": "refused"}}
    assert chosen[2]["params"]["interface"] == "tun0"
    assert "join" not in phone.state  # a guest's phone gets none of it
