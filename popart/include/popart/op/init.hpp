// The initialisations of AiGraphcoreOpset1::init.
#ifndef POPART_OP_INIT_HPP
#define POPART_OP_INIT_HPP

namespace popart {

/// NoInit: the tensor is allocated and its contents left undefined; Zero:
/// it is set to zeros each time the op runs.
enum class InitType { NoInit = 0, Zero };

} // namespace popart

#endif
