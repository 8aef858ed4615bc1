"""Words: the engine's messages in the page's language, a breakdown said in words,
and the How scoring works guide."""
