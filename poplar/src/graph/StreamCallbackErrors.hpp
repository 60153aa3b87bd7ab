// Exceptions thrown by the functions streams are connected to. A
// StreamCallback's methods are noexcept (as the original's), so the
// function wrapped by connectStreamToCallback cannot let an exception
// through them: it is kept here, and the engine raises it again from run()
// once the callback has returned.
#ifndef POPLAR_SRC_GRAPH_STREAMCALLBACKERRORS_HPP
#define POPLAR_SRC_GRAPH_STREAMCALLBACKERRORS_HPP

namespace poplar {

/// Rethrows, and forgets, the exception the last stream function called on
/// this thread threw, if it threw one.
void rethrowStreamCallbackError();

} // namespace poplar

#endif
