#!/usr/bin/env python3
"""A first solver to change: a population of hill climbers, in plain Python.

Saikoro runs this program as a solver (``saikoro init`` puts a copy in a new study as
``solver/solver.py``, with ``saikoro_client.py`` beside it). It needs Python 3.9+ and nothing
else. In an experiment spec (the program runs in its ``cwd``, on Linux in a sandbox that sees a
copy of that folder)::

    {"name": "local-search", "command": ["python3", "solver.py", "--climbers", "20"], "cwd": "solver"}

or alone: ``saikoro solve --track mo2 --n 200 --evals 3000 --seed 1 --cwd solver --command "python3 solver.py"``.

How it talks to Saikoro (all of it is in saikoro_client.py; the protocol: ``saikoro help protocol``):

- ``connect()`` reads the problem Saikoro sends first: the sequence length ``n``, the faces
  (``lower``..``upper``, 1..6), the number of objectives M (1, or 2, 3, 5, 7), the budget and the
  seed.
- ``problem.evaluate(batch)`` sends sequences and returns one result each: ``objectives`` (M
  numbers, all minimised), ``constraint`` (the 12 chi-square constraint values g_d, 0 when
  satisfied), ``feasible`` and ``violation`` (the sum of the g_d).
- Saikoro counts the evaluations. When the budget is spent, ``evaluate`` raises ``Stopped``:
  the program returns, and Saikoro has already kept the best sequence (one objective) or the
  front of non-dominated ones (several) of everything it evaluated. A program keeps no record
  of its own best.

The algorithm: ``--climbers`` independent hill climbers. Each step, every climber changes
1..``--changes`` rolls of its sequence at random places to random faces, and the children are
evaluated together (one batch: one round trip to Saikoro). A child replaces its parent when it
is no worse: smaller violation first; at equal violation, a smaller objective (one objective)
or not dominated by its parent (several: the climber may move along the front, which spreads
the climbers over it). Every random choice comes from ``random.Random(problem.seed)``, so the
same seed gives the same run, as Saikoro's run ids and ``experiment verify`` require.

Ideas to try: accept a worse child now and then (simulated annealing), restart a climber that
has not moved for a while, or recombine two climbers (a genetic algorithm). After editing,
add the changed program as a new experiment: Saikoro stores the sha256 of this file with the
experiment and refuses to run a changed one under the old experiment's name.
"""

import argparse
import os
import random
import sys

# saikoro_client.py: installed (pip install "$(saikoro client --path)"), next to this file, or in
# the Saikoro package's clients/python folder when this file is run from its examples/solvers.
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from saikoro_client import Stopped, connect  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(description="Hill climbers as a Saikoro solver")
    parser.add_argument("--climbers", type=int, default=20, help="climbers, evaluated as one batch per step (default 20)")
    parser.add_argument("--changes", type=int, default=2, help="most rolls a step changes (default 2)")
    args = parser.parse_args()
    if args.climbers < 1 or args.changes < 1:
        parser.error("--climbers and --changes must be at least 1")
    return args


def no_worse(child, parent):
    """Whether a child may replace its parent: feasibility first, then the objectives."""
    if child.violation != parent.violation:
        return child.violation < parent.violation
    c, p = child.objectives, parent.objectives
    if len(c) == 1:
        return c[0] <= p[0]
    # Several objectives: the child stays out only when the parent dominates it.
    parent_dominates = all(pv <= cv for pv, cv in zip(p, c)) and any(pv < cv for pv, cv in zip(p, c))
    return not parent_dominates


def mutate(sequence, rng, problem, changes):
    """A copy of the sequence with 1..changes rolls set to random faces."""
    child = list(sequence)
    for _ in range(rng.randint(1, changes)):
        child[rng.randrange(problem.n)] = rng.randint(problem.lower, problem.upper)
    return child


def main():
    args = parse_args()
    problem = connect()
    rng = random.Random(problem.seed)
    problem.log(f"local search: {args.climbers} climbers, up to {args.changes} changes a step, n={problem.n}, M={problem.objectives}")
    try:
        # Start from random sequences.
        climbers = [[rng.randint(problem.lower, problem.upper) for _ in range(problem.n)] for _ in range(args.climbers)]
        results = problem.evaluate(climbers)
        steps = 0
        while True:
            children = [mutate(parent, rng, problem, args.changes) for parent in climbers]
            child_results = problem.evaluate(children)
            for i, child_result in enumerate(child_results):
                if no_worse(child_result, results[i]):
                    climbers[i], results[i] = children[i], child_result
            steps += 1
            if steps % 50 == 0:
                feasible = sum(1 for r in results if r.feasible)
                problem.log(f"step {steps}: {feasible} of {len(results)} climbers feasible")
    except Stopped as stop:
        # The budget is spent (or the run was cancelled): Saikoro has kept what was found.
        problem.log(f"stopped ({stop.reason})")


if __name__ == "__main__":
    main()
