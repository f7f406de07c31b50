"""A program using clients/python/saikoro_client.py the way a solver would, for the client's
tests (tests/main/clients/python-client.test.ts): it reports what the client parsed and
returned as JSON in {"log": ...} lines. Usage: probe_client.py SCENARIO [BATCH]."""

import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python"))

from saikoro_client import Stopped, connect  # noqa: E402


def report(problem, **fields):
    problem.log(json.dumps(fields))


def finite(value):
    """JSON has no infinity: "inf" stands for it."""
    return value if math.isfinite(value) else "inf"


def describe(result):
    return {"objective": result.objective, "objectives": [finite(v) for v in result.objectives], "constraint": result.constraint,
            "feasible": result.feasible, "error": result.error, "violation": finite(result.violation)}


def main():
    scenario = sys.argv[1]
    problem = connect()
    if scenario == "attributes":
        report(problem, n=problem.n, lower=problem.lower, upper=problem.upper, objectives=problem.objectives,
               constraints=problem.constraints, budget=problem.budget, remaining=problem.remaining, seed=problem.seed,
               track=problem.track, config=problem.config, blind=problem.blind)
        print("a stray print goes to stderr")
        text = ("3155" * problem.n)[:problem.n]
        faces = [int(c) for c in ("6612" * problem.n)[:problem.n]]
        results = problem.evaluate([text, faces, "7" * problem.n, text[:-1]])
        report(problem, results=[describe(r) for r in results], remaining=problem.remaining, evaluated=problem.evaluated)
    elif scenario == "until-stop":
        batch = int(sys.argv[2])
        sizes = []
        count = 0
        try:
            while True:
                sequences = []
                for _ in range(batch):
                    count += 1
                    sequences.append("".join(str(1 + (count * 7 + i * i) % 6) for i in range(problem.n)))
                sizes.append(len(problem.evaluate(sequences)))
        except Stopped as stop:
            first = {"reason": stop.reason, "partial": len(stop.results), "evaluated": problem.evaluated,
                     "remaining": problem.remaining, "stopped": problem.stopped, "sizes": sizes}
        try:
            problem.evaluate(["1" * problem.n])
            again = None
        except Stopped as stop:
            again = stop.reason
        report(problem, again=again, **first)
    elif scenario == "bad-list":
        try:
            problem.evaluate([[1] * (problem.n - 1) + [7]])
        except ValueError as e:
            report(problem, error=str(e))
    else:
        raise SystemExit(f"unknown scenario {scenario}")


if __name__ == "__main__":
    main()
