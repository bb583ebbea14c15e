#pragma once

// Small dense linear algebra for the rating fit: the bordered Newton system has
// one row per player plus a few extra, so a few hundred at most. Partial-pivoting
// LU is enough and keeps the module free of external linear-algebra dependencies.

#include <cstddef>
#include <span>
#include <vector>

namespace kalah::rating {

// Square row-major matrix.
class Matrix {
 public:
  explicit Matrix(std::size_t n = 0) : n_(n), data_(n * n, 0.0) {}

  std::size_t size() const { return n_; }
  double& operator()(std::size_t row, std::size_t col) { return data_[row * n_ + col]; }
  double operator()(std::size_t row, std::size_t col) const { return data_[row * n_ + col]; }
  double* row(std::size_t r) { return data_.data() + r * n_; }
  const double* row(std::size_t r) const { return data_.data() + r * n_; }
  void fill(double value);

 private:
  std::size_t n_;
  std::vector<double> data_;
};

// LU decomposition with partial (row) pivoting: P A = L U, stored in place.
class Lu {
 public:
  // Factorises `a`; returns false if it is singular to working precision, in
  // which case solve() must not be called.
  bool factor(const Matrix& a);

  // Overwrites b with the solution x of A x = b.
  void solve(std::span<double> b) const;

  // A's inverse: each column is what solve() gives for that column of the
  // identity, bit for bit (the same operations in the same order per column),
  // but the columns are solved together, a row operation at a time, which the
  // compiler vectorises: about n times fewer passes over the factors.
  Matrix inverse() const;

 private:
  Matrix lu_;
  std::vector<std::size_t> perm_;
};

}  // namespace kalah::rating
