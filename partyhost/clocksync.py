"""Clock sync between the host and each phone, and the tap moment on the server clock (issue 26).

Pure: no clock, no sockets, no game state. The engine and the clients feed it timestamps.

端末ごとの時計合わせ（ping の往復、最小RTTの標本）と、タップの瞬間をサーバー時計に写す計算。

How a sample is taken (the same maths on either side, "local" is whoever keeps the estimate):
the local side sends at ``sent`` (its clock), the remote side stamps ``remote`` (its clock) and
answers, the local side receives at ``received``. Then ``rtt = received - sent`` and, if both
legs took as long, ``offset = (sent + received) / 2 - remote`` (local = remote + offset). Whatever
the legs really took, the true offset lies within ``rtt / 2`` of that estimate, so the sample
with the smallest round trip in a sliding window gives the tightest estimate (the NTP min-RTT
filter). All times are seconds.

On the host the exchange is measured on the host's clock only: a phone's ``sync`` ping carries
``echo``, the host time of the answer it got just before, and ``c``, the phone's clock as it sends
(right on receiving that answer). ``sent`` = the echoed host time (checked against what the host
really sent), ``received`` = when the ping arrived: a phone can make its round trip look longer
(slower), never shorter.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

WINDOW = 16
"""Samples kept (the newest); the estimate follows a clock that drifts or a route that changes."""

MAX_RTT = 1.0
"""Seconds: a round trip longer than this is no sample (a stalled or stale answer)."""

BEST = 4
"""The offset spread among this many lowest-RTT samples is the estimate's jitter term."""

RESOLUTION = 0.001
"""Seconds added to every uncertainty: a browser's clock reads whole milliseconds."""

BOUND_MARGIN = 0.010
"""Seconds a tap may be dated before its phone's largest measured one-way delay (jitter)."""

MAX_BOUND = 0.150
"""Seconds: no tap is ever dated more than this before it arrived, whatever a phone measures, and
the engine never holds a racing action longer than this for an earlier one."""

DRAW_MAX = 0.030
"""Seconds: the widest zone in which two taps from different phones are a fair draw (see
``docs/fair_first_card.md``); racing actions wait this much longer at most for it."""

MAX_CLOCK = 1e10
"""Seconds: no clock reading of a sample may be further from zero than this (317 years; a
browser's ``Date.now() / 1000`` is about 1.8e9). A phone's ``c`` of ±1e308 passes as a finite
number, but two of them among the fastest samples made the spread of offsets infinite: an
``inf`` uncertainty stored with the phone's next play, which no snapshot can hold."""

ABSURD = 2.0
"""Seconds: a tap stamp that maps further than this from its arrival (either way) is refused."""


class ClockStampError(ValueError):
    """A stamp that is not a finite number, or maps absurdly far from its arrival."""


@dataclass(frozen=True)
class Sample:
    """One exchange: ``rtt`` and ``offset`` (local = remote + offset), ``up`` = the local
    receive less the remote stamp (the one-way delay remote → local plus the offset), seconds."""

    rtt: float
    offset: float
    up: float


