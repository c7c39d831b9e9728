"""The table vote: the players decide what only people can judge (is this a real word?).

Used by Word Basket (``seeds/002_…``, a challenged word) and Diabolo (``seeds/004_…``, an unknown
word); ``../shared/RULES.md`` gives the common rule: a dictionary advises, the table decides by a
quick vote on the phones, and the host can overrule.

Pure rules like a game: no clock of its own (``now`` is handed in, in game-clock seconds), no I/O.
The owning game keeps one :class:`TableVote` while play is stopped for it, forwards the ballots
and the host's overrule to it, asks :meth:`TableVote.decided` after each change and at
:meth:`TableVote.deadline`, and stores :meth:`TableVote.to_dict` in its own snapshot.

Outcome: ``"reject"`` when more ballots reject than accept, otherwise ``"accept"`` (a tie, or
nobody voting, lets the word stand). The vote closes as soon as the outcome can no longer change,
when every voter has voted, at the deadline, or when the host overrules.

Nobody decides alone (RULES.md "Word Basket", Words): a game may name the ``judged`` seat (the
player whose word it is, who then votes too: their own "reject" withdraws the word at once) and
the ``opener`` (the challenger, whose "reject" is cast with the challenge): a "reject" outcome
then needs a rejecting ballot from someone other than the opener. So in a 2-player game a
challenged word stands unless its player withdraws it or the host rules.
"""

from __future__ import annotations

from typing import Literal

from .base import RuleError

Ballot = Literal["accept", "reject"]
BALLOTS: tuple[str, ...] = ("accept", "reject")
VOTE_SECONDS: float = 20.0
"""Default time limit of a table vote, in game-clock seconds."""


