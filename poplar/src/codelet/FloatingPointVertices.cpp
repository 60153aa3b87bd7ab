// Poplar's own vertices: those that read and change a tile's
// floating-point behaviour (CSRFunctions.hpp). They are built into the
// library rather than a .gp, and registered on a graph when first used.
#include "codelet/CodeletLibrary.hpp"

#include <poplar/Vertex.hpp>
#include <poplar/detail/CodeletInterface.hpp>

namespace poplar {
namespace {

namespace ci = codelet_interface;

std::uint32_t &behaviour() { return detail::floatingPointControl().behaviour; }

/// behaviour = (behaviour & ~masks[0]) | masks[1].
class ModifyFloatingPointBehaviour : public Vertex {
public:
  Input<Vector<unsigned>> masks;
  bool compute() {
    behaviour() = (behaviour() & ~masks[0]) | masks[1];
    return true;
  }
};

/// The same, keeping the behaviour before in `previous`.
class GetAndModifyFloatingPointBehaviour : public Vertex {
public:
  Input<Vector<unsigned>> masks;
  Output<unsigned> previous;
  bool compute() {
    *previous = behaviour();
    behaviour() = (behaviour() & ~masks[0]) | masks[1];
    return true;
  }
};

/// behaviour = value (one returned by GetAndModify...).
class RestoreFloatingPointBehaviour : public Vertex {
public:
  Input<unsigned> value;
  bool compute() {
    behaviour() = *value & detail::fpAllBehaviourBits;
    return true;
  }
};

using Modify = ModifyFloatingPointBehaviour;
using GetAndModify = GetAndModifyFloatingPointBehaviour;
using Restore = RestoreFloatingPointBehaviour;

const ci::FieldInfo modifyFields[] = {ci::field<Modify, &Modify::masks>("masks")};
const ci::FieldInfo getAndModifyFields[] = {
    ci::field<GetAndModify, &GetAndModify::masks>("masks"),
    ci::field<GetAndModify, &GetAndModify::previous>("previous")};
const ci::FieldInfo restoreFields[] = {ci::field<Restore, &Restore::value>("value")};

const ci::VertexInfo vertices[] = {
    ci::vertex<Modify>(floatingPointVertexNames[0], modifyFields, 1, __FILE__,
                       __LINE__),
    ci::vertex<GetAndModify>(floatingPointVertexNames[1], getAndModifyFields,
                             2, __FILE__, __LINE__),
    ci::vertex<Restore>(floatingPointVertexNames[2], restoreFields, 1,
                        __FILE__, __LINE__)};

const ci::Library library{ci::version, vertices, 3};

} // namespace

const ci::Library &floatingPointCodelets() { return library; }

} // namespace poplar
