"""Conformance of any engine: scenarios (`runner`), random lock-step games (`lockstep`), root causes
(`diagnose`, `houserules`, `verdict`) over the engine's `trace`s, minimal scenarios (`shrink`), reports (`report`, `localized`)."""
