"""SQLite snapshots of the party, so a restarted host resumes where it stopped.

One row holds the latest snapshot (JSON of :meth:`Party.to_dict` plus the game clock). Writes
use WAL and ``synchronous=NORMAL``: a write costs well under a millisecond, small enough for
the engine loop (see ``docs/performance.md``).

Faults, and what the store does about them:

* **One host per folder.** The store holds an exclusive lock on ``<folder>/party.lock`` for its
  whole life; a second host on the same folder gets :class:`StoreBusy` at once. The lock is
  ``filelock``'s :func:`~filelock.lock_descriptor` on the store's own descriptor: ``flock`` on
  Linux and macOS, ``LockFileEx`` on Windows. The system drops it when the process dies, even by
  ``kill -9``, so no stale lock blocks a restart. Where the system has no ``flock`` (no
  ``fcntl``), filelock's :class:`~filelock.SoftFileLock` on ``party.lock.soft`` takes its place:
  a marker file naming its holder's process, which a later host takes over once that process
  is gone. (A file system that refuses locks, some network mounts, runs unlocked and says so.)
* **A damaged file** (not SQLite at all, truncated, failing SQLite's ``quick_check``) is renamed
  aside, byte for byte, to ``party.damaged-<YYYYmmdd-HHMMSS>.sqlite3`` (with its ``-wal``/``-shm``)
  and a new file starts; :attr:`Store.damaged` says so. A sound file whose *snapshot* cannot be
  used is copied aside by :meth:`Store.keep_aside` before anything overwrites it. Nothing kept
  aside is ever overwritten: a name already taken gets ``-2``, ``-3``…
* **Saving can fail** (disk full, read-only or vanished folder): :meth:`Store.save` raises and the
  engine shows that on the TV. A data file or folder that disappeared (``rm -rf data``) is made
  again on the next save, with the whole snapshot, instead of writing on into a deleted file.
* **Owner only.** The folder (when the store creates it) is 0700; the database, its WAL and SHM
  (SQLite gives them the database's mode), the lock file and the copies kept aside are 0600:
  the snapshot holds every phone's token.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import secrets
import sqlite3
import time

import warnings

with warnings.catch_warnings():
    # filelock warns "only soft file lock is available" on a system without fcntl: the store
    # says what it does itself (Store._lock)
    warnings.simplefilter("ignore")
    import filelock

from .wire import EntriesText

log = logging.getLogger("partyhost.store")

DB_NAME = "party.sqlite3"
"""The snapshot database's file name inside the data folder."""

LOCK_NAME = "party.lock"
"""The lock file's name inside the data folder (holds the owning process id, for messages)."""

SOFT_LOCK_NAME = LOCK_NAME + ".soft"
"""The marker file of the soft lock, used only where the system has no ``flock``."""

_SIDE_FILES = ("", "-wal", "-shm")
_DAMAGE_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)


class StoreBusy(RuntimeError):
    """Another live process holds the data folder's lock.

    Attributes:
        folder: the data folder.
        pid: the process id written in the lock file by its holder, or None if unreadable.
    """

    def __init__(self, folder: str, pid: int | None) -> None:
        super().__init__(f"{folder} is in use by another partyhost (pid {pid})")
        self.folder = folder
        self.pid = pid


class SaveError(OSError):
    """A save that failed, with the reason found for it.

    Attributes:
        reason: a :func:`failure_reason` code (``"disk_full"``, ``"read_only"``…).
        cause: the original exception (also ``__cause__``).
    """

    def __init__(self, reason: str, cause: BaseException) -> None:
        super().__init__(f"{reason}: {type(cause).__name__}: {cause}")
        self.reason = reason
        self.cause = cause


class SnapshotError(ValueError):
    """The saved snapshot cannot be read (not JSON, or not a ``{"party": {...}}`` object)."""


_SNAPSHOT_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True, allow_nan=False)
"""What :meth:`Store.save` writes with: exactly ``json.dumps(snapshot, ensure_ascii=False,
sort_keys=True, allow_nan=False)``, one encoder for every save (``json.dumps`` with options
builds a new one per call)."""


_HOLE = "partyhost:record-text"
_HOLE_TEXT = '"partyhost:record-text"'
"""The mark the record's text replaces in :meth:`Store._encode` (its JSON text is ``_HOLE_TEXT``);
when it appears more than once (a text somewhere holds it) the whole snapshot is written."""


