"""A checked `.tensor` file."""
from .checker import check_file
from .errors import OracleError
from .parser import parse
from .source import Source


class UsageError(OracleError):
    """Bad usage rather than a bad file (exit status 2 in the CLI)."""


class Program:
    def __init__(self, source, kernels):
        self.source = source
        self.kernels = kernels  # name -> model.Kernel, in file order

    def kernel(self, name=None):
        """The kernel called `name`; without a name, the file's only one."""
        if name is None:
            if len(self.kernels) == 1:
                return next(iter(self.kernels.values()))
            if not self.kernels:
                raise OracleError(f"{self.source.path} defines no kernel")
            raise UsageError(f"{self.source.path} defines several kernels "
                             f"({', '.join(self.kernels)}); choose one with -k NAME")
        if name not in self.kernels:
            raise OracleError(f"{self.source.path} has no kernel '{name}' "
                              f"(its kernels: {', '.join(self.kernels) or 'none'})")
        return self.kernels[name]


def load(path):
    """Reads, parses and checks every kernel of a file."""
    try:
        source = Source.read(path)
    except OSError as error:
        raise OracleError(f"cannot read {path}: {error.strerror}")
    return Program(source, check_file(source, parse(source)))
