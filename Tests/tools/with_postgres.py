"""Runs a command with a private PostgreSQL (Tests/pg_fixture.py) and its URL in
`LIFTBOARD_TEST_POSTGRES`, then removes the server: scripts/test runs `swift test` through it,
so the store conformance suite (Tests/LiftboardStoreTests/StoreConformanceTests.swift) runs
against PostgreSQL as well as SQLite on every machine.

    python3 Tests/tools/with_postgres.py swift test [ARGS...]

Exits with the command's status; fails (status 2) when PostgreSQL cannot start."""
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from pg_fixture import PrivatePostgres  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        pg = PrivatePostgres().start()
    except Exception as e:  # noqa: BLE001: any reason it did not start is the same failure
        print(f"with_postgres: PostgreSQL did not start: {e}", file=sys.stderr)
        sys.exit(2)
    try:
        env = {**os.environ, "LIFTBOARD_TEST_POSTGRES": pg.url("postgres")}
        sys.exit(subprocess.run(sys.argv[1:], env=env).returncode)
    finally:
        pg.destroy()


if __name__ == "__main__":
    main()
