// The one error family core throws. Every message says what was wrong, the offending
// value, and what is allowed, so the page can show it verbatim beside the control.
// Not for: control flow inside hot loops (validate first, then run unchecked).
#pragma once

#include <stdexcept>
#include <string>

namespace perflab {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that do not fit an operation (matmul inner dimensions, element-wise sizes).
class ShapeError : public Error {
 public:
  using Error::Error;
};

// An argument outside its allowed range or set (unknown variant, negative size).
class ValueError : public Error {
 public:
  using Error::Error;
};

// An allocation the tracker refused (over the cap) or the system could not satisfy.
class AllocationError : public Error {
 public:
  using Error::Error;
};

// Work stopped because the caller asked it to (progress callback returned false).
class CancelledError : public Error {
 public:
  using Error::Error;
};

}  // namespace perflab
