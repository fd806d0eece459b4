"""End-to-end tests: a bot process against a loopback fake of Discord (test code only)."""
