"""The same features through protocol v1, against `president engine` as a subprocess."""
import pytest
from pytest_bdd import scenarios

from president.protocol.client import SubprocessClient, reference_command

from .conftest import FEATURES_DIR


@pytest.fixture(scope="module")
def _engine_process():
    client = SubprocessClient(reference_command())
    yield client
    client.close()


@pytest.fixture
def engine_client(_engine_process):
    return _engine_process


scenarios(*sorted(str(p) for p in FEATURES_DIR.glob("*.feature")))  # English; features/<lang>/: test_features_i18n.py