def is_damage(error: BaseException) -> bool:
    """True when ``error`` says the database file itself is damaged (``SQLITE_CORRUPT``,
    ``SQLITE_NOTADB``), as opposed to a folder we may not write or a full disk."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    code = getattr(error, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES
    text = str(error)
    return "not a database" in text or "malformed" in text


def failure_reason(error: BaseException) -> str:
    """Classify a failed save for the TV's warning.

    Returns:
        ``"disk_full"`` (no space, quota, file size limit), ``"read_only"`` (read-only file
        system, no permission), ``"busy"`` (another host took the folder), ``"invalid"`` (the
        snapshot holds a value JSON cannot carry, e.g. NaN) or ``"io"`` (anything else: an I/O
        error, the file replaced by a folder…).
    """
    if isinstance(error, SaveError):
        return error.reason
    if isinstance(error, StoreBusy):
        return "busy"
    if isinstance(error, (ValueError, TypeError)) and not isinstance(error, sqlite3.Error):
        return "invalid"
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG):
            return "disk_full"
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return "read_only"
        return "io"
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return "disk_full"
    if name.startswith("SQLITE_READONLY") or "readonly" in text:
        return "read_only"
    return "io"


def _own_file(path: str) -> None:
    """Create ``path`` if missing and make it readable and writable by its owner only.

    SQLite creates a database's ``-wal`` and ``-shm`` with the database's own mode, so making
    the database 0600 before SQLite first opens it covers them too.
    Raises:
        OSError: cannot create or open it (a directory in its place, a read-only folder…).
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        else:  # pragma: no cover - Windows
            os.chmod(path, 0o600)
    finally:
        os.close(fd)


def _make_folder(folder: str) -> None:
    """Create the data folder (0700) if it is missing; an existing folder keeps its mode."""
    if os.path.isdir(folder):
        return
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)  # makedirs' mode is filtered by the umask; this is not


def _timestamped(folder: str) -> str:
    """A free ``party.damaged-<stamp>[-n].sqlite3`` path in ``folder`` (none of its side files exist)."""
    base = os.path.join(folder, "party.damaged-" + time.strftime("%Y%m%d-%H%M%S"))
    name, n = base + ".sqlite3", 2
    while any(os.path.lexists(name + s) for s in _SIDE_FILES):
        name, n = f"{base}-{n}.sqlite3", n + 1
    return name


