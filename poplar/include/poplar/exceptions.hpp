#ifndef POPLAR_EXCEPTIONS_HPP
#define POPLAR_EXCEPTIONS_HPP

#include <poplar/ProfileValue.hpp>
#include <poplar/poplar_export.hpp>

#include <stdexcept>
#include <string>

namespace poplar {

/// The base class of every exception Poplar throws. `type` names the
/// subclass, so a handler holding the base can still tell them apart.
struct POPLAR_API poplar_error : std::runtime_error {
  std::string type;
  explicit poplar_error(const std::string &message);
  explicit poplar_error(const char *message);
  poplar_error(const std::string &type, const std::string &message);
};

#define POPLAR_DECLARE_ERROR(NAME)                                             \
  struct POPLAR_API NAME : poplar_error {                                      \
    explicit NAME(const std::string &message);                                 \
    explicit NAME(const char *message) : NAME(std::string(message)) {}         \
  };

/// A control program could not be built or run (an ill-formed program).
POPLAR_DECLARE_ERROR(control_program_error)
/// A file (codelets, executable, report) could not be read.
POPLAR_DECLARE_ERROR(file_load_error)
/// A vertex field is connected wrongly or not at all.
POPLAR_DECLARE_ERROR(graph_connection_error)
/// The graph has a cycle where none is allowed.
POPLAR_DECLARE_ERROR(graph_cycle_error)
/// The graph and programs could not be compiled.
POPLAR_DECLARE_ERROR(graph_program_compilation_error)
/// An index is out of range (tensor dimension, element, tile).
POPLAR_DECLARE_ERROR(index_error)
/// An option name or value is not recognised.
POPLAR_DECLARE_ERROR(invalid_option)
/// A tensor has elements without a tile, or a tile that does not exist.
POPLAR_DECLARE_ERROR(invalid_tile_mapping)
/// Codelets could not be linked.
POPLAR_DECLARE_ERROR(link_error)
/// A field was used without a size.
POPLAR_DECLARE_ERROR(no_size_specified)
/// A value overflowed what the device can represent.
POPLAR_DECLARE_ERROR(overflow_error)
/// Text (JSON options, codelet source) could not be parsed.
POPLAR_DECLARE_ERROR(parse_error)
/// Profiling data was asked for but was not enabled.
POPLAR_DECLARE_ERROR(profiling_disabled)
/// A stream was used without being connected, or connected wrongly.
POPLAR_DECLARE_ERROR(stream_connection_error)
/// A stream's buffers could not be allocated.
POPLAR_DECLARE_ERROR(stream_memory_allocation_error)
/// A tensor could not be created (bad shape, unsupported type).
POPLAR_DECLARE_ERROR(tensor_creation_error)
/// A tensor's host read or write handle was used in the wrong state.
POPLAR_DECLARE_ERROR(tensor_io_state_error)
/// A tensor's metadata is inconsistent.
POPLAR_DECLARE_ERROR(tensor_metadata_error)
/// An operation was given a type it does not support.
POPLAR_DECLARE_ERROR(type_error)
/// A vertex has no field of the given name.
POPLAR_DECLARE_ERROR(unknown_field)
/// No codelet defines the given vertex type.
POPLAR_DECLARE_ERROR(unknown_vertex_type)
/// A cycle estimate is missing for a vertex on the IPU Model.
POPLAR_DECLARE_ERROR(missing_cycle_estimate)
/// A performance estimate is missing for a vertex on the IPU Model.
POPLAR_DECLARE_ERROR(missing_perf_estimate)
/// A symbol could not be found.
POPLAR_DECLARE_ERROR(symbol_error)
/// The machine model is inconsistent (bad IPUModel fields).
POPLAR_DECLARE_ERROR(invalid_machine_model)
/// An error while a program runs on the device.
POPLAR_DECLARE_ERROR(runtime_error)

#undef POPLAR_DECLARE_ERROR

/// The graph needs more memory than a tile has. graphProfile holds the
/// graph profile of what was compiled (an empty map when there is none),
/// for printGraphSummary.
struct POPLAR_API graph_memory_allocation_error : poplar_error {
  ProfileValue graphProfile;
  explicit graph_memory_allocation_error(const std::string &message);
  explicit graph_memory_allocation_error(const char *message)
      : graph_memory_allocation_error(std::string(message)) {}
  graph_memory_allocation_error(const std::string &message,
                                ProfileValue profile);
};

/// An error raised by the application's program on the device (an Abort).
struct POPLAR_API application_runtime_error : runtime_error {
  explicit application_runtime_error(const std::string &message);
};

/// What a recoverable error needs before the device can be used again.
enum class RecoveryAction { IPU_RESET, PARTITION_RESET, FULL_RESET };

/// A run failed but the device can be used again after the recovery action.
struct POPLAR_API recoverable_runtime_error : runtime_error {
  RecoveryAction recoveryAction;
  recoverable_runtime_error(RecoveryAction action, const std::string &message);
  RecoveryAction getRecoveryAction() const { return recoveryAction; }
};

/// A run failed and the device cannot be used again.
struct POPLAR_API unrecoverable_runtime_error : runtime_error {
  explicit unrecoverable_runtime_error(const std::string &message);
};

} // namespace poplar

#endif // POPLAR_EXCEPTIONS_HPP
