"""The terminal may go away; the host stays (issue 27: "Pipe to stdout was broken" at start).

``partyhost | head``, ``make run | head``, a closed terminal tab, or a log viewer that quits:
the reader of the host's stdout or stderr closes its end while the night goes on. Python then
raises :class:`BrokenPipeError` at the next ``print``/``write`` (the banner, a note, a log line),
which ended the host with a traceback, and again at exit ("Exception ignored … BrokenPipeError").

:func:`guard_console` wraps ``sys.stdout`` and ``sys.stderr``: the first write or flush that
finds the reader gone points that stream's file descriptor at the null device (so Python's own
buffers and the final flush at exit also succeed) and every later write is dropped. What is
printed is only for the person at the laptop; the TV page shows the join QR code on its own.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, TextIO


def _reader_gone(error: OSError) -> bool:
    """True for the errors a write gets when the pipe's reader has closed it: EPIPE (POSIX,
    :class:`BrokenPipeError`) and, on Windows, EINVAL, which a write to a closed pipe reports."""
    if isinstance(error, BrokenPipeError):
        return True
    return sys.platform.startswith("win") and error.errno == errno.EINVAL


class PipeSafeStream:
    """A text stream (``sys.stdout``/``sys.stderr``) whose writes never raise because the reader
    went away. Everything else (``encoding``, ``reconfigure``, ``fileno``, ``isatty`` …) is the
    wrapped stream's.

    Attributes:
        stream: the wrapped text stream.
        gone: True once a write or flush found the reader gone (later writes are dropped).
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.gone = False

    def _silence(self) -> None:
        """Point the stream's descriptor at the null device, so that what Python still holds in
        its buffers (and flushes at exit) goes nowhere instead of raising again."""
        self.gone = True
        try:
            fd = self.stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
        except (OSError, ValueError, AttributeError):
            return
        try:
            os.dup2(null, fd)
        except OSError:
            pass
        finally:
            os.close(null)

    def write(self, text: str) -> int:
        """Write ``text``; returns its length (also when it was dropped)."""
        if self.gone:
            return len(text)
        try:
            return self.stream.write(text)
        except OSError as error:
            if not _reader_gone(error):
                raise
            self._silence()
            return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.gone:
            try:
                self.stream.flush()  # into the null device now: empties Python's buffer
            except (OSError, ValueError):
                pass
            return
        try:
            self.stream.flush()
        except OSError as error:
            if not _reader_gone(error):
                raise
            self._silence()
            try:
                self.stream.flush()
            except (OSError, ValueError):
                pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def guard_console() -> None:
    """Wrap ``sys.stdout`` and ``sys.stderr`` in :class:`PipeSafeStream` (once; a missing
    stream, as under ``pythonw`` on Windows, is left as it is)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, PipeSafeStream):
            setattr(sys, name, PipeSafeStream(stream))


def tolerant_console() -> None:
    """Make ``sys.stdout`` and ``sys.stderr`` replace what their encoding cannot show (``?``)
    instead of raising ``UnicodeEncodeError``: every line the host prints is Japanese and
    English, so the English half stays readable on a cp1252 console, and nothing stops the
    host from starting. Called first thing in :func:`partyhost.__main__.main`, before argparse
    prints ``--help`` or an error (``1–65535``: cp932 and ascii have no en dash)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # pragma: no cover - a closed or odd stream
                pass