class Store:
    """The snapshot file ``<folder>/party.sqlite3``, locked for this process.

    Args:
        folder: the data folder; created (0700) when missing.
    Attributes:
        path: the database file.
        damaged: None, or ``{"aside": path, "detail": str}`` when the file found at open was
            damaged and was renamed aside (a new, empty file took its place).
    Raises:
        StoreBusy: another live process holds the folder.
        OSError / sqlite3.Error: the folder or file cannot be created, opened or written
            (a read-only folder, a file where the folder should be…).
    """

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.path = os.path.join(folder, DB_NAME)
        self.damaged: dict | None = None
        self._db: sqlite3.Connection | None = None
        self._lock_fd: int | None = None
        self._soft: filelock.SoftFileLock | None = None
        self._ident: tuple[int, int] | None = None
        self._last = ""
        self._record = EntriesText(_SNAPSHOT_JSON)
        self._key: str | None = None
        _make_folder(folder)
        self._lock()
        try:
            try:
                self._open()
            except sqlite3.DatabaseError as error:
                if not is_damage(error):
                    raise
                self.damaged = {"aside": self._move_aside(), "detail": str(error)}
                self._open()
        except BaseException:
            self.close()
            raise

    # ----- the folder lock ---------------------------------------------------------------------
    def _lock(self) -> None:
        """Take the folder's lock (see the module docstring) and write our process id in
        ``party.lock``. Raises :class:`StoreBusy` when a live process holds it."""
        path = os.path.join(self.folder, LOCK_NAME)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        soft = None
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)
            try:
                held = filelock.lock_descriptor(fd, blocking=False)
            except OSError as error:
                held = True
                if error.errno == errno.ENOSYS:  # no flock here: the soft lock
                    soft = filelock.SoftFileLock(os.path.join(self.folder, SOFT_LOCK_NAME),
                                                 timeout=0, mode=0o600, thread_local=False)
                    try:
                        soft.acquire()
                    except filelock.Timeout:
                        held = False
                else:
                    # a file system without locks (some network mounts): go on unlocked
                    log.warning("データフォルダをロックできません / cannot lock the data folder: %s", error)
            if not held:
                raise StoreBusy(self.folder, _read_pid(fd))
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            # after a newline: Windows' lock covers byte 0 only, so another host can read the pid
            os.write(fd, f"\n{os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            if soft is not None and soft.is_locked:
                soft.release()
            raise
        self._release_lock()
        self._lock_fd = fd
        self._soft = soft

    def _release_lock(self) -> None:
        fd, self._lock_fd = self._lock_fd, None
        soft, self._soft = self._soft, None
        try:
            if fd is not None:
                os.close(fd)
        except OSError:  # pragma: no cover
            pass
        finally:
            if soft is not None and soft.is_locked:
                soft.release()

    def _holds_lock(self) -> bool:
        """True when our lock is on the folder's current lock file (not on one deleted with an
        old folder)."""
        if self._lock_fd is None:
            return False
        try:
            mine = os.fstat(self._lock_fd)
            there = os.stat(os.path.join(self.folder, LOCK_NAME))
        except OSError:
            return False
        return (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino)

    # ----- opening ---------------------------------------------------------------------------
    def _open(self) -> None:
        """Open (or create) the database, check it, create the tables.

        Raises:
            sqlite3.DatabaseError: damaged (see :func:`is_damage`) or cannot be written.
            OSError: the file cannot be created or opened.
        """
        for suffix in _SIDE_FILES:
            if suffix == "" or os.path.exists(self.path + suffix):
                _own_file(self.path + suffix)  # an older version's 0644 files are tightened too
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            check = db.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed (quick_check: {check})")
            db.execute(
                "CREATE TABLE IF NOT EXISTS snapshot (id INTEGER PRIMARY KEY CHECK (id = 1),"
                " saved_at REAL NOT NULL, data TEXT NOT NULL)"
            )
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        except BaseException:
            db.close()
            raise
        st = os.stat(self.path)
        self._db = db
        self._ident = (st.st_dev, st.st_ino)

    def _move_aside(self) -> str:
        """Rename the damaged database (and its ``-wal``/``-shm``) aside, unchanged; return the
        new path of the database."""
        aside = _timestamped(self.folder)
        for suffix in _SIDE_FILES:
            if os.path.lexists(self.path + suffix):
                os.replace(self.path + suffix, aside + suffix)  # the name is free: nothing is overwritten
                try:
                    os.chmod(aside + suffix, 0o600)
                except OSError:  # pragma: no cover
                    pass
        return aside

    def keep_aside(self) -> str:
        """Copy the database as it is now to ``party.damaged-<stamp>.sqlite3`` (0600), before
        the next save replaces a snapshot that could not be used. Uses SQLite's backup, so the
        copy is whole even while recent writes sit in the WAL.

        Returns:
            The copy's path.
        Raises:
            OSError / sqlite3.Error: the copy cannot be written.
        """
        aside = _timestamped(self.folder)
        _own_file(aside)
        dest = sqlite3.connect(aside)
        try:
            self._connection().backup(dest)
        finally:
            dest.close()
        return aside

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise sqlite3.OperationalError("the data file is not open")
        return self._db

    def _check_file(self) -> None:
        """Before a write: if the database file or its folder vanished or was replaced since we
        opened it, open it again (creating the folder, taking its lock), so the party is not
        written on into a deleted file. The next save then writes the whole snapshot."""
        try:
            st = os.stat(self.path)
            if self._db is not None and (st.st_dev, st.st_ino) == self._ident:
                return
        except FileNotFoundError:
            pass
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:  # pragma: no cover
                pass
            self._db = None
            log.warning("データファイルが消えていたので作り直します / the data file was gone; making it again: %s",
                        self.path)
        self._last = ""
        _make_folder(self.folder)
        if not self._holds_lock():
            self._lock()
        try:
            self._open()
        except sqlite3.DatabaseError as error:
            if not is_damage(error):
                raise
            aside = self._move_aside()
            log.warning("データファイルが壊れていたので別名で残しました / the data file was damaged; kept as %s", aside)
            self._open()
        if self._key is not None:
            self._set_key(self._key)

    # ----- host key ----------------------------------------------------------------------------
    def host_key(self) -> str:
        """The secret that gives a TV page on another device host powers: made once, then kept,
        so a restarted host does not silently demote that TV (``--fresh`` makes a new one:
        :meth:`rotate_host_key`)."""
        row = self._connection().execute("SELECT value FROM meta WHERE key = 'host_key'").fetchone()
        if row:
            self._key = row[0]
            return row[0]
        return self.rotate_host_key()

    def rotate_host_key(self) -> str:
        """Make and keep a new host key (``--fresh``): a TV opened with the old ``?key=`` URL
        loses host powers. Returns the new key."""
        key = secrets.token_urlsafe(12)
        self._set_key(key)
        return key

    def _set_key(self, key: str) -> None:
        self._connection().execute(
            "INSERT INTO meta (key, value) VALUES ('host_key', ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key,))
        self._key = key

    # ----- snapshots ---------------------------------------------------------------------------
    def save(self, snapshot: dict) -> None:
        """Write ``snapshot`` (JSON-ready, finite numbers only) unless it equals the last one
        written.

        Raises:
            ValueError: the snapshot holds NaN or ±Infinity (never written).
            SaveError: the write failed (disk full, read-only, folder gone and cannot be made
                again, another host took a folder made again…), with its ``reason``; the next
                call tries again.
        """
        text = self._encode(snapshot)
        if text == self._last:
            return
        try:
            self._check_file()
            self._connection().execute(
                "INSERT INTO snapshot (id, saved_at, data) VALUES (1, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET saved_at = excluded.saved_at, data = excluded.data",
                (time.time(), text),
            )
        except (OSError, sqlite3.Error) as error:
            raise SaveError(self._diagnose(error), error) from error
        self._last = text

    @property
    def last_text(self) -> str | None:
        """The text of the last snapshot written (or found unchanged) since the store was
        opened, None when there is none: the engine restores a failing game change from it
        (:meth:`partyhost.engine.Engine._guarded`)."""
        return self._last or None

    def _encode(self, snapshot: dict) -> str:
        """``json.dumps(snapshot, ensure_ascii=False, sort_keys=True, allow_nan=False)``, with the
        night's record (``snapshot["party"]["record"]``: entries never changed once written,
        :meth:`partyhost.party.Party.settle`) written only when it holds other entries, and put
        in its place in the text (with ``indent=None`` a nested value is written exactly as on
        its own). Issue 18, fifth pass: the record was up to half the snapshot's text."""
        party = snapshot.get("party") if type(snapshot) is dict else None
        record = party.get("record") if type(party) is dict else None
        if type(record) is not list or not record:
            return _SNAPSHOT_JSON.encode(snapshot)
        record_text = self._record.text(record)
        text = _SNAPSHOT_JSON.encode({**snapshot, "party": {**party, "record": _HOLE}})
        if text.count(_HOLE_TEXT) != 1:  # the mark also appears elsewhere: write it all
            return _SNAPSHOT_JSON.encode(snapshot)
        return text.replace(_HOLE_TEXT, record_text)

    def _diagnose(self, error: BaseException) -> str:
        """Why a write failed: SQLite says only "disk I/O error", so when the error itself does
        not tell, look at the free space and try opening the files for writing."""
        reason = failure_reason(error)
        if reason != "io":
            return reason
        try:
            st = os.statvfs(self.folder)
            if st.f_bavail * st.f_frsize < 1 << 20:
                return "disk_full"
        except (OSError, AttributeError):  # AttributeError: no statvfs on Windows
            pass
        for path in (self.path, self.path + "-wal"):
            try:
                os.close(os.open(path, os.O_WRONLY))
            except OSError as probe:
                if failure_reason(probe) != "io":
                    return failure_reason(probe)
        return "io"

    def load(self) -> dict | None:
        """The latest snapshot, or None when there is none.

        NaN and ±Infinity in the text come back as floats: the engine's restore repairs or
        refuses them (see :meth:`partyhost.engine.Engine`), they never reach a screen.
        Raises:
            SnapshotError: the row cannot be read, is not JSON, or is not an object with a
                ``"party"`` object.
        """
        try:
            row = self._connection().execute("SELECT data FROM snapshot WHERE id = 1").fetchone()
        except sqlite3.DatabaseError as error:  # a SQLite file of another shape (another program's)
            raise SnapshotError(f"the snapshot cannot be read: {error}") from None
        if not row:
            return None
        try:
            data = json.loads(row[0])
        except (TypeError, ValueError) as error:
            raise SnapshotError(f"the snapshot is not JSON: {error}") from None
        if not isinstance(data, dict) or not isinstance(data.get("party"), dict):
            raise SnapshotError("the snapshot is not a {'party': {...}} object")
        return data

    def clear(self) -> None:
        """Forget the saved party (``--fresh``)."""
        self._connection().execute("DELETE FROM snapshot")
        self._last = ""

    def close(self) -> None:
        """Close the database and release the folder's lock (also done when the store is
        garbage-collected, and by the kernel when the process dies)."""
        db, self._db = self._db, None
        try:
            if db is not None:
                db.close()
        finally:
            self._release_lock()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


def _read_pid(fd: int) -> int | None:
    """The process id in a lock file (``"\\n<pid>\\n"``; an older version wrote ``"<pid>\\n"``),
    read from byte 1: on Windows the holder's lock keeps byte 0 from being read."""
    try:
        os.lseek(fd, 1, os.SEEK_SET)
        text = os.read(fd, 32).decode().strip()
        if text.isdigit() and os.lseek(fd, 0, os.SEEK_SET) == 0:
            try:  # an older version's "<pid>\n": its first digit is at byte 0
                first = os.read(fd, 1).decode()
            except OSError:
                first = "\n"
            return int(first.strip() + text)
        return None
    except (OSError, ValueError):
        return None
