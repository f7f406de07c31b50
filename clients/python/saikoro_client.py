"""Saikoro's external-solver protocol (version 1) as an ask/tell loop.

One file, standard library only, Python 3.9+. Copy it next to your solver (or put this folder on
PYTHONPATH) and let Saikoro run your program as a solver::

    from saikoro_client import connect, Stopped

    problem = connect()                     # reads Saikoro's first line from stdin
    problem.log(f"n={problem.n}, budget={problem.budget}")
    try:
        while True:
            batch = [random_sequence(problem.n) for _ in range(100)]
            results = problem.evaluate(batch)    # one result per sequence, in order
            ...                                  # tell your algorithm
    except Stopped as stop:                      # budget used up, or the run was cancelled
        problem.log(f"stopped: {stop.reason}")

What Saikoro does with your program (the protocol, specified in docs/external-solvers.md):

- It starts the program and writes one JSON line to its stdin: the problem (``n``, ``lower``,
  ``upper``, ``objectives``, ``constraints``; ``track`` and ``config`` unless the solver entry is
  ``"blind": true``), the budget (``{"evaluations": E}``) and the seed. :func:`connect` reads it.
- The program asks ``{"evaluate": [...]}`` on stdout and Saikoro answers one line
  ``{"results": [...], "remaining": R}``. :meth:`Problem.evaluate` does both.
- Saikoro counts every evaluation itself and keeps the best solution (or the front) of
  everything it evaluated; what the program believes is never used. So a program needs no
  bookkeeping: it may simply stop when told to.
- The batch that would pass the budget is cut to what fits and the answer carries
  ``"stop": "budget"`` (or ``"stop": "cancelled"`` when the user cancels). Saikoro then closes the
  program's stdin and, after a grace period (5 s), terminates it.

The stop signal. :meth:`Problem.evaluate` raises :class:`Stopped` when the answer carries
``"stop"`` (its ``reason`` is ``"budget"`` or ``"cancelled"``, or another of Saikoro's stopping
policies such as ``"target"`` or ``"stall"``; its ``results`` are the results of
the sequences of that last batch that were still evaluated, fewer than asked when the budget
cut the batch), and when Saikoro closed stdin without answering (``reason`` ``"closed"``).
After that, :attr:`Problem.stopped` holds the reason and every further ``evaluate`` raises
``Stopped`` again at once. Catch it around your main loop and return: the run ends cleanly.
A program that exits on its own before the budget is spent is fine too: its run keeps what
was evaluated.

Sequences are strings of die faces (``"3155..."``, length ``n``) or sequences of ints 1-6 (lists,
tuples, numpy rows). A string that is not a valid sequence gets a result with ``error`` set
(and costs no evaluation); a list holding something other than an int 1-6 raises ValueError
here, before anything is sent.

stdout belongs to the protocol: :func:`connect` points ``sys.stdout`` at stderr, so a stray
``print()`` goes to the run's log instead of breaking the protocol. stderr is kept as the log;
:meth:`Problem.log` writes a ``{"log": ...}`` line, which Saikoro puts in the run's log too.

Against a competition server. The same program plays against ``saikoro serve --competition``
from anywhere, unchanged: give it ``--remote URL --token T`` (or the environment variables
``SAIKORO_REMOTE`` and ``SAIKORO_TOKEN``, which keep the token out of ``ps``)::

    python3 my_solver.py --remote https://comp.example.org --token skt_...

This module takes those two options out of ``sys.argv`` when it is imported (so the program's
own argument parser never sees them), and :func:`connect` then opens a WebSocket to the server
instead of reading stdin: the first message is the same hello (blind: no ``track``, no
``config``; ``remaining`` says what is left of a run a reconnection resumes), then the same
requests and answers. ``URL`` is the server (the client plays the first problem with budget
left, which the server lists at ``/api/competition``) or a problem's address
(``.../api/competition/so-n840-i3``). One run per process: the program's loop ends at
``Stopped`` as on a pipe, so ``while python3 my_solver.py --remote URL --token T; do :; done``
plays every problem and seed in turn (the last start finds nothing left: :class:`NothingLeft`).
A refusal of the server (a bad token, no budget left, a request too large) raises
:class:`RemoteError` with the server's message; a refusal for the request rate is waited out and
the request sent again. Standard library only (a WebSocket over ``socket`` and ``ssl``).

pymoo: :meth:`Problem.pymoo` returns a ``pymoo.core.problem.Problem`` that evaluates through
Saikoro (pymoo is imported only then; the rest of this module never needs it). See
examples/solvers/pymoo_nsga2.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import socket
import ssl
import struct
import sys
import time
import urllib.parse
from typing import IO, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = ["connect", "connect_remote", "Problem", "Result", "Stopped", "ProtocolError", "RemoteError", "NothingLeft", "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 1

SequenceLike = Union[str, Sequence[int]]


class Stopped(Exception):
    """Saikoro ended the run: ``reason`` is ``"budget"``, ``"cancelled"``, ``"closed"`` (stdin
    ended without an answer) or another stop Saikoro names (``"target"``, ``"stall"``).

    ``results`` holds the results of the last batch that were evaluated before the stop (a
    prefix of the batch; empty when nothing of it was evaluated).
    """

    def __init__(self, reason: str, results: Optional[List["Result"]] = None):
        super().__init__(f"Saikoro stopped the run: {reason}")
        self.reason = reason
        self.results = results or []


class ProtocolError(Exception):
    """A line from Saikoro that this client does not understand (a bug on one side)."""


class RemoteError(Exception):
    """A competition server refused (``status``: its HTTP status, or None for a message on an
    open connection); the message is the server's, which says what and why."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


