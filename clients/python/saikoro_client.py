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

pymoo: :meth:`Problem.pymoo` returns a ``pymoo.core.problem.Problem`` that evaluates through
Saikoro (pymoo is imported only then; the rest of this module never needs it). See
examples/solvers/pymoo_nsga2.py.
"""

from __future__ import annotations

import json
import math
import sys
from typing import IO, Any, Dict, Iterable, List, Optional, Sequence, Union

__all__ = ["connect", "Problem", "Result", "Stopped", "ProtocolError", "PROTOCOL_VERSION"]

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

    def __init__(self, first_line: Dict[str, Any], reader: IO[bytes], writer: IO[bytes]):
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
        self.remaining: Optional[int] = self.budget
        self.evaluated: int = 0
        self.stopped: Optional[str] = None
        self.first_line = first_line
        self._reader = reader
        self._writer = writer

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

    def _send(self, message: Dict[str, Any]) -> None:
        self._writer.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
        self._writer.flush()

    def _receive(self) -> Optional[Dict[str, Any]]:
        line = self._reader.readline()
        if not line:
            return None
        try:
            message = json.loads(line)
        except ValueError:
            raise ProtocolError(f"not a JSON line from Saikoro: {line[:200]!r}") from None
        if not isinstance(message, dict):
            raise ProtocolError(f"not a JSON object from Saikoro: {line[:200]!r}")
        return message


def connect(reader: Optional[IO[bytes]] = None, writer: Optional[IO[bytes]] = None, protect_stdout: bool = True) -> Problem:
    """Reads Saikoro's first line and returns the :class:`Problem`.

    By default it talks over the process's stdin and stdout, and (``protect_stdout``) points
    ``sys.stdout`` at stderr so that ``print()`` cannot corrupt the protocol. Pass binary
    streams as ``reader``/``writer`` to talk over something else (tests do).
    """
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
