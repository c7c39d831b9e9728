"""The table vote shared by Word Basket and Diabolo (RULES.md: majority rejects, a tie stands)."""

import pytest

from partyhost.games.base import RuleError
from partyhost.games.vote import TableVote


def vote(n=4):
    return TableVote({"word": "ぱんだ", "seat": "s0"}, [f"s{i}" for i in range(1, n + 1)], now=10.0, seconds=20)


def test_majority_rejects_and_closes_as_soon_as_it_is_certain():
    v = vote(4)
    v.cast("s1", "reject")
    v.cast("s2", "reject")
    assert v.decided is None  # 2 rejects vs at most 2 accepts: a tie would stand
    v.cast("s3", "reject")
    assert v.decided == "reject" and v.deadline() is None


def test_a_tie_stands():
    v = vote(4)
    for seat, ballot in zip(["s1", "s2", "s3", "s4"], ["reject", "reject", "accept", "accept"]):
        v.cast(seat, ballot)
    assert v.decided == "accept"


def test_accept_is_certain_once_rejects_can_only_tie():
    v = vote(3)
    v.cast("s1", "accept")
    v.cast("s2", "accept")
    assert v.decided == "accept"


def test_time_limit_counts_the_ballots_cast_so_far():
    v = vote(5)
    v.cast("s1", "reject")
    v.expire(29.9)
    assert v.decided is None and v.deadline() == 30.0
    v.expire(30.0)
    assert v.decided == "reject"
    w = vote(5)
    w.expire(31.0)
    assert w.decided == "accept"  # nobody voted: the word stands


def test_voters_change_their_mind_but_outsiders_cannot_vote():
    v = vote(3)
    v.cast("s1", "reject")
    v.cast("s1", "accept")
    assert v.count() == {"accept": 1, "reject": 0, "waiting": 2}
    with pytest.raises(RuleError) as e:
        v.cast("s0", "reject")
    assert e.value.code == "not_a_voter"
    with pytest.raises(RuleError) as e:
        v.cast("s2", "maybe")
    assert e.value.code == "bad_ballot"


def test_host_overrules_and_a_closed_vote_refuses_ballots():
    v = vote(3)
    v.cast("s1", "reject")
    v.cast("s2", "reject")
    assert v.decided == "reject"
    with pytest.raises(RuleError) as e:
        v.cast("s3", "accept")
    assert e.value.code == "vote_closed"
    w = vote(3)
    w.cast("s1", "reject")
    w.overrule("accept")
    assert w.decided == "accept" and w.view()["overruled"] is True
    with pytest.raises(RuleError):
        w.overrule("reject")


def test_a_voter_who_leaves_no_longer_counts():
    v = vote(3)
    v.cast("s1", "accept")
    v.cast("s2", "reject")
    v.drop_voter("s3")
    assert v.decided == "accept"  # 1–1 among the two left: a tie stands


def test_snapshot_round_trip():
    v = vote(4)
    v.cast("s2", "reject")
    v.expire(40)
    again = TableVote.from_dict(v.to_dict())
    assert again.to_dict() == v.to_dict() and again.decided == v.decided == "reject"