class NothingLeft(RemoteError):
    """``--remote`` named the server, and every problem's budget is used: nothing left to play."""


class Result:
    """The evaluation of one sequence, in the reference evaluator's shape.

    ``objective`` is what Saikoro sent: a number for one objective, a list for several;
    ``objectives`` is always a list. ``constraint`` holds g_1..g_L (each >= 0; 0 means
    satisfied); ``feasible`` is true when every g is 0; ``violation`` is their sum. For a
    sequence that was not valid, ``error`` says why and the other fields are empty
    (``objectives`` is all ``inf``, so such a result sorts last).
    """

    __slots__ = ("objective", "objectives", "constraint", "feasible", "error")

    def __init__(self, raw: Dict[str, Any], objective_count: int):
        if not isinstance(raw, dict):
            raise ProtocolError(f"a result must be an object, got {raw!r}")
        self.error: Optional[str] = raw.get("error")
        if self.error is not None:
            self.objective: Union[float, List[float], None] = None
            self.objectives: List[float] = [math.inf] * objective_count
            self.constraint: List[float] = []
            self.feasible = False
            return
        if "objective" not in raw or "feasible" not in raw:
            raise ProtocolError(f"a result needs \"objective\" and \"feasible\", got {json.dumps(raw)[:200]}")
        self.objective = raw["objective"]
        # JSON has no infinity: Saikoro writes a non-finite value as null, read back as inf.
        self.objectives = [_number(v) for v in (self.objective if isinstance(self.objective, list) else [self.objective])]
        self.constraint = [_number(v) for v in raw.get("constraint", [])]
        self.feasible = bool(raw["feasible"])

    @property
    def violation(self) -> float:
        """The sum of the constraint values (0 for a feasible sequence, inf for an error)."""
        return math.inf if self.error is not None else float(sum(self.constraint))

    def __repr__(self) -> str:
        if self.error is not None:
            return f"Result(error={self.error!r})"
        return f"Result(objective={self.objective!r}, feasible={self.feasible}, violation={self.violation:g})"


def _number(value: Any) -> float:
    return math.inf if value is None else value


def _as_text(sequence: SequenceLike, index: int) -> str:
    if isinstance(sequence, str):
        return sequence
    faces = []
    for position, value in enumerate(sequence):
        face = int(value)
        if face != value or not 1 <= face <= 6:
            raise ValueError(f"sequence {index}, position {position}: {value!r} is not a die face 1-6")
        faces.append(chr(48 + face))
    return "".join(faces)


