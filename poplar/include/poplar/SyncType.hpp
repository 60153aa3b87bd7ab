#ifndef POPLAR_SYNCTYPE_HPP
#define POPLAR_SYNCTYPE_HPP

namespace poplar {

/// Which tiles a Sync program waits for: those of one IPU (INTERNAL), all
/// IPUs (EXTERNAL), or all IPUs and the host (GLOBAL).
enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };

} // namespace poplar

#endif // POPLAR_SYNCTYPE_HPP
