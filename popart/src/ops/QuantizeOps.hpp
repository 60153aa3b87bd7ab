#ifndef POPART_SRC_OPS_QUANTIZEOPS_HPP
#define POPART_SRC_OPS_QUANTIZEOPS_HPP

#include "ops/ConvOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// The linear quantisation of ONNX: q = saturate(round_half_even(x / scale)
/// + zero_point) in the range of q's type (UINT8 or INT8), and x = (q -
/// zero_point) * scale. A scale and zero point are scalars, or 1-D along
/// one axis (per channel).
class QuantizeLinearOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<QuantizeLinearOp>(*this);
  }
  QuantizeLinearOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 1)) {}
  void setup() override;
  /// The axis a 1-D scale runs along (resolved by setup).
  int64_t axis;
};

/// DequantizeLinear: FLOAT (x - x_zero_point) * x_scale.
class DequantizeLinearOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DequantizeLinearOp>(*this);
  }
  DequantizeLinearOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 1)) {}
  void setup() override;
  int64_t axis;
};

/// DynamicQuantizeLinear: x quantised to UINT8 with the scale and zero
/// point that map [min(0, min x), max(0, max x)] onto [0, 255]; outputs y,
/// y_scale (FLOAT scalar) and y_zero_point (UINT8 scalar).
class DynamicQuantizeLinearOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DynamicQuantizeLinearOp>(*this);
  }
  DynamicQuantizeLinearOp(const OperatorIdentifier &id,
                          const Op::Settings &settings, const Attributes &)
      : Op(id, settings) {}
  void setup() override;
};

/// MatMulInteger (A, B, a_zero_point, b_zero_point): INT32 (A - a_zp) x
/// (B - b_zp), numpy matmul. QLinearMatMul (a, a_scale, a_zp, b, b_scale,
/// b_zp, y_scale, y_zp): that product requantised with scale
/// a_scale * b_scale / y_scale and zero point y_zp. A zero point (and
/// scale) of A is a scalar or one per row, of B one per column.
class QuantizedMatMulOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<QuantizedMatMulOp>(*this);
  }
  QuantizedMatMulOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  /// QLinearMatMul (else MatMulInteger).
  bool requantised() const;
  /// The input indices of a's zero point (a is input 0), b and b's zero
  /// point.
  static InIndex aZeroIn() { return 2; }
  InIndex bIn() const { return requantised() ? 3 : 1; }
  InIndex bZeroIn() const { return requantised() ? 5 : 3; }
};

/// ConvInteger (x, w, x_zero_point, w_zero_point): the INT32 convolution of
/// x - x_zp by w - w_zp (w_zp a scalar or one per output channel).
/// QLinearConv (x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B): that
/// convolution plus the INT32 bias B, requantised with scale
/// x_scale * w_scale / y_scale and zero point y_zp. The attributes are
/// Conv's.
class QuantizedConvOp : public ConvOp {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<QuantizedConvOp>(*this);
  }
  QuantizedConvOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &a)
      : ConvOp(id, settings, a) {}
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override { return {}; }
  bool requantised() const;
  /// The input indices of x's zero point (x is input 0), w and w's zero
  /// point.
  static InIndex xZeroIn() { return 2; }
  InIndex wIn() const { return requantised() ? 3 : 1; }
  InIndex wZeroIn() const { return requantised() ? 5 : 3; }
};

/// The number of products of values of 8-bit integers (|v| <= 255 after the
/// zero point) a FLOAT sum holds exactly (2^24 / 255^2): integer products
/// are accumulated in FLOAT in runs of at most this length.
constexpr int64_t exactIntegerProducts = 258;

} // namespace popart

#endif