class Problem:
    """The problem Saikoro sent, and the channel to evaluate sequences through.

    Attributes (from Saikoro's first line):
      n            sequence length
      lower, upper the faces' range (1 and 6)
      objectives   number of objectives M (1: single-objective)
      constraints  number of constraints L
      budget       the run's evaluation budget E (None: no evaluation budget)
      remaining    evaluations left, updated by every answer (None without a budget)
      seed         the run's seed: seed your generator with it so a run can be repeated
      track        "so", "mo2", ... (None for a custom grouping, and when the entry is blind)
      config       the whole dice config (n, alpha, beta, gamma, objectives, constraints,
                   lowerBounds, upperBounds), or None when the entry is blind
      blind        True when track and config were left out
      stopped      None while the run goes on; the stop reason after :class:`Stopped`
      evaluated    evaluations answered so far (errors excluded)
      first_line   the first line as a dict, for fields this client does not name
    """

    def __init__(self, first_line: Dict[str, Any], reader: Optional[IO[bytes]] = None, writer: Optional[IO[bytes]] = None,
                 channel: Optional["_Channel"] = None):
        if not isinstance(first_line, dict):
            raise ProtocolError("Saikoro's first line must be a JSON object")
        protocol = first_line.get("protocol")
        if protocol != PROTOCOL_VERSION:
            raise ProtocolError(f"this client speaks protocol {PROTOCOL_VERSION}; Saikoro sent protocol {protocol!r}")
        problem = first_line.get("problem")
        budget = first_line.get("budget")
        if not isinstance(problem, dict) or not isinstance(budget, dict):
            raise ProtocolError("Saikoro's first line needs \"problem\" and \"budget\" objects")
        try:
            self.n: int = int(problem["n"])
            self.objectives: int = int(problem["objectives"])
            self.constraints: int = int(problem["constraints"])
            evaluations = budget["evaluations"]
            self.budget: Optional[int] = None if evaluations is None else int(evaluations)
        except (KeyError, TypeError, ValueError) as e:
            raise ProtocolError(f"Saikoro's first line lacks a field or has a wrong one: {e}") from None
        self.lower: int = int(problem.get("lower", 1))
        self.upper: int = int(problem.get("upper", 6))
        self.track: Optional[str] = problem.get("track")
        self.config: Optional[Dict[str, Any]] = problem.get("config")
        self.blind: bool = "config" not in problem
        self.seed: int = int(first_line.get("seed", 0))
        remaining = first_line.get("remaining", self.budget)
        self.remaining: Optional[int] = None if remaining is None else int(remaining)
        self.evaluated: int = 0
        self.stopped: Optional[str] = None
        self.first_line = first_line
        if channel is None:
            if reader is None or writer is None:
                raise ValueError("a Problem needs a reader and a writer, or a channel")
            channel = _LineChannel(reader, writer)
        self._channel = channel

    def evaluate(self, batch: Iterable[SequenceLike]) -> List[Result]:
        """Evaluates a batch of sequences; returns one :class:`Result` per sequence, in order.

        Send batches as large as your algorithm allows (a whole population): one round trip per
        batch. Raises :class:`Stopped` when the run ends (budget, cancel, stdin closed).
        """
        if self.stopped is not None:
            raise Stopped(self.stopped)
        texts = [_as_text(s, i) for i, s in enumerate(batch)]
        if not texts:
            return []
        self._send({"evaluate": texts})
        answer = self._receive()
        if answer is None:
            self.stopped = "closed"
            raise Stopped("closed")
        raw_results = answer.get("results")
        if not isinstance(raw_results, list):
            raise ProtocolError(f"an answer needs a \"results\" list, got {json.dumps(answer)[:200]}")
        results = [Result(r, self.objectives) for r in raw_results]
        self.evaluated += sum(1 for r in results if r.error is None)
        if "remaining" in answer:
            self.remaining = None if answer["remaining"] is None else int(answer["remaining"])
        stop = answer.get("stop")
        if stop is not None:
            self.stopped = str(stop)
            raise Stopped(self.stopped, results)
        if len(results) != len(texts):
            raise ProtocolError(f"asked for {len(texts)} evaluations, got {len(results)} results without a stop")
        return results

    def log(self, message: str) -> None:
        """Puts a line in the run's log (a ``{"log": ...}`` line)."""
        self._send({"log": str(message)})

    def pymoo(self):
        """A pymoo ``Problem`` evaluating through Saikoro (imports pymoo; see :func:`pymoo_problem`)."""
        return pymoo_problem(self)

    def close(self) -> None:
        """Ends the connection (a remote run's WebSocket; nothing for a pipe). The run keeps what it evaluated."""
        self._channel.close()

    def _send(self, message: Dict[str, Any]) -> None:
        self._channel.send(json.dumps(message, separators=(",", ":")).encode("utf-8"))

    def _receive(self) -> Optional[Dict[str, Any]]:
        return self._channel.receive()


