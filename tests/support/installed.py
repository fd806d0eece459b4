from contextlib import contextmanager


@contextmanager
def installed(path):
    yield