class ClockSync:
    """A sliding-window estimate of one remote clock against the local one.

    Args:
        window: samples kept. max_rtt: longer round trips are refused (seconds).
    """

    def __init__(self, window: int = WINDOW, max_rtt: float = MAX_RTT) -> None:
        self.samples: deque[Sample] = deque(maxlen=window)
        self.max_rtt = max_rtt

    def add(self, sent: float, remote: float, received: float) -> bool:
        """Add one exchange (seconds; ``sent``/``received`` local, ``remote`` remote clock).

        Returns False (and keeps nothing) for a non-finite time or one beyond
        :data:`MAX_CLOCK`, a negative round trip or one longer than ``max_rtt``: a doubled,
        late or forged answer is harmless.
        """
        if not all(isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
                   and abs(t) <= MAX_CLOCK for t in (sent, remote, received)):
            return False
        rtt = received - sent
        if rtt < 0 or rtt > self.max_rtt:
            return False
        self.samples.append(Sample(rtt, (sent + received) / 2 - remote, received - remote))
        return True

    @property
    def synced(self) -> bool:
        """True once at least one sample is kept."""
        return bool(self.samples)

    def _best(self) -> Sample:
        return min(self.samples, key=lambda s: s.rtt)

    @property
    def min_rtt(self) -> float:
        """The smallest round trip in the window, seconds. Raises ValueError when not synced."""
        if not self.samples:
            raise ValueError("no clock sample yet")
        return self._best().rtt

    def _offsets(self) -> list[float]:
        if not self.samples:
            raise ValueError("no clock sample yet")
        return [s.offset for s in sorted(self.samples, key=lambda s: s.rtt)[:BEST]]

    @property
    def offset(self) -> float:
        """local = remote + offset, seconds: the mean offset of the :data:`BEST` lowest-RTT
        samples (the min-RTT filter, less noisy than one sample). ValueError when not synced."""
        offsets = self._offsets()
        return sum(offsets) / len(offsets)

    @property
    def uncertainty(self) -> float:
        """How far the true offset may be from :attr:`offset`, seconds: half the min round trip
        (the exact bound of the min-RTT sample's own offset) plus the jitter term: the spread of
        the :data:`BEST` lowest-RTT samples' offsets (how far their mean can be from that
        sample's), plus :data:`RESOLUTION`. ValueError when not synced."""
        offsets = self._offsets()
        return self.min_rtt / 2 + (max(offsets) - min(offsets)) + RESOLUTION

    @property
    def jitter(self) -> float:
        """The statistical part of :attr:`uncertainty`, seconds: the spread of the :data:`BEST`
        lowest-RTT samples' offsets plus :data:`RESOLUTION` (how far the estimate moves from one
        window to the next; the min round trip's half is the worst case, this the usual case).
        0.0 when not synced."""
        if not self.samples:
            return 0.0
        offsets = self._offsets()
        return max(offsets) - min(offsets) + RESOLUTION

    def to_local(self, remote: float) -> float:
        """A remote-clock time on the local clock (seconds)."""
        return remote + self.offset

    @property
    def delay_bound(self) -> float:
        """The largest plausible one-way delay remote → local, seconds: the largest measured
        one (each sample's ``up`` less the offset) plus :data:`BOUND_MARGIN`, never more than the
        largest round trip measured, nor the smallest one plus :data:`BOUND_MARGIN`, nor
        :data:`MAX_BOUND`. 0.0 when not synced.

        The smallest round trip caps it because the remote side controls every sample's ``up``
        (its own clock reading) and when it answers: one answer held back 0.9 s with a ``c``
        from when it came reads as a 0.9 s one-way delay, yet that sample is not among the
        fastest, so the offset, jitter and uncertainty stay those of the fast link. To be
        allowed to date its taps ``d`` earlier a phone must make *every* round trip ``d`` long,
        and then its uncertainty shows it."""
        if not self.samples:
            return 0.0
        offset = self.offset
        one_way = max(0.0, max(s.up - offset for s in self.samples))
        rtt_hi = max(s.rtt for s in self.samples)
        return min(one_way + BOUND_MARGIN, rtt_hi + RESOLUTION, self.min_rtt + BOUND_MARGIN, MAX_BOUND)


def tap_time(stamp: float | None, received: float, sync: ClockSync | None) -> tuple[float, float]:
    """The moment of a tap on the local (server) clock, and its uncertainty, seconds.

    Args:
        stamp: the phone's clock when its holder tapped (remote clock), or None.
        received: when the action arrived (local clock).
        sync: that phone's :class:`ClockSync`, or None.
    Returns:
        ``(moment, uncertainty)``: ``stamp`` mapped through the offset, bounded to
        ``[received - sync.delay_bound, received]`` (no phone can claim earlier than its
        measured delay allows); with no stamp or no sample, ``(received, 0.0)`` (arrival order,
        as before clock sync).
    Raises:
        ClockStampError: ``stamp`` is not a finite number, or maps more than :data:`ABSURD`
            seconds away from ``received``.
    """
    if sync is None or not sync.synced or stamp is None:
        return received, 0.0
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or not math.isfinite(stamp):
        raise ClockStampError("stamp is not a finite number")
    moment = sync.to_local(stamp)
    if abs(moment - received) > ABSURD:
        raise ClockStampError("stamp is far from the arrival")
    moment = min(received, max(received - sync.delay_bound, moment))
    return moment, sync.uncertainty


class Moment(float):
    """A game time (float seconds) that also carries ``uncertainty`` (seconds): how far the true
    moment of the tap may be from it. Handed to a game's ``apply`` as ``now``; a game that does
    not look at ``uncertainty`` sees an ordinary float."""

    uncertainty: float

    def __new__(cls, value: float, uncertainty: float = 0.0) -> "Moment":
        moment = super().__new__(cls, value)
        moment.uncertainty = float(uncertainty)
        return moment


def uncertainty_of(now: float) -> float:
    """``now.uncertainty`` for a :class:`Moment`, 0.0 for a plain float (seconds)."""
    return float(getattr(now, "uncertainty", 0.0))


__all__ = ["ClockSync", "ClockStampError", "Moment", "Sample", "tap_time", "uncertainty_of",
           "MAX_BOUND", "ABSURD", "WINDOW"]
