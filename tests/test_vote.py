"""The table vote shared by Word Basket and Diabolo (RULES.md: majority rejects, a tie stands)."""

import pytest

from partyhost.games.base import RuleError
from partyhost.games.vote import TableVote


def vote(n=4):
    return TableVote({"word": "ぱんだ", "seat": "s0"}, [f"s{i}" for i in range(1, n + 1)], now=10.0, seconds=20, vote_id=7)


def test_majority_rejects_and_closes_as_soon_as_it_is_certain():
    v = vote(4)
    v.cast("s1", "reject", v.id)
    v.cast("s2", "reject", v.id)
    assert v.decided is None  # 2 rejects vs at most 2 accepts: a tie would stand
    v.cast("s3", "reject", v.id)
    assert v.decided == "reject" and v.deadline() is None


def test_a_tie_stands():
    v = vote(4)
    for seat, ballot in zip(["s1", "s2", "s3", "s4"], ["reject", "reject", "accept", "accept"]):
        v.cast(seat, ballot, v.id)
    assert v.decided == "accept"


def test_accept_is_certain_once_rejects_can_only_tie():
    v = vote(3)
    v.cast("s1", "accept", v.id)
    v.cast("s2", "accept", v.id)
    assert v.decided == "accept"


def test_time_limit_counts_the_ballots_cast_so_far():
    v = vote(5)
    v.cast("s1", "reject", v.id)
    v.expire(29.9)
    assert v.decided is None and v.deadline() == 30.0
    v.expire(30.0)
    assert v.decided == "reject"
    w = vote(5)
    w.expire(31.0)
    assert w.decided == "accept"  # nobody voted: the word stands


def test_voters_change_their_mind_but_outsiders_cannot_vote():
    v = vote(3)
    v.cast("s1", "reject", v.id)
    v.cast("s1", "accept", v.id)
    assert v.count() == {"accept": 1, "reject": 0, "waiting": 2}
    with pytest.raises(RuleError) as e:
        v.cast("s0", "reject", v.id)
    assert e.value.code == "not_a_voter"
    with pytest.raises(RuleError) as e:
        v.cast("s2", "maybe", v.id)
    assert e.value.code == "bad_ballot"


def test_host_overrules_and_a_closed_vote_refuses_ballots():
    v = vote(3)
    v.cast("s1", "reject", v.id)
    v.cast("s2", "reject", v.id)
    assert v.decided == "reject"
    with pytest.raises(RuleError) as e:
        v.cast("s3", "accept", v.id)
    assert e.value.code == "vote_closed"
    w = vote(3)
    w.cast("s1", "reject", w.id)
    w.overrule("accept", w.id)
    assert w.decided == "accept" and w.view()["overruled"] is True
    with pytest.raises(RuleError):
        w.overrule("reject", w.id)


def test_a_voter_who_leaves_no_longer_counts():
    v = vote(3)
    v.cast("s1", "accept", v.id)
    v.cast("s2", "reject", v.id)
    v.drop_voter("s3")
    assert v.decided == "accept"  # 1–1 among the two left: a tie stands


def test_snapshot_round_trip():
    v = vote(4)
    v.cast("s2", "reject", v.id)
    v.expire(40)
    again = TableVote.from_dict(v.to_dict())
    assert again.to_dict() == v.to_dict() and again.decided == v.decided == "reject"


def test_a_ballot_or_overrule_for_another_vote_is_refused_and_counts_nowhere():
    """Diabolo's ballots did not name their vote: a late "accept" for one unknown word decided
    the next one (a word taken with nobody voting on it)."""
    v = vote(3)
    with pytest.raises(RuleError) as caught:
        v.cast("s1", "accept", 6)
    assert caught.value.code == "vote_gone"
    with pytest.raises(RuleError):
        v.cast("s1", "accept", None)
    with pytest.raises(RuleError):
        v.overrule("accept", 8)
    assert v.ballots == {} and v.decided is None
    assert TableVote.from_dict(v.to_dict()).id == 7 and v.view()["id"] == 7
