"""Hypothesis throws arbitrary JSON at the engine through the real transport: every message gets
exactly one answer, nothing escapes the loop, and a refused message changes nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import Rig

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats()
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# Payloads that look almost right: real event names and field names, wrong or odd values.
near_misses = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "ready", "stop", "propose_shuriken", "vote_shuriken", "x"])},
    optional={
        "level": st.one_of(st.integers(-3, 15), st.text(max_size=3), st.none()),
        "card": st.one_of(st.integers(-5, 110), st.floats(allow_nan=False), st.text(max_size=3)),
        "ready": st.one_of(st.booleans(), st.integers(0, 1)),
        "proposal": st.integers(-1, 3),
        "agree": st.booleans(),
        "game": st.integers(0, 3),
        "op": st.sampled_from(["start", "kick", "end", "pause", "promote", "address"]),
        "seat": st.sampled_from(["s1", "s2", "s9", ""]),
    },
)
messages = st.lists(
    st.tuples(
        st.sampled_from(["phone0", "phone1", "outsider"]),
        st.sampled_from(["act", "host", "join", "lang", "nonsense"]),
        st.one_of(json_values, near_misses),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages)
def test_any_message_is_answered_and_refusals_change_nothing(batch):
    rig = Rig(seed=11)
    tv = rig.tv()
    phones = {"phone0": rig.phone("a"), "phone1": rig.phone("b"), "outsider": rig.phone()}
    assert tv.send("host", {"op": "start"})["ok"]
    for who, event, payload in batch:
        client = phones[who]
        msg_id = f"fz-{len(client.received('result'))}-{event}"
        if isinstance(payload, dict):
            payload = {**payload, "id": msg_id}
            if event == "act" and "game" not in payload:
                payload["game"] = rig.engine.party.game_serial
        before = json.dumps(rig.engine.party.to_dict(), sort_keys=True)
        count = len(client.received("result"))
        # raw, as a hostile client writes it: NaN and Infinity included
        client.emit_raw("2" + json.dumps([event, payload]), drain=False)
        rig.drain()
        results = client.received("result")
        assert len(results) == count + 1, (event, payload)
        answer = results[-1]
        assert answer["ok"] in (True, False)
        if not answer["ok"]:
            assert answer["code"] != "internal", (event, payload)
            assert answer["message"]
            assert json.dumps(rig.engine.party.to_dict(), sort_keys=True) == before, (event, payload)
    # the room still works afterwards: the TV can always end and restart
    assert tv.send("host", {"op": "end"})["ok"]
