"""AIs measured against each other: seeded tournaments (`tournament`), ratings (`ladder`), Dask
clusters (`cluster`), significance of a gain (`strength`) and engine speed (`bench`)."""
