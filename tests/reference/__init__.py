"""A second model of the rules, written from the texts and RULES.md, never from the engine: what
each source says a hand pays, and every question kind re-derived (issue 25)."""