def _parse_message(line: bytes) -> Dict[str, Any]:
    try:
        message = json.loads(line)
    except ValueError:
        raise ProtocolError(f"not a JSON line from Saikoro: {line[:200]!r}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"not a JSON object from Saikoro: {line[:200]!r}")
    return message


class _Channel:
    """How a Problem talks to Saikoro: send one message, receive one (None: the other side ended)."""

    def send(self, data: bytes) -> None:
        raise NotImplementedError

    def receive(self) -> Optional[Dict[str, Any]]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _LineChannel(_Channel):
    """JSON lines over the program's stdin and stdout (Saikoro started the program)."""

    def __init__(self, reader: IO[bytes], writer: IO[bytes]):
        self._reader = reader
        self._writer = writer

    def send(self, data: bytes) -> None:
        self._writer.write(data + b"\n")
        self._writer.flush()

    def receive(self) -> Optional[Dict[str, Any]]:
        line = self._reader.readline()
        if not line:
            return None
        return _parse_message(line)


def connect(reader: Optional[IO[bytes]] = None, writer: Optional[IO[bytes]] = None, protect_stdout: bool = True) -> Problem:
    """Reads Saikoro's first line and returns the :class:`Problem`.

    Given ``--remote URL --token T`` on the command line (or ``SAIKORO_REMOTE`` and
    ``SAIKORO_TOKEN``), it plays against a competition server instead (:func:`connect_remote`).

    By default it talks over the process's stdin and stdout, and (``protect_stdout``) points
    ``sys.stdout`` at stderr so that ``print()`` cannot corrupt the protocol. Pass binary
    streams as ``reader``/``writer`` to talk over something else (tests do).
    """
    if reader is None and writer is None and _REMOTE is not None:
        return connect_remote(_REMOTE[0], _REMOTE[1])
    if reader is None:
        reader = sys.stdin.buffer
    if writer is None:
        sys.stdout.flush()
        writer = sys.stdout.buffer
        if protect_stdout:
            sys.stdout = sys.stderr
    line = reader.readline()
    if not line:
        raise ProtocolError("stdin ended before Saikoro's first line: run this program as a Saikoro command solver (see docs/external-solvers.md)")
    try:
        first = json.loads(line)
    except ValueError:
        raise ProtocolError(f"Saikoro's first line is not JSON: {line[:200]!r}") from None
    return Problem(first, reader, writer)


# ---------------------------------------------------------------------------------------------
# Against a competition server: a WebSocket (RFC 6455) over socket and ssl, and the arguments


_WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class _WebSocketChannel(_Channel):
    """The protocol's messages as WebSocket text messages (a client's frames are masked)."""

    def __init__(self, sock: socket.socket, leftover: bytes = b""):
        self._sock = sock
        self._buffer = leftover
        self._closed = False
        self._last_sent: Optional[bytes] = None

    def _read(self, count: int) -> Optional[bytes]:
        while len(self._buffer) < count:
            try:
                chunk = self._sock.recv(max(65536, count - len(self._buffer)))
            except OSError:
                chunk = b""
            if not chunk:
                return None
            self._buffer += chunk
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def _frame(self, opcode: int, payload: bytes) -> None:
        header = bytearray([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header.append(0x80 | length)
        elif length < 65536:
            header.append(0x80 | 126)
            header += struct.pack("!H", length)
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", length)
        mask = os.urandom(4)
        header += mask
        # XOR with the mask, as one big integer (a byte loop in Python takes seconds per MB).
        repeated = (mask * (length // 4 + 1))[:length]
        masked = (int.from_bytes(payload, "little") ^ int.from_bytes(repeated, "little")).to_bytes(length, "little") if length else b""
        self._sock.sendall(bytes(header) + masked)

    def send(self, data: bytes) -> None:
        if self._closed:
            raise Stopped("closed")
        self._last_sent = data
        self._frame(0x1, data)

    def _message(self) -> Optional[bytes]:
        parts: List[bytes] = []
        while True:
            head = self._read(2)
            if head is None:
                return None
            fin, opcode, length = head[0] & 0x80, head[0] & 0x0F, head[1] & 0x7F
            if length == 126:
                extended = self._read(2)
                if extended is None:
                    return None
                length = struct.unpack("!H", extended)[0]
            elif length == 127:
                extended = self._read(8)
                if extended is None:
                    return None
                length = struct.unpack("!Q", extended)[0]
            if head[1] & 0x80:
                mask = self._read(4)
                if mask is None:
                    return None
            payload = self._read(length) if length else b""
            if payload is None:
                return None
            if head[1] & 0x80:
                repeated = (mask * (length // 4 + 1))[:length]
                payload = (int.from_bytes(payload, "little") ^ int.from_bytes(repeated, "little")).to_bytes(length, "little")
            if opcode == 0x8:
                self._closed = True
                try:
                    self._frame(0x8, payload[:2])
                except OSError:
                    pass
                return None
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts)

    def receive(self) -> Optional[Dict[str, Any]]:
        while True:
            data = self._message() if not self._closed else None
            if data is None:
                return None
            message = _parse_message(data)
            if "error" in message and "results" not in message:
                retry = message.get("retry")
                if isinstance(retry, (int, float)) and self._last_sent is not None:
                    # Refused for the rate: nothing was evaluated; wait and ask again.
                    time.sleep(float(retry))
                    self._frame(0x1, self._last_sent)
                    continue
                raise RemoteError(f"the server refused: {message['error']}")
            return message

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._frame(0x8, struct.pack("!H", 1000))
            except OSError:
                pass
        try:
            self._sock.close()
        except OSError:
            pass


def _split_url(url: str) -> Tuple[bool, str, int, str, str]:
    """(tls, host, port, path, query) of an http(s) or ws(s) URL."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise RemoteError(f"--remote must be an http://, https://, ws:// or wss:// address, got {url!r}")
    tls = parts.scheme in ("https", "wss")
    return tls, parts.hostname, parts.port or (443 if tls else 80), parts.path.rstrip("/"), parts.query


def _open_socket(tls: bool, host: str, port: int, timeout: float) -> socket.socket:
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        raise RemoteError(f"cannot reach {host}:{port}: {e}") from None
    if tls:
        sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
    return sock


def _read_head(sock: socket.socket) -> Tuple[int, Dict[str, str], bytes]:
    """An HTTP response's status and headers (lower-case names), and the bytes after them."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise RemoteError("the server closed the connection before it answered")
        data += chunk
        if len(data) > 1 << 20:
            raise RemoteError("the server's answer has no end of headers")
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("iso-8859-1").split("\r\n")
    try:
        status = int(lines[0].split(" ", 2)[1])
    except (IndexError, ValueError):
        raise RemoteError(f"not an HTTP answer: {lines[0][:100]!r}") from None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, rest


def _refusal(status: int, headers: Dict[str, str], body: bytes) -> RemoteError:
    try:
        message = json.loads(body.decode("utf-8"))["error"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        message = body.decode("utf-8", "replace")[:300] or "(no message)"
    cls = NothingLeft if status == 409 else RemoteError
    return cls(f"the server refused ({status}): {message}", status)


def _request(tls: bool, host: str, port: int, method: str, path: str, token: str, timeout: float, extra: str = "") -> Tuple[int, Dict[str, str], bytes, socket.socket]:
    sock = _open_socket(tls, host, port, timeout)
    sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n{extra}\r\n".encode("utf-8"))
    status, headers, rest = _read_head(sock)
    return status, headers, rest, sock


def _read_body(sock: socket.socket, headers: Dict[str, str], rest: bytes) -> bytes:
    length = int(headers.get("content-length", "0") or 0)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return rest[:length]


def _with_query(path: str, query: str) -> str:
    return f"{path}?{query}" if query else path


def connect_remote(url: str, token: str, timeout: float = 60.0) -> Problem:
    """Plays a run against a competition server (``saikoro serve --competition``) and returns
    its :class:`Problem`, which works as over a pipe. ``url``: the server (the first problem with
    budget left is played) or a problem's address ``.../api/competition/<problem>``."""
    tls, host, port, path, query = _split_url(url)
    if not path.startswith("/api/competition/") or path.count("/") != 3:
        # The server: ask it which problems are left.
        base = path[: -len("/api/competition")] if path.endswith("/api/competition") else path
        status, headers, rest, sock = _request(tls, host, port, "GET", _with_query(f"{base}/api/competition", query), token, timeout, "Connection: close\r\n")
        body = _read_body(sock, headers, rest)
        sock.close()
        if status != 200:
            raise _refusal(status, headers, body)
        listing = json.loads(body.decode("utf-8"))
        left = [p["id"] for p in listing.get("problems", []) if any(r.get("state") != "done" and r.get("remaining", 0) > 0 for r in p.get("runs", []))]
        if not left:
            raise NothingLeft(f"nothing left to play on {url}: every problem's budget is used", 409)
        path = f"{base}/api/competition/{left[0]}"
    key = base64.b64encode(os.urandom(16)).decode("ascii")
    status, headers, rest, sock = _request(tls, host, port, "GET", _with_query(path, query), token, timeout,
                                           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if status != 101:
        body = _read_body(sock, headers, rest)
        sock.close()
        raise _refusal(status, headers, body)
    expected = base64.b64encode(hashlib.sha1((key + _WEBSOCKET_GUID).encode("ascii")).digest()).decode("ascii")
    if headers.get("sec-websocket-accept") != expected:
        sock.close()
        raise RemoteError("the server's WebSocket handshake does not answer this client's key")
    sock.settimeout(None)
    channel = _WebSocketChannel(sock, rest)
    first = channel.receive()
    if first is None:
        raise RemoteError("the server closed the connection before its first message")
    return Problem(first, channel=channel)


def _take_remote_arguments(argv: List[str]) -> Optional[Tuple[str, str]]:
    """Takes ``--remote URL`` and ``--token T`` (or ``--remote=URL``, ``--token=T``) out of
    ``argv`` in place; falls back on SAIKORO_REMOTE and SAIKORO_TOKEN. None without a URL."""
    found: Dict[str, str] = {}
    i = 1
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in ("--remote", "--token"):
            if not eq:
                if i + 1 >= len(argv):
                    raise SystemExit(f"saikoro_client: {name} needs a value")
                value = argv[i + 1]
                del argv[i:i + 2]
            else:
                del argv[i]
            found[name[2:]] = value
            continue
        i += 1
    url = found.get("remote") or os.environ.get("SAIKORO_REMOTE")
    if not url:
        if "token" in found:
            raise SystemExit("saikoro_client: --token goes with --remote URL")
        return None
    token = found.get("token") or os.environ.get("SAIKORO_TOKEN")
    if not token:
        raise SystemExit("saikoro_client: --remote needs --token T (or SAIKORO_TOKEN): the token the organiser gave you")
    return url, token


_REMOTE = _take_remote_arguments(sys.argv)


def pymoo_problem(problem: Problem):
    """Wraps ``problem`` as a ``pymoo.core.problem.Problem`` (pymoo 0.6).

    ``n_var = n`` integer variables in [lower, upper], ``n_obj = objectives``,
    ``n_ieq_constr = constraints``; every call to pymoo's evaluate sends the whole population as
    one batch. ``F`` holds the objectives, ``G`` the constraint values (feasible when every
    G <= 0, pymoo's convention, which Saikoro's g >= 0 with 0 = satisfied already follows). A
    sequence pymoo made invalid (a variable outside 1-6 after a variation without rounding) is
    not sent: it gets F = inf and G = inf. :class:`Stopped` propagates out of
    ``pymoo.optimize.minimize``: catch it there.
    """
    import numpy as np
    from pymoo.core.problem import Problem as PymooProblem

    class SaikoroProblem(PymooProblem):
        def __init__(self):
            super().__init__(n_var=problem.n, n_obj=problem.objectives, n_ieq_constr=problem.constraints,
                             xl=problem.lower, xu=problem.upper, vtype=int)
            self.saikoro = problem

        def _evaluate(self, X, out, *args, **kwargs):
            X = np.asarray(X)
            rounded = np.rint(X).astype(int)
            valid = np.all((rounded >= problem.lower) & (rounded <= problem.upper) & (rounded == X), axis=1)
            F = np.full((len(X), problem.objectives), np.inf)
            G = np.full((len(X), problem.constraints), np.inf)
            rows = np.flatnonzero(valid)
            results = problem.evaluate(["".join(map(str, rounded[i])) for i in rows])
            for i, result in zip(rows, results):
                if result.error is None:
                    F[i] = result.objectives
                    G[i] = result.constraint
            out["F"] = F
            if problem.constraints:
                out["G"] = G

    return SaikoroProblem()
