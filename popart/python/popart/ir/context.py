"""What the ops made now go into: the graph (`with graph:`), the name
scope (`with pir.name_scope("layer1"):`) and the virtual graph (`with
pir.virtual_graph(1):`)."""

import contextlib

__all__ = ["get_current_graph", "get_main_graph", "name_scope", "virtual_graph",
           "in_sequence"]


class _Context:
    def __init__(self):
        self.graphs = []
        self.name_scopes = []
        self.virtual_graphs = []
        self.in_sequence = []


_context = _Context()


def _push_graph(graph):
    _context.graphs.append(graph)


def _pop_graph(graph):
    if not _context.graphs or _context.graphs[-1] is not graph:
        raise RuntimeError("Graph contexts must be left in the order they were "
                           "entered")
    _context.graphs.pop()


def get_current_graph():
    """The graph of the innermost `with graph:` block."""
    if not _context.graphs:
        raise RuntimeError("No graph is being built: make ops in a "
                           "`with ir.main_graph():` block (or a subgraph's)")
    return _context.graphs[-1]


def get_main_graph():
    """The main graph of the IR of the current graph."""
    return get_current_graph().ir().main_graph()


def _scoped_name(name):
    return "/".join(_context.name_scopes + [name]) if name else name


def _virtual_graph():
    return _context.virtual_graphs[-1] if _context.virtual_graphs else -1


def _sequence_enabled():
    return bool(_context.in_sequence) and _context.in_sequence[-1]


@contextlib.contextmanager
def name_scope(name):
    """Ops and tensors made in the block have names beginning `name/`
    (nested scopes join: `outer/inner/`)."""
    _context.name_scopes.append(str(name))
    try:
        yield
    finally:
        _context.name_scopes.pop()


@contextlib.contextmanager
def virtual_graph(vgid):
    """Ops made in the block are placed on IPU `vgid` (the session needs
    SessionOptions.virtualGraphMode = popart.VirtualGraphMode.Manual)."""
    vgid = int(vgid)
    if vgid < 0:
        raise ValueError(f"virtual_graph: {vgid} is not an IPU")
    _context.virtual_graphs.append(vgid)
    try:
        yield
    finally:
        _context.virtual_graphs.pop()


@contextlib.contextmanager
def in_sequence(enabled=True):
    """Ops made in the block run in the order they are made."""
    _context.in_sequence.append(enabled)
    try:
        yield
    finally:
        _context.in_sequence.pop()
