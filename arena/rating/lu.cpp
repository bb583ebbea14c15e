#include "arena/rating/lu.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace kalah::rating {

void Matrix::fill(double value) { std::fill(data_.begin(), data_.end(), value); }

bool Lu::factor(const Matrix& a) {
  const std::size_t n = a.size();
  lu_ = a;
  perm_.resize(n);
  for (std::size_t i = 0; i < n; ++i) perm_[i] = i;

  double scale = 0.0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) scale = std::max(scale, std::abs(a(r, c)));
  if (!(scale > 0.0) || !std::isfinite(scale)) return n == 0;
  // A pivot this far below the largest entry means the matrix is singular up to
  // rounding; continuing would turn rounding noise into huge ratings.
  const double tiny = scale * 1e-13;

  for (std::size_t k = 0; k < n; ++k) {
    std::size_t pivot = k;
    for (std::size_t r = k + 1; r < n; ++r)
      if (std::abs(lu_(r, k)) > std::abs(lu_(pivot, k))) pivot = r;
    if (!(std::abs(lu_(pivot, k)) > tiny)) return false;
    if (pivot != k) {
      for (std::size_t c = 0; c < n; ++c) std::swap(lu_(k, c), lu_(pivot, c));
      std::swap(perm_[k], perm_[pivot]);
    }
    const double inv = 1.0 / lu_(k, k);
    const double* __restrict pivot_row = lu_.row(k);
    for (std::size_t r = k + 1; r < n; ++r) {
      double* __restrict target = lu_.row(r);
      const double f = target[k] * inv;
      target[k] = f;
      if (f == 0.0) continue;
      for (std::size_t c = k + 1; c < n; ++c) target[c] -= f * pivot_row[c];
    }
  }
  return true;
}

void Lu::solve(std::span<double> b) const {
  const std::size_t n = lu_.size();
  assert(b.size() == n);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = b[perm_[i]];
  for (std::size_t i = 0; i < n; ++i)  // L y = P b, unit diagonal
    for (std::size_t j = 0; j < i; ++j) x[i] -= lu_(i, j) * x[j];
  for (std::size_t i = n; i-- > 0;) {  // U x = y
    for (std::size_t j = i + 1; j < n; ++j) x[i] -= lu_(i, j) * x[j];
    x[i] /= lu_(i, i);
  }
  std::copy(x.begin(), x.end(), b.begin());
}

Matrix Lu::inverse() const {
  const std::size_t n = lu_.size();
  Matrix x(n);
  for (std::size_t i = 0; i < n; ++i) x(i, perm_[i]) = 1.0;  // P I
  for (std::size_t i = 0; i < n; ++i) {                      // L Y = P I, unit diagonal
    double* __restrict out = x.row(i);
    for (std::size_t j = 0; j < i; ++j) {
      const double f = lu_(i, j);
      const double* __restrict in = x.row(j);
      for (std::size_t c = 0; c < n; ++c) out[c] -= f * in[c];
    }
  }
  for (std::size_t i = n; i-- > 0;) {  // U X = Y
    double* __restrict out = x.row(i);
    for (std::size_t j = i + 1; j < n; ++j) {
      const double f = lu_(i, j);
      const double* __restrict in = x.row(j);
      for (std::size_t c = 0; c < n; ++c) out[c] -= f * in[c];
    }
    const double d = lu_(i, i);
    for (std::size_t c = 0; c < n; ++c) out[c] /= d;
  }
  return x;
}

}  // namespace kalah::rating
