"""The deploy tests: a package, so that its conftest.py fixtures are torn down with it."""
