"""WebSocket conformance of the transport: Autobahn's cases through kosoku against the echo."""
import importlib.machinery
import importlib.util
import shutil

import pytest

from conftest import ROOT


@pytest.mark.skipif(shutil.which("kosoku") is None, reason="kosoku is installed by scripts/setup")
def test_autobahn_cases_1_to_7_9_and_10_are_ok_or_non_strict():
    loader = importlib.machinery.SourceFileLoader("conformance", str(ROOT / "scripts" / "conformance"))
    spec = importlib.util.spec_from_loader("conformance", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    cases = module.run()
    assert len(cases) > 200
    bad = {c: r["behavior"] for c, r in cases.items() if r["behavior"] not in module.ACCEPTED}
    assert bad == {}
