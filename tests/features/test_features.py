"""The generated features (features/*.feature) against the reference engine, in-process."""
from pytest_bdd import scenarios

from .conftest import FEATURES_DIR

scenarios(str(FEATURES_DIR))
