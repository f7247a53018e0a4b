"""User errors, and how they are printed.

A `SourceError` points at a spot of a `.tensor` file and prints as

    FILE:LINE:COL: error: MESSAGE
      the source line
      ^

A plain `OracleError` has no location (bad options, missing inputs) and
prints as `oracle: error: MESSAGE`. Anything else escaping the package is a
bug of the oracle, not of its input.
"""


class OracleError(Exception):
    """An error in what the user gave: options, sizes, inputs."""

    def render(self):
        return f"oracle: error: {self}"


class SourceError(OracleError):
    """An error at a location of a source file."""

    def __init__(self, message, source=None, offset=None, note=None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.offset = offset
        self.note = note  # (message, offset) or None

    def render(self):
        if self.source is None or self.offset is None:
            return f"oracle: error: {self.message}"
        text = self.source.excerpt("error", self.message, self.offset)
        if self.note:
            text += "\n" + self.source.excerpt("note", *self.note)
        return text
