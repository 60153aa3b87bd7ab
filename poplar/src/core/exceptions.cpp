#include <poplar/exceptions.hpp>

namespace poplar {

poplar_error::poplar_error(const std::string &message)
    : std::runtime_error(message), type("poplar_error") {}
poplar_error::poplar_error(const char *message)
    : poplar_error(std::string(message)) {}
poplar_error::poplar_error(const std::string &errorType,
                           const std::string &message)
    : std::runtime_error(message), type(errorType) {}

#define POPLAR_DEFINE_ERROR(NAME)                                              \
  NAME::NAME(const std::string &message) : poplar_error(#NAME, message) {}

POPLAR_DEFINE_ERROR(control_program_error)
POPLAR_DEFINE_ERROR(file_load_error)
POPLAR_DEFINE_ERROR(graph_connection_error)
POPLAR_DEFINE_ERROR(graph_cycle_error)
POPLAR_DEFINE_ERROR(graph_program_compilation_error)
POPLAR_DEFINE_ERROR(index_error)
POPLAR_DEFINE_ERROR(invalid_option)
POPLAR_DEFINE_ERROR(invalid_tile_mapping)
POPLAR_DEFINE_ERROR(link_error)
POPLAR_DEFINE_ERROR(no_size_specified)
POPLAR_DEFINE_ERROR(overflow_error)
POPLAR_DEFINE_ERROR(parse_error)
POPLAR_DEFINE_ERROR(profiling_disabled)
POPLAR_DEFINE_ERROR(stream_connection_error)
POPLAR_DEFINE_ERROR(stream_memory_allocation_error)
POPLAR_DEFINE_ERROR(tensor_creation_error)
POPLAR_DEFINE_ERROR(tensor_io_state_error)
POPLAR_DEFINE_ERROR(tensor_metadata_error)
POPLAR_DEFINE_ERROR(type_error)
POPLAR_DEFINE_ERROR(unknown_field)
POPLAR_DEFINE_ERROR(unknown_vertex_type)
POPLAR_DEFINE_ERROR(missing_cycle_estimate)
POPLAR_DEFINE_ERROR(missing_perf_estimate)
POPLAR_DEFINE_ERROR(symbol_error)
POPLAR_DEFINE_ERROR(invalid_machine_model)
POPLAR_DEFINE_ERROR(runtime_error)

#undef POPLAR_DEFINE_ERROR

graph_memory_allocation_error::graph_memory_allocation_error(
    const std::string &message)
    : poplar_error("graph_memory_allocation_error", message) {}
graph_memory_allocation_error::graph_memory_allocation_error(
    const std::string &message, ProfileValue profile)
    : poplar_error("graph_memory_allocation_error", message),
      graphProfile(std::move(profile)) {}

application_runtime_error::application_runtime_error(const std::string &message)
    : runtime_error(message) {
  type = "application_runtime_error";
}

recoverable_runtime_error::recoverable_runtime_error(RecoveryAction action,
                                                     const std::string &message)
    : runtime_error(message), recoveryAction(action) {
  type = "recoverable_runtime_error";
}

unrecoverable_runtime_error::unrecoverable_runtime_error(
    const std::string &message)
    : runtime_error(message) {
  type = "unrecoverable_runtime_error";
}

} // namespace poplar
