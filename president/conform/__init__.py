"""Conformance of any engine: scenarios (`runner`), random lock-step games (`lockstep`), root causes
(`diagnose`, `fit` of the variant, `verdict`) over the engine's `trace`s, minimal scenarios (`shrink`), reports (`report`, `localized`)."""
