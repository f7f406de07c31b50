#!/usr/bin/env python3
"""pymoo's NSGA-II, run by Saikoro as a solver, through saikoro_client's pymoo adapter.

Copy this file (and clients/python/saikoro_client.py, next to it) and swap in any pymoo
algorithm. In an experiment spec::

    {"name": "pymoo-nsga2", "command": ["python3", "examples/solvers/pymoo_nsga2.py", "--pop", "100"]}

Needs pymoo 0.6 (``pip install pymoo``); Debian has no package for it, so Saikoro's CI does not
run this example: it is tested only where pymoo is installed.

The adapter (``problem.pymoo()``) declares n integer variables in [1, 6], the problem's
objectives and its constraints (G <= 0 is feasible, pymoo's convention and Saikoro's), and sends
each population to Saikoro as one batch. Integer variables: random integer sampling, SBX and
polynomial mutation followed by rounding (pymoo's recipe for integer problems). pymoo's own
constraint handling (feasibility first, then violation) applies. NSGA-II also runs on one
objective (it ranks by the objective then); the seed is the run's seed.
"""

import argparse
import os
import sys

# saikoro_client.py: next to this file (when copied), else from this repository's clients/python.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from pymoo.algorithms.moo.nsga2 import NSGA2  # noqa: E402
from pymoo.operators.crossover.sbx import SBX  # noqa: E402
from pymoo.operators.mutation.pm import PM  # noqa: E402
from pymoo.operators.repair.rounding import RoundingRepair  # noqa: E402
from pymoo.operators.sampling.rnd import IntegerRandomSampling  # noqa: E402
from pymoo.optimize import minimize  # noqa: E402

from saikoro_client import Stopped, connect  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description="pymoo NSGA-II as a Saikoro solver")
    parser.add_argument("--pop", type=int, default=100, help="population size (default 100)")
    args = parser.parse_args()

    problem = connect()
    problem.log(f"pymoo NSGA-II: n = {problem.n}, {problem.objectives} objective(s), budget {problem.budget}, "
                f"pop {args.pop}, seed {problem.seed}")
    algorithm = NSGA2(
        pop_size=args.pop,
        sampling=IntegerRandomSampling(),
        crossover=SBX(prob=0.9, eta=15, vtype=float, repair=RoundingRepair()),
        mutation=PM(eta=20, vtype=float, repair=RoundingRepair()),
        eliminate_duplicates=True,
    )
    try:
        # Saikoro ends the run at the budget (Stopped); pymoo's own termination is only a bound.
        minimize(problem.pymoo(), algorithm, termination=("n_eval", problem.budget + args.pop),
                 seed=problem.seed % 2**32, verbose=False)
    except Stopped as stop:
        problem.log(f"stopped ({stop.reason}) after {problem.evaluated} evaluations")
        return
    problem.log(f"pymoo finished after {problem.evaluated} evaluations")


if __name__ == "__main__":
    main()
