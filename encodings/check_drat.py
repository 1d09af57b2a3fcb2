#!/usr/bin/env python3
"""Checks a DRAT proof of unsatisfiability with dratify (PyPI), independently of the solver.

Usage: check_drat.py CNF PROOF. Prints one line; exit 0 when the proof derives the empty clause
and every step checks (RUP or RAT), 1 when it is refused, 2 on bad usage, a missing dratify or
no verdict (a file it cannot read or parse, memory run out), 3 when interrupted before a
verdict (Ctrl-C: no verdict, not a refusal).
`grundy sat --proof-dir` runs it on every CaDiCaL UNSAT answer when GRUNDY_DRAT_CHECKER names it
(for instance `GRUNDY_DRAT_CHECKER="python3 encodings/check_drat.py"`).
"""
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: check_drat.py CNF PROOF", file=sys.stderr)
        return 2
    try:
        import dratify
        from importlib.metadata import version
    except ImportError:
        print("dratify is not installed: pip install dratify", file=sys.stderr)
        return 2
    try:
        # cdclkit[native] (PyPI) registers a Rust checker with dratify on import, about 15 times
        # faster than its Python engine on long proofs; without it the Python engine checks.
        import cdclkit  # noqa: F401
    except ImportError:
        pass
    try:
        formula = dratify.parse_dimacs_file(sys.argv[1])
        with open(sys.argv[2]) as proof:
            result = dratify.check_proof(formula, proof.read())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as err:  # noqa: BLE001 - any failure is no verdict, never a refusal
        # A file it cannot read, a parse error, memory run out on a proof of gigabytes: no
        # verdict on the proof (Python's own exit for an uncaught error, 1, would say refused).
        print(f"dratify gave no verdict: {type(err).__name__}: {err}")
        return 2
    engine = "native" if dratify.native_available() else "python"
    if result.ok:
        print(f"dratify {version('dratify')} ({engine})")
        return 0
    print(f"refused by dratify {version('dratify')}: {result.reason}")
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted before a verdict")
        sys.exit(3)
