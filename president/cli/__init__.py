"""The `president` command line: `main` (the click group) and one thin module per command area,
with the helpers they share (`util`). The entry point is `president.cli.main:main`."""
