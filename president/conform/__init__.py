"""Conformance of any engine: scenarios (`runner`), random lock-step games (`lockstep`), root causes
(`diagnose`, `houserules`, `verdict`), minimal scenarios (`shrink`) and reports (`report`, `localized`)."""
