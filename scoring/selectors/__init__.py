"""Reads: every query a page or command makes, as plain values, in one snapshot,
and the versions that key what is computed from them."""
