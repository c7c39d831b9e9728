"""The TV's Wi-Fi card (partyhost/wifi.py, issue 26): the WIFI: text with its escapes, decoded
by a real QR decoder; what the host may set; and who may see the password (only the QR drawing
/wifi.svg, only for a host TV page; no view to any phone or other TV page carries it)."""

from __future__ import annotations

import json

import pytest

from partyhost import wifi
from tests.helpers import Rig
from tests.test_qr import decoded_text, svg_to_grid

SECRET = 'pa:ss"w,o\\rd;'


def test_payload_escapes_the_five_special_characters_and_a_decoder_reads_it_back():
    assert wifi.escape('a\\b;c,d:e"f') == 'a\\\\b\\;c\\,d\\:e\\"f'
    text = wifi.payload("Party;Net", SECRET)
    assert text == 'WIFI:T:WPA;S:Party\\;Net;P:pa\\:ss\\"w\\,o\\\\rd\\;;;'
    assert wifi.payload("カフェ", "") == "WIFI:T:nopass;S:カフェ;;"
    from partyhost import qr
    assert decoded_text(svg_to_grid(qr.svg(text))) == text


@pytest.mark.parametrize("ssid,password,code", [
    ("", "password1", "wifi_ssid"), ("x" * 33, "password1", "wifi_ssid"), ("あ" * 11, "password1", "wifi_ssid"),
    ("net\n", "password1", "wifi_ssid"), ("net", "short", "wifi_password"), ("net", "p" * 64, "wifi_password"),
    ("net", "pässword1", "wifi_password"),
])
def test_what_a_network_cannot_be(ssid, password, code):
    with pytest.raises(ValueError, match=code):
        wifi.check(ssid, password)


def test_accepted_networks_and_the_card():
    wifi.check("あ" * 10, "")  # 30 bytes, open
    wifi.check("net", "a" * 8)
    wifi.check("net", "0123456789abcdef" * 4)  # a 64-hex-digit key
    card = wifi.WifiCard()
    assert card.payload() is None and card.public() is None
    card.set("net", "password1")
    assert card.public() == {"ssid": "net", "open": False, "v": 1}
    with pytest.raises(ValueError):
        card.set("net", "short")
    assert card.payload() == "WIFI:T:WPA;S:net;P:password1;;" and card.version == 1
    card.set("", "ignored")
    assert card.payload() is None and card.version == 2


def test_read_password_takes_the_first_line_of_the_file_or_the_environment(tmp_path):
    path = tmp_path / "pw"
    path.write_text(SECRET + "\r\nsecond line\n", encoding="utf-8")
    assert wifi.read_password(str(path)) == SECRET
    assert wifi.read_password(None, {"PARTYHOST_WIFI_PASSWORD": "envpass12"}) == "envpass12"
    assert wifi.read_password(None, {}) == ""


def test_the_password_reaches_only_the_host_tv_as_a_qr_drawing():
    rig = Rig()
    tv = rig.tv()
    phone = rig.phone("あき")
    assert rig.tv().send("host", {"op": "promote", "seat": phone.seat})["ok"]
    # a host phone may not set it: host powers pass on to any connected guest by themselves
    # (hand_on_host), and the card would then be theirs to point at their own hotspot, whose
    # QR code the whole room scans from the TV (an evil twin); only a host TV page draws it
    refused = phone.send("host", {"op": "wifi", "ssid": "EvilTwin", "password": "password1"})
    assert refused["code"] == "wifi_host_screen" and "テレビ" in refused["message"]
    english = rig.phone("dan", lang="en")
    assert tv.send("host", {"op": "promote", "seat": english.seat})["ok"]
    refused = english.send("host", {"op": "wifi", "ssid": "EvilTwin", "password": "password1"})
    assert refused["code"] == "wifi_host_screen" and "TV" in refused["message"]
    assert tv.state.get("wifi") is None
    assert tv.send("host", {"op": "promote", "seat": phone.seat})["ok"]
    result = tv.send("host", {"op": "wifi", "ssid": "Party;Net", "password": SECRET})
    assert result["ok"], result
    assert SECRET not in json.dumps(result)
    # a refused one changes nothing and says why, in the phone's language
    bad = tv.send("host", {"op": "wifi", "ssid": "Party;Net", "password": "short"})
    assert bad["code"] == "wifi_password" and "8〜63" in bad["message"]
    # no view carries the password; the host TV's carries the SSID and a version
    escaped = wifi.escape(SECRET)
    for client in (tv, phone, rig.phone("ben")):
        text = json.dumps(client.state, ensure_ascii=False)
        assert SECRET not in text and escaped not in text and "P:" not in text
    assert tv.state["wifi"] == {"ssid": "Party;Net", "open": False, "v": 1}
    assert "wifi" not in phone.state  # a host phone does not draw the Wi-Fi card
    # the drawing: for this laptop (loopback), or with the host key; else refused
    http = rig.app.test_client()
    svg = http.get("/wifi.svg?v=1")
    assert svg.status_code == 200 and svg.headers["Cache-Control"] == "no-store"
    assert decoded_text(svg_to_grid(svg.get_data(as_text=True))) == wifi.payload("Party;Net", SECRET)
    lan = rig.app.test_client()
    lan.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    assert lan.get("/wifi.svg?v=1", headers={"Host": "127.0.0.1"}).status_code == 403
    assert lan.get("/wifi.svg?v=1&key=wrong", headers={"Host": "127.0.0.1"}).status_code == 403
    key = rig.app.config["HOST_KEY"]
    assert lan.get(f"/wifi.svg?v=1&key={key}", headers={"Host": "127.0.0.1"}).status_code == 200
    # cleared: no drawing, no card in the view
    assert tv.send("host", {"op": "wifi", "ssid": "", "password": ""})["ok"]
    assert http.get("/wifi.svg?v=2").status_code == 404
    assert tv.state["wifi"] is None
    # a guest cannot set it
    assert rig.phone("chloe").send("host", {"op": "wifi", "ssid": "evil", "password": "password1"})["code"] == "not_host"


def test_a_refused_password_is_never_echoed_in_the_answer():
    """A password one character too long (a paste with a stray character) was answered
    'malformed' with the whole password in the detail; protocol.md: the answer never echoes it."""
    rig = Rig()
    tv = rig.tv()
    typo = "Correct-Horse-Battery-Staple-" * 2 + "xyzabcd"  # 65 characters
    for password in (typo, ["Correct-Horse-Battery"], {"p": "Correct-Horse-Battery"}):
        result = tv.send("host", {"op": "wifi", "ssid": "PartyNet", "password": password})
        assert result["ok"] is False and result["code"] == "malformed"
        assert "Correct-Horse" not in json.dumps(result, ensure_ascii=False)
