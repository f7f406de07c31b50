#!/usr/bin/env python3
"""A genetic algorithm written with DEAP, run by Saikoro as a solver.

Copy this file (and clients/python/saikoro_client.py, next to it) and change the algorithm;
everything Saikoro needs is the ask/tell loop in ``evolve``. Run it in an experiment spec::

    {"name": "deap-ga", "command": ["python3", "examples/solvers/deap_ga.py", "--pop", "60"]}

or alone: ``saikoro solve --command "python3 examples/solvers/deap_ga.py" --track so --n 50``.
DEAP comes from Debian (``apt-get install python3-deap``, for /usr/bin/python3) or from PyPI.

The algorithm: a (mu + lambda) GA on integer genes 1-6 (a gene per roll), two-point crossover,
uniform-integer mutation (each gene with probability ``--mutation / n``), binary tournaments.
Constraints are handled by feasibility first, then violation: a feasible sequence beats an
infeasible one, two infeasible ones compare by their total violation (the sum of the g_d), two
feasible ones by their objective (one objective) or by non-domination rank and then crowding
distance (several objectives, as in NSGA-II). Every random choice comes from Python's
``random`` seeded with the run's seed, so the same seed gives the same run.

Saikoro counts the evaluations and keeps the best solution (or the front) itself; this program
only has to stop when told (``Stopped``), which it does by returning.
"""

import argparse
import os
import random
import sys

# saikoro_client.py: next to this file (when copied), else from this repository's clients/python.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from deap import base, creator, tools  # noqa: E402

from saikoro_client import Stopped, connect  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(description="DEAP genetic algorithm as a Saikoro solver")
    parser.add_argument("--pop", type=int, default=60, help="population size mu (default 60)")
    parser.add_argument("--offspring", type=int, default=0, help="offspring per generation lambda (default: --pop)")
    parser.add_argument("--crossover", type=float, default=0.9, help="crossover probability (default 0.9)")
    parser.add_argument("--mutation", type=float, default=1.0, help="expected mutated genes per child (default 1)")
    parser.add_argument("--log-every", type=int, default=10, help="log a line every K generations (default 10)")
    args = parser.parse_args()
    if args.pop < 2:
        parser.error("--pop must be at least 2")
    return args


def setup_toolbox(problem, args):
    """DEAP's toolbox for this problem: individuals are lists of ints in [lower, upper]."""
    # A fitness per objective, all minimised; the violation lives beside it (ind.violation).
    if not hasattr(creator, "SaikoroFitness"):
        creator.create("SaikoroFitness", base.Fitness, weights=(-1.0,) * problem.objectives)
        creator.create("Individual", list, fitness=creator.SaikoroFitness)
    toolbox = base.Toolbox()
    toolbox.register("gene", random.randint, problem.lower, problem.upper)
    toolbox.register("individual", tools.initRepeat, creator.Individual, toolbox.gene, problem.n)
    toolbox.register("mate", tools.cxTwoPoint)
    toolbox.register("mutate", tools.mutUniformInt, low=problem.lower, up=problem.upper,
                     indpb=min(1.0, args.mutation / problem.n))
    return toolbox


def evaluate(problem, individuals):
    """One round trip to Saikoro for the whole list; raises Stopped when the run ends."""
    if not individuals:
        return
    for ind, result in zip(individuals, problem.evaluate(individuals)):
        ind.fitness.values = tuple(result.objectives)
        ind.violation = result.violation


def rank(population, objectives):
    """Sets ind.key (smaller is better): feasibility, then violation, then objective or rank."""
    feasible = [ind for ind in population if ind.violation == 0]
    for ind in population:
        if ind.violation > 0:
            ind.key = (1, ind.violation, 0, 0.0)
    if objectives == 1:
        for ind in feasible:
            ind.key = (0, 0.0, ind.fitness.values[0], 0.0)
        return
    for level, front in enumerate(tools.sortNondominated(feasible, len(feasible))):
        tools.emo.assignCrowdingDist(front)
        for ind in front:
            ind.key = (0, 0.0, level, -ind.fitness.crowding_dist)


def tournament(population):
    a, b = random.sample(population, 2)
    return a if a.key <= b.key else b


def evolve(problem, args):
    toolbox = setup_toolbox(problem, args)
    offspring_count = args.offspring or args.pop
    population = [toolbox.individual() for _ in range(args.pop)]
    evaluate(problem, population)
    rank(population, problem.objectives)
    generation = 0
    while True:
        offspring = []
        while len(offspring) < offspring_count:
            first, second = toolbox.clone(tournament(population)), toolbox.clone(tournament(population))
            if random.random() < args.crossover:
                toolbox.mate(first, second)
            for child in (first, second):
                toolbox.mutate(child)
                del child.fitness.values
                offspring.append(child)
        offspring = offspring[:offspring_count]
        evaluate(problem, offspring)
        population = population + offspring
        rank(population, problem.objectives)
        population = sorted(population, key=lambda ind: ind.key)[:args.pop]
        generation += 1
        if args.log_every and generation % args.log_every == 0:
            problem.log(f"generation {generation}: {describe(population[0])}, {problem.remaining} evaluations left")


def describe(ind):
    if ind.violation > 0:
        return f"best infeasible, violation {ind.violation:.4g}"
    values = ", ".join(f"{v:.6g}" for v in ind.fitness.values)
    return f"best feasible f = {values}"


def main():
    args = parse_args()
    problem = connect()
    random.seed(problem.seed)
    problem.log(f"DEAP GA: n = {problem.n}, {problem.objectives} objective(s), {problem.constraints} constraint(s), "
                f"budget {problem.budget}, mu = {args.pop}, seed {problem.seed}")
    try:
        evolve(problem, args)
    except Stopped as stop:
        # Saikoro may already have stopped reading; a log line that cannot be written is no loss.
        try:
            problem.log(f"stopped ({stop.reason}) after {problem.evaluated} evaluations")
        except OSError:
            pass


if __name__ == "__main__":
    main()
