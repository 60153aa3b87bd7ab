#include <popart/voiddata.hpp>

namespace popart {

ConstVoidData::ConstVoidData(const void *data_, const TensorInfo &info_)
    : data(data_), info(info_) {}

void ConstVoidData::store(std::vector<char> &&d, const TensorInfo &i) {
  optionalData = std::make_shared<std::vector<char>>(std::move(d));
  data = optionalData->data();
  info = i;
}

} // namespace popart
