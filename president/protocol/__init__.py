"""The JSON-lines engine protocol: the reference engine's server (`server`), the reply schemas
(`wire`), and the client that drives any engine, in a subprocess or in-process (`client`)."""