class TableVote:
    """One yes/no vote of the table about one subject.

    Args:
        subject: JSON-ready description the views show (e.g. ``{"word": "ぱんだ", "seat": "s2"}``);
            must hold nothing secret, since every screen sees it.
        voters: the seats that may vote (usually everyone but the player whose move is judged).
        now: game-clock time the vote opens (seconds).
        seconds: time limit; when it passes, the ballots cast so far decide.
        vote_id: the owning game's serial number of this vote (1, 2, …). Every ballot and
            overrule names the vote it is for, so a late ballot for a closed vote can never
            decide the next one (a tap sent just before the vote closed arrives after the next
            one opened).
        judged: the seat whose move is judged, when it votes too (its "reject" is a withdrawal
            and closes the vote at once); None when it does not vote.
        opener: the seat that opened the vote (a challenger): its "reject" never settles the vote
            by itself; None when the vote has no opener.

    Raises:
        ValueError: ``seconds`` is not positive.
    """

    def __init__(self, subject: dict, voters: list[str], now: float, seconds: float = VOTE_SECONDS,
                 vote_id: int = 0, judged: str | None = None, opener: str | None = None) -> None:
        if seconds <= 0:
            raise ValueError("seconds must be positive")
        self.id = int(vote_id)
        self.subject = dict(subject)
        self.voters = list(voters)
        self.opened = float(now)
        self.closes = float(now) + float(seconds)
        self.ballots: dict[str, str] = {}
        self.overruled: str | None = None
        self.expired = False
        self.judged = judged
        self.opener = opener

    # ----- moves --------------------------------------------------------------------------------
    def check_id(self, vote_id: int | None) -> None:
        """Refuse a move made for another vote.

        Raises:
            RuleError: ``"vote_gone"`` (``vote``: the id asked for) when ``vote_id`` is not this
                vote's id.
        """
        if vote_id != self.id:
            raise RuleError("vote_gone", vote=vote_id if isinstance(vote_id, int) else 0)

    def cast(self, seat: str, ballot: str, vote_id: int | None = None) -> None:
        """Record ``seat``'s ballot (``"accept"`` or ``"reject"``) for vote ``vote_id``; a voter
        may change it while the vote is open.

        Raises:
            RuleError: ``"vote_gone"`` (another vote's id, see :meth:`check_id`), ``"not_a_voter"``
                (the judged player, or a spectator), ``"vote_closed"``, ``"bad_ballot"``.
        """
        self.check_id(vote_id)
        if self.decided is not None:
            raise RuleError("vote_closed")
        if seat not in self.voters:
            raise RuleError("not_a_voter")
        if ballot not in BALLOTS:
            raise RuleError("bad_ballot")
        self.ballots[seat] = ballot

    def overrule(self, outcome: str, vote_id: int | None = None) -> None:
        """The host decides vote ``vote_id`` (``"accept"`` or ``"reject"``), closing it at once.

        Raises:
            RuleError: ``"vote_gone"``, ``"vote_closed"``, ``"bad_ballot"``.
        """
        self.check_id(vote_id)
        if self.decided is not None:
            raise RuleError("vote_closed")
        if outcome not in BALLOTS:
            raise RuleError("bad_ballot")
        self.overruled = outcome

    def drop_voter(self, seat: str) -> None:
        """A voter left the game (kicked): their ballot no longer counts."""
        if seat in self.voters:
            self.voters.remove(seat)
        self.ballots.pop(seat, None)

    def expire(self, now: float) -> None:
        """Close the vote if its time is up (call from the game's ``tick``)."""
        if now >= self.closes:
            self.expired = True

    # ----- reading ------------------------------------------------------------------------------
    def count(self) -> dict[str, int]:
        """``{"accept": n, "reject": n, "waiting": n}``."""
        accept = sum(1 for b in self.ballots.values() if b == "accept")
        reject = len(self.ballots) - accept
        return {"accept": accept, "reject": reject, "waiting": len(self.voters) - len(self.ballots)}

    @property
    def decided(self) -> str | None:
        """``"accept"`` / ``"reject"`` once the vote is closed, else None."""
        if self.overruled is not None:
            return self.overruled
        if self.judged is not None and self.ballots.get(self.judged) == "reject":
            return "reject"  # the player withdraws their own word
        c = self.count()
        seconded = any(b == "reject" and s != self.opener for s, b in self.ballots.items())
        if c["reject"] > c["accept"] + c["waiting"] and seconded:
            return "reject"  # a majority already rejects whatever the rest vote
        if c["accept"] >= c["reject"] + c["waiting"]:
            return "accept"  # rejects can at best tie, and a tie stands
        if self.expired:
            return "reject" if c["reject"] > c["accept"] and seconded else "accept"
        return None

    def deadline(self) -> float | None:
        """Game-clock time the vote closes by itself, or None once it is decided."""
        return None if self.decided is not None else self.closes

    def view(self) -> dict:
        """Public, JSON-ready: subject, voters, who has voted and how, tally, deadline, outcome.
        Ballots are open (a table vote by show of hands)."""
        return {
            "id": self.id,
            "subject": dict(self.subject),
            "voters": list(self.voters),
            "ballots": dict(self.ballots),
            "count": self.count(),
            "closes": self.closes,
            "decided": self.decided,
            "overruled": self.overruled is not None,
            **self._roles(),
        }

    def to_dict(self) -> dict:
        """Full snapshot for the owning game's ``to_dict``."""
        return {"id": self.id, "subject": dict(self.subject), "voters": list(self.voters), "opened": self.opened,
                "closes": self.closes, "ballots": dict(self.ballots), "overruled": self.overruled,
                "expired": self.expired, **self._roles()}

    def _roles(self) -> dict:
        """``judged`` / ``opener`` when the owning game named them (absent otherwise, so a vote
        without them keeps its earlier shape)."""
        return {k: v for k, v in (("judged", self.judged), ("opener", self.opener)) if v is not None}

    @classmethod
    def from_dict(cls, data: dict) -> "TableVote":
        """Rebuild from :meth:`to_dict` output."""
        vote = cls(data["subject"], data["voters"], data["opened"], 1.0, int(data.get("id", 0)))
        vote.closes = data["closes"]
        vote.ballots = dict(data["ballots"])
        vote.overruled = data["overruled"]
        vote.expired = bool(data.get("expired"))
        vote.judged = data.get("judged")
        vote.opener = data.get("opener")
        return vote
