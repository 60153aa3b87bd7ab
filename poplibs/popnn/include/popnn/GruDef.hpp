// The units of a basic GRU cell, in the order popnn keeps their weights.
#ifndef POPNN_GRUDEF_HPP
#define POPNN_GRUDEF_HPP

enum BasicGruCellUnit {
  BASIC_GRU_CELL_RESET_GATE,
  BASIC_GRU_CELL_UPDATE_GATE,
  BASIC_GRU_CELL_CANDIDATE,
  BASIC_GRU_CELL_NUM_UNITS
};

#endif // POPNN_GRUDEF_HPP
