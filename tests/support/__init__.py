"""Support shared by the tests (and the benches): helpers, not tests."""
