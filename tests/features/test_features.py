"""The generated features (features/*.feature) against the reference engine, in-process."""
from pytest_bdd import scenarios

from .conftest import FEATURES_DIR

scenarios(*sorted(str(p) for p in FEATURES_DIR.glob("*.feature")))  # English; features/<lang>/: test_features_i18n.py
