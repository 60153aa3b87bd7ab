// The units (gates) of a basic LSTM cell, in the order popnn keeps their
// weights by default.
#ifndef POPNN_LSTMDEF_HPP
#define POPNN_LSTMDEF_HPP

namespace popnn {

enum BasicLstmCellUnit {
  BASIC_LSTM_CELL_FORGET_GATE = 0,
  BASIC_LSTM_CELL_INPUT_GATE = 1,
  BASIC_LSTM_CELL_CANDIDATE = 2,
  BASIC_LSTM_CELL_OUTPUT_GATE = 3,
  BASIC_LSTM_CELL_NUM_UNITS = 4
};

} // namespace popnn

#endif // POPNN_LSTMDEF_HPP
