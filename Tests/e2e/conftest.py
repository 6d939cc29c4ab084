"""Shared fixtures: the built binary, the golden folder and the protocol schema."""
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "liftboard"
GOLDEN = ROOT / "Tests" / "LiftboardWireTests" / "Golden"


@pytest.fixture(scope="session")
def liftboard():
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: run `swift build` first (scripts/test does)")
    return str(BINARY)


@pytest.fixture(scope="session")
def schema_validator():
    import jsonschema
    schema = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)
